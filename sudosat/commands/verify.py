"""`sudosat verify`."""

from __future__ import annotations

import sys

import click

from sudosat.commands.common import BadInput
from sudosat.commands.helptext import Command
from sudosat.commands.paramtypes import ByteSize
from sudosat.solving.certificate import CHECKERS
from sudosat.solving.checking import MAX_FILE, NotACertificate, check, found_in


@click.command(name="verify", cls=Command, usual=("--checker", "--max-size"))
@click.argument(
    "folders", nargs=-1, required=True, metavar="DIR...", type=click.Path(file_okay=False)
)
@click.option(
    "--checker",
    type=click.Choice(CHECKERS),
    default="dratify",
    show_default=True,
    help="The proof checker: dratify (its Rust engine, from cdclkit-native, when "
    "installed, else pure Python), dratify-python (pure Python), or drup (extracted "
    "from verified Why3 code; slow; pip install 'sudosat[drup]').",
)
@click.option(
    "--max-size",
    type=ByteSize(),
    default=MAX_FILE,
    show_default="4GiB",
    help="The largest file of a certificate that is read (a size: 512MiB, 4GiB); "
    "a larger one makes it NOT VALID.",
)
def verify_command(folders: tuple[str, ...], checker: str, max_size: int) -> None:
    """Check the certificates `solve`, `explain` or `candidates --certify` wrote: DIR
    is one certificate, or a folder of them.

    Each claim is checked as a reader would, trusting neither the solver nor the
    proof's maker: the files' hashes; that puzzle.cnf is the puzzle's full CNF;
    that each model satisfies every clause and spells its solution, and that the
    solution keeps every rule by the rule's own check; that claim.cnf is the CNF
    with those solutions blocked (candidates: with the clause of every value
    candidates.txt leaves out, each candidate witnessed by a solution); that the
    proof (claim.drup or claim.drat) refutes it (checked by a checker that shares
    no code with sudosat or the solver). A received folder is hostile input: every
    file its manifest lists must lie inside DIR (no absolute path, no `..`, no
    link leading out) and have the manifest's hash, together within --max-size;
    each is hashed as it streams, and only the claim's own are then read whole. A
    line per certificate: `valid` or `NOT VALID` and what failed. Exit codes: 0
    every certificate valid, 1 one is not, 2 a folder holds no certificate.

    \b
    Examples:
      sudosat solve --certify proofs puzzles/ai-escargot.txt
      sudosat verify proofs
      sudosat verify --checker drup proofs/ai-escargot.txt-1
    """
    from pathlib import Path

    try:
        certificates = [c for folder in folders for c in found_in(Path(folder))]
    except NotACertificate as err:
        raise BadInput(str(err)) from None
    failed = False
    for folder in certificates:
        try:
            verdict = check(folder, checker, max_size)
        except NotACertificate as err:
            raise BadInput(str(err)) from None
        if verdict.valid:
            proof = f", {verdict.proven}" if verdict.proven else ""
            click.echo(f"valid: {folder}: {verdict.status}{proof} ({verdict.seconds:.2f} s)")
        else:
            failed = True
            why = verdict.problems[0] if verdict.problems else "no claim was checked"
            click.echo(f"NOT VALID: {folder}: {why}")
    sys.exit(1 if failed else 0)
