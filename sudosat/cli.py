"""The command line: thin click commands over the library.

Each command parses its options, calls the library (:mod:`inputs` to read,
:func:`engine.solve_with` through :mod:`batch` to solve, :mod:`render` to
show) and turns the answers into an exit code. Each lives in a module of
:mod:`sudosat.commands` of its own, loaded when it is asked for (COMMANDS):
``sudosat --version`` loads none, ``sudosat solve`` only what solving needs.
"""

from __future__ import annotations

import importlib
import re
import signal
import sys
from typing import IO, Any

import click

from sudosat import __version__
from sudosat.core.errors import printable
from sudosat.system.process import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_OUTPUT,
    caught_interrupt,
    os_failure,
    signal_of,
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


class OneLine(click.ClickException):
    """A click error said in one line, as every error of sudosat is:
    ``sudosat solve: no such option --bogus; did you mean --bits?``."""

    def __init__(self, message: str, where: str, exit_code: int) -> None:
        super().__init__(message)
        self.where = where
        self.code = exit_code

    @property
    def exit_code(self) -> int:  # type: ignore[override]  # the error's own: 2, 4, 74, ...
        return self.code

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"{self.where}: {self.message}", file=file, err=file is None)


class NoCommand(click.UsageError):
    """Bare ``sudosat``: the help, laid out as ``--help`` lays it out, on stderr;
    exit 2, as a command line with no command is a usage error."""

    def __init__(self, text: str) -> None:
        super().__init__(text)

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.message, file=file, err=file is None)


CLICK_SENTENCES = (
    *("Invalid value", "Missing argument", "Missing option", "Missing parameter"),
    *("Got unexpected", "Option", "Error:", "The value"),
)
"""How click's own messages start: said in sudosat's lower case."""


def one_line(err: click.ClickException, where: str) -> OneLine:
    """``err`` as one line of ``where`` (``sudosat solve``), with its exit code."""
    if isinstance(err, OneLine):
        return err
    if isinstance(err, click.NoSuchOption):
        message = _no_such_option(err, where)
    elif isinstance(err, click.exceptions.NoSuchCommand):
        near = _near(err.command_name, list(COMMANDS))
        also = f"did you mean {' or '.join(near)}?" if near else f"one of {', '.join(COMMANDS)}"
        message = f"no such command {err.command_name}; {also}"
    else:
        message = err.format_message()
        if isinstance(err, click.UsageError) and message.startswith(CLICK_SENTENCES):
            # "Invalid value for '--rank': 99 is not ..." -> "invalid value for --rank: 99 ..."
            message = re.sub(r"'(-[-\w]+|[A-Z][A-Z_.]*)'", r"\1", message)
            message = message[0].lower() + message[1:]
            message = message[:-1] if message.endswith(".") and message[-2:] != ".." else message
    return OneLine(printable(" ".join(message.split())), where, err.exit_code)


def _no_such_option(err: click.NoSuchOption, where: str) -> str:
    name = err.option_name
    said = f"no such option {name}"
    if name == "--version":
        return f"{said}; sudosat --version says the version"
    command = err.ctx.command if err.ctx is not None else None
    shown = [p for p in command.params if not getattr(p, "hidden", False)] if command else []
    options = [o for p in shown for o in p.opts]
    options = [o for o in options if o.startswith("-")] if options else err.possibilities or []
    near = _near(name, options)
    return f"{said}; did you mean {' or '.join(near)}?" if near else f"{said}; see {where} --help"


def _near(word: str, choices: list[str]) -> list[str]:
    """The choices ``word`` may mean: those it begins, else the closest few."""
    begun = [choice for choice in choices if choice.startswith(word)]
    if begun:
        return begun[:3]
    import difflib  # deferred: a mistyped word

    return difflib.get_close_matches(word, choices, n=3, cutoff=0.8)


class Commands(click.Group):
    """The commands of COMMANDS, each imported when it is run or listed (click's
    lazy-loading group); every click error of the group or a command said in one
    line (:class:`OneLine`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError as err:  # bare `sudosat`: the help as
            raise NoCommand(err.ctx.get_help() if err.ctx else str(err)) from None  # --help
        except click.ClickException as err:
            raise one_line(err, "sudosat") from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as err:
            command = ctx.invoked_subcommand
            raise one_line(err, f"sudosat {command}" if command else "sudosat") from None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name)
        if where is None:
            return None
        module, _, name = where.partition(":")
        command = getattr(importlib.import_module(f"sudosat.commands.{module}"), name or module)
        assert isinstance(command, click.Command)
        return command


def _help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


# -h is each command's short help (commands.helptext); the group's is short as it is
@click.group(cls=Commands, context_settings={"help_option_names": ["--help"]})
@click.option("-h", is_flag=True, expose_value=False, is_eager=True, callback=_help, hidden=True)
@click.version_option(__version__, prog_name="sudosat")
@click.option(
    "--debug", is_flag=True, help="On an internal error, print the traceback (see Exit codes)."
)
@click.option(
    "--verbose",
    is_flag=True,
    help="Say on stderr how the work is done where it matters (the logic on the Python "
    "engine when the compiled one is not built).",
)
def cli(debug: bool, verbose: bool) -> None:
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
    if verbose:
        import logging  # (deferred: a run without --verbose says nothing)

        said = logging.StreamHandler(sys.stderr)
        said.setFormatter(logging.Formatter("sudosat: %(message)s"))
        logger = logging.getLogger("sudosat")
        logger.addHandler(said)
        logger.setLevel(logging.INFO)
        from sudosat.logic import bitboard  # said here once, not in each worker

        bitboard.compiled()


def run_command() -> int:
    """The command of ``sys.argv``, run here; its exit code."""
    try:
        code = cli.main(prog_name="sudosat", standalone_mode=False)
        sys.stdout.flush()  # here, not at exit, where a failure could not be reported
    except click.ClickException as err:
        err.show()
        return err.exit_code
    except (KeyboardInterrupt, click.Abort) as stop:  # Terminated too: SIGTERM, SIGHUP
        return stopped(signal_of(stop))
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
