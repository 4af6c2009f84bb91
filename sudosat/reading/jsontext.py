"""JSON read as input: every number bounded, every failure one error with its place.

Python's ``json`` turns a number of any length into an int, and past 4,300
digits that conversion raises ValueError; a depth of a few thousand brackets
raises RecursionError. Input is never trusted that far: a number longer than
:data:`MAX_DIGITS` is refused while the text is read.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DIGITS = 18
"""The longest integer input may hold (a puzzle's numbers are far shorter)."""


class BadJson(ValueError):
    """JSON that cannot be read; ``column`` (1-based) where, when known."""

    def __init__(self, message: str, column: int = 1, position: int = 0) -> None:
        super().__init__(message)
        self.column = column
        self.position = position
        """Where in the text (0-based), when known."""


def load(text: str) -> Any:
    """The value ``text`` holds; BadJson saying what is wrong and where."""
    try:
        return json.loads(text, parse_int=_integer)
    except json.JSONDecodeError as err:
        raise BadJson(f"{err.msg} at {err.pos}", err.colno) from None
    except RecursionError:
        raise BadJson("nested too deep to be a puzzle") from None


def load_at(text: str, at: int) -> tuple[Any, int]:
    """The value that starts at ``at`` in ``text`` and where it ends (the rest is
    not read); BadJson as :func:`load`, its column counted from ``at``."""
    try:
        return DECODER.raw_decode(text, at)
    except json.JSONDecodeError as err:
        raise BadJson(f"{err.msg} at {err.pos - at}", err.colno, err.pos) from None
    except RecursionError:
        raise BadJson("nested too deep to be a puzzle", position=at) from None


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadJson(f"a number of {len(digits.lstrip('-')):,} digits (at most {MAX_DIGITS})")
    return int(digits)


DECODER = json.JSONDecoder(parse_int=_integer)
