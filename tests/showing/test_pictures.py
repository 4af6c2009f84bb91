"""Pictures (svg, pdf) and f-puzzles links out, through the commands, and
generated killer, jigsaw and X puzzles."""

from __future__ import annotations

import io
import json
import re
import subprocess
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import pytest

from sudosat import Puzzle, parse, read_puzzles, solve
from sudosat.logic.rating import rate
from sudosat.reading.fpuzzles import read
from sudosat.rules.killer import KillerCage
from sudosat.sat.cnf import Encoding
from sudosat.showing.pictures import MARKED, png
from tests.conftest import PUZZLES, SUDOSAT, Run, jsonl

SVG = "{http://www.w3.org/2000/svg}"
KILLER = PUZZLES / "killer.txt"
SAMPLES = [
    KILLER,
    PUZZLES / "jigsaw.txt",
    PUZZLES / "thermo-arrow.json",
    PUZZLES / "variants.links",
    PUZZLES / "kropki-6x6.txt",
    PUZZLES / "ai-escargot.txt",
    PUZZLES / "hex-16x16.txt",
]


def tree(text: str) -> ElementTree.Element:
    return ElementTree.fromstring(text.encode())


def with_class(root: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    return root.findall(f".//*[@class='{name}']")


def pdf_pages(data: bytes) -> int:
    assert data.startswith(b"%PDF")
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


def test_a_killer_as_svg_has_its_cells_cages_and_digits(run: Run) -> None:
    puzzle = parse(KILLER.read_text(), source=str(KILLER))
    assert puzzle.rules is not None
    cages = [r for r in puzzle.rules.constraints if isinstance(r, KillerCage)]
    code, out, _ = run("solve", "--format", "svg", str(KILLER))
    root = tree(out)
    assert code == 0 and root.tag == SVG + "svg"
    assert [e.get("data-cells") for e in with_class(root, "cells")] == ["81"]
    assert len(with_class(root, "cage")) == len(cages)
    assert not with_class(root, "solved") and not with_class(root, "given")
    labels = [t.text for cage in with_class(root, "cage") for t in cage.iter(SVG + "text")]
    assert sorted(labels) == sorted(str(c.value) for c in cages)
    code, out, _ = run("solve", "--format", "svg", "--solution", str(KILLER))
    solved = [t.text for t in with_class(tree(out), "solved")]
    grid = solve(puzzle).solutions[0]
    assert "".join(solved) == "".join(str(v) for v in grid)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_draws_and_its_link_reads_back(path: Path, run: Run) -> None:
    code, out, _ = run("solve", "--format", "svg", "--solution", "-q", str(path))
    root = tree(out)
    grids = with_class(root, "cells")
    assert code == 0 and grids
    for cells in grids:
        assert int(cells.get("data-cells", "0")) in (36, 81, 256)
    code, out, _ = run("solve", "--format", "fpuzzles", "-q", str(path))
    code2, lines, _ = run("solve", "--format", "line", "-q", str(path))
    assert code == 0 and code2 == 0
    links = out.splitlines()
    assert len(links) == len(lines.splitlines()) == len(grids)
    for number, line in enumerate(links, 1):
        assert line.startswith("https://f-puzzles.com/?load=")
        back = read(line, "<link>", number)
        again = solve(back)
        assert again.status == "unique"
    # the links hold the same puzzles as the files: the same grids solve them
    originals = [p for p in read_puzzles([str(path)]) if isinstance(p, Puzzle)]
    for line, original in zip(links, originals, strict=True):
        back = read(line, "<link>")
        assert back.cells == original.cells and back.layout.regions == original.layout.regions
        assert solve(back).solutions == solve(original).solutions


def test_a_picture_renders_to_png(tmp_path: Path, run: Run) -> None:
    from PIL import Image

    code, out, _ = run("solve", "--format", "svg", "--solution", str(PUZZLES / "jigsaw.txt"))
    assert code == 0
    image = Image.open(io.BytesIO(png(out))).convert("L")
    width, height = image.size
    assert width > 300 and height > 300
    dark = sum(image.histogram()[:100])
    assert 0.02 < dark / (width * height) < 0.5  # borders and digits, on white


def test_explain_marks_the_conflict(run: Run) -> None:
    path = PUZZLES / "clashing-clues.txt"
    code, out, _ = run("explain", "--format", "json", str(path))
    conflict = json.loads(out)["conflict"]
    code, out, _ = run("explain", "--format", "svg", str(path))
    root = tree(out)
    marked = [e for e in root.iter(SVG + "rect") if e.get("fill") == MARKED]
    assert code == 3 and len(marked) == len(conflict)


@pytest.mark.slow
def test_pdf_one_page_a_puzzle_and_pages_of_several(tmp_path: Path) -> None:
    links = PUZZLES / "variants.links"
    one = subprocess.run(
        [SUDOSAT, "solve", "--format", "pdf", "-q", str(links)], capture_output=True
    )
    assert one.returncode == 0 and pdf_pages(one.stdout) == 4
    book = (
        "generate",
        "--puzzles",
        "7",
        "--seed",
        "3",
        "-f",
        "pdf",
        "--per-page",
        "4",
        "--solution",
    )
    made = subprocess.run([SUDOSAT, *book, "-q"], capture_output=True)
    assert made.returncode == 0 and pdf_pages(made.stdout) == 4  # 2 of puzzles, 2 of solutions


def test_generate_svg_sheet_puts_solutions_after_the_puzzles(run: Run) -> None:
    code, out, _ = run("generate", "--puzzles", "3", "--seed", "1", "--format", "svg", "--solution")
    root = tree(out)
    assert code == 0 and len(with_class(root, "cells")) == 6
    assert len(with_class(root, "solved")) == 3 * 81 - len(with_class(root, "given")) // 2


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["killer", "jigsaw", "x"])
def test_generated_variants_are_unique_minimal_and_reproducible(variant: str, run: Run) -> None:
    args = ("generate", "--variant", variant, "--puzzles", "2", "--seed", "11", "-f", "jsonl")
    code, out, _ = run(*args)
    assert code == 0 and run(*args)[1] == out  # the same seed, the same puzzles
    for record in jsonl(out):
        puzzle = read(str(record["puzzle"]), "<generated>")
        assert puzzle.rules is not None
        second = solve(puzzle, solver="glucose4", encoding=Encoding(reduced=False))
        assert second.status == "unique"
        assert "".join(map(str, second.solutions[0])) == record["solution"]
        if variant == "killer":
            assert not puzzle.givens
            assert all(isinstance(r, KillerCage) for r in puzzle.rules.constraints)
            continue
        assert puzzle.givens
        for cell, _ in puzzle.givens:  # minimal: each given is needed
            cells = list(puzzle.cells)
            cells[cell] = 0
            fewer = solve(replace(puzzle, cells=tuple(cells)))
            assert fewer.status == "multiple"


