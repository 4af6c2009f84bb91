"""DIMACS CNF out, solver models in."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO

from sudosat.core.errors import InputError, shorten
from sudosat.sat.cnf import Cnf, Pairwise


def header(variables: int, clauses: int) -> str:
    """The ``p cnf`` line, with exact counts."""
    return f"p cnf {variables} {clauses}"


def clause_line(clause: Sequence[int]) -> str:
    """One clause as a DIMACS line: its literals and the closing 0."""
    return " ".join(map(str, clause)) + " 0" if clause else "0"


def write_dimacs(cnf: Cnf, out: IO[str]) -> None:
    """The CNF streamed to ``out`` in blocks: memory stays small whatever its size."""
    out.write("".join(f"c {comment}\n" for comment in cnf.comments()))
    out.write(header(cnf.nv, cnf.clause_count) + "\n")
    families = cnf.families()
    named = ""
    for index, part in enumerate(cnf.parts):
        name = cnf.names[index] if index < len(cnf.names) else ""
        if name and name != named:  # a variant's families, each in a comment block
            out.write(f"c --- {name}: {families[name]} clauses\n")
            named = name
        if isinstance(part, Pairwise):
            _write_pairwise(part, out)
            continue
        for start in range(0, len(part), 65536):
            out.write("".join(clause_line(c) + "\n" for c in part[start : start + 65536]))


def _write_pairwise(part: Pairwise, out: IO[str]) -> None:
    """A binary clause per pair of each group, built as text without lists."""
    block: list[str] = []
    for group in part.groups:
        negated = [f"-{lit} " for lit in group]
        for i, first in enumerate(negated[:-1]):
            block.append("".join(first + other + "0\n" for other in negated[i + 1 :]))
        if len(block) >= 4096:
            out.write("".join(block))
            block.clear()
    out.write("".join(block))


SAT, UNSAT, UNKNOWN = "SAT", "UNSAT", "UNKNOWN"
_COMPETITION_STATUS = {
    "SATISFIABLE": SAT,
    "UNSATISFIABLE": UNSAT,
    "UNKNOWN": UNKNOWN,
    "INDETERMINATE": UNKNOWN,
}
_RESULT_FILE_STATUS = {"SAT": SAT, "UNSAT": UNSAT, "INDET": UNKNOWN}


@dataclass
class Answer:
    """What a solver said: SAT (with its model), UNSAT or UNKNOWN."""

    status: str
    model: list[int] = field(default_factory=list)


class _Literals:
    """Collects model literals, checking each as it comes."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.model: list[int] = []
        self.closed = False
        self._seen: dict[int, int] = {}

    def add(self, token: str, line: int, col: int) -> None:
        digits = token[1:] if token[:1] == "-" else token
        # ASCII digits only: int() would take "1_0", "²"-free unicode digits, or 5,000 digits
        if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_LITERAL_DIGITS):
            raise InputError(
                self.source, line, col, f"expected an integer literal, found {shorten(token)!r}"
            )
        lit = int(token)
        if self.closed:
            raise InputError(self.source, line, col, "literal after the model's closing 0")
        if lit == 0:
            self.closed = True
            return
        if self._seen.get(abs(lit), lit) != lit:
            raise InputError(self.source, line, col, f"variable {abs(lit)} is assigned both ways")
        self._seen[abs(lit)] = lit
        self.model.append(lit)

    def add_words(self, text: str, line: int, offset: int) -> None:
        for col, token in _words(text):
            self.add(token, line, col + offset)


def _words(text: str) -> Iterator[tuple[int, str]]:
    """(1-based column, word) for every whitespace-separated word."""
    col = 0
    for token in text.split():
        col = text.index(token, col)
        yield col + 1, token
        col += len(token)


MAX_LITERAL_DIGITS = 10
"""Literals beyond this many digits cannot name a variable of any CNF sudosat writes."""


def _significant(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) for lines that are neither blank nor ``c`` comments."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and stripped != "c" and not stripped.startswith("c "):
            yield number, line


def read_competition(text: str, source: str, assume: str | None = None) -> Answer:
    """SAT competition output: one ``s`` line, the model in ``v`` lines ending in 0.

    Lines that are neither ``s`` nor ``v`` (banners, warnings) are ignored. ``assume``
    is the status when there is no ``s`` line (None: that is an error).
    """
    status: str | None = None
    literals = _Literals(source)
    for number, line in _significant(text):
        kind = line[:1] if line[1:2].isspace() or not line[1:].strip() else ""
        if kind == "s":
            said = " ".join(line[1:].split())
            if said not in _COMPETITION_STATUS:
                raise InputError(
                    source, number, 3, f"unknown answer {shorten(said)!r} on the 's' line"
                )
            if status is not None and _COMPETITION_STATUS[said] != status:
                raise InputError(source, number, 1, "a second 's' line that disagrees")
            status = _COMPETITION_STATUS[said]
        elif kind == "v":
            literals.add_words(line[1:], number, 1)
    status = status or assume
    if status is None:
        raise InputError(source, 0, 0, "no 's SATISFIABLE' or 's UNSATISFIABLE' line")
    return _answer(status, literals, source)


def read_result_file(text: str, source: str) -> Answer:
    """MiniSat's result file: ``SAT`` then the literals and 0, or ``UNSAT`` / ``INDET``."""
    lines = list(_significant(text))
    if not lines:
        raise InputError(source, 0, 0, "empty result file (expected SAT, UNSAT or INDET)")
    first_number, first = lines[0]
    status = _RESULT_FILE_STATUS.get(first.strip())
    if status is None:
        raise InputError(
            source, first_number, 1, f"expected SAT, UNSAT or INDET, found {first.strip()!r}"
        )
    literals = _Literals(source)
    for number, line in lines[1:]:
        literals.add_words(line, number, 0)
    return _answer(status, literals, source)


def read_answer(text: str, source: str) -> Answer:
    """Any solver's output: competition ``s``/``v`` lines, a MiniSat result file, or bare
    integers (a model on its own)."""
    lines = list(_significant(text))
    if not lines:
        raise InputError(source, 0, 0, "no model (expected solver output: s/v lines or SAT ...)")
    if any(line.startswith(("s ", "v ")) for _, line in lines):
        # v lines alone: a model whose status line was cut off
        return read_competition(text, source, assume=SAT)
    if lines[0][1].strip() in _RESULT_FILE_STATUS:
        return read_result_file(text, source)
    literals = _Literals(source)
    for number, line in lines:
        literals.add_words(line, number, 0)
    literals.closed = True  # the closing 0 is optional in a bare model
    return _answer(SAT, literals, source)


def _answer(status: str, literals: _Literals, source: str) -> Answer:
    if status != SAT:
        if literals.model:
            raise InputError(source, 0, 0, f"a model after an {status} answer")
        return Answer(status)
    if not literals.closed and not literals.model:
        raise InputError(source, 0, 0, "says SATISFIABLE but gives no model")
    if not literals.closed:
        raise InputError(source, 0, 0, "the model does not end in 0 (output cut short?)")
    return Answer(SAT, literals.model)
