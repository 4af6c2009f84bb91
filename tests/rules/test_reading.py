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
from tests.conftest import ESCARGOT, PUZZLES, Run, jsonl, shared

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
    assert err.startswith("sudosat solve: <stdin>:1:1: ")


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


@pytest.mark.parametrize("word", ["modular", "entropic"])
def test_a_two_cell_line_of_three_in_a_row_is_a_line_still_being_drawn(word: str, run: Run) -> None:
    """As f-puzzles keeps a line while it is drawn: read, constraining nothing, named."""
    size = "size 4" if word == "modular" else "size 6"
    rows = "....\n" * 4 if word == "modular" else "......\n" * 6
    code, _, err = run("solve", "-f", "line", "-", input=f"{size}\n{word}: r1c1 r1c2\n{rows}")
    assert code == 1, err  # the blank grid's solutions: the line says nothing yet
    assert f"note: {word} at r1c1 to r1c2 has 2 cells so far: a line of 3 or more" in err


@pytest.mark.parametrize(
    "statement",
    ["cage \uff11\uff17: r1c1 r1c2", "cage \u0661\u0667: r1c1 r1c2", "cage 17: r\uff11c1 r1c2"],
)
def test_digits_that_are_not_ascii_make_no_number(statement: str, run: Run) -> None:
    code, _, err = run("solve", "-", input=statement + "\n" + ".........\n" * 9)
    assert code == 2 and err.count("\n") == 1 and ":1:" in err


