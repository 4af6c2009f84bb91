"""The words a difficulty is given in: a puzzle's rating level and the family a
technique belongs to, and where a path ends. One difficulty model (the
logical path, :mod:`path`) gives both the first: a technique has a family and
a level, and a puzzle's level is the highest of its path's techniques."""

from __future__ import annotations

from sudosat.core import StrEnum


class Level(StrEnum):
    """A puzzle's level, easiest first: the hardest technique its path needs."""

    SIMPLE = "simple"
    """Naked singles alone."""
    EASY = "easy"
    """Hidden singles too; a variant's rules one at a time."""
    INTERMEDIATE = "intermediate"
    """Locked candidates; a variant's rules together, and with their houses."""
    EXPERT = "expert"
    """Pairs, fish, wings, colouring, chains, forcing chains, nested chains."""

    @property
    def order(self) -> int:
        """Its place, easiest first (0: simple)."""
        return LEVELS.index(self)


LEVELS: tuple[Level, ...] = tuple(Level)
LEVEL_NAMES = {"medium": Level.INTERMEDIATE, "hard": Level.EXPERT}
"""Everyday names for levels, as puzzle books print them."""


def level_named(name: str) -> Level:
    """The level of a name (a level's own, or an everyday one); ValueError else."""
    if name in LEVEL_NAMES:
        return LEVEL_NAMES[name]
    try:
        return Level(name)
    except ValueError:
        raise ValueError(f"unknown level {name!r}; choose from {', '.join(LEVELS)}") from None


class Family(StrEnum):
    """The family of a technique: what ``--without`` leaves out."""

    SINGLES = "singles"
    LOCKED = "locked"
    SUBSETS = "subsets"
    FISH = "fish"
    WINGS = "wings"
    CHAINS = "chains"
    FORCING = "forcing"
    UNIQUENESS = "uniqueness"
    """Asked only of a puzzle known to have one solution (unique rectangles, BUG+1)."""
    BIFURCATION = "bifurcation"
    RULE = "rule"
    """A variant's rule alone."""
    RULES_TOGETHER = "rules together"


FAMILIES: tuple[Family, ...] = (
    Family.LOCKED,
    Family.SUBSETS,
    Family.FISH,
    Family.WINGS,
    Family.UNIQUENESS,
    Family.CHAINS,
    Family.FORCING,
    Family.RULES_TOGETHER,
)
"""The families a person can leave out (the singles and a rule alone always stay:
without them nothing is placed; a guess is asked for, never left out)."""


class End(StrEnum):
    """Where a path ended."""

    SOLVED = "solved"
    STUCK = "stuck"
    """No technique applies."""
    CONTRADICTION = "contradiction"
    """The puzzle has no solution."""
    TIMEOUT = "timeout"
    HINT = "hint"
    """The first step only was asked for."""
