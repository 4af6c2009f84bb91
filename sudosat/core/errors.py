"""The errors every layer raises and the one-line form they are shown in: input
that cannot be read (with its file, line and column), and solvers that fail."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


def printable(text: str) -> str:
    """``text`` safe on one line of a terminal: newlines, escapes and other
    control characters written as Python escapes."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def shorten(token: str, limit: int = 20) -> str:
    """A token as an error message shows it: long ones cut, with their length."""
    if len(token) <= limit:
        return token
    return f"{token[:limit]}... ({len(token):,} characters)"


class InputError(ValueError):
    """Input that cannot be read as a puzzle; carries where and what was expected."""

    def __init__(self, source: str, line: int, col: int, message: str) -> None:
        name = printable(source)
        place = f"{name}:{line}:{col}" if line else name  # line 0: about the file itself
        super().__init__(f"{place}: {printable(message)}")
        self.source, self.line, self.col, self.message = source, line, col, message

    def __reduce__(self) -> tuple[type[InputError], tuple[str, int, int, str]]:
        return type(self), (self.source, self.line, self.col, self.message)  # crosses processes


class NoSuchFile(InputError):
    """A name given as a file that is no file (nor a puzzle, where it could be one)."""


class AmbiguousInput(InputError):
    """Input that reads validly in two ways that give different puzzles."""


class SolverError(RuntimeError):
    """A solver that is missing, crashed, or answered something that cannot be right."""


class SolverTimeout(SolverError):
    """A solver stopped at the deadline, or one that answered UNKNOWN."""