def test_a_sudokupad_value_in_arabic_digits_is_refused(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": "\u0663"}
    code, _, err = run("solve", "-", input=scl({"id": "x", "cells": cells}) + "\n")
    assert code == 2 and "is no digit" in err


def bomb(codes: int) -> str:
    """An lz-string base64 payload of one "a" and ``codes`` codes, each for the word
    before it and its first letter again: about codes^2 / 2 characters out."""
    bits: list[int] = []

    def write(value: int, width: int) -> None:
        bits.extend((value >> k) & 1 for k in range(width))  # lz-string: low bit first

    write(0, 2)  # an 8-bit character follows
    write(ord("a"), 8)
    entries, width, enlarge = 4, 3, 4
    for _ in range(codes):
        write(entries, width)  # the next entry, not yet made: the last word and its first letter
        entries, enlarge = entries + 1, enlarge - 1
        if enlarge == 0:
            enlarge, width = 1 << width, width + 1
    write(2, width)  # the end
    bits.extend([0] * (-len(bits) % 6))
    sixes = ("".join(map(str, bits[i : i + 6])) for i in range(0, len(bits), 6))
    return "".join(lz.BASE64[int(six, 2)] for six in sixes)


def test_the_bomb_is_what_lz_string_reads() -> None:
    small = bomb(100)
    assert lzstring.LZString().decompressFromBase64(small) == "a" * (1 + sum(range(2, 102)))
    assert lz.decompress_base64(small) == "a" * 5151


@pytest.mark.parametrize(
    "prefix", ["https://www.f-puzzles.com/?load=", "https://sudokupad.app/scl"]
)
def test_an_lz_string_bomb_is_refused_in_one_line(prefix: str, run: Run) -> None:
    payload = bomb(4200)  # 8.8 million characters from 7.7 KB
    assert len(payload) < 10_000
    with pytest.raises(lz.TooLong):
        lz.decompress_base64(payload)
    code, _, err = run("solve", "-", input=prefix + payload + "\n")
    assert code == 2 and err.count("\n") == 1 and "decompresses to more than" in err


LONG = "1" * 5000


@pytest.mark.parametrize(
    "text",
    [
        '{"size": ' + LONG + ', "grid": []}',
        '{"size": 4, "grid": [[{"region": ' + LONG + "}]]}",
        '{"size": 4, "grid": [[{"value": "' + LONG + '", "given": true}]]}',
        f"cage 5: r{LONG}c1\n" + ".........\n" * 9,
        '{"puzzle": "' + "." * 81 + '", "line": ' + LONG + "}",
    ],
    ids=["size", "region", "value", "cell name", "record line"],
)
def test_a_number_of_thousands_of_digits_is_an_input_error(text: str, run: Run) -> None:
    code, _, err = run("solve", "-", input=text + "\n")
    assert code == 2 and err.count("\n") == 1


def test_a_sudokupad_value_of_thousands_of_digits_is_an_input_error(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    link_text = scl({"id": "x", "cells": cells}).replace("ce:", "ce:")
    packed = zipped({"id": "x", "cells": cells}).replace("[[,,,]", f"[[{{v:{LONG}}},,,]", 1)
    code, _, err = run("solve", "-", input=link_text[:0] + scl_of(packed) + "\n")
    assert code == 2 and err.count("\n") == 1


def scl_of(packed: str) -> str:
    return "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(packed)


def test_a_sudokupad_global_that_is_no_list_is_refused(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    code, _, err = run("solve", "-", input=scl({"id": "x", "cells": cells, "global": 5}) + "\n")
    assert code == 2 and "expected global: a list" in err


RELLIK = "rellik 5: r1c1 r1c2\n" + ".........\n" * 9


@pytest.mark.parametrize("command", ["solve", "candidates"])
def test_a_rule_fpuzzles_cannot_hold_is_an_input_error_in_its_format(
    command: str, run: Run
) -> None:
    code, _, err = run(command, "-f", "fpuzzles", "-", input=RELLIK)
    assert code == 2 and err.count("\n") == 1 and "no field for rellik" in err


def test_a_sudokupad_link_without_its_scheme_is_read() -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": 3}
    full = scl({"id": "x", "cells": cells})
    for text in (full, full.removeprefix("https://"), "www." + full.removeprefix("https://")):
        assert parse(text).cells[0] == 3


def test_sudokupad_regions_that_share_a_cell_or_name_no_cell_are_refused(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    twice = [
        [[0, 0], [0, 1], [1, 0], [1, 1]],
        [[0, 0], [0, 2], [0, 3], [1, 2]],
        [[1, 3], [2, 0], [2, 1], [3, 0]],
        [[3, 1], [2, 2], [2, 3], [3, 2], [3, 3]],
    ]
    code, _, err = run(
        "solve", "-", input=scl({"id": "x", "cells": cells, "regions": twice}) + "\n"
    )
    assert code == 2 and "R1C1 is in two regions" in err
    cage = {"cells": [[True, False], [0, 1]], "value": "3"}
    code, _, err = run("solve", "-", input=scl({"id": "x", "cells": cells, "cages": [cage]}) + "\n")
    assert code == 2 and "expected a cell [row, column]" in err


def test_refusals_are_input_errors_in_the_library_too() -> None:
    with pytest.raises(InputError):
        parse("size 4\nmodular: r1c1 r1c3\n" + "....\n" * 4)  # not a line: no step between


@pytest.mark.parametrize("given", ['"true"', "1", '"yes"', "[]"])
def test_a_given_that_is_no_boolean_is_refused_not_dropped(given: str, run: Run) -> None:
    def text(marked: str) -> str:
        cells = ['{"value": 1, "given": ' + marked + "}"] + ["{}"] * 15
        rows = [", ".join(cells[r * 4 : r * 4 + 4]) for r in range(4)]
        return '{"size": 4, "grid": [' + ", ".join(f"[{row}]" for row in rows) + "]}"

    code, _, err = run("solve", "-", input=text(given))
    assert code == 2 and "R1C1: given" in err and "expected true or false" in err
    code, out, _ = run("solve", "-f", "grid", "-", input=text("true"))
    assert code == 1 and out.startswith("1")  # taken as a given: several solutions with it


SKETCHES = {
    # a part still being drawn, as text and as f-puzzles keeps it; what it says it lacks
    "arrow: r2c2": (
        {"arrow": [{"cells": ["R2C2"], "lines": []}]},
        "arrow at r2c2 has no shaft yet",
    ),
    "arrow: r2c2 r2c3": ({"arrow": [{"cells": ["R2C2", "R2C3"]}]}, "arrow at r2c2 to r2c3 has no"),
    "thermo: r1c1": (
        {"thermometer": [{"lines": [["R1C1"]]}]},
        "thermo at r1c1 has one cell so far",
    ),
    "palindrome: r3c3": (
        {"palindrome": [{"lines": [["R3C3"]]}]},
        "palindrome at r3c3 has one cell so far",
    ),
    "whispers: r4c4": ({"whispers": [{"lines": [["R4C4"]]}]}, "whispers at r4c4 has one cell so"),
}


@pytest.mark.parametrize("text", sorted(SKETCHES))
def test_a_part_still_being_drawn_is_kept_drawn_and_constrains_nothing(text: str) -> None:
    from sudosat import count
    from sudosat.reading.fpuzzles import write

    field, says = SKETCHES[text]
    blank = "1.3.....2......." if text.startswith("arrow") else "1..............."
    plain = parse(blank)
    for read in (parse(f"{text}\n{blank}\n"), parse(json.dumps({**write(plain), **field}))):
        assert read.rules is not None
        (sketch,) = read.rules.constraints
        assert sketch.note(4).startswith(says)
        assert count(read, max_solutions=999) == count(plain, max_solutions=999)  # nothing yet
        again = parse(f"{sketch.text(4)}\n{blank}\n")  # written back, read back: the same
        assert again.rules is not None and again.rules.constraints == read.rules.constraints
        out = write(read)  # and as f-puzzles keeps it
        assert parse(json.dumps(out)).rules.constraints == read.rules.constraints  # type: ignore[union-attr]


def test_a_part_still_being_drawn_is_named_once_beside_the_answer(run: Run) -> None:
    code, _, err = run("solve", "-f", "line", "-", input="arrow: r2c2\nthermo: r1c1\n" + "." * 81)
    assert code == 1
    notes = [line for line in err.splitlines() if "note:" in line]
    assert notes == [
        "<stdin>:3: note: arrow at r2c2 has no shaft yet; thermo at r1c1 has one cell so far: "
        "a line of 2 or more says something (constraining nothing until drawn)"
    ]
