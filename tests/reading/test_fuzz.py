"""Fuzzing the readers: puzzle text of every size and alphabet, mutated (bytes,
tabs, CR, BOM, unicode digits, huge numbers, long lines), through `solve`
(one puzzle and streams), `cnf` and `decode`. Whatever comes in: no exception,
only documented exit codes, and every grid printed is checked here against
the rules and the givens of the puzzle as printed."""

from __future__ import annotations

import json
import os
import random
import tempfile

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudosat.cli import cli
from sudosat.core.errors import InputError
from sudosat.core.notation import BASE36, DIGITS, HEX, REXL, format_grid, format_line
from sudosat.core.puzzle import Puzzle, verify
from sudosat.reading.formats import parse

EXIT_CODES = {0, 1, 2, 3, 4, 5}
"""What solve and decode may exit with (docs/batch/errors.md, Exit codes); 70 would be a bug."""
MUTATIONS = [
    "\t",
    "\r",
    "\r\n",
    "\ufeff",
    "\x00",
    "\xff",
    "\u0663",  # Arabic-Indic 3
    "\uff11",  # fullwidth 1
    "\u00b2",
    "9" * 5000,
    "1_0",
    "|",
    "+---+",
    ",",
    ":",
    " ",
    "\n",
    "x" * 300,
]


def pattern(rank: int) -> list[int]:
    n = rank * rank
    return [((r % rank) * rank + r // rank + c) % n + 1 for r in range(n) for c in range(n)]


@st.composite
def puzzle_texts(draw: st.DrawFn) -> str:
    """A puzzle in one of the formats people use, then a few mutations."""
    rank = draw(st.sampled_from([2, 3, 3, 3, 4, 4, 5]))
    n = rank * rank
    rng = random.Random(draw(st.integers(0, 2**32)))
    cells = tuple(v if rng.random() < draw(st.floats(0.2, 0.9)) else 0 for v in pattern(rank))
    symbols = {4: ["1234"], 9: [DIGITS], 16: [HEX, BASE36[:16], REXL[:16]]}
    alphabets = [*symbols.get(n, [BASE36[:n], REXL[:n]]), ""]
    puzzle = Puzzle(rank, cells, draw(st.sampled_from(alphabets)))
    text = draw(st.sampled_from([format_line, format_grid]))(puzzle)
    if draw(st.booleans()):  # a stream: several lines
        text = "\n".join([format_line(puzzle)] * draw(st.integers(2, 4)))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 2))
        text = text[:at] + draw(st.sampled_from(MUTATIONS)) + text[at + cut :]
    return text


def invoke(*args: str, input: bytes) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback in real life
    return result.exit_code, result.stdout


def checked(record: dict[str, object]) -> None:
    """A printed solution keeps the givens and the rules of the printed puzzle."""
    if not record.get("solution"):
        return
    rank = record["rank"]
    assert isinstance(rank, int)
    grid = full_grid(str(record["solution"]), rank)  # a full grid tells its alphabet
    puzzle = parse(str(record["puzzle"]), rank=rank, alphabet=grid.alphabet or "numbers")
    assert verify(puzzle, grid.cells) == []


def full_grid(text: str, rank: int) -> Puzzle:
    """The solution as printed, in the one alphabet that reads it with no blank."""
    for alphabet in ("digits", "hex", "base36", "rexl", "numbers"):
        try:
            grid = parse(text, rank=rank, alphabet=alphabet)
        except InputError:
            continue
        if 0 not in grid.cells:
            return grid
    raise AssertionError(f"no alphabet reads the printed solution {text!r} whole")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle_texts(), st.sampled_from(["utf-8", "latin-1"]))
@pytest.mark.slow
def test_solve_and_cnf_take_any_text(text: str, encoding: str) -> None:
    data = text.encode(encoding, errors="replace")
    code, out = invoke("solve", "-", "--format", "jsonl", "-q", input=data)
    assert code in EXIT_CODES
    for line in out.splitlines():
        checked(json.loads(line))
    code, out = invoke("cnf", "-", input=data)
    assert code in {0, 2}
    if code == 0:
        assert any(line.startswith("p cnf ") for line in out.splitlines())


@st.composite
def models(draw: st.DrawFn) -> str:
    """A solver's answer for the escargot CNF: right, or mutated."""
    head = draw(st.sampled_from(["s SATISFIABLE", "s\tSATISFIABLE", "SAT", "s UNKNOWN", ""]))
    literals = draw(st.lists(st.integers(-800, 800), max_size=60))
    body = "v " + " ".join(map(str, literals)) + draw(st.sampled_from([" 0", "", " 0 5"]))
    text = head + "\n" + body + "\n"
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(MUTATIONS)) + text[at:]
    return text


