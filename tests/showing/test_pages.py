"""Pages ready to publish: the puzzle's own title, author and rules on its
picture, PNG output, whole A4 (or letter) PDF pages with one cell size, and
marks that read at print size (little-killer arrows, a legend of the lines)."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from sudosat import parse
from sudosat.reading.fpuzzles import link, read
from sudosat.showing.pictures import CELL, PAPER, Caption, Pen, page_scale, pages, picture, size_of
from tests.conftest import PUZZLES, SUDOSAT, Run

pytest.importorskip("cairosvg")
from PIL import Image  # cairosvg's own dependency

KILLER = PUZZLES / "killer.txt"
RULESET = "Normal sudoku rules apply. Digits in a cage sum to its clue and do not repeat."
PUBLISHED = f"""title: Cages #12
author: Jane Setter
ruleset: {RULESET}
cage 10: r1c1 r1c2
little-killer 18: r0c2 dr
renban: r5c1 r5c2 r5c3
palindrome: r6c1 r7c2 r8c3
{"." * 80}4
"""


def texts(svg: str) -> list[str]:
    root = ElementTree.fromstring(svg.encode())
    return [e.text or "" for e in root.iter() if e.tag.endswith("text")]


def media_boxes(data: bytes) -> list[tuple[float, float]]:
    assert data.startswith(b"%PDF")
    found = re.findall(rb"/MediaBox \[ ?0 0 ([0-9.]+) ([0-9.]+) ?\]", data)
    return [(float(w), float(h)) for w, h in found]


@pytest.fixture
def published(tmp_path: Path) -> Path:
    path = tmp_path / "cages.txt"
    path.write_text(PUBLISHED)
    return path


def test_the_title_author_and_ruleset_are_on_the_page_not_the_status(
    published: Path, run: Run
) -> None:
    code, out, _ = run("solve", "-f", "svg", "-n", "1", str(published))
    words = " ".join(texts(out))
    assert code == 0
    assert "Cages #12" in words and "by Jane Setter" in words  # a title's "#" is kept
    assert "Digits in a cage sum" in words  # the ruleset, by default where there is one
    assert str(published) not in words and "solved" not in words  # the status is the record's


def test_f_puzzles_title_author_and_ruleset_read_and_written(published: Path) -> None:
    puzzle = parse(published.read_text())
    assert (puzzle.name, puzzle.author, puzzle.ruleset) == ("Cages #12", "Jane Setter", RULESET)
    again = read(link(puzzle), "<link>")
    assert (again.name, again.author, again.ruleset) == (puzzle.name, puzzle.author, RULESET)


@pytest.mark.parametrize(
    "options,shown,hidden",
    [
        (["--title", "Puzzle 7"], ["Puzzle 7", RULESET[:30]], ["Cages #12", "Jane Setter"]),
        (["--no-title"], [RULESET[:30]], ["Cages #12", "Jane Setter"]),
        (["--no-rules-text"], ["Cages #12"], ["Normal sudoku"]),
    ],
)
def test_title_and_rules_text_options(
    options: list[str], shown: list[str], hidden: list[str], published: Path, run: Run
) -> None:
    _, out, _ = run("solve", "-f", "svg", "-n", "1", *options, str(published))
    words = " ".join(texts(out))
    assert all(w in words for w in shown) and not any(w in words for w in hidden)


def test_rules_text_without_a_ruleset_says_each_rules_meaning(run: Run) -> None:
    _, plain, _ = run("solve", "-f", "svg", str(KILLER))
    _, told, _ = run("solve", "-f", "svg", "--rules-text", str(KILLER))
    assert "Killer cage:" not in " ".join(texts(plain))
    words = " ".join(texts(told))
    assert "once each in every row, column and box" in words and "Killer cage:" in words


def test_the_rules_are_wrapped_to_the_grids_width(published: Path) -> None:
    puzzle = parse(published.read_text())
    long = Caption("t", "", " ".join([RULESET] * 6))
    svg = picture(puzzle, title=long)
    lines = [t for t in texts(svg) if t.startswith(("Normal", "Digits")) or "sudoku" in t]
    assert len(lines) >= 4
    assert max(len(t) for t in lines) * 0.56 * 0.28 * CELL <= 9 * CELL + 1


def test_explain_keeps_the_status_as_its_title(run: Run) -> None:
    _, out, _ = run("explain", "-f", "svg", str(PUZZLES / "clashing-clues.txt"))
    assert any("none" in t for t in texts(out))


@pytest.mark.slow
def test_png_at_the_asked_dpi(published: Path) -> None:
    sizes = []
    for dpi in ("96", "192"):
        made = subprocess.run(
            [SUDOSAT, "solve", "-f", "png", "--dpi", dpi, "-n", "1", str(published)],
            capture_output=True,
        )
        assert made.returncode == 0, made.stderr
        assert made.stdout.startswith(b"\x89PNG")
        sizes.append(Image.open(io.BytesIO(made.stdout)).size)
    svg = picture(parse(published.read_text()), title=Caption("Cages #12", "by Jane Setter"))
    assert abs(sizes[0][0] - size_of(svg)[0]) <= 2  # 96 dpi: a picture unit a pixel
    assert abs(sizes[1][0] - 2 * sizes[0][0]) <= 2


@pytest.mark.slow
def test_png_of_many_is_one_sheet(run: Run, tmp_path: Path) -> None:
    made = subprocess.run(
        [SUDOSAT, "generate", "--puzzles", "3", "--seed", "1", "-f", "png", "--dpi", "40"],
        capture_output=True,
    )
    assert made.returncode == 0 and made.stdout.startswith(b"\x89PNG")


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdf_pages_are_whole_paper_pages(paper: str, published: Path, tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(PUBLISHED + "\n" + (PUZZLES / "ai-escargot.txt").read_text())
    for args in (["-n", "1", str(published)], ["--per-page", "2", "--solution", str(KILLER)]):
        made = subprocess.run(
            [SUDOSAT, "solve", "-f", "pdf", "--paper", paper, *args], capture_output=True
        )
        assert made.returncode == 0, made.stderr
        boxes = media_boxes(made.stdout)
        assert boxes and all(abs(w - PAPER[paper][0]) < 1 for w, _ in boxes)
        assert all(abs(h - PAPER[paper][1]) < 1 for _, h in boxes)
    book = subprocess.run(
        [
            SUDOSAT,
            "generate",
            "--puzzles",
            "5",
            "--seed",
            "2",
            "-f",
            "pdf",
            "--per-page",
            "4",
            "--solution",
            "--paper",
            paper,
        ],
        capture_output=True,
    )
    assert len(set(media_boxes(book.stdout))) == 1 and len(media_boxes(book.stdout)) == 4


def test_one_cell_size_across_a_page_even_with_clues_outside() -> None:
    outside = parse("sandwich 10: r0c3\nlittle-killer 20: r10c8 ul\n" + "." * 81)
    classic = parse((PUZZLES / "ai-escargot.txt").read_text())
    pictures = [picture(outside), picture(classic), picture(classic)]
    scale = page_scale(pictures, 4)
    (page,) = pages(pictures, 4, "a4", scale)
    placed = [
        float(w) for w in re.findall(r'<svg [^>]*?x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)"', page)
    ]
    own = [size_of(p)[0] for p in pictures]
    assert [round(p / o, 3) for p, o in zip(placed, own, strict=True)] == [round(scale, 3)] * 3
    assert scale * CELL <= 36.0  # a puzzle book's cell at most


def test_a_little_killer_arrow_stays_out_of_the_grid() -> None:
    n = 9
    for cells, where in (((2, 12, 22), "dr"), ((78, 68, 58), "ul"), ((0,), "corner")):
        pen = Pen(n, (CELL, CELL))
        pen.diagonal_clue(cells, "18")
        ends = _line_ends(pen)
        inside = [
            (x, y)
            for x, y in ends
            if CELL + 1 < x < CELL * (n + 1) - 1 and CELL + 1 < y < CELL * (n + 1) - 1
        ]
        assert ends and not inside, where


def _line_ends(pen: Pen) -> list[tuple[float, float]]:
    """Where the lines a pen drew start and end."""
    found: list[tuple[float, float]] = []
    for element in pen.elements:
        if type(element).__name__ == "Line":
            numbers = [float(v) for v in re.findall(r"-?[0-9.]+", element.args["d"])]
            found += list(zip(numbers[::2], numbers[1::2], strict=True))
    return found


def test_lines_get_a_legend_and_palindromes_are_not_grey(published: Path) -> None:
    svg = picture(parse(published.read_text()))
    words = texts(svg)
    assert "renban line" in words and "palindrome" in words
    assert "#8c8c8c" not in svg and "#a0522d" in svg


def test_a_line_is_listed_with_to_not_greater_than() -> None:
    puzzle = parse(PUBLISHED)
    assert puzzle.rules is not None
    said = [rule.describe(9) for rule in puzzle.rules.constraints]
    assert "renban r5c1 to r5c3" in said and not any(">" in s for s in said)


def test_newer_lines_go_out_also_as_plain_lines_and_read_back_without_them() -> None:
    import json

    from sudosat.reading.lz import decompress_base64

    puzzle = parse("renban: r1c1 r1c2 r1c3\nwhispers: r5c1 r5c2\nthermo: r9c1 r9c2\n" + "." * 81)
    data = json.loads(decompress_base64(link(puzzle).split("load=")[1]) or "{}")
    copies = data["line"]
    assert [c["lines"] for c in copies] == [
        data["renban"][0]["lines"],
        data["whispers"][0]["lines"],
    ]
    assert all(c["isNewConstraint"] and c["outlineC"].startswith("#") for c in copies)
    again = read(link(puzzle), "<link>")
    assert again.rules is not None and again.rules.drawings == ()  # no drawing of the setter's
    assert again.rules.constraints == puzzle.rules.constraints if puzzle.rules else False


@pytest.mark.slow
def test_solve_pdf_with_solution_puts_it_at_the_back(run: Run) -> None:
    made = subprocess.run(
        [SUDOSAT, "solve", "-f", "pdf", "--solution", str(PUZZLES / "published-killer.txt")],
        capture_output=True,
    )
    assert made.returncode == 0 and len(media_boxes(made.stdout)) == 2
