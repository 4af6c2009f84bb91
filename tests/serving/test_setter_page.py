"""The setter's page (sudosat/serving/page) in a real browser: Debian's chromium,
headless, driven by Playwright with real mouse and keyboard events, against a
real ``sudosat serve``. Waits are for what the page shows (a generous limit is
only a safety net: nothing is decided by time)."""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sudosat import count, parse, solve
from sudosat.core.puzzle import Layout
from sudosat.logic.path import logical_path
from sudosat.making.variant_generator import unique_killer
from sudosat.reading.fpuzzles import pack, write
from tests.conftest import PATIENCE, PUZZLES, traded_jigsaw
from tests.serving.test_serve import server

pytestmark = pytest.mark.slow
sync_api = pytest.importorskip("playwright.sync_api")  # the development extras install it

WAIT = int(PATIENCE * 1000)
"""Milliseconds a wait may take at most: a safety net on a loaded machine."""
SHOTS = Path(os.environ.get("SUDOSAT_SHOTS", tempfile.gettempdir()))
"""Where the tests' screenshots go: docs/images/page's are made with SUDOSAT_SHOTS=docs/page."""


def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        pytest.skip("chromium is not installed (scripts/install-solvers installs it)")
    return found


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with server() as (_, found):
        yield found.replace("ws://", "http://") + "?test"  # the page with its test hooks


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    opened = browser.new_page(viewport={"width": 1400, "height": 1100})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert not errors, errors


def tally(key: str) -> str:
    """The page's count ``key`` (``answers``, ``reads``, ``answeredRead``), in JavaScript."""
    return f"Number(document.getElementById('marks').dataset.{key} || 0)"


def answers(page: Any) -> int:
    """How many true-candidate answers the page has drawn."""
    return int(page.evaluate(tally("answers")))


def shown(page: Any) -> list[list[int]]:
    """The candidates the page drew last."""
    return json.loads(page.evaluate("document.getElementById('marks').dataset.candidates"))


def after(page: Any, seen: int) -> list[list[int]]:
    """The candidates of the next answer after ``seen``."""
    page.wait_for_function(f"{tally('answers')} > {seen}", timeout=WAIT)
    return shown(page)


def opened(page: Any, address: str, link: str = "") -> list[list[int]]:
    page.goto(address + (f"#{link}" if link else ""))
    return after(page, 0)


def new_grid(page: Any, size: int | None = None, jigsaw: bool | None = None) -> list[list[int]]:
    """A new blank grid (of ``size``, a jigsaw or not, where given): its candidates."""
    if size is not None:
        page.select_option("#size", str(size))
    if jigsaw is not None:
        page.set_checked("#jigsaw", jigsaw)
    seen = answers(page)
    page.click("#new")
    return after(page, seen)


def point(page: Any, n: int, cell: int) -> tuple[float, float]:
    """The screen point of a cell's centre, as the page says (``window.sudosatBoard``)."""
    found = page.evaluate(f"window.sudosatBoard.centre({cell})")
    return float(found[0]), float(found[1])


def drag(page: Any, n: int, cells: Sequence[int]) -> None:
    """Press on the first cell and move through every cell, one orthogonal neighbour
    at a time (a walk of the shape, back over cells where it branches), then let go."""
    inside, walk, seen = set(cells), [], set()

    def visit(cell: int) -> None:
        walk.append(cell)
        seen.add(cell)
        for other in (cell - n, cell + n, cell - 1, cell + 1):
            near = abs(other % n - cell % n) + abs(other // n - cell // n) == 1
            if other in inside and other not in seen and near:
                visit(other)
                walk.append(cell)

    visit(cells[0])
    page.mouse.move(*point(page, n, walk[0]))
    page.mouse.down()
    for cell in walk[1:]:
        page.mouse.move(*point(page, n, cell), steps=2)
    page.mouse.up()


def status(page: Any) -> str:
    return str(page.text_content("#status"))


def test_a_killer_is_set_from_blank_to_unique_by_dragging_cages(page: Any, address: str) -> None:
    puzzle, grid = unique_killer(Layout.boxes(9), random.Random(3))
    assert puzzle.rules is not None
    opened(page, address)
    page.click("#mode-cages")
    for cage in puzzle.rules.constraints:
        seen = answers(page)
        drag(page, 9, cage.cells())
        page.keyboard.type(str(cage.value))
        page.keyboard.press("Enter")
        marks = after(page, seen)
    assert marks == [[value] for value in grid] and status(page).startswith("unique")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "killer-9x9.png"))
    page.click("#export")
    page.wait_for_function("document.getElementById('textout').value !== ''", timeout=WAIT)
    made = parse(page.input_value("#textout"))
    assert made.rules is not None
    assert set(made.rules.constraints) == set(puzzle.rules.constraints)