@settings(max_examples=100, deadline=None)
@given(models())
def test_decode_takes_any_answer(model: str) -> None:
    escargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "p.txt")
        with open(path, "w") as handle:
            handle.write(escargot)
        result = CliRunner().invoke(cli, ["decode", path, "-", "--format", "line"], input=model)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in EXIT_CODES
    if result.exit_code == 0:  # a grid was printed: it must be a solution
        grid = tuple(int(ch) for ch in result.stdout.strip())
        assert verify(parse(escargot), grid) == []


# --- f-puzzles JSON, every constraint field mutated ------------------------------

STATEMENTS = """
cage 15: r1c1 r1c2
little-killer 20: r0c2 dr
odd: r2c2
even: r2c3
minimum: r5c5
maximum: r5c6
quadruple 12: r1c4 r1c5 r2c4 r2c5
clone: r3c1 = r7c7
difference: r4c4 r4c5
ratio: r6c1 r7c1
x: r8c8 r8c9
thermo: r9c1 r9c2 r9c3
slow-thermo: r8c1 r8c2
arrow: r3c3 > r4c3 r4c2
palindrome: r6c6 r6c7 r6c8
renban: r2c7 r2c8
whispers: r3c7 r3c8
between: r7c3 r7c4 r7c5
region-sum: r4c7 r5c7
entropic: r9c7 r9c8 r9c9
zipper: r1c7 r1c8 r1c9
lockout: r6c3 r6c4 r6c5
modular: r5c1 r5c2 r5c3
double-arrow: r7c8 r8c7 r9c6
sandwich 10: r0c5
x-sum 15: r4c0
skyscraper 3: r10c9
row-indexer: r2c1
column-indexer: r3c2
box-indexer: r9c5
extra-region: r4c1 r5c8
negative: ratio, xv
anti-knight
"""
JUNK: list[object] = [
    None,
    "",
    "R1C1",
    "R0C0",
    "R99C1",
    "R1C1C1",
    0,
    -5,
    10_000,
    "10000",
    "-3",
    1.5,
    True,
    [],
    {},
    ["R1C1"] * 2000,
    [["R1C1", "R1C2"]] * 500,
    "x" * 5000,
]


def fpuzzles_base() -> dict[str, object]:
    from sudosat.reading.fpuzzles import write

    return write(parse(STATEMENTS))


@st.composite
def mutated_fpuzzles(draw: st.DrawFn) -> dict[str, object]:
    """A valid f-puzzles puzzle with every kind of constraint, then a few of its
    fields, entries or keys dropped, retyped or replaced with junk."""
    data = json.loads(json.dumps(fpuzzles_base()))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(data)))
        value = data[key]
        kind = draw(st.sampled_from(["drop", "junk", "entry", "key", "grow"]))
        if kind == "drop":
            del data[key]
        elif kind == "junk":
            data[key] = draw(st.sampled_from(JUNK))
        elif kind == "grow" and isinstance(value, list):
            data[key] = value * draw(st.sampled_from([0, 50, 400]))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            entry = value[draw(st.integers(0, len(value) - 1))]
            field = draw(st.sampled_from([*sorted(entry), "cells", "value", "lines", "cell"]))
            if kind == "key":
                entry.pop(field, None)
            else:
                entry[field] = draw(st.sampled_from(JUNK))
    return data


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_fpuzzles())
@pytest.mark.slow
def test_mutated_fpuzzles_json_ends_in_a_documented_exit_and_one_line(
    data: dict[str, object],
) -> None:
    args = ["solve", "-", "--format", "json", "--timeout", "30"]
    result = CliRunner().invoke(cli, args, input=json.dumps(data).encode())
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback in real life
    assert result.exit_code in EXIT_CODES - {4}
    if result.exit_code == 2:  # refused: one line naming where and what
        assert (
            result.stderr.startswith("sudosat solve: <stdin>:") and result.stderr.count("\n") == 1
        )
        return
    record = json.loads(result.stdout)
    assert record["status"] in ("unique", "multiple", "none", "timeout")


# --- statements, links and shards, mutated --------------------------------------

WORDS = [*sorted({w for line in STATEMENTS.splitlines() for w in line.split()[:1]}), "cage", "x"]
PIECES = [
    "r1c1",
    "r0c3",
    "r10c10",
    "r9c9",
    "r-1c2",
    ">",
    "=",
    ":",
    ",",
    "dr",
    "xx",
    "15",
    "0",
    "-3",
    "99999999999",
    "#",
    ";",
    "\u00b2",
    "\x00",
    "r1c1-r9c9",
    "r1c1-r2c3",
]


