#!/usr/bin/env python3
"""A man page for `sudosat` and each of its commands, from their --help, into
DIR (default build/man):

    python scripts/man.py [DIR]
    man -l build/man/sudosat-solve.1

Each page has its whole NAME line, the help's paragraphs, its examples as
verbatim blocks (never filled, justified or hyphenated), the options under the
headings of --help, and SEE ALSO: sudosat(1) lists every command's page, each
command's page names sudosat(1). (click-man cut the NAME lines and filled the
examples as prose.)
"""

from __future__ import annotations

import inspect
import sys
import time
from pathlib import Path

import click

import sudosat
from sudosat.cli import cli
from sudosat.commands.helptext import Command

ROOT = Path(__file__).resolve().parents[1]
VERBATIM = "\b"
"""click's mark of a paragraph not to be filled: examples, lists."""


def roff(text: str) -> str:
    """``text`` as roff source: backslashes and hyphens escaped, and a line that
    would start with a control character guarded."""
    escaped = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(
        "\\&" + line if line.startswith((".", "'")) else line for line in escaped.splitlines()
    )


def summary(command: click.Command) -> str:
    """The first sentence of a command's help, whole (NAME)."""
    first = inspect.cleandoc(command.help or "").split("\n\n")[0]
    return " ".join(first.split()).rstrip(".")


def description(command: click.Command) -> list[str]:
    """The help's paragraphs: prose filled by man, ``\\b`` blocks verbatim."""
    lines = []
    for paragraph in inspect.cleandoc(command.help or "").split("\n\n"):
        if paragraph.startswith(VERBATIM):
            lines += [".PP", ".nf", ".RS 2", roff(paragraph[1:].strip("\n")), ".RE", ".fi"]
        else:
            lines += [".PP", roff(" ".join(paragraph.split()))]
    return lines


def options(command: click.Command, context: click.Context) -> list[str]:
    headed = (
        command.headed(context)
        if isinstance(command, Command)
        else [
            (
                "Options",
                [r for p in command.get_params(context) if (r := p.get_help_record(context))],
            )
        ]
    )
    lines = [".SH OPTIONS"]
    for heading, records in headed:
        lines.append(f".SS {roff(heading)}")
        for names, help_text in records:
            breakable = roff(names).replace("|", "|\\:")  # long choices may break after a bar
            lines += [".TP", f"\\fB{breakable}\\fR", roff(" ".join(help_text.split()))]
    return lines


def page(name: str, command: click.Command, context: click.Context, see_also: list[str]) -> str:
    usage = " ".join(command.collect_usage_pieces(context))
    head = [
        f'.TH "{name.upper()}" "1" "{time.strftime("%Y-%m-%d")}" "sudosat {sudosat.__version__}"'
        ' "sudosat manual"',
        ".ad l",  # ragged right: no justified gaps
        ".nh",  # no hyphenation: file names and options stay whole
        ".SH NAME",
        f"{roff(name)} \\- {roff(summary(command))}",
        ".SH SYNOPSIS",
        f".B {roff(context.command_path)}",
        roff(usage),
        ".SH DESCRIPTION",
    ]
    body = description(command) + options(command, context)
    if isinstance(command, click.Group):
        body.append(".SH COMMANDS")
        for sub in command.list_commands(context):
            found = command.get_command(context, sub)
            assert found is not None
            body += [
                ".TP",
                f"\\fB{sub}\\fR",
                roff(summary(found)) + f". See \\fBsudosat\\-{sub}\\fR(1).",
            ]
    body += [".SH SEE ALSO", ",\n".join(f".BR {roff(other)} (1)" for other in see_also)]
    return "\n".join(head + body) + "\n"


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "man"
    target.mkdir(parents=True, exist_ok=True)
    context = click.Context(cli, info_name="sudosat")
    names = cli.list_commands(context)  # the group loads its commands lazily
    pages = {"sudosat": page("sudosat", cli, context, [f"sudosat-{n}" for n in names])}
    for name in names:
        command = cli.get_command(context, name)
        assert command is not None
        inner = click.Context(command, info_name=name, parent=context)
        others = ["sudosat", *(f"sudosat-{n}" for n in names if n != name)]
        pages[f"sudosat-{name}"] = page(f"sudosat-{name}", command, inner, others)
    for name, text in pages.items():
        (target / f"{name}.1").write_text(text)
    print(f"man pages in {target}: man -l {target}/sudosat.1", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
