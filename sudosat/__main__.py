"""The ``sudosat`` command (and ``python -m sudosat``)."""

from __future__ import annotations

import sys
from typing import NoReturn

from sudosat import __version__
from sudosat.system.process import supervise

VERSION = f"sudosat, version {__version__}"
"""What ``sudosat --version`` prints: click's ``version_option`` says the same."""


def main() -> NoReturn:
    """Forks the work process before the heavy imports (click, rich, PySAT,
    numpy), so that the supervisor stays small and the work process does not
    copy the pages of a heap it shares with it. ``--version`` alone is answered
    here: no command to load, not even click (a third of its start-up)."""
    if sys.argv[1:] == ["--version"]:
        print(VERSION)
        sys.exit(0)

    def work() -> int:
        # imported in the work process only: the supervisor never loads the CLI
        from sudosat.cli import run_command

        return run_command()

    supervise(work)


if __name__ == "__main__":
    main()
