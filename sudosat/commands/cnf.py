"""`sudosat cnf`."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from sudosat.commands.common import (
    BadInput,
    bad_input,
    encoding_options,
    files,
    input_options,
    out_option,
    read_one,
    write_to,
)
from sudosat.commands.helptext import Command
from sudosat.core.errors import InputError
from sudosat.core.puzzle import Puzzle
from sudosat.reading.ruletext import apply
from sudosat.running.runner import Reading
from sudosat.sat.cnf import Encoding
from sudosat.sat.dimacs import write_dimacs
from sudosat.sat.encoding import encode
from sudosat.sat.limits import TooBig, check_writable


@click.command(
    cls=Command, usual=("--out", "--rank", "--rules", "--encoding", "--amo", "--reduced")
)
@click.argument("puzzle", required=False, shell_complete=files)
@input_options
@encoding_options
@out_option("Where to write the CNF (written atomically); - for stdout.")
def cnf(
    puzzle: str | None,
    reading: Reading,
    rules: str,
    amo: str,
    reduced: bool,
    out: str,
) -> None:
    """Write the DIMACS CNF of PUZZLE (a file, - or a pipe for stdin, or the puzzle
    itself), or with --rank and no PUZZLE the rules alone.

    Variable (r*N + c)*N + v + 1 means row r, column c holds value v (all 0-based).

    \b
    Examples:
      sudosat cnf puzzles/ai-escargot.txt --out escargot.cnf
      sudosat cnf < puzzles/ai-escargot.txt | minisat /dev/stdin
      sudosat cnf puzzles/ai-escargot.txt --full --amo seqcounter | cadical
      sudosat cnf --rank 4 --out rules16.cnf
    """
    piped = puzzle is None and reading.rank is None
    if piped:
        if sys.stdin.isatty():
            raise click.UsageError("give a PUZZLE (- or a pipe: stdin), or --rank N for the rules")
        puzzle = "-"  # as solve does: the puzzle comes down the pipe
    if puzzle is None:
        assert reading.rank is not None
        target = replace(Puzzle.empty(reading.rank), source="<rules>", line=0)
        try:
            target = apply(target, reading.variants.statements)
        except InputError as err:
            raise bad_input(err) from None
        reduced = False
    else:
        try:
            target = read_one(puzzle, reading)
        except BadInput as err:
            if not piped:
                raise
            raise BadInput(f"{err}; give a PUZZLE, or --rank N for the rules alone") from None
    try:
        check_writable(target, reduced, out)
    except TooBig as err:
        raise BadInput(str(err)) from None
    formula = encode(target, Encoding(rules, amo, reduced))
    write_to(out, lambda handle: write_dimacs(formula, handle), [puzzle or "-", *reading.files])
