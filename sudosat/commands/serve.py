"""`sudosat serve`."""

from __future__ import annotations

import errno
import os
import re
import sys

import click

from sudosat.commands.helptext import Command
from sudosat.commands.paramtypes import ByteSize, Real
from sudosat.system.process import EXIT_UNAVAILABLE, stopped

ORIGIN = r"https?://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?"
"""An origin --allow-origin takes: a scheme and a host name, maybe a port; ``*.``
first stands for any subdomain (a ``*`` anywhere else could never match)."""


class CannotListen(click.ClickException):
    """The port is taken, or not to be had: exit 69."""

    exit_code = EXIT_UNAVAILABLE


def _why_not(host: str, port: int, err: OSError) -> str:
    """Why ``serve`` cannot listen, naming the program on the port where it can."""
    why = os.strerror(err.errno) if err.errno else str(err)
    said = f"cannot listen on {host}:{port}: {why.lower()}"
    if err.errno == errno.EADDRINUSE:
        from sudosat.system.ports import holder  # deferred: a port taken

        taken_by = holder(port)
        said += f", by {taken_by}" if taken_by else ""
        said += "; stop it, or give another --port (0: any free one)"
    return said


@click.command(
    cls=Command,
    usual=(
        "--port",
        "--host",
        "--allow-origin",
        "--timeout",
        "--jobs",
        "--memory",
        "--cache",
        "--max-frame",
    ),
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=4545,
    show_default=True,
    help="The port (the plugin's is 4545; 0: any free one).",
)
@click.option(
    "--host",
    default="localhost",
    show_default=True,
    help="Where to listen: loopback names only (localhost, 127.0.0.1, ::1).",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    metavar="URL",
    help="Also let web pages of this origin drive the server (repeatable), "
    "besides f-puzzles and pages on localhost; https://*.example.com: its subdomains.",
)
@click.option(
    "--timeout",
    type=Real(0, min_open=True),
    default=300,
    show_default=True,
    metavar="SECONDS",
    help="The longest a job may run (an estimate's stream too).",
)
@click.option(
    "--cache",
    type=ByteSize(),
    default="256MiB",
    show_default=True,
    help="Memory for answers kept, to answer a repeated puzzle at once (a size: "
    "64MiB, 1GiB; 0: none). What each answer holds is counted.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    default=None,
    help="Jobs at work at once, over every connection (default: the cores). One "
    "more is answered as busy.",
)
@click.option(
    "--memory",
    type=ByteSize(),
    default=None,
    help="Memory the jobs at work may take in all, by their estimates (a size; "
    "default: half the machine's). A job past it is answered as busy, or as too "
    "big when it alone is.",
)
@click.option(
    "--max-frame",
    type=click.IntRange(1024),
    default=4 * 1024 * 1024,
    show_default=True,
    metavar="BYTES",
    help="The largest message taken.",
)
def serve(
    port: int,
    host: str,
    allow_origins: tuple[str, ...],
    timeout: float,
    cache: int,
    jobs: int | None,
    memory: int | None,
    max_frame: int,
) -> None:
    """Answer the f-puzzles solver plugin: a websocket server on localhost:4545.

    Install the userscript Fpuzzles-SudokuSolver (github.com/dclamage/SudokuSolver,
    UserScripts/), open f-puzzles, press Connect: true candidates, solve, check,
    count, estimate, the solution path and steps are then sudosat's. Open
    http://localhost:4545/ for a page that takes any link or puzzle sudosat
    reads (SudokuPad links too) and shows its candidates and logical path.
    Ctrl-C or SIGTERM stops it, with every worker process. No client can exhaust
    it: at most --jobs jobs work at once within --memory, the cache holds at
    most --cache bytes, large frames are read where no other client waits, and
    only loopback Host names and allowed origins are taken.

    \b
    Examples:
      sudosat serve
      sudosat serve --port 4546 --timeout 60
      sudosat serve --allow-origin https://my-editor.example
      sudosat serve --jobs 4 --memory 8GiB --cache 1GiB
    """
    from sudosat.serving.server import LOOPBACK, Settings, serve_forever  # deferred: websockets

    if host not in LOOPBACK:
        raise click.BadParameter(
            f"{host!r}: sudosat serves loopback only ({', '.join(LOOPBACK)})", param_hint="--host"
        )
    for origin in allow_origins:
        if not re.fullmatch(ORIGIN, origin):
            raise click.BadParameter(
                f"{origin!r}: expected an origin such as https://example.com, or "
                "https://*.example.com for its subdomains",
                param_hint="--allow-origin",
            )
    settings = Settings(host, port, allow_origins, timeout, max_frame, cache)
    if jobs is not None:
        settings.jobs = jobs
    if memory is not None:
        settings.memory = memory
    try:
        signum = serve_forever(settings)
    except OSError as err:
        raise CannotListen(_why_not(host, port, err)) from None
    if signum:
        sys.exit(stopped(signum))
