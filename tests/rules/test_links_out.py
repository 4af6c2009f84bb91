"""Links out that f-puzzles draws the same: each rule under the field f-puzzles
(1.11.2) knows it by where it has one; otherwise under its own (for sudosat and
f-puzzles' new-constraints script) and as setters draw it in f-puzzles (a line,
text in the ring around the grid, shaded cells), its meaning in the rules text.
Each link reads back into sudosat rule by rule."""

from __future__ import annotations

import json

import pytest

from sudosat import Puzzle
from sudosat.reading.formats import parse
from sudosat.reading.fpuzzles import NATIVE, write
from sudosat.reading.ruletext import apply, from_option
from sudosat.rules import BY_WORD
from tests.conftest import Run

F_PUZZLES_NATIVE = {
    # f-puzzles 1.11.2's own constraints (tool_categorization.js), as its JSON names them
    *("diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups", "nonconsecutive"),
    *("extraregion", "odd", "even", "thermometer", "palindrome", "killercage"),
    *("littlekillersum", "sandwichsum", "difference", "ratio", "clone", "arrow", "betweenline"),
    *("minimum", "maximum", "xv", "quadruple"),
}
COSMETICS = ("line", "circle", "rectangle", "text", "cage")
KINDS = sorted(
    {kind for kind in BY_WORD.values() if kind.__module__.startswith("sudosat.rules")},
    key=lambda kind: kind.__name__,
)


def test_the_native_list_is_f_puzzles_own() -> None:
    assert NATIVE - {"negative"} == F_PUZZLES_NATIVE


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_every_kind_goes_out_as_f_puzzles_draws_it_and_comes_back(kind: type) -> None:
    puzzle = apply(Puzzle.empty(3), (from_option(kind.example),))
    assert puzzle.rules is not None
    if not kind.field:
        pytest.skip(f"{kind.__name__}: f-puzzles has no field for it (no link is made)")
    data = write(puzzle)
    fields = set(data) - {"size", "grid", "title", "author", "ruleset"}
    drawn = [k for k in COSMETICS if k in data]
    if kind.field in F_PUZZLES_NATIVE | {"negative"}:  # (f-puzzles' list of negated ones)
        assert kind.field in data or kind.cell_key, fields
        assert not drawn, drawn  # f-puzzles draws it itself
    elif kind.cell_key:  # kept in the grid's cells, as f-puzzles' scripts keep it
        assert any(kind.cell_key in cell for row in data["grid"] for cell in row)
    else:
        assert kind.field in data, fields  # its own field: sudosat and the script read it
        assert drawn and all(s.get("isNewConstraint") for k in drawn for s in data[k])
        title = kind.title[:1].upper() + kind.title[1:]
        assert f"{title}: {kind.meaning}" in data["ruleset"]
    again = parse(json.dumps(data))
    assert again.rules is not None
    assert sorted(map(repr, again.rules.constraints)) == sorted(map(repr, puzzle.rules.constraints))


def test_a_plain_kropki_dot_carries_no_number() -> None:
    puzzle = parse("difference: r1c1 r1c2\nratio: r2c1 r2c2\ndifference 3: r3c1 r3c2\n" + "." * 81)
    data = write(puzzle)
    assert data["difference"][0] == {"cells": ["R1C1", "R1C2"]}
    assert data["ratio"][0] == {"cells": ["R2C1", "R2C2"]}
    assert data["difference"][1] == {"cells": ["R3C1", "R3C2"], "value": "3"}


def test_a_slow_thermometer_keeps_its_bulb_and_outside_clues_their_numbers() -> None:
    puzzle = parse("slow-thermo: r5c5 r5c6 r5c7\nxsum 15: r0c3\nskyscraper 3: r4c0\n" + "." * 81)
    data = write(puzzle)
    assert data["circle"][0]["cells"] == ["R5C5"]
    assert data["line"][0]["lines"] == [["R5C5", "R5C6", "R5C7"]]
    assert [(t["cells"], t["value"]) for t in data["text"]] == [(["R0C3"], "15"), (["R4C0"], "3")]


def test_the_setter_s_own_rules_text_is_kept_and_not_said_twice() -> None:
    puzzle = parse("ruleset: X-sum: as usual.\nxsum 15: r0c3\n" + "." * 81)
    data = write(puzzle)
    assert data["ruleset"].startswith("X-sum: as usual.") and data["ruleset"].count("X-sum:") == 1


def dropped(text: str, *fields: str) -> str:
    """The link of ``text`` as an editor that does not know ``fields`` saves it
    again (f-puzzles 1.11.2): those fields gone, the drawn copies and the rules
    text kept."""
    from sudosat.reading.fpuzzles import pack

    data = write(parse(text))
    for field in fields:
        del data[field]
    return pack(data)


LOST = "size 9\n" + "." * 81 + "\nrenban: r1c1 r1c2 r1c3\nwhispers: r5c1 r5c2 r5c3\n"
LOST += "cage 6: r9c1 r9c2\n"


def test_a_link_whose_rules_an_editor_dropped_names_them() -> None:
    puzzle = parse(dropped(LOST, "renban", "whispers"))
    assert puzzle.rules is not None
    assert puzzle.rules.lost == ("renban line", "whispers line")
    assert len(puzzle.rules.constraints) == 1  # the cage f-puzzles knows is kept
    assert not parse(dropped(LOST)).rules.lost  # type: ignore[union-attr]  # nothing dropped


def test_solve_warns_of_rules_a_link_holds_as_shapes_only(run: Run) -> None:
    code, _, err = run("solve", "-f", "line", dropped(LOST, "renban"))
    assert code == 1  # without its renban the puzzle has several solutions
    assert "warning: this link holds its renban line rules as shapes only" in err
    code, out, err = run("solve", "-f", "jsonl", dropped(LOST, "renban"))
    assert code == 1 and json.loads(out)["status"] == "multiple"
    assert "as shapes only" in err  # every format says it
