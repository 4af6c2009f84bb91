"""Variant puzzles through every command: f-puzzles and text input, every format,
batches, solver programs, portfolios, cnf and decode, explain, rate; bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sudosat import parse, solve
from sudosat.core.errors import InputError, SolverError
from sudosat.core.puzzle import Layout
from sudosat.reading.formats import read_text
from sudosat.reading.fpuzzles import link
from sudosat.rules import Rule, Rules, rule
from sudosat.rules.kinds import CellRule
from sudosat.sat.cnf import Encoding
from tests.conftest import PUZZLES, SUDOSAT, Run, jsonl

KILLER = PUZZLES / "killer.txt"
JIGSAW = PUZZLES / "jigsaw.txt"
THERMO = PUZZLES / "thermo-arrow.json"
LINKS = PUZZLES / "variants.links"
SIX = PUZZLES / "kropki-6x6.txt"
SAMPLES = [KILLER, JIGSAW, THERMO, LINKS, SIX]


def answers(path: Path) -> list[str]:
    """The samples' solutions, from the engine and again from Glucose on the full CNF."""
    found = []
    for puzzle in read_text(path.read_text(), str(path)):
        assert not isinstance(puzzle, InputError)
        first = solve(puzzle)
        second = solve(puzzle, solver="glucose4", encoding=Encoding(reduced=False))
        assert first.status == second.status == "unique"
        assert first.solutions == second.solutions
        found.append("".join(map(str, first.solutions[0])))
    return found


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_are_unique_by_two_solvers_and_the_command(path: Path, run: Run) -> None:
    expected = answers(path)
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(path))
    records = jsonl(out)
    assert code == 0 and [r["status"] for r in records] == ["unique"] * len(expected)
    assert [str(r["solution"]).replace(" ", "") for r in records] == expected


def test_every_format_and_count(run: Run) -> None:
    for fmt in ("line", "grid", "json", "jsonl", "csv", "rich"):
        code, out, _ = run("solve", "--format", fmt, str(THERMO))
        assert code == 0 and out.strip(), fmt
    code, out, _ = run("solve", "--count", str(KILLER))
    assert code == 0 and out.strip() == "1"
    code, out, _ = run("solve", "-n", "1", "--format", "json", str(JIGSAW))
    assert code == 0 and json.loads(out)["status"] == "solved"
    loose = "cage 3: r1c1 r1c2\n" + "." * 81 + "\n"  # a cage alone: many grids
    code, out, _ = run("solve", "--count", "-n", "5", "-", input=loose)
    assert code == 1 and out.strip() == "5+"


def test_stats_name_the_clause_families(run: Run) -> None:
    code, out, _ = run("solve", "--stats", "--format", "json", str(THERMO))
    families = json.loads(out)["stats"]["families"]
    assert code == 0
    assert families["thermometers: increasing from the bulb"] > 0
    assert families["arrows: circle = sum of the line"] > 0
    code, _, err = run("solve", "--stats", "--format", "line", str(KILLER))
    assert "killer cages: distinct digits, sums" in err


@pytest.mark.parametrize("program", ["minisat", "cadical", "picosat"])
def test_solver_programs_and_a_portfolio(program: str, run: Run) -> None:
    if not shutil.which(program):
        pytest.skip(f"{program} is not installed")
    expected = answers(JIGSAW)
    code, out, err = run("solve", "--solver", program, "--format", "line", str(JIGSAW))
    assert code == 0 and out.strip() == expected[0], err
    code, out, _ = run(
        "solve", "--solver", f"cadical195,{program}", "--format", "line", str(KILLER)
    )
    assert code == 0 and out.strip() == answers(KILLER)[0]


@pytest.mark.slow
def test_cnf_writes_each_family_in_a_comment_block_and_decode_reads_it(tmp_path: Path) -> None:
    if not shutil.which("cadical"):
        pytest.skip("cadical is not installed")
    cnf = subprocess.run([str(SUDOSAT), "cnf", str(THERMO)], capture_output=True, text=True)
    assert cnf.returncode == 0
    blocks = [line for line in cnf.stdout.splitlines() if line.startswith("c --- ")]
    assert any("thermometers" in b for b in blocks) and any("arrows" in b for b in blocks)
    answer = subprocess.run(["cadical", "-q"], input=cnf.stdout, capture_output=True, text=True)
    decoded = subprocess.run(
        [str(SUDOSAT), "decode", str(THERMO), "-", "--format", "line"],
        input=answer.stdout,
        capture_output=True,
        text=True,
    )
    assert decoded.returncode == 0 and decoded.stdout.strip() == answers(THERMO)[0]