def test_undo_and_redo_take_whole_parts(page: Any, address: str) -> None:
    opened(page, address)
    seen = answers(page)
    page.mouse.click(*point(page, 9, 0))
    page.keyboard.type("5")
    assert after(page, seen)[1] == [1, 2, 3, 4, 6, 7, 8, 9]
    page.click("#mode-cages")
    seen = answers(page)
    drag(page, 9, [1, 2])
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    assert after(page, seen)[1] == [1, 2]
    page.locator("#board").focus()
    seen = answers(page)
    page.keyboard.press("Control+z")  # the cage goes, whole
    assert after(page, seen)[1] == [1, 2, 3, 4, 6, 7, 8, 9]
    seen = answers(page)
    page.keyboard.press("Control+z")  # then the given
    assert after(page, seen)[1] == list(range(1, 10))
    seen = answers(page)
    page.keyboard.press("Control+y")
    assert after(page, seen)[0] == [5]
    seen = answers(page)
    page.click("#redo")
    assert after(page, seen)[1] == [1, 2]


def test_a_link_in_the_address_is_read_exported_and_read_back(page: Any, address: str) -> None:
    text = (PUZZLES / "thermo-arrow.json").read_text()
    original = parse(text)
    link = parse_link(original)
    marks = opened(page, address, link)
    assert len(marks) == 81 and status(page).startswith("unique")
    page.click("#export")
    page.wait_for_function("document.getElementById('exported').value !== ''", timeout=WAIT)
    back = parse(page.input_value("#exported"))
    assert back.cells == original.cells
    assert back.rules is not None and original.rules is not None
    assert sorted(map(str, back.rules.constraints)) == sorted(map(str, original.rules.constraints))


def parse_link(puzzle: Any) -> str:
    from sudosat.reading.fpuzzles import link

    return str(link(puzzle))


def test_a_25x25_jigsaw_region_is_painted_and_a_36x36_takes_givens(page: Any, address: str) -> None:
    opened(page, address)
    new_grid(page, 25, jigsaw=True)
    n = 25
    seen = answers(page)
    drag(page, n, [4, 5])  # r1c5 (box 1) paints r1c6 (box 2) into box 1
    page.wait_for_function(
        "document.getElementById('message').textContent.includes('region')", timeout=WAIT
    )
    drag(page, n, [n + 5, n + 4])  # r2c6 (box 2) paints r2c5 into box 2: 25 cells each again
    after(page, seen)
    page.click("#export")
    page.wait_for_function("document.getElementById('textout').value !== ''", timeout=WAIT)
    made = parse(page.input_value("#textout"))
    region_of = {cell: index for index, region in enumerate(made.layout.regions) for cell in region}
    assert (
        made.layout.box is None
        and region_of[5] == region_of[0]
        and region_of[n + 4] == region_of[6]
    )
    page.screenshot(path=str(SHOTS / "jigsaw-25x25.png"))

    new_grid(page, 36, jigsaw=False)
    page.click("#mode-givens")
    page.mouse.click(*point(page, 36, 0))
    seen = answers(page)
    page.keyboard.type("a")  # the 36-symbol alphabet: 1-9, 0, A-Z; A is 11
    marks = after(page, seen)
    assert marks[0] == [11] and len(marks[1]) == 35 and 11 not in marks[1]
    page.screenshot(path=str(SHOTS / "grid-36x36.png"))
    assert page.locator("#board text.given").count() == 1
    page.click("#export")
    page.wait_for_function("document.getElementById('textout').value.includes('11 ')", timeout=WAIT)
    assert parse(page.input_value("#textout")).cells[0] == 11


