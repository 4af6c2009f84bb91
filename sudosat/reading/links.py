"""Puzzle links: which kind a link is, and its puzzle when the link holds one.

Read here: f-puzzles links (``?load=<data>``) and bare f-puzzles strings
(:mod:`fpuzzles`); SudokuPad links that carry f-puzzles data
(``sudokupad.app/fpuzzles<data>``, ``fpuz<data>``) or SudokuPad's own
(``scl<data>``, ``ctc<data>``; :mod:`sudokupad`). Links whose puzzle is kept on
a server (f-puzzles' ``?id=``, SudokuPad's short ids) and shortened links
(TinyURL, bit.ly, ...) hold no puzzle: sudosat reaches no server, so each is
refused in one line that says which kind it is and what to paste instead.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

from sudosat.core.errors import InputError
from sudosat.core.notation import BARE_PAYLOAD, FPUZZLES_LINK, URL
from sudosat.core.puzzle import Puzzle
from sudosat.reading import fpuzzles, sudokupad

SUDOKUPAD_HOSTS = ("sudokupad.app", "crackingthecryptic.com", "sudokupad.svencodes.com")
SHORTENERS = frozenset(
    {
        "tinyurl.com",
        "bit.ly",
        "t.co",
        "goo.gl",
        "is.gd",
        "v.gd",
        "ow.ly",
        "tiny.cc",
        "rb.gy",
        "cutt.ly",
        "shorturl.at",
        "rebrand.ly",
        "buff.ly",
        "s.id",
        "tiny.one",
        "lnkd.in",
    }
)
PAYLOAD = re.compile(r"(scl|ctc|fpuzzles|fpuz)([A-Za-z0-9+/=\\%\-_. ]+)")


def read(text: str, source: str, line: int = 1, values_as_givens: bool = False) -> Puzzle:
    """The puzzle of a link, a bare f-puzzles or SudokuPad string, or f-puzzles
    JSON; InputError naming the kind of link and what works, when it holds none."""
    stripped = text.strip()
    if stripped.startswith("{") or (FPUZZLES_LINK.search(stripped) and not _fpuz(stripped)):
        return fpuzzles.read(stripped, source, line, values_as_givens)
    payload = _sudokupad_payload(stripped)
    if payload is not None:
        prefix, data = payload
        if prefix.startswith("fpuz"):
            return fpuzzles.read(data, source, line, values_as_givens)
        return sudokupad.read(_clean(data), source, line)
    url = URL.search(stripped)
    if url is None:  # a bare string: f-puzzles' (it says so when it is none)
        return fpuzzles.read(stripped, source, line, values_as_givens)
    raise InputError(source, line, 1, refusal(url[0]))


def _fpuz(text: str) -> bool:
    """A SudokuPad link to f-puzzles data under its short prefix (``.../fpuz<data>``)."""
    return bool(re.search(r"/fpuz(?!zles)", text))


def _sudokupad_payload(text: str) -> tuple[str, str] | None:
    """(prefix, data) of a SudokuPad link or bare payload that holds its puzzle."""
    url = URL.search(text)
    if url is None:
        bare = PAYLOAD.fullmatch(text)
        return (bare[1], bare[2]) if bare and BARE_PAYLOAD.fullmatch(text) else None
    parts = urlsplit(url[0] if "://" in url[0] else f"https://{url[0]}")
    if not parts.hostname or not parts.hostname.endswith(SUDOKUPAD_HOSTS):
        return None
    query = parse_qs(parts.query)
    path = query["puzzleid"][0] if "puzzleid" in query else unquote(parts.path)
    path = path.strip("/").removeprefix("sudoku/")
    found = PAYLOAD.match(path)
    return (found[1], found[2]) if found else None


def _clean(data: str) -> str:
    """A payload as lz-string reads it: ``%``-escapes undone, spaces back to ``+``."""
    return unquote(data).replace(" ", "+")


def refusal(url: str) -> str:
    """The one line that refuses a link holding no puzzle sudosat can read."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    host = (parts.hostname or "").removeprefix("www.")
    if host.endswith("f-puzzles.com") and "id" in parse_qs(parts.query):
        return (
            "an f-puzzles short link (?id=): its puzzle is kept on f-puzzles' server, "
            "which sudosat does not reach; open it and copy the long link (?load=...) "
            "or export the JSON"
        )
    if host.endswith(SUDOKUPAD_HOSTS):
        return (
            f"a SudokuPad short link ({parts.path.strip('/')[:30]}): its puzzle is kept on "
            "SudokuPad's server, which sudosat does not reach; paste a link that holds "
            "the puzzle (sudokupad.app/scl..., /fpuzzles..., or f-puzzles' ?load=...)"
        )
    if host in SHORTENERS:
        return (
            f"a shortened link ({host}): sudosat does not follow it; open it and paste "
            "the long link it leads to"
        )
    return (
        f"a link sudosat cannot read ({host or url[:30]}): it reads f-puzzles links "
        "(?load=...) and SudokuPad links that hold the puzzle (scl, ctc, fpuzzles)"
    )
