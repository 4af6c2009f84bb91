"""Reading what setters type and paste: every rule checked as it is read, one
line naming each mistake, CSV told apart from rule lines, links of every kind
(SudokuPad's own included), and no wrong status where the givens break a rule."""

from __future__ import annotations

import json
from pathlib import Path

import lzstring
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat import parse, solve
from sudosat.core.errors import InputError
from sudosat.reading import lz
from sudosat.reading.fpuzzles import link
from sudosat.reading.inputs import read_puzzles

from ..conftest import ESCARGOT, PUZZLES, Run, jsonl, shared

KILLER = PUZZLES / "killer.txt"


# --- a rule the givens or the forced grid break: none, never error -------------------


def royle(count: int) -> list[str]:
    lines = shared("royle17/sudoku17_royle49151.txt").read_text().splitlines()
    return lines[:count]


def test_anti_king_on_royles_17s_is_none_for_all(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "royle.txt"
    path.write_text("\n".join(royle(25)) + "\n")
    code, out, _ = run("solve", str(path), "--rules", "anti-king", "-f", "jsonl", "-q")
    records = jsonl(out)
    assert code == 3 and len(records) == 25
    assert {r["status"] for r in records} == {"none"}


@pytest.mark.parametrize(
    ("rules", "grid", "says"),
    [
        ("anti-knight, diagonals", ESCARGOT, "anti-knight"),
        ("cage 3: r1c1 r1c2", "15" + "." * 79, "cage"),
        ("even: r1c2", ".1" + "." * 79, "even"),
    ],
)
def test_a_rule_the_givens_break_is_none(rules: str, grid: str, says: str, run: Run) -> None:
    code, out, _ = run("solve", "-", "--rules", rules, "-f", "json", input=grid)
    record = json.loads(out)
    assert code == 3 and record["status"] == "none"
    code, out, _ = run("explain", "-", "--rules", rules, "-f", "json", input=grid)
    conflict = json.loads(out)["conflict"]
    assert code == 3 and any(part.startswith(says) for part in conflict)
    assert any("=" in part for part in conflict)  # the givens with the rule


def test_the_singles_forced_grid_breaking_a_rule_names_it(run: Run) -> None:
    first = royle(1)[0]
    code, out, _ = run("solve", "-", "--rules", "anti-king", "-f", "json", input=first)
    assert code == 3
    assert "the givens force a grid that breaks anti-king" in json.loads(out)["reason"]


def test_explain_of_a_batch_with_such_puzzles_answers_every_line(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join([ESCARGOT, *royle(3)]) + "\n")
    code, out, _ = run("explain", str(path), "--rules", "anti-king", "-f", "jsonl", "-q")
    records = jsonl(out)
    assert [r["status"] for r in records] == ["none"] * 4 and code == 3


# --- every rule checked as it is read ------------------------------------------------


@pytest.mark.parametrize(
    ("statement", "says"),
    [
        ("sandwich 40: r0c1", "sandwich 40: expected 0 to 35 but 1, 34 on a 9x9"),
        ("sandwich 1: r0c1", "but 1, 34"),
        ("x-sum 2: r1c0", "x-sum 2: expected 1 to 45 but 2, 4"),
        ("skyscraper 10: r1c0", "skyscraper 10: expected 1 to 9"),
        ("arrow: r1c1 > " + " ".join(f"r2c{c}" for c in range(1, 10)) + " r3c9", "add up to 10"),
        ("arrow: r1c1 r1c2 > r2c2", "a pill of 2 cells reads 11 to 99"),
        ("arrow: r1c1 > r3c3", "does not touch its circle"),
        ("arrow: r1c1 r1c3 > r2c2", "a pill's cells must touch one another"),
        ("difference: r1c1 r1c3", "r1c1 and r1c3 are not side by side"),
        ("ratio: r1c1 r2c2", "not side by side"),
        ("x: r1c1 r3c1", "not side by side"),
        ("thermo: r1c1 r1c3", "r1c1 to r1c3 is no step of a line"),
        ("whispers: r1c1 r3c3", "is no step of a line"),
        ("renban: r1c1 r1c2 r1c4", "r1c2 to r1c4 is no step of a line"),
        ("little-killer 23: r0c1 xx", "expected a direction dl, dr, ul or ur, found 'xx'"),
        ("little-killer 10: r1c1 r1c2", "a little killer's cells are a whole diagonal"),
        ("little-killer 10: r2c2 r3c3", "a whole diagonal, edge to edge"),
        ("ratio 0: r1c1 r1c2", "a black dot of 0: digits 1..9 are in ratios 2 to 9"),
        ("difference 9: r1c1 r1c2", "a white dot of 9"),
        ("whispers 9: r1c1 r1c2", "whispers 9: digits 1..9 differ by 1 to 8"),
        ("row-indexer 5: r1c1", "row-indexer takes no number, found 5"),
        ("thermo 3: r1c1 r1c2", "thermo takes no number"),
        ("rellik: r1c1 r1c2", "a rellik cage needs its number"),
        ("anti-kngiht", "unknown rule 'anti-kngiht'; did you mean anti-knight"),
        ("kropky: r1c1 r1c2", "unknown rule 'kropky'; known:"),
        ("cage 15 r1c1 r1c2", "expected a colon before the cells: cage 15: r1c1"),
    ],
)
def test_each_bad_rule_is_one_line_naming_it(statement: str, says: str, run: Run) -> None:
    code, _, err = run("solve", "-", input=f"{statement}\n")
    assert code == 2 and says in err and err.count("\n") == 1, err
    assert err.startswith("Error: <stdin>:1:1: ")


def test_negative_difference_is_the_nonconsecutive_flag() -> None:
    assert parse("negative: difference\n").rules == parse("nonconsecutive\n").rules


# --- a first line with a comma --------------------------------------------------------


@pytest.mark.parametrize(
    "first",
    ["anti-knight, diagonals", "AI Escargot, 2006", "negative: ratio, xv", "anti-king, disjoint"],
)
def test_a_first_line_with_a_comma_above_a_grid_is_no_csv(first: str, run: Run) -> None:
    grid = "\n".join(ESCARGOT[i : i + 9] for i in range(0, 81, 9))
    code, _, err = run("solve", "-", "-f", "line", input=f"{first}\n{grid}\n")
    assert "CSV" not in err and code in (0, 3), err


def test_a_csv_without_a_puzzle_column_is_still_named(run: Run) -> None:
    code, _, err = run("solve", "-", input="name,year\nescargot,2006\n")
    assert code == 2 and "a CSV header naming no puzzle column" in err


def test_a_misspelled_rule_in_a_file_is_no_row_of_cells(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "p.txt"
    path.write_text("anti-kngiht\n" + (PUZZLES / "ai-escargot.txt").read_text())
    code, _, err = run("solve", str(path))
    assert code == 2 and "p.txt:1:1: anti-kngiht: unknown rule 'anti-kngiht'" in err
    assert "did you mean anti-knight?" in err and "cells" not in err


def test_inline_comments_after_statements(run: Run) -> None:
    code, out, _ = run("solve", "-", "-f", "line", input="cage 3: r1c1 r1c2   # a comment\n")
    assert code == 1 and out.strip()


# --- links ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("https://f-puzzles.com/?id=y2k4bd5u", "an f-puzzles short link (?id=)"),
        ("https://sudokupad.app/wsj7iunsg6", "a SudokuPad short link (wsj7iunsg6)"),
        ("https://tinyurl.com/2p8a4bzx", "a shortened link (tinyurl.com)"),
        ("https://bit.ly/3xyz", "a shortened link (bit.ly)"),
        ("https://example.com/sudoku?x=1", "a link sudosat cannot read (example.com)"),
    ],
)
def test_links_that_hold_no_puzzle_say_which_kind_and_what_works(
    text: str, says: str, run: Run
) -> None:
    code, _, err = run("solve", "-", input=text + "\n")
    assert code == 2 and says in err and err.count("\n") == 1, err