def test_a_path_is_stepped_through_with_each_step_drawn(page: Any, address: str) -> None:
    opened(page, address)
    text = (PUZZLES / "miracle.txt").read_text()
    load(page, text)
    page.click("#path")
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('Path solved')", timeout=WAIT
    )
    steps = page.locator("#steps li")
    assert steps.count() > 50
    page.click("#next")
    assert "step 1 of" in status(page)
    first = steps.nth(0).text_content()
    assert first is not None and "anti-king" in first
    removals = len(logical_path(parse(text)).steps[0].eliminations)
    assert page.locator("#board .marks line").count() == removals  # its removals, struck
    steps.nth(3).click()
    assert "step 4 of" in status(page)
    assert page.locator("#board .marks circle").count() == 1  # a single placed, ringed
    page.screenshot(path=str(SHOTS / "path-step.png"))


def load(page: Any, text: str) -> list[list[int]]:
    """Paste ``text`` (a link, or any text sudosat reads), load it and wait for the
    candidates of the puzzle read (not those of a question asked before it)."""
    reads = int(page.evaluate(tally("reads")))
    page.fill("#puzzle", text)
    page.click("#load")
    page.wait_for_function(f"{tally('answeredRead')} > {reads}", timeout=WAIT)
    return shown(page)


def until_status(page: Any, start: str) -> str:
    page.wait_for_function(
        f"document.getElementById('status').textContent.startsWith({json.dumps(start)})",
        timeout=WAIT,
    )
    return status(page)


def test_solve_check_count_estimate_and_pictures(page: Any, address: str) -> None:
    opened(page, address)
    text = (PUZZLES / "killer.txt").read_text()
    load(page, text)
    page.click("#check")
    assert until_status(page, "Check:") == "Check: unique: one solution"
    page.click("#solve")
    until_status(page, "Solved")
    puzzle = parse(text)
    assert page.locator("#board text.solved").count() == puzzle.cells.count(0)
    with page.expect_download() as download:
        page.click("button.picture[data-format=svg]")
    drawn = Path(download.value.path()).read_text()
    assert "<svg" in drawn and download.value.suggested_filename.endswith(".svg")

    load(page, (PUZZLES / "several-solutions.txt").read_text())
    page.click("#count")
    assert until_status(page, "7 solutions") == "7 solutions"
    page.click("#estimate")
    assert "About 7 solutions" in until_status(page, "About")


def test_a_read_puzzle_is_asked_its_candidates_once_and_later_questions_none(
    page: Any, address: str
) -> None:
    # A read once left an edit's timer standing: the next question marked the
    # candidates stale, and a picture after it asked them again. That answer could
    # land while the next puzzle was being pasted and be taken for its candidates.
    sent: list[str] = []
    page.on(
        "websocket",
        lambda socket: socket.on(
            "framesent", lambda frame: sent.append(json.loads(frame)["command"])
        ),
    )
    opened(page, address)
    load(page, (PUZZLES / "killer.txt").read_text())
    page.click("#check")
    until_status(page, "Check:")
    with page.expect_download():
        page.click("button.picture[data-format=svg]")
    page.click("#count")  # its answer comes after everything the picture set off
    assert until_status(page, "1 solution") == "1 solution"
    read = len(sent) - 1 - sent[::-1].index("read")
    assert sent[read:] == ["read", "marks", "check", "picture", "count"]


