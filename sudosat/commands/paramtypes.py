"""The kinds of value the commands' options take beyond click's own: a float in a
range that is never NaN (:class:`Real`), a size in bytes (:class:`ByteSize`)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import click


class Real(click.FloatRange):
    """A float in a range, never NaN (click's range lets it through: every
    comparison with NaN is false)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        found = super().convert(value, param, ctx)
        if found != found:
            self.fail(f"{value!r} is not a number.", param, ctx)
        return found


class ByteSize(click.ParamType):  # type: ignore[type-arg]
    """A number of bytes: ``4GiB``, ``512M``, ``64KB`` or bare bytes (K, M, G and T
    are powers of 1024, as memory is counted)."""

    name = "size"
    UNITS: ClassVar[dict[str, int]] = {
        "": 1,
        "k": 1 << 10,
        "m": 1 << 20,
        "g": 1 << 30,
        "t": 1 << 40,
    }
    PATTERN = r"(?i)\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\s*"
    """(Compiled when first used, not when a command is imported.)"""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int):
            return value
        found = re.fullmatch(self.PATTERN, str(value))
        if found is None:
            self.fail(f"{str(value)[:20]!r} is no size: write 4GiB, 512MiB or bytes", param, ctx)
        return int(float(found[1]) * self.UNITS[found[2].lower()])
