"""The solver programs sudosat knows, and how to call them: a table, apart from
the running of them (:mod:`external`), so that naming a solver costs no import
of subprocess and its kin."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from sudosat.core.errors import SolverError

COMPETITION = "competition"
RESULT_FILE = "result-file"


@dataclass(frozen=True)
class Program:
    """How to call one known solver program."""

    name: str
    argv: tuple[str, ...]
    """The command before the input file (the executable first)."""
    convention: str
    version_args: tuple[str, ...] = ()
    """Arguments that make it print its version; () when it has none."""
    proves: bool = True
    """It writes a DRAT proof to a file named after the input (``cadical in.cnf
    proof``; text or binary DRAT), as ``--certify`` asks."""


PROGRAMS = {
    p.name: p
    for p in (
        Program("minisat", ("minisat", "-verb=0"), RESULT_FILE, proves=False),
        Program("glucose", ("glucose", "-verb=0"), RESULT_FILE, proves=False),
        Program("cadical", ("cadical", "-q"), COMPETITION, ("--version",)),
        Program("kissat", ("kissat", "-q"), COMPETITION, ("--version",)),
        Program("picosat", ("picosat",), COMPETITION, ("--version",), proves=False),
        # (its proof file is FRAT, which no DRAT checker reads: no certificate from it)
        Program(
            "cryptominisat5", ("cryptominisat5", "--verb", "0"), COMPETITION, ("--version",), False
        ),
    )
}


def command_program(command: str) -> Program:
    """A free command line (``'kissat -q'``): the competition convention, input file last."""
    try:
        argv = tuple(shlex.split(command))
    except ValueError as err:
        raise SolverError(f"cannot read the solver command {command!r}: {err}") from None
    if not argv:
        raise SolverError("the solver command is empty")
    return Program(command, argv, COMPETITION)