def test_a_question_asked_right_after_an_edit_is_answered_then_the_edit_s_candidates(
    page: Any, address: str
) -> None:
    opened(page, address)
    text = (PUZZLES / "several-solutions.txt").read_text()
    start = load(page, text)
    cell = next(c for c, values in enumerate(start) if len(values) > 1)
    value = start[cell][0]
    seen = answers(page)
    page.mouse.click(*point(page, 9, cell))
    page.keyboard.type(str(value))
    page.click("#count")  # at once: the edit's candidates wait for the count's answer
    page.wait_for_function(
        "/^[0-9,]+ solutions?$/.test(document.getElementById('status').textContent)"
        f" && {tally('answers')} > {seen}",
        timeout=WAIT,
    )
    puzzle = parse(text)
    edited = replace(
        puzzle, cells=tuple(value if c == cell else v for c, v in enumerate(puzzle.cells))
    )
    solutions = count(edited)
    assert (
        status(page) == f"{solutions} solution{'' if solutions == 1 else 's'}"
    )  # the count's, kept
    assert shown(page) == [
        sorted({s[c] for s in solve(edited, max_solutions=10).solutions}) for c in range(81)
    ]  # the edited grid's


def test_a_broken_edit_is_named_at_its_part_and_the_last_good_state_stays(
    page: Any, address: str
) -> None:
    before = opened(page, address)
    page.click("#mode-cages")
    drag(page, 9, [0, 1])
    page.keyboard.type("18")  # two different digits make 3 to 17
    page.keyboard.press("Enter")
    assert status(page) == "Not added."
    assert "make 18" in str(page.text_content("#message"))
    assert page.locator('#board rect[fill="#ffd0d0"]').count() == 2
    page.click("#mode-givens")
    seen = answers(page)
    page.mouse.click(*point(page, 9, 0))
    page.keyboard.type("5")
    after(page, seen)
    page.mouse.click(*point(page, 9, 8))
    page.keyboard.type("5")  # twice in row 1: read, and no solution: never "Not read."
    until_status(page, "none: no solution")
    assert "r1c1" in str(page.text_content("#message")).lower()
    assert page.locator('#board rect[fill="#ffd0d0"]').count() >= 2
    assert answers(page) == seen + 1  # the last good candidates stay drawn
    page.screenshot(path=str(SHOTS / "broken-edit.png"))
    assert len(before) == 81
    page.keyboard.press("Control+z")
    assert after(page, seen + 1)[8] == [1, 2, 3, 4, 6, 7, 8, 9]


def test_a_png_and_a_pdf_come_from_sudosat_s_pictures(page: Any, address: str) -> None:
    opened(page, address)
    load(page, (PUZZLES / "killer.txt").read_text())
    for fmt, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF")):
        with page.expect_download() as download:
            page.click(f"button.picture[data-format={fmt}]")
        assert Path(download.value.path()).read_bytes().startswith(magic)


def test_a_25x25_with_no_solution_is_said_to_have_none(page: Any, address: str) -> None:
    """It used to show "Working..." to the server's limit, then "Not read."."""
    opened(page, address)
    page.fill("#puzzle", traded_jigsaw())
    page.click("#load")
    said = until_status(page, "none: no solution")
    assert said == "none: no solution"
    assert str(page.text_content("#message")).startswith("No solutions found.")


def test_the_status_tells_apart_not_read_no_solution_and_the_time_limit(browser: Any) -> None:
    opened_page = browser.new_page(viewport={"width": 1400, "height": 1100})
    with server("--timeout", "2") as (_, socket):
        address = socket.replace("ws://", "http://") + "?test"
        opened(opened_page, address)
        opened_page.fill("#puzzle", "this is no puzzle")
        opened_page.click("#load")
        assert until_status(opened_page, "Not read.") == "Not read."
        load(opened_page, "5" + "." * 7 + "5" + "." * 72)  # two 5s in row 1: read, none
        assert until_status(opened_page, "none: no solution") == "none: no solution"
        assert "r1c1" in str(opened_page.text_content("#message")).lower()
        load(opened_page, "." * 81)
        opened_page.click("#count")  # 6.7e21 solutions: past the limit of 2 s
        assert until_status(opened_page, "Stopped at the server's time limit.")
    opened_page.close()


QUESTIONS = {
    # question: a puzzle it takes long on (seconds to minutes), and what says it started
    "solve": ("jigsaw 2", "Working..."),  # each its own: the server keeps answers
    "check": ("jigsaw 3", "Working..."),
    "count": ("blank", "Counting..."),
    "estimate": ("blank", "Estimating..."),
    "path": ("killer", "Working..."),
}