@pytest.mark.slow
def test_explain_names_givens_and_rules_together(tmp_path: Path, run: Run) -> None:
    broken = tmp_path / "broken.txt"
    grid = "5" + "." * 80
    broken.write_text(f"cage 3: r1c1 r1c2\ncage 17: r1c2 r1c3\nthermo: r2c1 r2c2 r2c3\n{grid}\n")
    code, out, _ = run("explain", "--format", "json", str(broken))
    found = json.loads(out)
    assert code == 3
    assert sorted(found["conflict"]) == ["cage r1c1-r1c2 sum 3", "r1c1=5"]
    assert found["fewest_removed"] == 1
    several = tmp_path / "several.txt"
    several.write_text("cage 3: r1c1 r1c2\n" + "." * 81 + "\n")
    code, out, _ = run("explain", "--format", "json", str(several))
    found = json.loads(out)
    cells = list("." * 81)
    for clue in found["add"]:
        place, value = clue.split("=")
        r, c = place[1:].split("c")
        cells[(int(r) - 1) * 9 + int(c) - 1] = value
    fixed = parse("cage 3: r1c1 r1c2\n" + "".join(cells))
    assert code == 1 and solve(fixed).status == "unique"


def test_rate_variants(run: Run) -> None:
    code, out, _ = run("rate", "--format", "jsonl", "-q", str(KILLER), str(THERMO))
    records = jsonl(out)
    assert code == 0 and all(r["level"] in ("easy", "intermediate", "expert") for r in records)


def test_rich_view_draws_regions_and_lists_rules(run: Run) -> None:
    code, out, _ = run("solve", "--format", "rich", str(JIGSAW))
    assert code == 0 and "irregular regions (9 of 9)" in out
    code, out, _ = run("solve", "--format", "rich", str(THERMO))
    assert "thermo r" in out and "arrow r" in out


