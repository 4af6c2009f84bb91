"""`sudosat merge`."""

from __future__ import annotations

from typing import IO

import click

from sudosat.commands.common import (
    BadInput,
    bad_input,
    files,
    out_option,
    write_to,
)
from sudosat.commands.helptext import Command
from sudosat.core.errors import InputError, printable
from sudosat.reading.inputs import open_source
from sudosat.running.shards import merge


@click.command(name="merge", cls=Command, usual=("--out",))
@click.argument("shards", nargs=-1, required=True, metavar="SHARD...", shell_complete=files)
@out_option("Where the merged records go (written whole, or not at all); - for stdout.")
def merge_command(shards: tuple[str, ...], out: str) -> None:
    """Join the JSON Lines of `solve --shard K/N` or `generate --shard K/N`
    runs into the output of one run: the same records in the same order.

    Each SHARD (a file, a FIFO, or - for stdin once) is read once and must end
    with its shard's trailer line, and together they must be shards 1 to N of
    one run (the same command, options and input), each once: a missing,
    repeated, unfinished or foreign shard is refused with one line (exit 2)
    and nothing is written.

    \b
    Examples:
      sudosat merge part1.jsonl part2.jsonl part3.jsonl part4.jsonl > all.jsonl
      sudosat merge parts/*.jsonl --out all.jsonl
    """
    if shards.count("-") > 1:
        raise click.UsageError("stdin (-) can be one shard only")
    records = merge(shards, open_source)  # each read once, checked before any is given

    def write(handle: IO[str]) -> None:
        try:
            handle.writelines(records)
        except InputError as err:
            raise bad_input(err) from None
        except ValueError as err:
            raise BadInput(str(err)) from None
        except OSError as err:
            if err.filename is None:  # the output's own failure: write_to says so
                raise
            raise BadInput(f"{printable(err.filename)}: {err.strerror or err}") from None

    write_to(out, write, shards)