@pytest.mark.parametrize("question", [*QUESTIONS, "candidates"])
def test_cancel_stops_every_running_question(question: str, page: Any, address: str) -> None:
    opened(page, address)
    if question == "candidates":  # an edit's candidates: the 25x25 that has none takes seconds
        page.fill("#puzzle", traded_jigsaw(row=1))  # (not the others': the server keeps answers)
        page.click("#load")
        started = "Working..."
    else:
        kind, started = QUESTIONS[question]
        text = traded_jigsaw(row=int(kind[-1])) if kind.startswith("jigsaw") else None
        text = "." * 81 if kind == "blank" else text
        load(page, text if text is not None else several_solution_killer())
        page.click(f"#{question}")
    until_status(page, started)
    page.wait_for_function("document.getElementById('cancel').disabled === false", timeout=WAIT)
    page.click("#cancel")
    assert until_status(page, "Cancelled").startswith("Cancelled")
    assert page.evaluate("document.getElementById('cancel').disabled")


def several_solution_killer() -> str:
    """The bundled killer with every other cage: its logical path takes tens of seconds."""
    puzzle = parse((PUZZLES / "killer.txt").read_text())
    assert puzzle.rules is not None
    lines = [line for line in (PUZZLES / "killer.txt").read_text().splitlines()]
    grid = [line for line in lines if len(line) == 9 and set(line) <= set(".123456789")]
    cages = [rule.text(9) for rule in puzzle.rules.constraints[::2]]
    return "\n".join(grid + cages) + "\n"


def test_title_author_and_rules_text_go_into_links_and_pictures(page: Any, address: str) -> None:
    from sudosat.reading.fpuzzles import decompress

    opened(page, address)
    load(page, (PUZZLES / "killer.txt").read_text())
    page.fill("#title", "Twelve cages")
    page.fill("#author", "A. Setter")
    page.fill("#ruleset", "Normal sudoku rules apply.\nCages sum to their clues.")
    page.click("#export")
    page.wait_for_function(
        "document.getElementById('exported').value.includes('f-puzzles')", timeout=WAIT
    )
    link = page.input_value("#exported")
    data = json.loads(decompress(link.split("?load=", 1)[1]) or "{}")
    assert data["title"] == "Twelve cages" and data["author"] == "A. Setter"
    assert data["ruleset"] == "Normal sudoku rules apply. Cages sum to their clues."
    with page.expect_download() as download:
        page.click("button.picture[data-format=svg]")
    drawn = Path(download.value.path()).read_text()
    assert "Twelve cages" in drawn and "by A. Setter" in drawn and "Cages sum to" in drawn
    assert download.value.suggested_filename == "Twelve-cages.svg"
    load(page, link)  # and read back from the link, into the page's fields
    assert page.input_value("#title") == "Twelve cages"
    assert page.input_value("#author") == "A. Setter"


def test_a_quick_stroke_paints_every_region_cell_it_crosses(page: Any, address: str) -> None:
    """One mouse move from r1c4 to r4c4 (nothing between, as a quick hand gives):
    r2c4 and r3c4 are painted too, not only where the events landed."""
    opened(page, address)
    new_grid(page, jigsaw=True)
    page.click("#mode-regions")
    page.mouse.move(*point(page, 9, 3))
    page.mouse.down()
    page.mouse.move(*point(page, 9, 30), steps=1)  # r1c4 to r4c4 in one event
    page.mouse.up()
    text = page.evaluate("window.sudosatBoard.text()")  # (its regions are not whole yet)
    regions = text.split("regions:\n", 1)[1].splitlines()[:9]
    assert regions[0][3] == regions[1][3] == regions[2][3] == regions[3][3], regions


