"""The ``sudosat`` command (and ``python -m sudosat``)."""

from __future__ import annotations

from typing import NoReturn

from sudosat.system.process import supervise


def main() -> NoReturn:
    """Forks the work process before the heavy imports (click, rich, PySAT,
    numpy), so that the supervisor stays small and the work process does not
    copy the pages of a heap it shares with it."""

    def work() -> int:
        # imported in the work process only: the supervisor never loads the CLI
        from sudosat.cli import run_command

        return run_command()

    supervise(work)


if __name__ == "__main__":
    main()
