"""lz-string's ``decompressFromBase64``, read as one string of bits.

The ``lzstring`` package reads its input a bit at a time through a callback
and an attribute lookup per bit (about 7 ms for a 9x9 killer's link); here the
whole input becomes one string of ``0``/``1`` once and each code is one slice
(about 0.5 ms). It gives what the package gives on every input, ``None`` where
the package fails; the package still compresses (links out).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

LIMIT = 8 * 1024 * 1024
"""The most characters a payload may decompress to: the size of a whole puzzle
(:data:`chunks.MAX_WHOLE`). Each code can stand for a word one longer than
the last, so the output grows with the square of the input: a 45 KB link can
stand for gigabytes. It is counted while it is decoded."""


class TooLong(ValueError):
    """A payload that decompresses past :data:`LIMIT` (a decompression bomb)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the link's data decompresses to more than {limit:,} characters")


class OverBudget(Exception):
    """A payload that decompresses past the budget of a :func:`budget` block: not
    an error of the input (no reader catches it), but work for elsewhere (the
    server reads it in its reader process)."""


_budget: ContextVar[int | None] = ContextVar("lz_budget", default=None)


@contextmanager
def budget(characters: int) -> Iterator[None]:
    """Every decompression in this block stops with OverBudget past ``characters``
    (the server's own threads read small payloads only: a bomb of 11 KB costs
    them a fraction of a millisecond, not the half second of its 8 Mi)."""
    token = _budget.set(characters)
    try:
        yield
    finally:
        _budget.reset(token)


BASE64 = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/="
SIXES = {char: format(i & 63, "06b") for i, char in enumerate(BASE64)} | {"\\": "000000"}
"""Each base64 character's six bits, first read first; ``=`` and SudokuPad's
padding ``\\`` read as zeros, as in lz-string."""


def decompress_base64(data: str, limit: int = LIMIT) -> str | None:
    """The text ``data`` holds, or None when it is no lz-string base64 (an
    unknown character, a code past the end, a code for no entry); TooLong,
    as soon as it is known, when that text is longer than ``limit``."""
    sixes = [SIXES.get(char) for char in data]
    if None in sixes:  # lz-string fails once it reaches the first unknown character
        sixes = sixes[: sixes.index(None)]
    bits = "".join(sixes)[::-1]  # type: ignore[arg-type]
    # ``bits`` runs backwards from the end: lz-string reads each code least
    # significant bit first, so a code is a plain slice read from the right
    end = len(bits)

    def read(width: int) -> int:
        nonlocal end
        stop, end = end, end - width
        if end <= 0:  # lz-string fails when a read reaches the input's end
            raise IndexError(width)
        return int(bits[end:stop], 2)

    within = _budget.get()
    try:
        if within is not None and within < limit:
            try:
                return _codes(read, within)
            except TooLong:
                raise OverBudget(within) from None
        return _codes(read, limit)
    except IndexError:
        return None


def _codes(read: Callable[[int], int], limit: int) -> str | None:
    """lz-string's dictionary decoding over ``read(width)``, the next code; the
    output counted as it grows (its entries are never longer than it)."""
    kind = read(2)
    if kind == 2:
        return ""
    if kind > 2:
        return None
    first = chr(read(8 if kind == 0 else 16))
    entries: list[str] = ["", "", "", first]
    result = [first]
    length = 1
    word = first
    width = 3
    enlarge_in = 4
    while True:
        code = read(width)
        if code < 2:
            entries.append(chr(read(8 if code == 0 else 16)))
            code = len(entries) - 1
            enlarge_in -= 1
        elif code == 2:
            return "".join(result)
        if enlarge_in == 0:
            enlarge_in = 1 << width
            width += 1
        if code < len(entries):
            entry = entries[code]
        elif code == len(entries):
            entry = word + word[0]
        else:
            return None
        length += len(entry)
        if length > limit:
            raise TooLong(limit)
        result.append(entry)
        entries.append(word + entry[0])
        enlarge_in -= 1
        word = entry
        if enlarge_in == 0:
            enlarge_in = 1 << width
            width += 1