def test_a_36x36_zooms_and_pans_and_a_click_lands_on_its_cell(page: Any, address: str) -> None:
    opened(page, address)
    new_grid(page, 36)
    width = page.evaluate(
        "document.querySelector('#board rect.cell').getBoundingClientRect().width"
    )
    assert width < 24  # 16 to 21 px a cell: too small to set by
    page.click("#zoom-in")
    page.click("#zoom-in")
    zoomed = page.evaluate(
        "document.querySelector('#board rect.cell').getBoundingClientRect().width"
    )
    assert zoomed >= 1.9 * width
    last = 36 * 36 - 1  # scrolled into view (the frame pans), then clicked: that cell is chosen
    page.evaluate(  # the frame pans (and the window scrolls) to the far corner
        f"document.querySelectorAll('#board rect.cell')[{last}]"
        ".scrollIntoView({block: 'center', inline: 'center'})"
    )
    assert page.evaluate("document.getElementById('frame').scrollLeft") > 0
    page.click("#mode-givens")
    page.mouse.click(*point(page, 36, last))
    seen = answers(page)
    page.keyboard.type("a")
    marks = after(page, seen)
    assert marks[last] == [11] and 11 not in marks[last - 1]
    page.click("#zoom-out")
    page.click("#zoom-out")
    back = page.evaluate("document.querySelector('#board rect.cell').getBoundingClientRect().width")
    assert abs(back - width) < 0.5


def test_a_cage_sum_covers_no_candidate(page: Any, address: str) -> None:
    opened(page, address)
    page.click("#mode-cages")
    seen = answers(page)
    drag(page, 9, [0, 1])
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    assert after(page, seen)[0] == [1, 2]
    boxes = page.evaluate(  # in the board's own units: r1c1 is 0..40 both ways
        """() => {
          const box = (e) => {
            const r = e.getBBox();
            return [r.x, r.y, r.x + r.width, r.y + r.height];
          };
          const sum = box(document.querySelector('#board text.sum'));
          const marks = [...document.querySelectorAll('#board text.candidate')]
            .filter((e) => Number(e.getAttribute('x')) < 40 && Number(e.getAttribute('y')) < 40)
            .map(box);
          return [sum, marks];
        }"""
    )
    sum_box, marks = boxes
    assert len(marks) == 2  # r1c1's 1 and 2
    for left, top, right, bottom in marks:
        apart = (
            right <= sum_box[0] or left >= sum_box[2] or bottom <= sum_box[1] or top >= sum_box[3]
        )
        assert apart, (sum_box, marks)


def test_what_is_drawn_a_change_at_a_time_is_what_a_fresh_draw_draws(
    page: Any, address: str
) -> None:
    """The board changes only what changed (a cell's fill, a cell's marks, a layer):
    after selections, givens, a cage and answers, it is the board drawn afresh."""
    opened(page, address)
    marks = load(page, (PUZZLES / "killer.txt").read_text())
    board = "document.getElementById('board')"
    for cell, typed in ((10, True), (11, True), (10, False)):  # two givens, one taken back
        seen = answers(page)
        page.mouse.click(*point(page, 9, cell))
        page.keyboard.press(str(marks[cell][-1]) if typed else "Delete")
        marks = after(page, seen)
    assert page.locator("#board text.given").count() == 1
    page.mouse.click(*point(page, 9, 30))
    page.keyboard.down("Shift")
    page.mouse.click(*point(page, 9, 31))
    page.keyboard.up("Shift")
    changed = page.evaluate(f"{board}.innerHTML")
    assert page.locator('#board rect[fill="#cfe3ff"]').count() == 2
    page.evaluate(f"{board}.sudosatDrawn = null")  # the next draw starts from nothing
    page.evaluate("window.sudosatBoard.redraw()")
    assert page.evaluate(f"{board}.innerHTML") == changed


ASKING = """async () => {
  const {Asking} = await import("/page/asking.js");
  const sent = [], seen = [];
  const asking = new Asking({
    send: (command) => sent.push(command), candidates: () => ({}), ready: () => true,
    asked: () => {}, delay: 1e9,  // (the pause never ends by itself here)
  });
  const step = (what) => { what(); seen.push(asking.state); };
  step(() => asking.edited());                                  // waiting
  step(() => asking.ask("count"));                              // stale: candidates owed
  step(() => asking.received({type: "count", inProgress: true}));  // still stale
  step(() => { asking.received({type: "count"}); asking.settle(); });  // the candidates, asked
  const quiet = asking.quiet;
  step(() => asking.received({type: "marks", inProgress: true}));  // streaming
  step(() => asking.received({type: "marks"}));                 // idle
  step(() => asking.ask("solve"));                              // asked: nothing owed
  step(() => asking.received({type: "canceled"}));              // cancelled
  step(() => asking.edited());
  step(() => asking.replace("read", "..."));                    // a read: nothing owed
  return {seen, sent, quiet};
}"""


