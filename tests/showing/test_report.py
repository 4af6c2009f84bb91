"""Every output shape from real outcomes: line, grid, json, jsonl, csv, rich, sentences."""

from __future__ import annotations

import csv
import io
import json

import pytest

from sudosat.core.notation import format_line
from sudosat.reading.formats import parse
from sudosat.running.report import render
from sudosat.running.tasks import Candidates as TrueCandidates
from sudosat.running.tasks import Place, Rate, Steps, Task
from sudosat.showing.records import CSV_FIELDS, Document, record
from sudosat.showing.text import count_line, line_of, note, status_line
from sudosat.showing.view import Check, Payload, Result, View
from sudosat.solving.engine import Options, solve
from sudosat.solving.outcome import Outcome, Status
from tests.conftest import ESCARGOT, REXL_FIRST

SEVEN = REXL_FIRST.replace("....34...", "....04...", 1)
CLASHING = "5" + ESCARGOT[1:27] + "5" + ESCARGOT[28:]


def result_of(text: str, line: int = 1, **options: object) -> Result:
    outcome = solve(parse(text), **options)  # type: ignore[arg-type]
    return Result("p.txt", line, text, outcome)


def test_line_marks_every_answer_that_is_not_one_solution() -> None:
    view = View("line")
    unique = result_of(ESCARGOT)
    assert line_of(unique, view) == format_line(unique.outcome.puzzle, unique.outcome.solutions[0])
    assert line_of(result_of(SEVEN), view) == "multiple"
    assert line_of(result_of(CLASHING), view) == "none"
    assert line_of(Result("p.txt", 2, "junk", None, "p.txt:2:1: bad"), view) == "error"
    solved = result_of(SEVEN, max_solutions=1)
    assert solved.outcome is not None and solved.outcome.status == Status.SOLVED
    assert len(line_of(solved, view)) == 81


def test_count_says_whether_it_is_complete() -> None:
    counting = View("line", count=True)
    assert line_of(result_of(SEVEN, max_solutions=100), counting) == "7"
    assert line_of(result_of(SEVEN, max_solutions=5), counting) == "5+"
    five = result_of(SEVEN, max_solutions=5).outcome
    assert five is not None
    assert count_line(five) == "at least 5 solutions (the search stopped at --max-solutions)"
    assert record(result_of(SEVEN, max_solutions=5), counting)["count_complete"] is False


def test_status_sentences() -> None:
    assert status_line(_outcome(ESCARGOT)) == "unique solution"
    several = status_line(_outcome(SEVEN, max_solutions=100))
    assert several.startswith("not unique: 7 solutions; the first two differ in r")
    clash = status_line(_outcome(CLASHING))
    assert clash.startswith("no solution: ") and "both hold 5 in" in clash
    assert clash.endswith("(and 2 more clashes)")


def _outcome(text: str, **options: object) -> Outcome:
    return solve(parse(text), **options)  # type: ignore[arg-type]


def test_one_schema_for_json_jsonl_and_csv() -> None:
    results = [result_of(ESCARGOT, 1), result_of(SEVEN, 2), result_of(CLASHING, 3)]
    results.append(Result("p.txt", 4, "junk", None, "p.txt:4:1: unknown symbol 'j'"))
    lines = [json.loads(x) for x in render(results, View("jsonl")).splitlines()]
    document = Document(View("json", many=True))
    text = document.head()
    for result in results:  # one piece per result, as chunks arrive
        text += document.piece(render([result], View("json", many=True)))
    text += document.tail()
    assert json.loads(text) == lines
    assert {frozenset(x) for x in lines} == {frozenset(lines[0])}  # every record, every key
    assert [x["status"] for x in lines] == ["unique", "multiple", "none", "error"]
    assert lines[1]["differ"] and len(lines[1]["solutions"]) == 2 and lines[1]["unique"] is False
    assert lines[2]["clashes"] and lines[2]["reason"] == lines[2]["clashes"][0]
    single = json.loads(render(results[:1], View("json")))
    assert single == lines[0]
    rows = list(
        csv.DictReader(io.StringIO(Document(View("csv")).head() + render(results, View("csv"))))
    )
    assert list(rows[0]) == list(CSV_FIELDS)
    assert [r["status"] for r in rows] == [x["status"] for x in lines]
    assert rows[1]["count_complete"] == "false" and rows[0]["unique"] == "true"


def test_check_and_stats_fields() -> None:
    result = result_of(ESCARGOT)
    result.check = Check("mismatch", "123", None)
    data = record(result, View("jsonl", check=True, stats=True))
    assert (data["check"], data["expected"]) == ("mismatch", "123")
    assert data["stats"]["solves"] >= 0 and "encoding" in data["stats"]
    assert note(result, View("line", many=True)) == "p.txt:1: unique solution; --check: mismatch"
    assert note(result_of(ESCARGOT), View("line", many=True)) is None  # many: only what is wrong
    assert note(result_of(ESCARGOT), View("line")) == "unique solution"


@pytest.mark.parametrize("many", [False, True])
def test_grid_gives_one_block_per_puzzle(many: bool) -> None:
    results = [result_of(ESCARGOT, 1), result_of(SEVEN, 2)]
    text = render(results, View("grid", many=many))
    if many:
        assert text.count("# p.txt:") == 2
        assert "# p.txt:2: not unique: at least 2 solutions" in text
    assert text.count("------+-------+------") == 2 * 3  # three grids, two rules each


def test_rich_marks_givens_and_differences() -> None:
    view = View("rich", color_system="standard")
    text = render([result_of(SEVEN)], view)
    assert "┏" in text and "solution 2" in text
    assert "\x1b[1m" in text and "\x1b[7;36m" in text  # givens bold; differing cells reversed
    assert "not unique" in text
    plain = render([result_of(SEVEN)], View("rich"))
    assert "\x1b" not in plain and "┏" in plain


@pytest.mark.slow
@pytest.mark.parametrize(
    ("task", "kind"),
    [(Rate(), Payload.RATING), (Steps(), Payload.PATH), (TrueCandidates(), Payload.CANDIDATES)],
)
def test_a_result_carries_the_one_payload_its_task_answered(task: Task, kind: Payload) -> None:
    puzzle = parse(ESCARGOT)
    found = task.answer(puzzle, Place("-", 1, ESCARGOT), Options())
    assert found.answered == kind and found.payload is not None
    payloads = {p: getattr(found, p.value) for p in Payload}
    assert payloads.pop(kind) is found.payload  # read through the property of its name
    assert not any(payloads.values())  # and through no other
