"""Setting from a blank grid with true candidates on (issue 57): a setter's session
replayed through the plugin's protocol, one part added an edit, every reply
checked (answers, never times) against brute force or a cold answer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudosat import Puzzle, parse
from sudosat.core.puzzle import Grid
from sudosat.making.setting import from_blank
from sudosat.reading.fpuzzles import link
from sudosat.serving.plugin_answers import true_candidates
from sudosat.serving.protocol import Request, make_job
from sudosat.solving import candidates as marking
from tests.serving.test_serve import Plugin, brute_marks, payload, server, talk, truth, variants

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with server() as (_, address):
        yield address


def capped(cap: int) -> dict[str, Any]:
    return {"truecandidatesoptions": [f"truecandidatesnumsolutions={cap}"] if cap > 1 else []}


def expected(grids: list[Grid], size: int, cap: int) -> list[int]:
    """What the plugin shows for each cell and value: the solutions holding it, up to
    the cap."""
    tally = Counter((cell, grid[cell]) for grid in grids for cell in range(size * size))
    return [
        min(tally[cell, value], cap) for cell in range(size * size) for value in range(1, size + 1)
    ]


def replay(url: str, states: list[Puzzle], cap: int) -> list[dict[str, Any]]:
    """Each state's true candidates asked for in turn on one connection, as the
    plugin asks after each edit."""

    async def test(plugin: Plugin) -> list[dict[str, Any]]:
        return [await plugin.ask("truecandidates", payload(s, **capped(cap))) for s in states]

    found: list[dict[str, Any]] = talk(url, test)
    return found


def test_the_session_adds_every_part_once_in_a_setter_s_order() -> None:
    puzzle = parse((PUZZLES / "killer.txt").read_text())
    states = from_blank(puzzle)
    assert puzzle.rules is not None
    assert len(states) == len(puzzle.rules.constraints) + len(puzzle.givens)
    assert not any(states[0].cells) and states[-1].cells == puzzle.cells
    assert set(states[-1].rules.constraints) == set(puzzle.rules.constraints)  # type: ignore[union-attr]
    firsts = [min(rule.cells()) for rule in states[-1].rules.constraints]  # type: ignore[union-attr]
    assert firsts == sorted(firsts)


@pytest.mark.slow
@pytest.mark.parametrize("cap", [1, 3])
def test_setting_from_blank_agrees_with_brute_force(url: str, cap: int) -> None:
    """Every edit's reply, each narrowing the last (what the server starts from),
    against every 4x4 grid."""
    for puzzle in variants(8, 4, first=2000 + cap):
        states = from_blank(puzzle)
        for state, found in zip(states, replay(url, states, cap), strict=True):
            grids = truth(state)
            if not grids:
                assert found["type"] == "invalid"
                continue
            assert found["type"] == "truecandidates"
            assert found["solutionsPerCandidate"] == expected(grids, 4, cap)


def cold_answers(url: str, states: list[Puzzle], cap: int) -> None:
    """Each reply, which starts from the last answers, is the answer of a worker
    that knows nothing."""
    for nonce, (state, found) in enumerate(zip(states, replay(url, states, cap), strict=True)):
        job = make_job(Request(nonce, "truecandidates", "fpuzzles", payload(state, **capped(cap))))
        cold: list[tuple[str, dict[str, Any]]] = []
        true_candidates(job, lambda kind, **fields: cold.append((kind, fields)))  # noqa: B023
        kind, fields = cold[-1]
        assert found["type"] == kind, nonce
        if kind == "truecandidates":
            assert found["solutionsPerCandidate"] == fields["solutionsPerCandidate"], nonce


@pytest.mark.slow
@pytest.mark.parametrize("cap", [1, 8])
def test_setting_a_6x6_from_blank_answers_as_a_cold_server(url: str, cap: int) -> None:
    """(A blank 6x6 has 28 million grids: too many to list.)"""
    for puzzle in variants(2, 6, first=2000 + cap):
        cold_answers(url, from_blank(puzzle), cap)


@pytest.mark.slow
@pytest.mark.parametrize("cap", [1, 8])
@pytest.mark.parametrize("name", ["killer.txt", "thermo-arrow.json"])
def test_setting_a_bundled_puzzle_from_blank_answers_as_a_cold_server(
    url: str, name: str, cap: int
) -> None:
    """The benchmark's sessions."""
    cold_answers(url, from_blank(parse((PUZZLES / name).read_text())), cap)