def test_the_page_asks_by_its_state_machine(page: Any, address: str) -> None:
    """The page's asking (asking.js) from state to state: an edit waits for the pause,
    a question asked meanwhile goes first with the candidates owed after it, asked
    quietly once it is answered; progress streams; Cancel ends it."""
    opened(page, address)
    found = page.evaluate(ASKING)
    assert found["seen"] == [
        "waiting",
        "stale",
        "stale",
        "asked",
        "streaming",
        "idle",
        "asked",
        "cancelled",
        "waiting",
        "asked",
    ]
    assert found["sent"] == ["count", "marks", "solve", "read"] and found["quiet"] is True


def test_the_test_hooks_are_only_in_a_page_opened_with_test(page: Any, address: str) -> None:
    """A setter's page has no window.sudosatBoard and counts nothing on #marks; the
    same page opened with ?test has both."""
    plain = address.removesuffix("?test")
    page.goto(plain)
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('unique')"
        " || document.getElementById('status').textContent.startsWith('multiple')",
        timeout=WAIT,
    )
    assert page.evaluate("window.sudosatBoard === undefined")
    assert page.evaluate("Object.keys(document.getElementById('marks').dataset)") == []
    opened(page, address)
    assert page.evaluate("window.sudosatBoard.asking()") in ("idle", "asked", "streaming")
    assert int(page.evaluate("document.getElementById('marks').dataset.answers")) >= 1


def test_a_drag_lands_on_the_cells_under_the_pointer_in_a_laptop_window(browser: Any) -> None:
    """1366x650: the board does not fit, so focusing it could scroll the page under
    the pointer. A drag after a button (focus away from the board) makes the cage
    on the cells it crossed, and the page does not move."""
    with server() as (_, found):
        small = browser.new_page(viewport={"width": 1366, "height": 650})
        try:
            opened(small, found.replace("ws://", "http://") + "?test")
            small.click("#mode-cages")
            board = "document.getElementById('board').getBoundingClientRect()"
            assert small.evaluate(f"{board}.bottom > window.innerHeight")  # not wholly in view
            before = small.evaluate("[window.scrollX, window.scrollY]")
            seen = answers(small)
            drag(small, 9, [19, 20])  # r3c2 and r3c3
            small.keyboard.type("3")
            small.keyboard.press("Enter")
            after(small, seen)
            assert "cage 3: r3c2 r3c3" in small.evaluate("window.sudosatBoard.text()")
            assert small.evaluate("[window.scrollX, window.scrollY]") == before
        finally:
            small.close()


def test_a_click_on_a_zoomed_36x36_in_a_laptop_window_lands_on_its_cell(browser: Any) -> None:
    """Zoomed in, the 36x36 runs past the window's foot: a click low on the screen,
    after a button took the focus, sets the cell under the pointer."""
    with server() as (_, found):
        small = browser.new_page(viewport={"width": 1366, "height": 650})
        try:
            opened(small, found.replace("ws://", "http://") + "?test")
            new_grid(small, 36)
            small.click("#zoom-in")
            small.click("#zoom-in")
            small.evaluate("window.scrollTo(0, 0)")
            small.click("#mode-givens")  # the focus on a button, away from the board
            low = [  # column 20's cells whose centres are on screen, low in the window
                cell
                for cell in range(19, 36 * 36, 36)
                if 450 < point(small, 36, cell)[1] < 630 and 0 < point(small, 36, cell)[0] < 1366
            ]
            assert low, "no cell of column 20 low in the window"
            cell = low[-1]
            seen = answers(small)
            small.mouse.click(*point(small, 36, cell))
            small.keyboard.type("a")
            marks = after(small, seen)
            assert marks[cell] == [11], (cell, [c for c, m in enumerate(marks) if m == [11]])
        finally:
            small.close()


