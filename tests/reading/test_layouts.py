"""Issue 24: the puzzle files people already have, read as they are.

Project Euler 96's ``sudoku.txt`` (``Grid 01`` above each grid), Sudoku
Explainer's and HoDoKu's bordered grids, Simple Sudoku's .ss and .sdk files,
grids one after another, CSV fields over several lines, and errors that say
what would work."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from sudosat.core.errors import InputError
from sudosat.core.notation import format_line
from sudosat.reading.formats import parse, read_text
from sudosat.showing.console import rich_grid
from tests.conftest import ESCARGOT, PUZZLES, Run, jsonl, shared

LAYOUTS = ["explainer.txt", "hodoku.txt", "simple-sudoku.ss", "simple-sudoku.sdk"]


@pytest.mark.parametrize("name", LAYOUTS)
def test_bordered_layouts_read_as_the_puzzle(name: str, run: Run) -> None:
    puzzle = parse((PUZZLES / name).read_text())
    assert format_line(puzzle) == ESCARGOT
    code, out, err = run("solve", "--format", "line", str(PUZZLES / name))
    assert code == 0, err
    assert out.startswith("162857493")


def test_euler_layout_names_each_grid(run: Run) -> None:
    found = read_text((PUZZLES / "euler-grids.txt").read_text(), "e.txt")
    royle = [line for line in (PUZZLES / "royle17-25.txt").read_text().split() if line[0] != "#"]
    assert [p.name for p in found if not isinstance(p, InputError)] == [
        "Grid 01",
        "Grid 02",
        "Grid 03",
    ]
    assert [format_line(p).replace(".", "0") for p in found if not isinstance(p, InputError)] == (
        royle[:3]
    )
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(PUZZLES / "euler-grids.txt"))
    records = jsonl(out)
    assert code == 0
    assert [(r["name"], r["line"], r["status"]) for r in records] == [
        ("Grid 01", 2, "unique"),
        ("Grid 02", 12, "unique"),
        ("Grid 03", 22, "unique"),
    ]


def test_project_euler_96_sudoku_txt(tmp_path: Path, run: Run) -> None:
    # Norvig's easy50 are Project Euler 96's fifty grids; written in its layout
    easy = shared("norvig/easy50.txt").read_text().split()
    text = "".join(
        f"Grid {i:02d}\n" + "".join(p[r * 9 : r * 9 + 9].replace(".", "0") + "\n" for r in range(9))
        for i, p in enumerate(easy, 1)
    )
    path = tmp_path / "sudoku.txt"
    path.write_text(text)
    code, out, err = run("solve", "--format", "csv", "-q", str(path))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0, err
    assert len(rows) == 50 and {r["status"] for r in rows} == {"unique"}
    assert [r["name"] for r in rows] == [f"Grid {i:02d}" for i in range(1, 51)]
    # PE96's answer: the three digits at the top left of every solution, summed
    assert sum(int(r["solution"][:3]) for r in rows) == 24702


def test_grids_one_after_another_are_several_puzzles(tmp_path: Path, run: Run) -> None:
    rows = [ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)]
    path = tmp_path / "two.txt"
    path.write_text("\n".join(rows) + "\n\n" + "\n".join(rows) + "\n")
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(path))
    assert code == 0
    assert [(r["line"], r["status"]) for r in jsonl(out)] == [(1, "unique"), (11, "unique")]


def test_a_broken_grid_among_named_ones_is_its_own_error_record(tmp_path: Path, run: Run) -> None:
    rows = [ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)]
    broken = [*rows[:4], rows[4][:4] + "x" + rows[4][5:], *rows[5:]]
    text = "Grid 01\n" + "\n".join(rows) + "\nGrid 02\n" + "\n".join(broken) + "\n"
    text += "Grid 03\n" + "\n".join(rows) + "\n"
    path = tmp_path / "three.txt"
    path.write_text(text)
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(path))
    records = jsonl(out)
    assert code == 2
    assert [r["status"] for r in records] == ["unique", "error", "unique"]
    assert "three.txt:16:5: unknown symbol 'x'" in str(records[1]["reason"])


def test_header_lines_between_one_line_puzzles_name_them(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "named.txt"
    path.write_text(f"Puzzle 1\n{ESCARGOT}\nnot a puzzle\n[The second]\n{ESCARGOT}\n")
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(path))
    records = jsonl(out)
    assert code == 2  # the broken line stays an error: never taken for a name
    assert [(r["name"], r["status"]) for r in records] == [
        ("Puzzle 1", "unique"),
        (None, "error"),
        ("The second", "unique"),
    ]


def test_header_lines_in_a_stream_read_as_it_arrives(run: Run) -> None:
    text = "".join(f"Grid {i}\n{ESCARGOT}\n" for i in range(1, 301))
    code, out, _ = run("solve", "--format", "jsonl", "-q", "-", input=text)
    records = jsonl(out)
    assert code == 0 and len(records) == 300
    assert records[-1]["name"] == "Grid 300" and records[-1]["line"] == 600


def test_our_own_rich_grid_reads_back() -> None:
    out = io.StringIO()
    Console(file=out, no_color=True, width=100).print(
        rich_grid(parse(ESCARGOT), parse(ESCARGOT).cells)
    )
    assert format_line(parse(out.getvalue())) == ESCARGOT


def test_csv_fields_over_several_lines_belong_to_their_record(tmp_path: Path, run: Run) -> None:
    rows = [ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)]
    grid = "\n".join(rows)
    path = tmp_path / "quoted.csv"
    path.write_text(f'name,puzzle\nfirst,"{grid}"\nsecond,{ESCARGOT}\nthird,"{grid}\n\n"\n')
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(path))
    records = jsonl(out)
    assert code == 0
    assert [(r["line"], r["status"]) for r in records] == [
        (2, "unique"),
        (11, "unique"),
        (12, "unique"),
    ]
    unclosed = tmp_path / "unclosed.csv"
    unclosed.write_text(f'puzzle,solution\n{ESCARGOT},\n"{ESCARGOT},\n')
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(unclosed))
    assert [r["status"] for r in jsonl(out)] == ["unique", "error"]  # every record, one answer


def test_empty_input_names_every_size(run: Run) -> None:
    code, _, err = run("solve", "-", input="\n# only a comment\n")
    assert code == 2
    assert "16, 81, 256, 625 or 1296 cells (4x4, 9x9, 16x16, 25x25 or 36x36)" in err


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (
            "Puzzle 123\n" + "\n".join(ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)),
            "start it with #",
        ),
        (ESCARGOT + ESCARGOT, "2 puzzles of 81 cells? put each on a line of its own"),
        ("\n".join(ESCARGOT[r * 9 : r * 9 + 9] for r in range(8)), "9 rows of 9 cells, not 8"),
        (
            "\n".join([*(ESCARGOT[r * 9 : r * 9 + 9] for r in range(8)), "1234"]),
            "9 rows of 9 cells",
        ),
    ],
)
def test_a_layout_not_understood_says_what_would_work(text: str, hint: str) -> None:
    with pytest.raises(InputError) as failed:
        parse(text, source="p.txt")
    assert hint in str(failed.value)


def test_names_reach_explain_and_rate(run: Run) -> None:
    path = str(PUZZLES / "euler-grids.txt")
    code, out, _ = run("rate", "--format", "jsonl", "-q", path)
    assert code == 0 and [r["name"] for r in jsonl(out)] == ["Grid 01", "Grid 02", "Grid 03"]
    code, out, _ = run("explain", "--format", "jsonl", "-q", path)
    assert [json.loads(line)["name"] for line in out.splitlines()] == [
        "Grid 01",
        "Grid 02",
        "Grid 03",
    ]


@pytest.mark.parametrize("puzzles", [2, 3, 16, 40])
def test_4x4_puzzles_one_a_line_as_generate_writes_them_read_as_lines(
    tmp_path: Path, run: Run, puzzles: int
) -> None:
    code, made, _ = run("generate", "--rank", "2", "--puzzles", str(puzzles), "-f", "line")
    assert code == 0
    path = tmp_path / "fours.txt"
    path.write_text(made)
    for source, text in ((str(path), None), ("-", made)):  # a file, and a pipe
        code, out, _ = run("solve", "-f", "jsonl", "-q", source, input=text)
        records = [json.loads(line) for line in out.splitlines()]
        assert code == 0 and len(records) == puzzles
        assert [r["puzzle"] for r in records] == made.split()
        assert {r["rank"] for r in records} == {2} and {r["status"] for r in records} == {"unique"}


def test_a_16x16_grid_with_few_givens_is_still_a_grid(tmp_path: Path, run: Run) -> None:
    rows = ["." * 16] * 16
    rows[0] = "1..2............"  # its first rows alone could pass for 4x4 lines
    rows[1] = "..3.....4......."
    rows[5] = ".....9....a....."
    path = tmp_path / "sparse.txt"
    path.write_text("\n".join(rows) + "\n")
    code, out, _ = run("solve", "--alphabet", "hex", "-f", "jsonl", "-q", str(path))
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 1 and records[0]["rank"] == 4 and code == 1  # several solutions