def test_rules_on_the_command_line_and_in_a_file(tmp_path: Path, run: Run) -> None:
    escargot = str(PUZZLES / "ai-escargot.txt")
    code, out, _ = run("solve", "--rules", "anti-knight, diagonals", "--format", "json", escargot)
    assert code in (0, 1, 3)
    rules = tmp_path / "rules.txt"
    rules.write_text("# the same, in a file\nanti-knight\ndiagonals\n")
    again = run("solve", "--rules-file", str(rules), "--format", "json", escargot)
    assert again[0] == code and json.loads(again[1])["status"] == json.loads(out)["status"]
    rules.write_text("anti-knight\nnot a rule\n")
    code, _, err = run("solve", "--rules-file", str(rules), escargot)
    assert code == 2 and "rules.txt:2:1: not a rule statement" in err


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("size 9\nnabner: r1c1 r1c2\n", "p.txt:2:1: nabner: r1c1 r1c2: unknown rule 'nabner'"),
        ("size 9\ncage 99: r1c1 r1c2\n", "p.txt:2:1: cage 99: r1c1 r1c2: no 2 distinct digits"),
        ("size 9\nthermo: r1c1 r10c1\n", "p.txt:2:"),
    ],
)
def test_bad_statements_in_a_puzzle_file_are_one_line_exit_2(
    text: str, says: str, tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(text)
    code, _, err = run("solve", str(path))
    assert code == 2 and says in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (
            {"size": 9, "grid": [[{}] * 9] * 9, "nabner": [{"lines": [["R1C1"]]}]},
            "unknown constraint 'nabner'",
        ),
        (
            {
                "size": 9,
                "grid": [[{}] * 9] * 9,
                "killercage": [{"cells": ["R1C1", "R1C2"], "value": "25"}],
            },
            "no 2 distinct digits 1..9 add up to 25",
        ),
        (
            {"size": 9, "grid": [[{}] * 9] * 9, "thermometer": [{"lines": [["R1C1", "R10C1"]]}]},
            "cell R10C1 is outside the 9x9 grid",
        ),
        ({"size": 9, "grid": [[{}] * 8] * 9}, "row 1: expected 9 cells"),
        (
            {"size": 9, "grid": [[{}] * 9] * 9, "xv": [{"cells": ["R1C1", "R1C2"], "value": "W"}]},
            "expected X or V",
        ),
    ],
)
def test_bad_fpuzzles_input_is_one_line_exit_2(
    data: dict[str, Any], says: str, tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    code, _, err = run("solve", str(path))
    assert code == 2 and says in err and err.count("\n") == 1


def test_a_broken_link_and_pencil_marks(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "l.txt"
    path.write_text("https://f-puzzles.com/?load=N4IgzglgXgpiBcACALAGkSA5gJwgEwUQG0jQA3A\n")
    code, _, err = run("solve", str(path))
    assert code == 2 and "does not decode" in err
    data = json.loads(THERMO.read_text())
    scribbled = [cell for row in data["grid"] for cell in row if "centerPencilMarks" in cell]
    assert scribbled and all("given" not in cell for cell in scribbled)  # the sample has one
    (puzzle,) = read_text(THERMO.read_text(), "t.json")
    (taken,) = read_text(THERMO.read_text(), "t.json", variants=_filled())
    assert not isinstance(puzzle, InputError) and not isinstance(taken, InputError)
    assert len(taken.givens) == len(puzzle.givens) + 1


def _filled() -> Any:
    from sudosat.reading.lines import Variants

    return Variants((), True)


def test_a_link_whose_plus_signs_became_spaces_and_escapes(tmp_path: Path, run: Run) -> None:
    (puzzle,) = read_text(KILLER.read_text(), "k.txt")
    assert not isinstance(puzzle, InputError)
    mangled = link(puzzle).replace("+", " ").replace("/", "%2F")
    path = tmp_path / "m.txt"
    path.write_text(mangled + "\n")
    code, out, _ = run("solve", "--format", "line", str(path))
    assert code == 0 and out.strip() == answers(KILLER)[0]


def test_a_batch_of_links_with_broken_lines_keeps_order(tmp_path: Path, run: Run) -> None:
    links = [line for line in LINKS.read_text().splitlines() if line.startswith("http")]
    path = tmp_path / "batch.links"
    path.write_text(
        "\n".join([links[0], "https://f-puzzles.com/?load=AAAA", links[1], links[2]]) + "\n"
    )
    code, out, _ = run("solve", "--format", "jsonl", "-q", "-j", "2", str(path))
    records = jsonl(out)
    assert code == 2
    assert [(r["line"], r["status"]) for r in records] == [
        (1, "unique"),
        (2, "error"),
        (3, "unique"),
        (4, "unique"),
    ]


@rule
@dataclass(frozen=True)
class Sevens(CellRule):
    """A rule for this test alone: its cell holds 7, but it writes no clause, as a
    mistaken encoding would not."""

    field: ClassVar[str] = ""
    words: ClassVar[tuple[str, ...]] = ("test-sevens-unencoded",)
    family: ClassVar[str] = "test: sevens, left unencoded"

    def encode(self, b: Any) -> None:
        pass

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        return None if grid[self.cell] == 7 else f"holds {grid[self.cell]}"


def test_an_encoding_mistake_is_caught_never_printed(run: Run) -> None:
    (puzzle,) = read_text(KILLER.read_text(), "k.txt")
    assert not isinstance(puzzle, InputError) and puzzle.rules is not None
    wrong = next(c for c in range(81) if solve(puzzle).solutions[0][c] != 7)
    rules: list[Rule] = [*puzzle.rules.constraints, Sevens(wrong)]
    from dataclasses import replace

    mistaken = replace(puzzle, rules=Rules.of(puzzle.layout, rules))
    with pytest.raises(SolverError) as caught:
        solve(mistaken)
    assert "no solution" in str(caught.value) and "test-sevens-unencoded" in str(caught.value)


@pytest.mark.parametrize(
    "name", ["killer-16x16.links", "jigsaw-36x36.links", "classic-36x36.links"]
)
@pytest.mark.slow
def test_large_samples_are_unique_by_two_solvers(name: str, tmp_path: Path, run: Run) -> None:
    lines = [line for line in (PUZZLES / name).read_text().splitlines() if line[:1] != "#"]
    first = lines[1] if name.startswith("killer") else lines[0]  # the quick one
    path = tmp_path / name
    path.write_text(first + "\n")
    [expected] = answers(path)
    code, out, _ = run("solve", "--format", "jsonl", "-q", str(path))
    [record] = jsonl(out)
    assert code == 0 and record["status"] == "unique"
    assert str(record["solution"]).replace(" ", "") == expected


def test_links_and_classic_lines_in_one_batch(tmp_path: Path, run: Run) -> None:
    links = [line for line in LINKS.read_text().splitlines() if not line.startswith("#")]
    escargot = "".join((PUZZLES / "ai-escargot.txt").read_text().split())
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join([links[0], escargot, "not a puzzle", *links[1:]]) + "\n")
    code, out, _ = run("solve", "--format", "jsonl", "-j", "2", str(path))
    records = jsonl(out)
    assert [r["line"] for r in records] == list(range(1, len(links) + 3))
    assert [r["status"] for r in records] == ["unique", "unique", "error", *["unique"] * 3]
    assert code == 2


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_the_published_style_set_is_unique(solver: str, run: Run) -> None:
    """scripts/published_style.py's puzzles (issue 59's published-style set): every
    one read and unique, by two solvers."""
    path = PUZZLES / "published-style.links"
    code, out, _ = run("solve", "--format", "jsonl", "-q", "--solver", solver, str(path))
    records = jsonl(out)
    assert code == 0 and len(records) == 12
    assert {r["status"] for r in records} == {"unique"}
