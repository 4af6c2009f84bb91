"""Variant Sudoku: every rule a small object in a module of its own.

A rule reads itself from f-puzzles and from the text format, writes its
clauses through :class:`builder.Builder`, checks a solved grid on its own
(so a mistake in an encoding is caught, never printed), and says what it is.
Adding a rule is adding a module here (and its test); it registers its rules
with :func:`rule`. A rule's module is imported when one of its names is first
looked up in :data:`BY_FIELD` or :data:`BY_WORD`, which :mod:`index` says
(generated: ``make reference`` writes it, and a test checks it).

The package's own floor: :mod:`base` (what a rule is, and the registry),
:mod:`kinds` (the kinds most rules are: flag, cell mark, group, pair, line,
outside clue), :mod:`where` (a rule's cells as input names them, and its errors).
"""

from __future__ import annotations

from sudosat.core.puzzle import Rules
from sudosat.rules.base import BY_CELL, BY_FIELD, BY_WORD, Rule, load_all, rule
from sudosat.rules.where import Where

__all__ = ["BY_CELL", "BY_FIELD", "BY_WORD", "Rule", "Rules", "Where", "load_all", "rule"]
