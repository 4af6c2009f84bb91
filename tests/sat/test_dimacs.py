"""DIMACS out (headers, clauses, atomic files) and solver answers in."""

from __future__ import annotations

import io

import pytest

from sudosat.core.errors import InputError
from sudosat.reading.formats import parse
from sudosat.sat.cnf import Encoding
from sudosat.sat.dimacs import (
    SAT,
    UNKNOWN,
    UNSAT,
    read_answer,
    read_competition,
    read_result_file,
    write_dimacs,
)
from sudosat.sat.encoding import encode
from tests.conftest import ESCARGOT


def clauses_of(text: str) -> tuple[tuple[int, int], list[list[int]]]:
    """The header's counts and the clauses of a DIMACS text."""
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    nv, count = map(int, header.split()[2:])
    body = [line for line in text.splitlines() if line and not line.startswith(("c", "p"))]
    return (nv, count), [list(map(int, line.split()))[:-1] for line in body]


@pytest.mark.parametrize("encoding", [Encoding(), Encoding("minimal", "seqcounter", False)])
def test_written_clauses_read_back_as_they_were(encoding: Encoding) -> None:
    cnf = encode(parse(ESCARGOT), encoding)
    out = io.StringIO()
    write_dimacs(cnf, out)
    (nv, count), clauses = clauses_of(out.getvalue())
    assert (nv, count) == (cnf.nv, len(cnf.clauses))
    assert clauses == cnf.clauses
    assert all(line.endswith(" 0") for line in out.getvalue().splitlines()[-count:])


def test_competition_output_with_wrapped_model_and_chatter() -> None:
    text = "c banner\nwarning: something\ns SATISFIABLE\nv 1 -2\nv 3 0\n"
    answer = read_competition(text, "out")
    assert (answer.status, answer.model) == (SAT, [1, -2, 3])
    assert read_competition("s UNSATISFIABLE\n", "out").status == UNSAT
    assert read_competition("s UNKNOWN\n", "out").status == UNKNOWN


def test_result_file_and_bare_models() -> None:
    assert read_result_file("SAT\n1 -2 3 0\n", "r").model == [1, -2, 3]
    assert read_result_file("UNSAT\n", "r").status == UNSAT
    assert read_result_file("INDET\n", "r").status == UNKNOWN
    assert read_answer("1 -2\n3\n", "m").model == [1, -2, 3]  # the closing 0 is optional here
    assert read_answer("v 4 -5 0\n", "m").model == [4, -5]  # a status line cut off


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("s SATISFIABLE\nv 1 x 0\n", "out:2:5", "expected an integer literal, found 'x'"),
        ("s SATISFIABLE\nv 1 -1 0\n", "out:2:5", "variable 1 is assigned both ways"),
        ("s SATISFIABLE\nv 1 2\n", "out", "the model does not end in 0"),
        ("s MAYBE\n", "out:1:3", "unknown answer 'MAYBE'"),
        ("s SATISFIABLE\ns UNSATISFIABLE\n", "out:2:1", "a second 's' line that disagrees"),
        ("s UNSATISFIABLE\nv 1 0\n", "out", "a model after an UNSAT answer"),
        ("", "out", "no model"),
    ],
)
def test_unreadable_answers_say_where(text: str, where: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        read_answer(text, "out")
    assert str(info.value) == f"{where}: {message}" or str(info.value).startswith(
        f"{where}: {message}"
    )
