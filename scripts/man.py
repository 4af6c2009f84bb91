#!/usr/bin/env python3
"""A man page for `sudosat` and each of its commands, from their --help
(click-man), into DIR (default build/man):

    python scripts/man.py [DIR]
    man -l build/man/sudosat-solve.1
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click_man.core import write_man_pages

import sudosat
from sudosat.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "man"
    target.mkdir(parents=True, exist_ok=True)
    write_man_pages("sudosat", cli, version=sudosat.__version__, target_dir=str(target))
    context = click.Context(cli, info_name="sudosat")
    for name in cli.list_commands(context):  # the group loads its commands lazily
        command = cli.get_command(context, name)
        assert command is not None
        write_man_pages(name, command, context, version=sudosat.__version__, target_dir=str(target))
    print(f"man pages in {target}: man -l {target}/sudosat.1", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