def test_links_in_a_batch_get_a_record_each(run: Run) -> None:
    lines = ["https://tinyurl.com/2p8a4bzx", link(parse(KILLER.read_text()))]
    _, out, _ = run("solve", "-", "-f", "jsonl", "-q", input="\n".join(lines) + "\n")
    assert [r["status"] for r in jsonl(out)] == ["error", "unique"]


def zipped(data: dict[str, object]) -> str:
    """A puzzle in SudokuPad's zipped JSON: keys bare, strings in single quotes,
    empty cells left out of the rows, the short keys of its key map."""
    text = json.dumps(data, separators=(",", ":")).replace('"', "'")
    for key in ("cells", "regions", "cages", "value", "title", "overlays", "lines"):
        short = {"cells": "ce", "regions": "re", "cages": "ca", "value": "v", "title": "t"}
        text = text.replace(f"'{key}':", f"{short.get(key, key[0])}:")
    text = text.replace("'id':", "id:").replace("'metadata':", "metadata:")
    return text.replace("{}", "")


def scl(data: dict[str, object]) -> str:
    return "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(zipped(data))


def killer_as_sudokupad() -> dict[str, object]:
    puzzle = parse(KILLER.read_text())
    assert puzzle.rules is not None
    cages = [
        {"cells": [[c // 9, c % 9] for c in cage.cells()], "value": str(cage.value)}
        for cage in puzzle.rules.constraints
    ]
    cells = [[{} for _ in range(9)] for _ in range(9)]
    return {"id": "test", "cells": cells, "cages": cages, "metadata": {"title": "A killer"}}


def test_a_sudokupad_link_reads_its_givens_regions_and_cages() -> None:
    data = killer_as_sudokupad()
    assert zipped(data).startswith("{id:'test',ce:[[,,,,,,,,],")
    puzzle = parse(scl(data))
    original = parse(KILLER.read_text())
    assert puzzle.name == "A killer"
    assert solve(puzzle).solutions == solve(original).solutions
    jigsaw = parse((PUZZLES / "jigsaw.txt").read_text())
    regions = [[[c // 9, c % 9] for c in region] for region in jigsaw.layout.regions]
    rows = [[{"value": v} if v else {} for v in jigsaw.cells[r * 9 : r * 9 + 9]] for r in range(9)]
    again = parse(scl({"id": "j", "cells": rows, "regions": regions}))
    assert again.layout.regions == jigsaw.layout.regions and again.cells == jigsaw.cells
    bare = scl({"id": "j", "cells": rows, "regions": regions}).removeprefix(
        "https://sudokupad.app/"
    )
    assert parse(bare).cells == jigsaw.cells


def test_a_sudokupad_puzzle_with_drawn_rules_is_refused_naming_them(run: Run) -> None:
    data = killer_as_sudokupad()
    data["lines"] = [{"wayPoints": [[0.5, 0.5], [1.5, 1.5]], "color": "#67f067"}]
    data["overlays"] = [{"center": [1, 0.5], "width": 0.3}]
    code, _, err = run("solve", "-", input=scl(data) + "\n")
    assert code == 2 and err.count("\n") == 1
    assert "SudokuPad link: it holds lines, overlays (dots, circles, text)" in err


def test_a_sudokupad_link_of_fpuzzles_data_is_read(run: Run) -> None:
    data = link(parse(KILLER.read_text())).split("load=")[1]
    code, out, _ = run("solve", "-", "-f", "line", input=f"https://sudokupad.app/fpuzzles{data}\n")
    assert code == 0 and out.strip()


# --- drawings that carry no rule ------------------------------------------------------


def test_a_puzzle_with_plain_lines_that_is_not_unique_says_so_on_stderr(
    tmp_path: Path, run: Run
) -> None:
    data = {
        "size": 9,
        "grid": [[{} for _ in range(9)] for _ in range(9)],
        "line": [{"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#67F067", "width": 0.3}],
    }
    path = tmp_path / "whispers.json"
    path.write_text(json.dumps(data))
    for fmt in ("line", "jsonl", "json"):
        code, _, err = run("solve", str(path), "-f", fmt)
        assert code == 1 and "note: multiple with drawings that carry no rule" in err
        assert "(line)" in err
    unique = tmp_path / "plain.json"
    data["grid"] = parse(ESCARGOT).cells and json.loads(json.dumps(data["grid"]))
    for cell, value in enumerate(parse(ESCARGOT).cells):
        if value:
            data["grid"][cell // 9][cell % 9] = {"value": value, "given": True}  # type: ignore[index]
    unique.write_text(json.dumps(data))
    code, _, err = run("solve", str(unique), "-f", "line")
    assert code == 0 and "note" not in err


def test_read_puzzles_reads_every_kind_of_link_line(tmp_path: Path) -> None:
    path = tmp_path / "links.txt"
    path.write_text(scl(killer_as_sudokupad()) + "\nhttps://bit.ly/x\n")
    first, second = list(read_puzzles(str(path)))
    assert not isinstance(first, InputError) and isinstance(second, InputError)


def _package_decompress(data: str) -> str | None:
    """What the ``lzstring`` package reads from ``data``; None where it fails."""
    values = {char: i for i, char in enumerate(lz.BASE64)} | {"\\": 64}
    try:
        found = lzstring._decompress(len(data), 32, lambda index: values[data[index]])
    except Exception:
        return None
    return found if isinstance(found, str) else None


TEXTS = st.text(alphabet=st.sampled_from('ab{}":,[]0123456789 é€truefalsgiven'), max_size=400)


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.data())
def test_lz_reads_what_the_package_reads_whole_or_damaged(text: str, data: st.DataObject) -> None:
    packed = lzstring.LZString().compressToBase64(text)
    assert lz.decompress_base64(packed) == text == _package_decompress(packed)
    where = data.draw(st.integers(0, len(packed)))
    damaged = data.draw(
        st.sampled_from(
            [
                packed[:where],
                packed[:where] + data.draw(st.sampled_from(lz.BASE64 + "\\!")) + packed[where:],
                packed[:where] + packed[where + 1 :],
            ]
        )
    )
    assert lz.decompress_base64(damaged) == _package_decompress(damaged)


def test_lz_reads_every_bundled_link_as_the_package_does() -> None:
    links = [
        line.split("load=", 1)[1].strip()
        for line in (PUZZLES / "variants.links").read_text().splitlines()
        if "load=" in line
    ]
    assert links
    for data in links:
        assert lz.decompress_base64(data) == _package_decompress(data) is not None
