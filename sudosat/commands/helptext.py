"""A command's help, short and long, as ripgrep gives it: ``-h`` the usage, what
the command does, its usual options and its examples; ``--help`` every option,
under headings."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import click

HEADINGS = {
    "Reading puzzles": (
        "--rank",
        "--alphabet",
        "--layout",
        "--rules",
        "--rules-file",
        "--filled-as-givens",
        "--marks",
    ),
    "Solver": ("--solver", "--solver-cmd", "--trust-solver", "--timeout", "--stats"),
    "Encoding": ("--encoding", "--amo", "--reduced"),
    "Output": ("--format", "--color", "--out", "--time", "--grid"),
    "Pictures (svg, pdf, png)": (
        "--solution",
        "--per-page",
        "--title",
        "--no-title",
        "--rules-text",
        "--paper",
        "--dpi",
        "--each-step",
    ),
    "Runs of many": (
        "--jobs",
        "--quiet",
        "--shard",
        "--check",
        "--fail-on",
        "--allow-malformed",
        "--front-end",
        "--certify",
    ),
    "Help": ("-h", "--help"),
}
"""The headings ``--help`` lists the options shared by the commands under, in
order; a command's own options come first, under its own headings or
``Options``. An option is found by its first long name."""


def _short_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        ctx.meta["short help"] = True
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


SHORT_HELP = click.Option(
    ["-h"],
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_short_help,
    help="Short help: the usual options and examples.",
)


class Command(click.Command):
    """A command with a short help (``-h``) and a long one (``--help``).

    ``usual``: the options ``-h`` shows (about ten); ``headings``: the command's
    own options grouped, before the shared ones of HEADINGS."""

    def __init__(
        self,
        *args: Any,
        usual: Sequence[str] = (),
        headings: dict[str, Sequence[str]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.usual = tuple(usual)
        self.headings = dict(headings or {})

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        return [*super().get_params(ctx), SHORT_HELP]

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = "This help: every option, by heading."
        return option

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if not ctx.meta.get("short help"):
            super().format_help_text(ctx, formatter)
            return
        text = inspect.cleandoc(self.help or "")
        first = text.split("\n\n", 1)[0]
        examples = text[text.find("\b\nExamples:") :] if "\b\nExamples:" in text else ""
        shortened = click.Command(self.name, help=f"{first}\n\n{examples}".strip())
        shortened.format_help_text(ctx, formatter)

    def headed(self, ctx: click.Context) -> list[tuple[str, list[tuple[str, str]]]]:
        """Every option's help record (its names, its help) under its heading, in
        the order ``--help`` lists them (also the man pages': scripts/man.py)."""
        shared = {name: heading for heading, names in HEADINGS.items() for name in names}
        own = {name: heading for heading, names in self.headings.items() for name in names}
        order = ["Options", *self.headings, *HEADINGS]
        grouped: dict[str, list[tuple[str, str]]] = {heading: [] for heading in order}
        for name, record in self._records(ctx).items():
            grouped[own.get(name) or shared.get(name) or "Options"].append(record)
        return [(heading, grouped[heading]) for heading in order if grouped[heading]]

    def _records(self, ctx: click.Context) -> dict[str, tuple[str, str]]:
        return {
            _name(param): record
            for param in self.get_params(ctx)
            if isinstance(param, click.Option) and (record := param.get_help_record(ctx))
        }

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if not ctx.meta.get("short help"):
            for heading, listed in self.headed(ctx):
                with formatter.section(heading):
                    formatter.write_dl(listed)
            return
        records = self._records(ctx)
        usual = [records[name] for name in self.usual if name in records]
        with formatter.section("Usual options"):
            formatter.write_dl([*usual, records["-h"], records["--help"]])
        formatter.write_paragraph()
        formatter.write_text(
            f"{ctx.command_path} --help lists every option ({len(records) - 2} in all), by heading."
        )


def _name(param: click.Parameter) -> str:
    """An option's first long name (``--format``), or its only one (``-h``)."""
    names = [*param.opts, *param.secondary_opts]
    return next((name for name in names if name.startswith("--")), names[0] if names else "")
