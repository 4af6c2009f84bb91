"""What a variant's rule steps weigh: the generic rule questions the path asks
(:data:`TIERS`), and the technique a step is weighed as by the smallest part of
a question that did its work (:func:`scope_technique`), on Sudoku Explainer's
scale beside the classic techniques."""

from __future__ import annotations

from sudosat.logic.board import Technique
from sudosat.logic.levels import Family, Level


def scope_technique(rules: int, units: int) -> Technique:
    """The technique a rule step is weighed as, by the smallest scope that did the
    work: a rule alone (1.8), a rule with its houses (2.8, a fifth more for each
    house past the first), rules together (2.9, a fifth more for each rule past
    the second), rules with houses (3.2 and up: a house's innies and outies);
    never past an AIC's 7.0 (a deduction across many houses is a chain's work)."""
    if units == 0 and rules <= 1:
        return RULE
    if rules <= 1:
        weight = 2.8 + 0.2 * (units - 1)
        name = "rule and unit" if units == 1 else f"rule and {units} units"
    elif units == 0:
        weight = 2.9 + 0.2 * (rules - 2)
        name = "rules together" if rules == 2 else f"{rules} rules together"
    else:
        weight = 3.2 + 0.2 * (rules + units - 3)
        name = f"{rules} rules and {units} unit{'s' if units > 1 else ''}"
    weight = min(weight, HEAVIEST)
    if rules + units >= WIDE:  # a last resort: the forcing chains through the rules first
        weight = WIDE_WEIGHT
    level = Level.INTERMEDIATE if weight <= INTERMEDIATE else Level.EXPERT
    return Technique(name, Family.RULES_TOGETHER, round(weight, 1), level)


CAGES = "cage combinations"
"""A killer cage's technique: cages with houses are setters' 45 rule."""


def cages_name(cages: int, houses: int) -> str:
    """Cages with houses: the 45 rule (innies and outies), or one cage whose digits
    its house must hold where the cage is."""
    if cages == 1:
        return "cage in its house" if houses == 1 else f"cage in {houses} houses"
    return "45 rule" if (cages, houses) == (2, 1) else f"45 rule, {cages} cages, {houses} houses"


WIDE = 4
"""Parts (rules and houses) from which a question's step is a last resort: it
weighs past the dynamic forcing chains, so that a chain through the rules, which
shows its implication link by link, is asked for first."""
WIDE_WEIGHT = 8.6

RULE_WEIGHT = 1.8
"""A rule alone: what its own cells may hold (``rule``, or its setters' name)."""
INTERMEDIATE = 3.2
"""The heaviest rule step still rated intermediate (a house with its rules)."""
HEAVIEST = 7.0
"""The most a rule step weighs: an AIC's weight."""

RULE = Technique("rule", Family.RULE, RULE_WEIGHT, Level.EASY)
"""A rule alone."""

TIERS = (
    RULE,
    Technique("rule pair", Family.RULES_TOGETHER, 2.8, Level.INTERMEDIATE),
    Technique("rule and units", Family.RULES_TOGETHER, 3.0, Level.INTERMEDIATE),
    Technique("house and rules", Family.RULES_TOGETHER, 3.2, Level.INTERMEDIATE),
)
"""The generic rule questions, lightest first: a question over a rule and whole
houses is exact, so it holds every classic deduction inside it; the path asks
it only once the classic techniques of its weight or less have run dry, and
its step is weighed by the smallest part of it that did the work
(:func:`scope_technique`)."""
