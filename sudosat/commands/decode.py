"""`sudosat decode`."""

from __future__ import annotations

import sys

import click

from sudosat.commands.common import (
    SolverFailure,
    _write,
    bad_input,
    console_for,
    files,
    input_options,
    output_options,
    read_one,
    trust_option,
)
from sudosat.commands.helptext import Command
from sudosat.core.errors import InputError, SolverError
from sudosat.core.notation import format_line
from sudosat.reading.chunks import MAX_WHOLE
from sudosat.reading.inputs import read_source
from sudosat.running import runner
from sudosat.running.report import render
from sudosat.running.runner import Reading
from sudosat.sat.dimacs import read_answer
from sudosat.showing.text import note
from sudosat.showing.view import Result, View
from sudosat.solving.engine import check_answer
from sudosat.solving.outcome import Status
from sudosat.system.process import (
    EXIT_NONE,
    EXIT_OK,
    EXIT_TIMEOUT,
)


@click.command(cls=Command, usual=("--format", "--rank", "--rules", "--trust-solver"))
@click.argument("puzzle", shell_complete=files)
@click.argument("model", default="-", shell_complete=files)
@input_options
@output_options("rich", "grid", "line", "json")
@trust_option
def decode(
    puzzle: str,
    model: str,
    reading: Reading,
    fmt: str | None,
    color: bool | None,
    trust_solver: bool,
) -> None:
    """Read a solver's answer to PUZZLE's CNF from MODEL (default stdin) and print the grid.

    MODEL may hold SAT competition output (s and v lines), a MiniSat result file
    (SAT, then the model) or bare integers. The model is mapped back through
    the variable numbering and verified against the rules and the givens; one
    that is no solution is an error (exit 4), and so is UNSATISFIABLE for a
    puzzle the embedded solver solves. Exit codes: 0 solved, 2 bad input,
    3 no solution (UNSATISFIABLE, confirmed), 4 no solution in the model or a
    wrong UNSATISFIABLE, 5 the solver gave no answer (UNKNOWN).

    \b
    Examples:
      sudosat cnf puzzles/ai-escargot.txt | cadical | sudosat decode puzzles/ai-escargot.txt
      sudosat cnf puzzles/hex-16x16.txt -o hex.cnf
      minisat hex.cnf hex.out; sudosat decode puzzles/hex-16x16.txt hex.out
    """
    if puzzle == "-" and model == "-":
        raise click.UsageError("PUZZLE and MODEL cannot both be stdin")
    target = read_one(puzzle, reading)
    try:
        limit = MAX_WHOLE + target.size**3 * (len(str(target.size**3)) + 2)  # every literal
        source, text = read_source(model, expected="solver output", limit=limit)
        answer = read_answer(text, source)
    except InputError as err:
        raise bad_input(err) from None
    try:
        outcome = check_answer(target, answer, trusted=trust_solver)
    except SolverError as err:
        raise SolverFailure(f"{source}: {err}") from None
    out = console_for(sys.stdout, color)
    view = runner.view_for(View(), fmt or ("rich" if out.is_terminal else "grid"), out, False)
    result = Result(target.source, target.line, format_line(target), outcome)
    _write(render([result], view))
    said = note(result, view)
    if said is not None:
        console_for(sys.stderr, color).print(said, markup=False, highlight=False)
    codes = {Status.SOLVED: EXIT_OK, Status.NONE: EXIT_NONE, Status.TIMEOUT: EXIT_TIMEOUT}
    sys.exit(codes[outcome.status])
