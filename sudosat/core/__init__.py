"""The data model and its plain forms: a puzzle, its candidates as masks, its
errors, how it is written as text, the JSON object type, and the pen a rule draws
with (as a type only). Imports nothing else of sudosat. ``StrEnum`` is the
standard library's, or its backport before Python 3.11."""

import sys

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # the oldest Python the project runs on: the standard library's, backported
    from backports.strenum import StrEnum

__all__ = ["StrEnum"]
"""``StrEnum``: an Enum whose members are their words (``str(Level.EASY) == "easy"``),
kept here (not a module of its own) for the one start-up every command pays."""
