"""Every constraint drawn on the setter's page (sudosat/serving/page/parts), in a
real browser with real mouse events: lines dragged, dots and X/V clicked on
edges, clues clicked beside the grid, parts chosen, changed and deleted; the
link out read back by ``sudosat solve`` to the same rules."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from sudosat import parse
from sudosat.reading.fpuzzles import decompress
from tests.serving.test_setter_page import (
    SHOTS,
    WAIT,
    address,
    after,
    answers,
    browser,
    new_grid,
    opened,
    page,
    status,
    tally,
)

pytestmark = pytest.mark.slow
__all__ = ["address", "browser", "page"]  # the fixtures, shared

CELL = 40  # geometry.js's unit


def at(page: Any, x: float, y: float) -> tuple[float, float]:
    """The screen point of a board point in grid units (0, 0: the grid's corner)."""
    found = page.evaluate(f"window.sudosatBoard.at({x}, {y})")
    return float(found[0]), float(found[1])


def centre(page: Any, n: int, cell: int) -> tuple[float, float]:
    return at(page, (cell % n + 0.5) * CELL, (cell // n + 0.5) * CELL)


def drag_line(page: Any, n: int, cells: Sequence[int]) -> None:
    """Press on the first cell and move through the others in order, then let go."""
    page.mouse.move(*centre(page, n, cells[0]))
    page.mouse.down()
    for cell in cells[1:]:
        page.mouse.move(*centre(page, n, cell), steps=3)
    page.mouse.up()


def tool(page: Any, word: str) -> None:
    page.select_option("#tool", word)


def parts(page: Any) -> list[str]:
    """The drawn parts as the page lists them: each one's text."""
    return [str(text) for text in page.locator("#parts li span.text").all_inner_texts()]


def cell(n: int, name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * n + int(col) - 1


def draw_every_kind(page: Any, n: int) -> list[str]:
    """A thermometer, an arrow, a renban line, a white kropki dot, an X and a little
    killer, drawn with the mouse; the text lines sudosat should read back."""
    tool(page, "thermo")
    drag_line(page, n, [cell(n, c) for c in ("r2c2", "r2c3", "r2c4")])
    tool(page, "arrow")
    drag_line(page, n, [cell(n, c) for c in ("r5c4", "r5c5", "r5c6")])
    tool(page, "renban")
    drag_line(page, n, [cell(n, c) for c in ("r3c1", "r4c1", "r4c2")])
    tool(page, "difference")
    page.mouse.click(*at(page, 5 * CELL, 0.5 * CELL))  # the edge of r1c5 and r1c6
    tool(page, "x")
    page.mouse.click(*at(page, 0.5 * CELL, 6 * CELL))  # the edge of r6c1 and r7c1
    tool(page, "little-killer")
    page.fill("#sum", "20")
    page.select_option("#direction", "dr")
    page.mouse.click(*at(page, 0.5 * CELL, -0.5 * CELL))  # above column 1
    diagonal = " ".join(f"r{k}c{k + 1}" for k in range(1, n))
    return [
        "thermo: r2c2 r2c3 r2c4",
        "arrow: r5c4 > r5c5 r5c6",
        "renban: r3c1 r4c1 r4c2",
        "difference: r1c5 r1c6",
        "x: r6c1 r7c1",
        f"little-killer 20: {diagonal}",
    ]


@pytest.mark.parametrize("n", [9, 16])
def test_every_kind_is_drawn_and_the_link_reads_back_rule_by_rule(
    page: Any, address: str, n: int
) -> None:
    opened(page, address)
    if n != 9:
        new_grid(page, n)
    expected = draw_every_kind(page, n)
    seen = answers(page)
    page.click("#export")  # at once: before the last edit's candidates are asked
    page.wait_for_function(
        "document.getElementById('exported').value.includes('f-puzzles')", timeout=WAIT
    )
    nones = int(page.evaluate(tally("nones")))
    page.wait_for_function(  # and the candidates are asked after the link: an answer, or none
        f"{tally('answers')} > {seen} || {tally('nones')} > {nones}", timeout=WAIT
    )
    said = status(page)  # the link's stays, unless the puzzle has no solution: that is said
    assert said.startswith("none: no solution") or said.startswith("Link made"), said
    assert len(parts(page)) == 6, parts(page)
    if n == 9:
        page.screenshot(path=str(SHOTS / "parts-9x9.png"))
    link = page.input_value("#exported")
    read = parse(link)
    assert read.rules is not None
    assert sorted(rule.text(n) for rule in read.rules.constraints) == sorted(expected)
    # as f-puzzles draws each: its own field where it has one, else drawn as setters do
    data = json.loads(decompress(link.split("?load=", 1)[1]) or "{}")
    native = ("thermometer", "arrow", "difference", "xv", "littlekillersum")
    assert all(field in data for field in native), sorted(data)
    assert data["difference"] == [{"cells": ["R1C5", "R1C6"]}]  # a plain dot: no number in it
    assert "renban" in data and any(line.get("isNewConstraint") for line in data["line"])
    assert "Renban line:" in data["ruleset"]
    solved = subprocess.run(  # sudosat solve reads the link as the page drew it
        [sys.executable, "-m", "sudosat", "solve", "--format", "json", "-"],
        input=link,
        capture_output=True,
        text=True,
        check=False,
    )
    record = json.loads(solved.stdout)
    assert record["status"] in ("unique", "multiple", "none"), solved.stderr
    assert sorted(line for line in record["rules"] if not line.startswith("size")) == sorted(
        expected
    )


def test_a_part_is_chosen_changed_deleted_and_undone(page: Any, address: str) -> None:
    opened(page, address)
    tool(page, "sandwich")
    page.fill("#sum", "7")
    page.mouse.click(*at(page, -0.5 * CELL, 2.5 * CELL))  # left of row 3
    assert parts(page) == ["sandwich 7: r3c0"]
    page.locator("#parts li").first.click()
    page.fill("#sum", "12")
    page.click("#set-value")
    assert parts(page) == ["sandwich 12: r3c0"]
    page.locator("#parts li button.delete").first.click()
    assert parts(page) == []
    page.locator("#board").focus()
    page.keyboard.press("Control+z")
    assert parts(page) == ["sandwich 12: r3c0"]
    page.keyboard.press("Control+z")
    assert parts(page) == ["sandwich 7: r3c0"]
    tool(page, "ratio")
    page.mouse.click(*at(page, 4 * CELL, 4.5 * CELL))  # r5c4 and r5c5
    page.mouse.click(*at(page, 4 * CELL, 4.5 * CELL))  # the same edge again: the dot goes
    assert parts(page) == ["sandwich 7: r3c0"]


def test_bad_drawing_is_named_and_the_last_good_state_stays(page: Any, address: str) -> None:
    opened(page, address)
    tool(page, "thermo")
    n = 9
    drag_line(page, n, [0, 1, 10, 9, 0])  # back through its bulb
    assert status(page) == "Not added." and "twice" in str(page.text_content("#message"))
    tool(page, "arrow")
    drag_line(page, n, [40])
    assert "shaft" in str(page.text_content("#message"))
    tool(page, "skyscraper")
    page.fill("#sum", "")
    page.mouse.click(*at(page, -0.5 * CELL, 0.5 * CELL))
    assert "value first" in str(page.text_content("#message"))
    tool(page, "little-killer")
    page.fill("#sum", "10")
    page.select_option("#direction", "ul")
    page.mouse.click(*at(page, 0.5 * CELL, -0.5 * CELL))  # above the grid, pointing up: away
    assert "points away" in str(page.text_content("#message"))
    assert parts(page) == []


EVERY_KIND = """size 9
.........
.........
.........
.........
.........
.........
.........
.........
.........
thermo: r2c2 r2c3 r2c4
slow-thermo: r9c1 r9c2 r9c3
arrow: r5c4 r5c5 > r6c6 r7c6
renban: r3c1 r3c2 r3c3
whispers: r4c1 r4c2 r4c3
palindrome: r6c1 r6c2 r6c3
region-sum: r7c3 r7c4 r7c5
between: r8c4 r8c5 r8c6
entropic: r1c7 r1c8 r1c9
modular: r2c7 r2c8 r2c9
zipper: r3c7 r3c8 r3c9
difference: r1c1 r1c2
ratio: r1c2 r2c2
x: r5c1 r6c1
v: r7c1 r8c1
sandwich 0: r0c3
little-killer 20: r0c1 dr
x-sum 10: r10c5
skyscraper 3: r4c0
odd: r9c9
even: r8c9
minimum: r9c8
maximum: r7c9
quadruple 234: r1c3 r1c4 r2c3 r2c4
"""
"""Every kind of part the page draws, as sudosat's text: what the mouse draws below."""


def test_every_kind_of_part_is_drawn_and_read_back(page: Any, address: str) -> None:
    n = 9
    opened(page, address)
    lines = {"thermo": ("r2c2", "r2c3", "r2c4"), "slow-thermo": ("r9c1", "r9c2", "r9c3")}
    lines |= {"renban": ("r3c1", "r3c2", "r3c3"), "whispers": ("r4c1", "r4c2", "r4c3")}
    lines |= {"palindrome": ("r6c1", "r6c2", "r6c3"), "region-sum": ("r7c3", "r7c4", "r7c5")}
    lines |= {"between": ("r8c4", "r8c5", "r8c6"), "entropic": ("r1c7", "r1c8", "r1c9")}
    lines |= {"modular": ("r2c7", "r2c8", "r2c9"), "zipper": ("r3c7", "r3c8", "r3c9")}
    for word, cells in lines.items():
        tool(page, word)
        drag_line(page, n, [cell(n, c) for c in cells])
    tool(page, "arrow")
    page.fill("#sum", "2")  # a pill of two cells
    drag_line(page, n, [cell(n, c) for c in ("r5c4", "r5c5", "r6c6", "r7c6")])
    edges = {"difference": (1, 0.5), "ratio": (1.5, 1), "x": (0.5, 5), "v": (0.5, 7)}
    for word, (x, y) in edges.items():  # the edge's middle, in cells
        tool(page, word)
        page.mouse.click(*at(page, x * CELL, y * CELL))
    clues = {
        "sandwich": ("0", 2.5, -0.5),
        "x-sum": ("10", 4.5, 9.5),
        "skyscraper": ("3", -0.5, 3.5),
    }
    for word, (value, x, y) in clues.items():
        tool(page, word)
        page.fill("#sum", value)
        page.mouse.click(*at(page, x * CELL, y * CELL))
    tool(page, "little-killer")
    page.fill("#sum", "20")
    page.select_option("#direction", "dr")
    page.mouse.click(*at(page, 0.5 * CELL, -0.5 * CELL))
    for word, name in (("odd", "r9c9"), ("even", "r8c9"), ("minimum", "r9c8"), ("maximum", "r7c9")):
        tool(page, word)
        page.mouse.click(*centre(page, n, cell(n, name)))
    tool(page, "quadruple")
    page.fill("#sum", "234")
    page.mouse.click(*at(page, 3 * CELL, 1 * CELL))  # the corner of r1c3, r1c4, r2c3, r2c4
    expected = parse(EVERY_KIND)
    assert expected.rules is not None
    assert len(parts(page)) == len(expected.rules.constraints), parts(page)
    page.screenshot(path=str(SHOTS / "every-part-9x9.png"))
    page.click("#export")
    page.wait_for_function(
        "document.getElementById('exported').value.includes('f-puzzles')", timeout=WAIT
    )
    read = parse(page.input_value("#exported"))
    assert read.rules is not None
    assert sorted(r.text(n) for r in read.rules.constraints) == sorted(
        r.text(n) for r in expected.rules.constraints
    )
    seen = answers(page)  # and the page reads its own link back to the same parts
    page.fill("#puzzle", page.input_value("#exported"))
    page.click("#load")
    page.wait_for_function(
        f"document.querySelectorAll('#parts li').length === {len(expected.rules.constraints)}",
        timeout=WAIT,
    )
    assert answers(page) >= seen
    again = parse(
        "\n".join([*EVERY_KIND.splitlines()[:10], *parts(page)])
    )  # as the page lists them
    assert again.rules is not None
    assert sorted(r.text(n) for r in again.rules.constraints) == sorted(
        r.text(n) for r in expected.rules.constraints
    )


def test_the_value_box_starts_empty_for_each_part(page: Any, address: str) -> None:
    """A refused cage sum of 50 once made the next cage's 3 a 503, and a
    quadruple's 1234 turned the next arrow into an error."""
    from tests.serving.test_setter_page import drag

    opened(page, address)
    page.click("#mode-cages")
    drag(page, 9, [0, 1])
    page.keyboard.type("50")
    page.keyboard.press("Enter")
    assert status(page) == "Not added." and page.input_value("#sum") == ""
    drag(page, 9, [0, 1])
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    assert parts(page) == ["cage 3: r1c1 r1c2"]
    tool(page, "quadruple")
    page.fill("#sum", "1234")
    page.mouse.click(*at(page, 4 * CELL, 4 * CELL))  # the corner of r4c4, r4c5, r5c4, r5c5
    assert page.input_value("#sum") == ""
    tool(page, "arrow")
    drag_line(page, 9, [cell(9, c) for c in ("r7c1", "r7c2", "r7c3")])
    assert parts(page)[-1] == "arrow: r7c1 > r7c2 r7c3", status(page)


def test_a_cage_is_listed_chosen_changed_and_deleted_like_any_part(page: Any, address: str) -> None:
    from tests.serving.test_setter_page import drag

    opened(page, address)
    page.click("#mode-cages")
    drag(page, 9, [0, 1])
    page.keyboard.type("3")
    seen = answers(page)
    page.keyboard.press("Enter")
    assert after(page, seen)[0] == [1, 2]
    seen = answers(page)
    page.locator("#parts li").first.click()  # chosen: its sum in the box, its cells selected
    assert page.input_value("#sum") == "3"
    page.fill("#sum", "17")
    page.click("#set-value")
    assert parts(page) == ["cage 17: r1c1 r1c2"]
    assert after(page, seen)[0] == [8, 9]  # the true candidates follow the change
    page.locator("#parts li button.delete").first.click()
    assert parts(page) == []
    page.locator("#board").focus()
    page.keyboard.press("Control+z")
    assert parts(page) == ["cage 17: r1c1 r1c2"]


def test_a_half_drawn_arrow_read_from_a_link_is_kept_drawn_and_named(
    page: Any, address: str
) -> None:
    """f-puzzles' circle before its shaft, in a link: drawn, listed, constraining
    nothing, named once under the status."""
    from sudosat.reading.fpuzzles import link, write
    from tests.serving.test_setter_page import PUZZLES, load

    killer = parse((PUZZLES / "killer.txt").read_text())
    data = {**write(killer), "arrow": [{"cells": ["R5C5"], "lines": []}]}
    import lzstring

    packed = lzstring.LZString().compressToBase64(json.dumps(data))
    opened(page, address)
    whole = load(page, link(killer))
    half = load(page, f"https://f-puzzles.com/?load={packed}")
    assert half == whole  # it constrains nothing
    assert "arrow: r5c5" in parts(page)
    assert str(page.text_content("#message")) == "arrow at r5c5 has no shaft yet"
    assert page.locator("#board g[data-part] circle").count() >= 1


def test_each_kind_the_page_offers_is_its_rule_s_and_drawn_in_its_picture_s_colours(
    page: Any, address: str
) -> None:
    """The page's tools are the kinds the server describes (``/page/parts.json``, each
    from its rule's ``page``), every one read back by sudosat as that rule; and a
    part the page draws has the colours the rule's own picture has."""
    from sudosat.rules import BY_WORD
    from sudosat.rules.base import SHAPES, page_parts
    from sudosat.showing.pictures import picture

    described = page_parts()
    opened(page, address)
    offered = page.eval_on_selector_all("#tool optgroup option", "found => found.map(o => o.value)")
    assert sorted(offered) == sorted(str(d["word"]) for d in described)
    for looks in described:
        kind = BY_WORD[str(looks["word"])]
        assert looks in kind.page and looks["shape"] in SHAPES
        for key in ("colour", "fill"):
            if key in looks:
                assert looks[key] == getattr(kind, key), (looks, key)
    every = parse(EVERY_KIND)
    drawn = picture(every).lower()
    page.fill("#puzzle", EVERY_KIND)
    page.click("#load")
    page.wait_for_function(
        f"document.querySelectorAll('#parts li').length === {len(every.constraints)}",
        timeout=WAIT,
    )
    board = page.inner_html("#board").lower()
    for looks in described:
        for key in ("colour", "fill"):
            if key in looks:
                colour = str(looks[key]).lower()
                assert colour in board and colour in drawn, (looks["word"], colour)