@pytest.mark.slow
def test_generated_variants_read_back_from_grid_and_line(run: Run) -> None:
    for variant in ("killer", "jigsaw", "x"):
        args = ("generate", "--variant", variant, "--seed", "4")
        _, grid, _ = run(*args, "--format", "grid")
        _, line, _ = run(*args, "--format", "line")
        _, record, _ = run(*args, "--format", "jsonl")
        solution = jsonl(record)[0]["solution"]
        for text in (grid, line):
            code, out, _ = run("solve", "--format", "line", "-", input=text)
            assert code == 0 and out.strip() == solution, variant


def test_generate_rejects_what_a_variant_cannot_take(run: Run) -> None:
    code, _, err = run("generate", "--variant", "killer", "--clues", "20")
    assert code == 2 and "--clues" in err and "Traceback" not in err
    for variant in ("killer", "jigsaw", "x"):  # no variant is simple: refused at once
        code, _, err = run("generate", "--variant", variant, "--level", "simple")
        assert code == 2 and "--level" in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "intermediate", "expert"])
def test_killers_are_made_at_the_level_asked(level: str, run: Run) -> None:
    args = ("generate", "--variant", "killer", "--level", level, "--puzzles", "3", "--seed", "5")
    code, out, _ = run(*args, "-f", "jsonl")
    assert code == 0
    for record in jsonl(out):
        puzzle = read(str(record["puzzle"]), "<generated>")
        assert not puzzle.givens and rate(puzzle).level == record["level"] == level
        assert solve(puzzle, solver="glucose4").status == "unique"


@pytest.mark.parametrize("fmt", ["svg", "pdf", "fpuzzles"])
def test_every_little_killer_read_is_drawn_and_written(fmt: str, run: Run) -> None:
    code, out, err = run(
        "solve", "-", "-f", fmt, input="little-killer 5: r1c9\nlittle-killer 30: r0c2 dr\n"
    )
    assert code == 1 and out, err


def test_each_step_pictures_of_a_path_with_no_step_draw_the_start(tmp_path: Path, run: Run) -> None:
    solved = solve(parse((PUZZLES / "ai-escargot.txt").read_text())).solutions[0]
    path = tmp_path / "solved.txt"
    path.write_text("".join(map(str, solved)) + "\n")
    code, out, _ = run("steps", "-f", "svg", "--each-step", str(path))
    assert code == 0 and out.count("<svg") == 1 and out.rstrip().endswith("</svg>")