def test_auto_goes_on_from_minicard_to_cadical_with_what_it_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``auto`` with no patience at all: every solve past Minicard's first conflict
    goes to CaDiCaL, which starts from the witnesses found; the same candidates
    and counts as brute force."""
    monkeypatch.setattr(marking, "PATIENCE", 1)
    found = as_brute_force(variants(8, 4, first=3000) + variants(3, 6, first=3000), "auto", 3)
    assert any(one.outcome.solver == marking.FALLBACK for one in found)


def as_brute_force(puzzles: list[Puzzle], solver: str, cap: int) -> list[marking.Candidates]:
    """Each puzzle's candidates, and the solutions holding each up to ``cap``,
    checked against every solution listed."""
    answers = []
    for puzzle in puzzles:
        grids = truth(puzzle)
        found = marking.candidates(puzzle, solver=solver, count_each=cap)
        answers.append(found)
        if not grids:
            assert str(found.outcome.status) == "none"
            continue
        assert found.marks == brute_marks(grids, puzzle.size)
        for (cell, value), counted in found.counts.items():
            assert int(counted) == min(cap, sum(g[cell] == value for g in grids))
    return answers


def test_the_page_gets_the_candidates_witnessed_so_far_then_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Partial answers (item 4): while a big grid's candidates are found, the page is
    sent those witnessed so far (here after every witness: no time decides it);
    each is part of the final answer, which is the same as without them."""
    from sudosat.serving.page_answers import page

    monkeypatch.setattr(marking, "PROGRESS", 0.0)
    state = from_blank(parse((PUZZLES / "killer.txt").read_text()))[3]
    job = make_job(Request(1, "page", "sudosat", link(state)))
    sent: list[tuple[str, dict[str, Any]]] = []
    page(job, lambda kind, **fields: sent.append((kind, fields)))
    *partial, (kind, final) = sent
    assert kind == "page" and not final.get("inProgress")
    assert final["candidates"] == [list(v) for v in marking.candidates(state).marks]
    assert len(partial) >= 2 and all(fields["inProgress"] for _, fields in partial)
    for _, fields in partial:
        assert all(
            set(some) <= set(every)
            for some, every in zip(fields["candidates"], final["candidates"], strict=True)
        )
    counts = [sum(map(len, fields["candidates"])) for _, fields in partial]
    assert counts == sorted(counts) and counts[-1] <= sum(map(len, final["candidates"]))


@pytest.mark.parametrize("assumed", [1, 3, 16])
def test_many_values_asked_for_at_once_find_every_candidate(
    monkeypatch: pytest.MonkeyPatch, assumed: int
) -> None:
    """A big grid's first marking (many values a solve, cores, values put off, values
    refuted for good), forced on small grids: the candidates and counts of brute
    force."""
    monkeypatch.setattr(marking, "MANY_FROM", 4)
    monkeypatch.setattr(marking, "ASSUMED", assumed)
    as_brute_force(variants(10, 4, first=4000) + variants(3, 6, first=4000), "minicard", 2)
    monkeypatch.setattr(marking, "PATIENCE", 1)  # (auto gives up many at once, then goes on)
    as_brute_force(variants(6, 4, first=4200) + variants(2, 6, first=4200), "auto", 2)
    for state in from_blank(variants(1, 4, first=4100)[0]):
        assert marking.candidates(state).marks == brute_marks(truth(state), 4)