def lost_link() -> str:
    """A link with renban and whispers lines as f-puzzles saves it again: their
    fields dropped, their drawn copies and the rules text kept."""
    text = "size 9\n" + "." * 81 + "\nrenban: r1c1 r1c2 r1c3\nwhispers: r5c1 r5c2 r5c3\n"
    data = write(parse(text))
    for field in ("renban", "whispers"):
        del data[field]
    return pack(data)


def test_a_link_that_lost_rules_to_another_editor_says_so(page: Any, address: str) -> None:
    opened(page, address)
    load(page, lost_link())
    message = str(page.text_content("#message"))
    assert "as shapes only" in message and "renban line and whispers line" in message
    new_grid(page)
    assert "as shapes only" not in str(page.text_content("#message"))  # said of that puzzle alone


def test_a_cancelled_count_after_a_path_names_no_steps(page: Any, address: str) -> None:
    opened(page, address)
    load(page, (PUZZLES / "miracle.txt").read_text())
    page.click("#path")
    until_status(page, "Path solved")
    new_grid(page)  # a blank grid: its count runs until it is cancelled
    page.click("#count")
    until_status(page, "Counting")
    page.click("#cancel")
    assert until_status(page, "Cancelled") == "Cancelled."


def test_a_tool_change_clears_the_value_typed_for_the_last_tool(page: Any, address: str) -> None:
    opened(page, address)
    page.click("#mode-cages")
    page.fill("#sum", "15")
    page.select_option("#tool", "little-killer")
    assert page.input_value("#sum") == ""


def test_backspace_on_an_empty_cell_changes_nothing_and_asks_nothing(
    page: Any, address: str
) -> None:
    opened(page, address)
    page.mouse.click(*point(page, 9, 40))
    page.wait_for_function("window.sudosatBoard.asking() === 'idle'", timeout=WAIT)
    page.keyboard.press("Backspace")
    assert page.evaluate("window.sudosatBoard.asking()") == "idle"  # no edit waits to be asked
    page.keyboard.press("Control+z")  # and nothing to undo: the blank grid stays
    assert page.evaluate("window.sudosatBoard.text()").count(".") == 81


def test_a_unique_grid_shows_its_digits_and_a_circle_alone_no_arrowhead(
    page: Any, address: str
) -> None:
    opened(page, address)
    text = (PUZZLES / "ai-escargot.txt").read_text()
    load(page, text)
    open_cells = parse(text).cells.count(0)
    assert page.locator("#board text.candidate.single").count() == open_cells
    load(page, "size 9\n" + "." * 81 + "\narrow: r5c5\n")  # a circle with no shaft yet
    assert "marker-end" not in str(page.inner_html("#board g.parts.under"))


def test_a_16x16_cage_s_candidates_keep_inside_its_edges(page: Any, address: str) -> None:
    opened(page, address)
    new_grid(page, 16)
    page.click("#mode-cages")
    seen = answers(page)
    drag(page, 16, [17, 18])
    page.keyboard.type("3")  # 1 and 2 left: drawn as marks, not counted
    page.keyboard.press("Enter")
    assert after(page, seen)[18] == [1, 2]
    tops = page.evaluate(
        """() => [...document.querySelectorAll('#board text.candidate')]
            .map((e) => e.getBBox())
            .filter((b) => b.x > 80 && b.x < 120 && b.y + b.height / 2 > 40 && b.y < 80)
            .map((b) => b.y + b.height * 0.25)"""
    )
    assert tops and min(tops) >= 40 + 4, tops  # r2c3's: its glyphs below the dashed edge


def test_an_x_between_two_cells_hides_none_of_their_candidates(page: Any, address: str) -> None:
    opened(page, address)
    load(page, "size 9\n" + "." * 81 + "\nx: r1c1 r1c2\n")
    over = str(page.inner_html("#board g.parts.over"))
    assert ">X</text>" in over and "<rect" not in over  # no box over the marks beside it
