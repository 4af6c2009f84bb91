"""The command line: thin click commands over the library.

Each command parses its options, calls the library (:mod:`inputs` to read,
:func:`engine.solve_with` through :mod:`batch` to solve, :mod:`render` to
show) and turns the answers into an exit code. Each lives in a module of
:mod:`sudosat.commands` of its own, loaded when it is asked for (COMMANDS):
``sudosat --version`` loads none, ``sudosat solve`` only what solving needs.
"""

from __future__ import annotations

import importlib
import signal
import sys

import click

from sudosat import __version__
from sudosat.core.errors import printable
from sudosat.system.process import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_OUTPUT,
    Terminated,
    caught_interrupt,
    os_failure,
    silence_stdout,
    stopped,
)

COMMANDS = {
    "solve": "solve",
    "cnf": "cnf",
    "decode": "decode",
    "rate": "rate",
    "generate": "generate",
    "explain": "explain",
    "candidates": "candidates",
    "steps": "steps",
    "merge": "merge:merge_command",
    "verify": "verify:verify_command",
    "solvers": "solvers",
    "serve": "serve",
}
"""Each command: its module in :mod:`sudosat.commands` (and the function, where it is
not the command's name). A command's module imports what the command uses."""


class Commands(click.Group):
    """The commands of COMMANDS, each imported when it is run or listed (click's
    lazy-loading group)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name)
        if where is None:
            return None
        module, _, name = where.partition(":")
        command = getattr(importlib.import_module(f"sudosat.commands.{module}"), name or module)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sudosat")
@click.option(
    "--debug", is_flag=True, help="On an internal error, print the traceback (see Exit codes)."
)
def cli(debug: bool) -> None:
    """Solve, count and compile Sudoku puzzles with SAT solvers.

    \b
    Examples:
      sudosat solve puzzles/ai-escargot.txt
      sudosat solve --rank 2 .2.1........4.2.
      sudosat solve --count --max-solutions 100 puzzles/several-solutions.txt
      cat puzzles/ai-escargot.txt | sudosat solve - --format json
      sudosat cnf puzzles/hex-16x16.txt --out hex.cnf
      sudosat cnf --rank 4 --full --out rules16.cnf
      sudosat solvers

    The docs: docs/ (`make docs` builds them into build/site); a man page for each
    command: `make man`. Completion: eval "$(_SUDOSAT_COMPLETE=bash_source sudosat)".
    """


def run_command() -> int:
    """The command of ``sys.argv``, run here; its exit code."""
    try:
        code = cli.main(prog_name="sudosat", standalone_mode=False)
        sys.stdout.flush()  # here, not at exit, where a failure could not be reported
    except click.ClickException as err:
        err.show()
        return err.exit_code
    except (KeyboardInterrupt, click.Abort):
        return stopped(signal.SIGINT)
    except Terminated as stop:
        return stopped(stop.signum)
    except BrokenPipeError:  # the reader has all it wants (`| head`)
        silence_stdout()
        return EXIT_OK
    except SystemExit as done:
        if type(sys.stdout).__name__ == "_PacifyFlushWrapper":  # click saw the pipe close
            silence_stdout()
            return EXIT_OK
        raise done
    except OSError as err:
        code, message = os_failure(err)
        if code == EXIT_OUTPUT:
            silence_stdout()
        click.echo(f"sudosat: {message}", err=True)
        return code
    except Exception as err:  # a bug: one line, the traceback only when asked for
        if caught_interrupt(err):
            return stopped(signal.SIGINT)
        if "--debug" in sys.argv[1:]:
            import traceback  # deferred: an internal error, with --debug

            traceback.print_exc()
        what = printable(f"{type(err).__name__}: {err}")[:300]
        hint = "" if "--debug" in sys.argv[1:] else " (sudosat --debug ... shows the traceback)"
        click.echo(f"sudosat: internal error: {what}{hint}", err=True)
        return EXIT_INTERNAL
    return code if isinstance(code, int) else EXIT_OK
