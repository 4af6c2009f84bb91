"""The reasons a path prints (issue 78): each rule step says why, a rule step's
chains keep to its own rules and houses, and the text of a step stays short."""

from __future__ import annotations

import pytest

from sudosat import parse
from sudosat.core.puzzle import Puzzle
from sudosat.logic.chains import written
from sudosat.logic.path import logical_path
from sudosat.logic.solve_path import technique_of
from sudosat.reading.inputs import read_puzzles
from sudosat.running.paths import chain_lines, sentence
from tests.conftest import PUZZLES

VARIANTS = ["variants.links", "killer.txt", "miracle.txt", "thermo-arrow.json", "kropki-6x6.txt"]
RULE_FAMILIES = ("rule", "rules together")
LOCAL_LINKS = {"assumed", "peer", "cell", "naked single", "contradiction"}


def variant_paths() -> list[tuple[Puzzle, list]]:  # type: ignore[type-arg]
    found = []
    for name in VARIANTS:
        for puzzle in read_puzzles([str(PUZZLES / name)]):
            assert isinstance(puzzle, Puzzle)
            found.append((puzzle, list(logical_path(puzzle).written())))
    return found


@pytest.fixture(scope="module")
def paths() -> list[tuple[Puzzle, list]]:  # type: ignore[type-arg]
    return variant_paths()


@pytest.mark.slow
def test_every_rule_step_says_why(paths: list) -> None:  # type: ignore[type-arg]
    """A rule step's reason goes past its name: the relation its rule states and
    what that leaves (``one digit is twice the other, leaving r1c1 {1248}``), a
    cage's digit sets, the 45 rule's sum, or the chains of a part."""
    steps = [s for _, written_out in paths for s, _ in written_out]
    rule_steps = [s for s in steps if technique_of(s).family in RULE_FAMILIES]
    bare = [s for s in rule_steps if ":" not in s.reason and not s.chains]
    assert rule_steps and len(bare) <= len(rule_steps) // 100, [s.reason for s in bare]


def test_a_rule_step_s_chains_keep_to_its_own_rules_and_houses(paths: list) -> None:  # type: ignore[type-arg]
    """Where a rule step is proved by chains, each link is a peer, a naked single,
    or one of the step's own rules and houses: the short reason its name promises."""
    checked = 0
    for _, written_out in paths:
        for step, chains in written_out:
            if technique_of(step).family not in RULE_FAMILIES or not chains:
                continue
            named = set(step.houses)
            for chain in chains:
                for link in chain.links:
                    inner = link.removeprefix("contradiction (").removesuffix(")")
                    for head in ("hidden single in ", "locked candidates, ", "naked pair, "):
                        inner = inner.removeprefix(head)
                    inner = inner.removeprefix("hidden pair, ")
                    assert link in LOCAL_LINKS or any(inner.startswith(h) for h in named), (
                        step.name,
                        link,
                        written(step_puzzle(paths, step), chain),
                    )
                checked += 1
    assert checked >= 5


def step_puzzle(paths: list, step: object) -> Puzzle:  # type: ignore[type-arg]
    return next(p for p, out in paths if any(s is step for s, _ in out))


def test_the_thermo_arrow_step_is_three_facts_long() -> None:
    """The arrow in row 3 rules 3 out of r3c4: r3c4=3 leaves r3c8 its 5, and the
    arrow then cannot be filled. A handful of facts (with their peer removals),
    not the 30-fact walk through other rules it once was."""
    (puzzle,) = read_puzzles([str(PUZZLES / "thermo-arrow.json")])
    assert isinstance(puzzle, Puzzle)
    for step, chains in logical_path(puzzle).written():
        if step.name == "arrow in its house" and step.eliminations == ((21, 3),):
            (chain,) = chains
            assert len(chain.facts) <= 5, written(puzzle, chain)
            assert chain.broken
            return
    raise AssertionError("no arrow step removing 3 from r3c4")


def test_a_nested_step_is_summarised_in_text_and_whole_in_detail() -> None:
    """Text: the assumption, the removals the chains inside prove, and what breaks;
    each chain inside by its assumptions and end. --detail: every chain in full."""
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    for step, chains in logical_path(puzzle).written():
        if step.inside:
            short = chain_lines(puzzle, step, chains)
            full = chain_lines(puzzle, step, chains, detail=True)
            assert len(short) == len(full) == len(chains)
            assert all("facts to contradiction: " in line for _, line in short)
            assert sum(len(line) for _, line in short) < sum(len(line) for _, line in full)
            assert "by the chains inside" in short[0][1]
            return
    raise AssertionError("AI Escargot's path has no nested step")


@pytest.mark.slow
def test_ai_escargot_s_steps_read_in_600_characters_at_the_95th_percentile() -> None:
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    sizes = sorted(
        len(sentence(puzzle, step))
        + sum(len(line) for _, line in chain_lines(puzzle, step, chains))
        for step, chains in logical_path(puzzle).written()
    )
    assert sizes[int(0.95 * len(sizes))] <= 600, sizes[-10:]
