"""`sudosat solvers`."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console

from sudosat.commands.helptext import Command
from sudosat.sat.solvers import (
    installed_solvers,
)
from sudosat.showing.console import solver_tables


@click.command(cls=Command, usual=("--format",))
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["rich", "json"]),
    help="Table (default on a terminal) or JSON.",
)
def solvers(fmt: str | None) -> None:
    """List the SAT solvers this installation can run: PySAT's, in process, and the
    solver programs found on PATH, with their versions.

    \b
    Examples:
      sudosat solvers
      sudosat solvers --format json
    """
    listing = installed_solvers()
    if (fmt or ("rich" if sys.stdout.isatty() else "json")) == "json":
        click.echo(json.dumps(listing, indent=2))
        return
    console = Console()
    for part in solver_tables(listing):
        console.print(part, markup=False, highlight=False)
