"""Variant Sudoku: every rule a small object in a module of its own.

A rule reads itself from f-puzzles and from the text format, writes its
clauses through :class:`builder.Builder`, checks a solved grid on its own
(so a mistake in an encoding is caught, never printed), and says what it is.
Adding a rule is adding a module here (and its test): every module of this
package is imported below, and each registers its rules with :func:`rule`.
"""

from __future__ import annotations

import importlib
import pkgutil

from sudosat.core.puzzle import Rules
from sudosat.rules.base import BY_FIELD, BY_WORD, Rule, Where, rule

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["BY_FIELD", "BY_WORD", "Rule", "Rules", "Where", "rule"]