@st.composite
def statement_texts(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        words = [draw(st.sampled_from(WORDS)), *draw(st.lists(st.sampled_from(PIECES), max_size=6))]
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"


def one_line_or_answer(result: object) -> None:
    code = result.exit_code  # type: ignore[attr-defined]
    if result.exception and not isinstance(result.exception, SystemExit):  # type: ignore[attr-defined]
        raise result.exception  # type: ignore[attr-defined]
    assert code in EXIT_CODES - {4}
    if code == 2:
        err = result.stderr  # type: ignore[attr-defined]
        assert err.startswith("sudosat "), err
        if result.stdout:  # type: ignore[attr-defined]
            # read as a batch (two lines with a comma are a CSV): a record per input,
            # each bad one's line on stderr, then the summary
            assert "\nanswered " in err and "Traceback" not in err, err
        else:
            assert err.count("\n") == 1, err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statement_texts())
@pytest.mark.slow
def test_mutated_statements_end_in_an_answer_or_one_line(text: str) -> None:
    args = ["solve", "-", "--format", "line", "--timeout", "30"]
    one_line_or_answer(CliRunner().invoke(cli, args, input=text.encode()))


LINKS = [
    "https://f-puzzles.com/?load=",
    "https://sudokupad.app/fpuzzles",
    "https://sudokupad.app/scl",
    "https://sudokupad.app/ctc",
    "scl",
    "https://f-puzzles.com/?id=",
    "https://tinyurl.com/",
    "https://sudokupad.app/",
    "",
]


@st.composite
def garbled_links(draw: st.DrawFn) -> str:
    """A real puzzle's link data under some site's prefix, cut, mangled or spliced."""
    from sudosat.reading.fpuzzles import link

    data = link(parse(STATEMENTS)).split("load=")[1]
    at = draw(st.integers(0, len(data)))
    data = draw(
        st.sampled_from([data, data[:at], data[:at] + data[at + 1 :], data[:at] + "%" + data[at:]])
    )
    noise = draw(st.sampled_from(["", " ", "\\", "==", "+", "%2F", "\u00e9", "{", "}"]))
    return draw(st.sampled_from(LINKS)) + data + noise


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(garbled_links())
@pytest.mark.slow
def test_garbled_links_end_in_an_answer_or_one_line(text: str) -> None:
    args = ["solve", "-", "--format", "line", "--timeout", "30"]
    one_line_or_answer(CliRunner().invoke(cli, args, input=(text + "\n").encode()))


def shard_outputs() -> list[str]:
    """The two shards of a run of six puzzles, as text."""
    six = "\n".join([ESCARGOT_LINE] * 5 + ["this is no puzzle"]) + "\n"
    found = []
    for k in (1, 2):
        result = CliRunner().invoke(
            cli, ["solve", "-", "-f", "jsonl", "-q", "--no-time", "--shard", f"{k}/2"], input=six
        )
        found.append(result.stdout)
    return found


ESCARGOT_LINE = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
SHARDS = shard_outputs()


@settings(max_examples=120, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_mutated_shards_merge_whole_or_are_refused_in_one_line(data: st.DataObject) -> None:
    texts = list(SHARDS)
    which = data.draw(st.integers(0, 1))
    lines = texts[which].splitlines(keepends=True)
    kind = data.draw(st.sampled_from(["drop", "double", "junk", "trailer", "bytes", "none"]))
    at = data.draw(st.integers(0, len(lines) - 1))
    if kind == "drop":
        del lines[at]
    elif kind == "double":
        lines.insert(at, lines[at])
    elif kind == "junk":
        lines.insert(at, data.draw(st.sampled_from(["{", "[]", "3\n", "\n", '{"a": 1}\n'])))
    elif kind == "trailer":
        trailer = json.loads(lines[-1])
        field = data.draw(st.sampled_from(sorted(trailer)))
        trailer[field] = data.draw(st.sampled_from([None, "2/2", 7, 1.5, "x", -1, [1]]))
        lines[-1] = json.dumps(trailer) + "\n"
    elif kind == "bytes":
        lines[at] = lines[at][:5] + "\udcff" + lines[at][5:]
    texts[which] = "".join(lines)
    with tempfile.TemporaryDirectory() as directory:
        paths = []
        for k, text in enumerate(texts, 1):
            path = os.path.join(directory, f"s{k}.jsonl")
            with open(path, "wb") as handle:
                handle.write(text.encode("utf-8", "surrogateescape"))
            paths.append(path)
        result = CliRunner().invoke(cli, ["merge", *paths])
    one_line_or_answer(result)
    if result.exit_code == 0:  # whatever merged is the one run's records, in order
        whole = CliRunner().invoke(
            cli,
            ["solve", "-", "-f", "jsonl", "-q", "--no-time"],
            input="\n".join([ESCARGOT_LINE] * 5 + ["this is no puzzle"]) + "\n",
        )
        assert result.stdout == whole.stdout
