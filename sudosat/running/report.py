"""Showing answers: every output shape and every status sentence, in one place.

A :class:`Result` is one puzzle's answer (or the reason its input could not be
read) with its ``--check`` verdict. It becomes one record in every format:

* ``line``: one line, the solution when the puzzle is unique (or solved with
  ``max_solutions=1``), else the status word (``multiple``, ``none``,
  ``timeout``, ``error``); with ``--count``, the count, ``N+`` when incomplete;
* ``grid``: the solutions found as grids (many puzzles: each after a
  ``# source:line: status`` comment line, which sudosat's reader skips);
* ``json``/``jsonl``/``csv``: :func:`record`, one schema for all three (json for
  many puzzles is the list of the jsonl objects);
* ``rich``: boxes and colours for people.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from sudosat.core.notation import format_grid, format_line, is_link, symbols_of
from sudosat.core.puzzle import Grid, Puzzle, cell_name, differences, rank_for_cells
from sudosat.reading import ruletext
from sudosat.solving.outcome import Outcome, Status
from sudosat.system.lazy import lazy

if TYPE_CHECKING:
    import rich.console as rich_console
    import rich.text as rich_text
    from rich.table import Table

    from sudosat.making.candidates import Candidates
    from sudosat.making.explain import Explanation
    from sudosat.making.generator import Generated
    from sudosat.making.path import SolvePath
    from sudosat.making.rating import Rating
    from sudosat.showing.pictures import Caption
    from sudosat.solving.estimate import Estimate
else:  # rich for the rich format alone: a pipe does not pay for it
    rich_console = lazy("rich.console")
    rich_text = lazy("rich.text")

FORMATS = ("rich", "grid", "line", "json", "jsonl", "csv")
PICTURES = ("svg", "pdf", "png")
"""Formats drawn with :mod:`draw`: a picture a puzzle, put together at the end."""
STEP_FORMATS = ("rich", "text", "json", "jsonl", "line", *PICTURES)
"""What ``steps`` writes (:mod:`paths`)."""
PICTURE_BREAK, BACK = "\f", "\v"
"""Between the pictures of a rendered piece; between a picture and the one for the
back pages (a generated puzzle's solution)."""
STATUS_STYLE = {
    Status.UNIQUE: "bold green",
    Status.SOLVED: "green",
    Status.MULTIPLE: "bold yellow",
    Status.NONE: "bold red",
    Status.TIMEOUT: "bold red",
    Status.ERROR: "bold red",
}
OK, NO_EXPECTATION, UNREADABLE = "ok", "no expected solution", "expected solution unreadable"
"""--check verdicts besides the mismatches."""
CSV_FIELDS = (
    "source",
    "line",
    "name",
    "puzzle",
    "status",
    "unique",
    "solution",
    "count",
    "count_complete",
    "time",
    "reason",
    "rules",
)
CHECK_FIELDS = ("expected", "expected_count", "check")
ESTIMATE_FIELDS = ("estimate", "estimate_low", "estimate_high", "estimate_exact")
RATE_FIELDS = ("level", "rating", "conflicts", "technique")
RATING_NONE = dict.fromkeys(RATE_FIELDS)
STATS_FIELDS = (
    "deduced",
    "ruled_out",
    "variables",
    "clauses",
    "solves",
    "conflicts",
    "decisions",
    "propagations",
)


class Check(NamedTuple):
    """How an answer compares with what the input expected (``--check``)."""

    verdict: str
    expected: str | None = None
    expected_count: int | None = None

    @property
    def failed(self) -> bool:
        """A mismatch, or an expected solution that cannot be read; no expectation is
        no failure."""
        return self.verdict not in (OK, NO_EXPECTATION)


@dataclass
class Result:
    """One puzzle's answer, as records are made from it."""

    source: str
    line: int
    puzzle: str
    """The puzzle as the input gave it."""
    outcome: Outcome | None
    """None: the input could not be read (``error`` says why)."""
    error: str = ""
    check: Check | None = None
    rating: Rating | None = None
    explanation: Explanation | None = None
    candidates: Candidates | None = None
    estimate: Estimate | None = None
    path: SolvePath | None = None
    name: str = ""
    """The puzzle's name, from a header line above it."""

    @property
    def status(self) -> Status:
        return self.outcome.status if self.outcome else Status.ERROR

    @property
    def time(self) -> float:
        return self.outcome.stats.time if self.outcome else 0.0

    def where(self) -> str:
        return f"{self.source}:{self.line}" + (f" ({self.name})" if self.name else "")


@dataclass(frozen=True)
class View:
    """How answers are shown: the format and what it includes."""

    fmt: str = "line"
    many: bool = False
    """Several puzzles (a header per puzzle in grid and rich, a list in json)."""
    count: bool = False
    check: bool = False
    stats: bool = False
    rate: bool = False
    """Add each unique puzzle's rating and level (``sudosat rate``)."""
    explain: bool = False
    """Explain each puzzle's answer (``sudosat explain``)."""
    candidates: bool = False
    """Each puzzle's true candidates (``sudosat candidates``)."""
    count_each: int | None = None
    """Candidates: count, up to this many, the solutions holding each one."""
    estimate: tuple[float, float, str, int] | None = None
    """Estimate each puzzle's number of solutions: (epsilon, delta, method, seed)."""
    steps: bool = False
    """Each puzzle's logical solve path (``sudosat steps``)."""
    hint: bool = False
    """Steps: the next step only."""
    bifurcation: int = 0
    """Steps: guesses may go this deep when no technique applies (0: none)."""
    marks: tuple[str, str] | None = None
    """Steps: pencil marks to start from: (their source's name, their text)."""
    show_grid: bool = False
    """Steps: the pencil marks before the first step and after the last."""
    each_step: bool = False
    """Steps, pictures: one per step."""
    rate_by: str = "path"
    without: frozenset[str] = frozenset()
    """Techniques the path leaves out (``--without``: whole families)."""
    """Rate: by the logical path, or by ``search`` (classic: propagation, then conflicts)."""
    generated: bool = False
    """Records of generated puzzles (``sudosat generate``)."""
    certify: str | None = None
    """Solve: write each puzzle's certificate in a folder of this one."""
    color_system: str | None = None
    """For rich: what the terminal takes (None: no styles), as rich's Console says."""
    no_color: bool = False
    width: int = 80
    solution: bool = False
    """Pictures: the solved grid (solve), the solutions at the back (generate)."""
    per_page: int = 1
    """Pictures: puzzles on a PDF page or in a row of an SVG sheet."""
    title: str | None = None
    """Pictures: the title over every grid (``--title``; "" for none, ``--no-title``);
    None: the puzzle's own title and author."""
    rules_text: bool | None = None
    """Pictures: the rules in words under the grid (None: where the puzzle has a ruleset)."""
    paper: str = "a4"
    """PDF: the pages' size, ``a4`` or ``letter``."""
    dpi: int = 150
    """PNG: dots an inch."""
    timed: bool = True
    """Records say how long each puzzle took (``--no-time``: null, so that runs
    compare byte for byte)."""


# --- sentences ---------------------------------------------------------------


def status_line(outcome: Outcome) -> str:
    """One line saying what was found, for people."""
    found = len(outcome.solutions)
    if outcome.status == Status.UNIQUE:
        return "unique solution"
    if outcome.status == Status.SOLVED:
        return "solved (uniqueness not checked)"
    if outcome.status == Status.MULTIPLE:
        shown = ", ".join(differ(outcome)[:12]) + (", ..." if len(differ(outcome)) > 12 else "")
        return f"not unique: {count_text(outcome)}; the first two differ in {shown}"
    if outcome.status == Status.NONE:
        more = len(outcome.clashes) - 1
        extra = f" (and {more} more clash{'es' if more > 1 else ''})" if more > 0 else ""
        return f"no solution: {outcome.reason}{extra}" if outcome.reason else "no solution"
    if outcome.status == Status.TIMEOUT:
        partial = f"; {found} solution(s) found before" if found else ""
        return f"timeout: {outcome.reason}{partial}"
    return f"error: {outcome.reason}"


def count_text(outcome: Outcome) -> str:
    """``7 solutions``, or ``at least 10000 solutions`` when the search stopped early."""
    found = len(outcome.solutions)
    noun = "solution" if found == 1 else "solutions"
    return f"{found} {noun}" if outcome.exhausted else f"at least {found} {noun}"


def count_line(outcome: Outcome) -> str:
    """The --count sentence: the count, or why there is none."""
    if outcome.status == Status.ERROR:
        return status_line(outcome)
    text = count_text(outcome)
    if outcome.status == Status.TIMEOUT:
        return f"{text} (timeout: {outcome.reason})"
    return text if outcome.exhausted else f"{text} (the search stopped at --max-solutions)"


def differ(outcome: Outcome) -> list[str]:
    """The cells where the first two solutions differ (``r1c2`` style)."""
    if len(outcome.solutions) < 2:
        return []
    return [cell_name(outcome.puzzle.size, c) for c in differences(*outcome.solutions[:2])]


def sentence(result: Result, view: View) -> str:
    """What a result says in words: the status (or count) sentence, the rating, and a
    failed check."""
    if result.outcome is None:
        return result.error
    text = count_line(result.outcome) if view.count else status_line(result.outcome)
    if result.estimate is not None:
        noun = (
            "solution" if result.estimate.exact and result.estimate.estimate == 1 else "solutions"
        )
        text = f"{result.estimate.text()} {noun}"
    if result.rating is not None:
        text += f"; level {result.rating.level}, rating {result.rating.rating:g}"
        text += f" ({result.rating.conflicts} search conflicts)" if result.rating.conflicts else ""
    if result.check is not None and result.check.failed:
        text += f"; --check: {result.check.verdict}"
    return text


def note(result: Result, view: View) -> str | None:
    """The lines for stderr, if any: single puzzles in line and grid format always
    say what was found; many puzzles only where one is not unique or failed its
    check; in every format, a puzzle not unique whose drawings may mean a rule."""
    said = _said(result, view)
    outcome = result.outcome
    if outcome is None or outcome.puzzle.rules is None:  # classic: nothing more (a batch's)
        return said
    lines = [line for line in (said, drawn_note(result)) if line]
    return "\n".join(lines) if lines else None


def drawn_note(result: Result) -> str | None:
    """The warning for a puzzle that is not unique and draws shapes that carry no
    rule (an f-puzzles whispers puzzle drawn with plain lines is the classic case)."""
    outcome = result.outcome
    if outcome is None or outcome.status not in (Status.MULTIPLE, Status.NONE):
        return None
    rules = outcome.puzzle.rules
    if rules is None or not rules.drawings:
        return None
    shapes = ", ".join(rules.drawings)
    return (
        f"{result.where()}: note: {outcome.status} with drawings that carry no rule "
        f"sudosat reads ({shapes}); if one means a rule, state it (--rules) and solve again"
    )


def _said(result: Result, view: View) -> str | None:
    if result.outcome is None and (view.explain or view.fmt == "fpuzzles"):
        return f"Error: {result.error}"  # beside explain's json record, a link's "error"
    if view.fmt not in ("line", "grid"):
        return None
    if result.outcome is None:
        return f"Error: {result.error}"
    failed = result.check is not None and result.check.failed
    if view.many and result.status in (Status.UNIQUE, Status.SOLVED) and not failed:
        return None
    where = f"{result.where()}: " if view.many else ""
    if result.status == Status.ERROR:
        return f"Error: {where}{result.outcome.reason}"
    return where + sentence(result, view)


def stats_lines(outcome: Outcome) -> list[str]:
    """The MiniSat-style report: problem size, search effort, time."""
    s = outcome.stats
    rows = [
        ("solver", outcome.solver),
        ("encoding", outcome.encoding.describe() if outcome.encoding else "-"),
        ("variables", s.variables),
        ("clauses", s.clauses),
        ("deduced", "-" if s.deduced is None else f"{s.deduced} cells, {s.ruled_out} candidates"),
        *((f"  {name}", count) for name, count in (s.families or {}).items()),
        ("solves", s.solves),
        ("conflicts", s.conflicts),
        ("decisions", s.decisions),
        ("propagations", s.propagations),
        ("restarts", s.restarts),
        ("time", f"{s.time:.4f} s"),
    ]
    return [f"{name:<13}: {'-' if value is None else value}" for name, value in rows]


# --- records -----------------------------------------------------------------


def record_head(result: Result) -> dict[str, Any]:
    """What every record of a puzzle starts with: where it came from, the puzzle as
    given with its rules, the status."""
    return {
        "source": result.source,
        "line": result.line,
        "name": result.name or None,
        "puzzle": result.puzzle,
        "rules": rule_statements(result.outcome.puzzle if result.outcome else None, result.puzzle),
        "status": result.status,
    }


def record(result: Result, view: View) -> dict[str, Any]:
    """The JSON object of one puzzle: the one schema of json, jsonl and csv."""
    outcome = result.outcome
    solutions = [format_line(outcome.puzzle, g) for g in outcome.solutions] if outcome else []
    data: dict[str, Any] = {
        "source": result.source,
        "line": result.line,
        "name": result.name or None,
        "puzzle": result.puzzle,
        "rules": rule_statements(outcome.puzzle if outcome else None, result.puzzle),
        "rank": outcome.puzzle.rank if outcome else None,
        "status": result.status,
        "unique": outcome.unique if outcome else None,
        "solution": solutions[0] if solutions else None,
        "solutions": solutions,
        "count": len(solutions),
        "count_complete": outcome.exhausted if outcome else False,
        "differ": differ(outcome) if outcome else [],
        "clashes": [c.describe(outcome.puzzle) for c in outcome.clashes] if outcome else [],
        "reason": (outcome.reason if outcome else result.error) or None,
        "solver": (outcome.solver or None) if outcome else None,
        "time": round(result.time, 6) if view.timed else None,
    }
    if view.check:
        check = result.check or Check(NO_EXPECTATION)
        data.update(expected=check.expected, expected_count=check.expected_count)
        data["check"] = check.verdict
    if view.rate:
        data.update(result.rating.as_dict() if result.rating else RATING_NONE)
    if view.estimate is not None:
        data["estimate"] = result.estimate.as_dict() if result.estimate else None
    if view.stats and outcome is not None:
        data["stats"] = outcome.stats.as_dict()
        data["stats"]["encoding"] = outcome.encoding.describe() if outcome.encoding else None
    return data


CANDIDATE_FIELDS = (
    *("source", "line", "name", "puzzle", "status", "candidates", "witnesses", "reason", "rules"),
)
"""The csv columns of ``sudosat candidates`` (candidates: the line format's tokens)."""


def csv_header(view: View) -> str:
    fields: tuple[str, ...] | list[str] = csv_fields(view)
    if view.generated or view.candidates:
        fields = GENERATED_FIELDS if view.generated else CANDIDATE_FIELDS
    return ",".join(fields) + "\n"  # plain names: nothing to quote


def csv_fields(view: View) -> list[str]:
    extra = (CHECK_FIELDS if view.check else ()) + (RATE_FIELDS if view.rate else ())
    extra += STATS_FIELDS if view.stats else ()
    extra += ESTIMATE_FIELDS if view.estimate is not None else ()
    return [*CSV_FIELDS, *extra]


def _csv_row(result: Result, view: View) -> list[Any]:
    data = record(result, view)
    data.update(data.pop("stats", None) or {})
    found = data.pop("estimate", None) or {}
    data.update({f"estimate_{key}": found.get(key) for key in ("low", "high", "exact")})
    data["estimate"] = found.get("estimate")
    return [csv_value(data.get(name)) for name in csv_fields(view)]


def csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, list):  # a variant's rules
        from sudosat.reading.records import join_rules  # deferred: variants' rules only

        return join_rules(value)
    return str(value).lower() if isinstance(value, bool) else value


def line_of(result: Result, view: View) -> str:
    """The ``line`` format's line for one puzzle."""
    outcome = result.outcome
    if outcome is None or outcome.status == Status.ERROR:
        return "error"
    if result.estimate is not None:
        found = result.estimate
        if found.exact or found.at_least:  # counted (all, or some: N+)
            return str(int(found.estimate)) + ("" if found.exact else "+")
        return f"{found.estimate:.6g}"
    if view.count:
        return f"{len(outcome.solutions)}" + ("" if outcome.exhausted else "+")
    if view.rate:
        rating = result.rating
        return f"{rating.level} {rating.rating:g}" if rating else str(outcome.status)
    if outcome.status in (Status.UNIQUE, Status.SOLVED):
        return format_line(outcome.puzzle, outcome.solutions[0])
    return str(outcome.status)


def grid_of(result: Result, view: View) -> str:
    """The ``grid`` format's block for one puzzle, ending in a newline."""
    head = ""
    if view.many:  # an input error names its place itself
        where = "" if result.outcome is None else f"{result.where()}: "
        head = f"# {where}{sentence(result, view)}\n"
    outcome = result.outcome
    if outcome is None or outcome.status == Status.ERROR:
        body = "error"
    elif view.count:
        body = line_of(result, view)
    elif outcome.solutions:
        body = "\n\n".join(format_grid(outcome.puzzle, g) for g in outcome.solutions)
    else:
        body = str(outcome.status)
    return head + body + "\n"


def render(results: list[Result], view: View) -> str:
    """The text of some consecutive results in ``view``'s format (json for many: the
    list's items, joined; :class:`Document` adds the brackets)."""
    fmt = view.fmt
    if fmt in PICTURES:
        return PICTURE_BREAK.join(_picture(r, view) for r in results)
    if fmt == "fpuzzles":
        return "".join(_link(r.outcome.puzzle if r.outcome else None) for r in results)
    if view.explain:
        return _explanations(results, view)
    if fmt in ("json", "jsonl"):
        return json_text([record(r, view) for r in results], view)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows(_csv_row(r, view) for r in results)
        return out.getvalue()
    if fmt == "grid":
        return "\n".join(grid_of(r, view) for r in results) + ("\n" if view.many else "")
    if fmt == "rich":
        return _rich(results, view)
    return "".join(line_of(r, view) + "\n" for r in results)


def json_text(records: list[dict[str, Any]], view: View) -> str:
    """Records as jsonl (a line each), or as json: one puzzle indented, many as the
    list's items, joined (:class:`Document` adds the brackets)."""
    if view.fmt == "jsonl":
        return "".join(json.dumps(data) + "\n" for data in records)
    if not view.many:
        return "".join(json.dumps(data, indent=2) + "\n" for data in records)
    return ",\n".join(json.dumps(data) for data in records)


class Document:
    """Puts rendered pieces together into one output: a CSV header, json's brackets,
    pictures on a sheet (SVG) or on pages (PDF, bytes)."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.started = False
        self.fronts: list[str] = []
        self.backs: list[str] = []

    def head(self) -> str:
        if self.view.fmt == "csv":
            return csv_header(self.view)
        return "[\n" if self.view.fmt == "json" and self.view.many else ""

    def piece(self, text: str) -> str:
        if not text:
            return ""
        if self.view.fmt in PICTURES:  # put together at the end
            for picture in text.split(PICTURE_BREAK):
                front, _, back = picture.partition(BACK)
                self.fronts.append(front)
                self.backs += [back] if back else []
            return ""
        joined = ",\n" if self.started and self.view.fmt == "json" and self.view.many else ""
        self.started = True
        return joined + text

    def tail(self) -> str | bytes:
        if self.view.fmt in PICTURES:
            from sudosat.showing.pictures import (  # deferred: drawsvg, for pictures only
                page_scale,
                pages,
                pdf,
                png,
                sheet,
            )

            view = self.view
            if view.fmt == "pdf":
                per_page, paper = view.per_page, view.paper
                scale = page_scale([*self.fronts, *self.backs], per_page, paper)
                return pdf(
                    pages(self.fronts, per_page, paper, scale)
                    + pages(self.backs, per_page, paper, scale)
                )
            if not self.fronts:
                return ""
            if len(self.fronts) == 1 and not self.backs:
                picture = self.fronts[0]
            else:
                picture = sheet([*self.fronts, *self.backs], view.per_page)
            return png(picture, view.dpi / 96) if view.fmt == "png" else picture
        return "\n]\n" if self.view.fmt == "json" and self.view.many else ""


# --- rich ----------------------------------------------------------------------


def rich_grid(puzzle: Puzzle, grid: Grid, highlight: set[int] | None = None) -> rich_text.Text:
    """The grid with box rules; givens bold, filled cells cyan, ``highlight`` reversed.
    A variant's grid: its regions' borders drawn heavy, then its rules listed."""
    if not puzzle.classic:
        return variant_grid(puzzle, grid, highlight)
    m, n = puzzle.rank, puzzle.size
    symbols = symbols_of(puzzle, grid)
    width = max(len(s) for s in symbols)
    box = (width + 1) * m + 1
    text = rich_text.Text()

    def rule(left: str, mid: str, right: str) -> str:
        return left + mid.join("━" * box for _ in range(m)) + right + "\n"

    text.append(rule("┏", "┳", "┓"), style="dim")
    for r in range(n):
        if r and r % m == 0:
            text.append(rule("┣", "╋", "┫"), style="dim")
        text.append("┃", style="dim")
        for c in range(n):
            cell = r * n + c
            style = "bold" if puzzle.cells[cell] else "cyan"
            if highlight and cell in highlight:
                style += " reverse"
            text.append(" ")
            text.append(symbols[cell].rjust(width), style=style)
            if c % m == m - 1:
                text.append(" ┃", style="dim")
        text.append("\n")
    text.append(rule("┗", "┻", "┛"), style="dim")
    return text


ARMS = {
    (0, 0, 0, 0): " ",
    (1, 1, 0, 0): "┃",
    (0, 0, 1, 1): "━",
    (0, 1, 0, 1): "┏",
    (0, 1, 1, 0): "┓",
    (1, 0, 0, 1): "┗",
    (1, 0, 1, 0): "┛",
    (1, 1, 0, 1): "┣",
    (1, 1, 1, 0): "┫",
    (0, 1, 1, 1): "┳",
    (1, 0, 1, 1): "┻",
    (1, 1, 1, 1): "╋",
    (1, 0, 0, 0): "╹",
    (0, 1, 0, 0): "╻",
    (0, 0, 1, 0): "╸",
    (0, 0, 0, 1): "╺",
}
"""Heavy box-drawing corners by their arms: up, down, left, right."""
RULE_STYLE = "on grey15"
"""Cells a variant's rules speak of (cages, lines, dots' cells)."""


def variant_grid(puzzle: Puzzle, grid: Grid, highlight: set[int] | None = None) -> rich_text.Text:
    """Any layout: a heavy border wherever two cells lie in different regions (a
    jigsaw's shapes, a 6x6's boxes), the cells a rule speaks of shaded, and the
    rules listed below."""
    n = puzzle.size
    region = puzzle.layout.unit_index[2]
    symbols = symbols_of(puzzle, grid)
    width = max(len(s) for s in symbols) + 2
    ruled = {c for rule in (puzzle.rules.constraints if puzzle.rules else ()) for c in rule.cells()}

    def apart(a: tuple[int, int], b: tuple[int, int]) -> bool:
        """A heavy border between two places (outside the grid counts as a region)."""
        inside = [0 <= r < n and 0 <= c < n for r, c in (a, b)]
        if not all(inside):
            return any(inside)
        return region[a[0] * n + a[1]] != region[b[0] * n + b[1]]

    text = rich_text.Text()
    for r in range(n + 1):  # the border above row r, then row r
        line = ""
        for c in range(n + 1):
            up = apart((r - 1, c - 1), (r - 1, c))
            down = apart((r, c - 1), (r, c))
            left = apart((r - 1, c - 1), (r, c - 1))
            right = apart((r - 1, c), (r, c))
            line += ARMS[(int(up), int(down), int(left), int(right))]
            if c < n:
                line += ("━" if apart((r - 1, c), (r, c)) else " ") * width
        if "━" in line:  # a row of borders only where some cell's region changes
            text.append(line + "\n", style="dim")
        if r == n:
            break
        for c in range(n):
            text.append("┃" if apart((r, c - 1), (r, c)) else " ", style="dim")
            cell = r * n + c
            style = "bold" if puzzle.cells[cell] else "cyan"
            if cell in ruled:
                style += f" {RULE_STYLE}"
            if highlight and cell in highlight:
                style += " reverse"
            text.append(symbols[cell].center(width), style=style)
        text.append("┃\n", style="dim")
    if puzzle.rules is not None:
        said = puzzle.rules.describe()
        for line in said[:LISTED]:
            text.append(f"  {line}\n", style="italic")
        if len(said) > LISTED:
            text.append(f"  ... and {len(said) - LISTED} more rules\n", style="italic")
    return text


LISTED = 24
"""Rules listed under a variant's grid, at most."""


def view_console(out: io.StringIO, view: View) -> rich_console.Console:
    """A console that writes into ``out`` what the real terminal would show."""
    return rich_console.Console(
        file=out,
        force_terminal=view.color_system is not None,
        color_system=view.color_system,  # type: ignore[arg-type]
        no_color=view.no_color,
        width=view.width,
        highlight=False,
        soft_wrap=True,
    )


def rich_each(
    results: list[Result], view: View, show: Callable[[rich_console.Console, Result], None]
) -> str:
    """Results as the terminal would show them: a heading each when there are many,
    a red line for input that could not be read, ``show`` for the rest."""
    out = io.StringIO()
    console = view_console(out, view)
    for result in results:
        if view.many:
            console.print(rich_text.Text(result.where(), style="bold underline"))
        if result.outcome is None:
            console.print(rich_text.Text(f"error: {result.error}", style="bold red"))
            continue
        show(console, result)
    return out.getvalue()


def _rich(results: list[Result], view: View) -> str:
    """Every solution found (the puzzle when there is none), then the status line."""

    def show(console: rich_console.Console, result: Result) -> None:
        outcome = result.outcome
        assert outcome is not None
        if not view.count:
            grids = outcome.solutions
            diff = set(differences(*grids[:2])) if len(grids) > 1 else None
            if not grids:
                console.print(rich_grid(outcome.puzzle, outcome.puzzle.cells), end="")
            for index, grid in enumerate(grids):
                if len(grids) > 1:
                    console.print(rich_text.Text(f"solution {index + 1}", style="italic"))
                console.print(rich_grid(outcome.puzzle, grid, diff), end="")
        console.print(rich_text.Text(sentence(result, view), style=STATUS_STYLE[outcome.status]))
        if view.stats:
            console.print("\n".join(stats_lines(outcome)), markup=False, style="dim")

    return rich_each(results, view, show)


# --- pictures and links ---------------------------------------------------------


def _picture(result: Result, view: View) -> str:
    """One puzzle's picture: the puzzle, its solved grid (``--solution``; in a PDF
    the puzzle, and its solution for the back), or what explains it (the cells it
    names shaded, its rules in red)."""
    from sudosat.showing.pictures import notice, picture  # deferred: drawsvg, for pictures only

    outcome = result.outcome
    if outcome is None:  # unreadable: a page that says so, in its place
        return notice(f"{result.where()}: error: {result.error}")
    puzzle, grid, marked, alert = outcome.puzzle, None, set[int](), list[Any]()
    if result.explanation is not None:
        grid, marked = _shown_grid(result.explanation)
        named = (result.explanation.conflict or []) + (result.explanation.redundant or [])
        alert = [part for part in named if not isinstance(part, tuple)]
    elif view.solution and outcome.solutions and view.fmt != "pdf":
        grid = outcome.solutions[0]
    caption = caption_of(puzzle, view)
    if result.explanation is not None:  # what explain says is the point of its picture
        caption = replace(caption, title=f"{result.where()}: {outcome.status}")
    front = picture(puzzle, grid, marked, alert, caption)
    if view.fmt == "pdf" and view.solution and outcome.solutions and result.explanation is None:
        # a PDF is a book: the puzzles first, their solutions at the back
        return front + BACK + picture(puzzle, outcome.solutions[0], title=solution_caption(caption))
    return front


def caption_of(puzzle: Puzzle, view: View, title: str = "") -> Caption:
    """What a puzzle's page says: its title (``--title``, or its own, or ``title``)
    and author above the grid; its rules in words below (``--rules-text``: the
    setter's ruleset, or each rule's meaning when it has none)."""
    from sudosat.showing.pictures import Caption  # deferred: drawsvg, for pictures only

    if view.title is not None:
        title, byline = view.title, ""
    else:
        title, byline = puzzle.name or title, f"by {puzzle.author}" if puzzle.author else ""
    rules = ""
    if view.rules_text is not False:
        rules = puzzle.ruleset
    if view.rules_text and not rules:
        rules = rules_in_words(puzzle)
    return Caption(title, byline, rules)


def solution_caption(caption: Caption) -> Caption:
    """The caption of a solution at the back: the puzzle's title, said to be its
    solution, and no rules."""
    title = f"{caption.title}: solution" if caption.title else ""
    return replace(caption, title=title, rules="")


def rules_in_words(puzzle: Puzzle) -> str:
    """The puzzle's rules said in words: the classic rule, then each kind of rule's
    meaning once (a paragraph each)."""
    n = puzzle.size
    region = "region" if puzzle.layout.irregular else "box"
    said = [f"Place the digits 1 to {n} once each in every row, column and {region}."]
    if n > 9:
        said[0] = f"Place each of the {n} symbols once in every row, column and {region}."
    kinds: dict[str, str] = {}
    for rule in puzzle.rules.constraints if puzzle.rules else ():
        if rule.title and rule.meaning:
            kinds.setdefault(rule.title, rule.meaning)
    said += [f"{title[0].upper()}{title[1:]}: {meaning}" for title, meaning in kinds.items()]
    return "\n".join(said)


def _link(puzzle: Puzzle | None) -> str:
    """An f-puzzles link, a line (``error`` for input that could not be read, or a
    puzzle with a rule f-puzzles has no field for: see :func:`note`)."""
    if puzzle is None or unlinkable(puzzle):
        return "error\n"
    from sudosat.reading.fpuzzles import link  # deferred: the rules, for links out only

    return link(puzzle) + "\n"


def unlinkable(puzzle: Puzzle) -> str:
    """Why no f-puzzles link can hold ``puzzle`` (a rule with no field), or ""."""
    if puzzle.rules is None:
        return ""
    from sudosat.reading.fpuzzles import write  # deferred: the rules, for variants only
    from sudosat.rules.base import NoField  # (the same)

    try:
        write(puzzle)
    except NoField as err:
        return str(err)
    return ""


# --- made and explained puzzles -------------------------------------------------

GENERATED_FIELDS = ("puzzle", "solution", "clues", "seed", "rating", "level")


def generated_record(made: Generated) -> dict[str, Any]:
    """The JSON object of a generated puzzle."""
    return {
        "puzzle": puzzle_line(made.puzzle),
        "solution": format_line(made.puzzle, made.solution),
        "clues": made.clues,
        "seed": made.seed,
        "rating": made.rating.rating,
        "level": made.rating.level,
        "conflicts": made.rating.conflicts,
        "rank": made.puzzle.rank,
    }


def render_generated(batch: list[Generated], view: View) -> str:
    """Generated puzzles in ``view``'s format: line (the puzzle), grid, jsonl, csv or rich."""
    fmt = view.fmt
    if fmt in PICTURES:
        return PICTURE_BREAK.join(_generated_picture(made, view) for made in batch)
    if fmt == "fpuzzles":
        return "".join(_link(made.puzzle) for made in batch)
    if fmt == "jsonl":
        return "".join(json.dumps(generated_record(made)) + "\n" for made in batch)
    if fmt == "csv":
        out = io.StringIO()
        rows = ([generated_record(made)[name] for name in GENERATED_FIELDS] for made in batch)
        csv.writer(out, lineterminator="\n").writerows(rows)
        return out.getvalue()
    if fmt == "grid":
        return "".join(_grid_text(made.puzzle) + "\n\n" for made in batch)
    if fmt == "rich":
        text = io.StringIO()
        shown = view_console(text, view)
        for made in batch:
            shown.print(rich_grid(made.puzzle, made.puzzle.cells), end="")
            level = f"level {made.rating.level}, rating {made.rating.rating:g}"
            shown.print(
                rich_text.Text(f"seed {made.seed}: {made.clues} clues, {level}", style="bold")
            )
        return text.getvalue()
    return "".join(puzzle_line(made.puzzle) + "\n" for made in batch)


def rule_statements(puzzle: Puzzle | None, text: str) -> list[str] | None:
    """A variant's rules as statements (and the puzzle's author and ruleset), for a
    record to be read back with them (:mod:`records`); None for a classic puzzle
    that has neither, or one read from a link (which holds them all)."""
    if puzzle is None or is_link(text):
        return None
    about = [f"author: {puzzle.author}"] if puzzle.author else []
    about += [f"ruleset: {line}" for line in puzzle.ruleset.splitlines()]
    if puzzle.classic:
        return about or None
    sized = [] if rank_for_cells(puzzle.size**2) else [f"size {puzzle.size}"]
    try:
        return about + sized + ruletext.write(puzzle)
    except ValueError:  # a jigsaw too big for ``regions:``
        return about or None


def puzzle_line(puzzle: Puzzle) -> str:
    """A puzzle on one line that sudosat reads back: its values, or a variant's
    f-puzzles link (the rules cannot go on a line of values)."""
    if puzzle.classic:
        return format_line(puzzle)
    from sudosat.reading.fpuzzles import link  # deferred: the rules, for links out only

    return link(puzzle)


def _grid_text(puzzle: Puzzle) -> str:
    """The grid, and a variant's rules below it as statements (read back too)."""
    if puzzle.classic:
        return format_grid(puzzle)
    return "\n".join([format_grid(puzzle), *ruletext.write(puzzle)])


def _generated_picture(made: Generated, view: View) -> str:
    """A generated puzzle's picture, and with ``solution`` its solution's for the back."""
    from sudosat.showing.pictures import picture  # deferred: drawsvg, for pictures only

    caption = caption_of(made.puzzle, view, f"{made.rating.level.capitalize()} ({made.seed})")
    front = picture(made.puzzle, None, title=caption)
    if not view.solution:
        return front
    return front + BACK + picture(made.puzzle, made.solution, title=solution_caption(caption))


def clue_text(puzzle: Puzzle, cell: int, value: int) -> str:
    """``r1c9=4``, in the puzzle's own symbols."""
    return f"{cell_name(puzzle.size, cell)}={puzzle.symbol(value)}"


def part_text(puzzle: Puzzle, part: Any) -> str:
    """A clue (``r1c9=4``) or a variant's rule (``cage r1c1-r1c3 sum 25``)."""
    if isinstance(part, tuple):
        return clue_text(puzzle, *part)
    return str(part.describe(puzzle.size))


def explanation_json(found: Explanation) -> dict[str, Any]:
    """The JSON object of an explanation (null where a field does not apply)."""
    outcome, p = found.outcome, found.outcome.puzzle
    fill = found.best_fill
    return {
        "status": outcome.status,
        "puzzle": format_line(p),
        "rules": rule_statements(p, ""),
        "clashes": [c.describe(p) for c in outcome.clashes],
        "conflict": None if found.conflict is None else [part_text(p, c) for c in found.conflict],
        "fewest_removed": found.fewest_removed,
        "best_fill": None
        if fill is None
        else {"filled": found.filled, "grid": format_line(p, fill)},
        "differ": None if found.differ is None else [cell_name(p.size, c) for c in found.differ],
        "add": None if found.add is None else [clue_text(p, *c) for c in found.add],
        "redundant": _parts_text(p, found.redundant),
        "minimal": _parts_text(p, found.minimal),
        "rating": found.rating.rating if found.rating else None,
        "level": found.rating.level if found.rating else None,
        "timed_out": found.timed_out,
        "reason": outcome.reason or None,
        "notes": found.notes,
    }


def _parts_text(puzzle: Puzzle, parts: list[Any] | None) -> list[str] | None:
    return None if parts is None else [part_text(puzzle, part) for part in parts]


def explanation_record(result: Result) -> dict[str, Any]:
    """One puzzle's explanation as JSON: where it came from, then what explains it."""
    data: dict[str, Any] = {
        "source": result.source,
        "line": result.line,
        "name": result.name or None,
    }
    if result.explanation is None:  # input that could not be read
        reason = result.error or (result.outcome.reason if result.outcome else "")
        return {**data, "puzzle": result.puzzle, "status": result.status, "reason": reason}
    return {**data, **explanation_json(result.explanation)}


EXPLANATION_LINES = {
    "conflict": "these clues cannot all hold: {}",
    "fewest_removed": "the fewest clues to drop for a solution: {}",
    "differ": "two solutions differ in: {}",
    "add": "these clues make it unique: {}",
    "redundant": "each of these alone can go and it stays unique: {}",
    "minimal": "these alone keep it unique (a minimal set): {}",
    "level": "level: {}",
    "rating": "rating: {}",
    "timed_out": "ran out of time: {}",
}


def explanation_lines(found: Explanation) -> list[str]:
    """What an explanation says, sentence by sentence, after the status line."""
    data = explanation_json(found)
    lines = []
    forms = dict(EXPLANATION_LINES)
    puzzle = found.outcome.puzzle
    if puzzle.rules is not None and puzzle.rules.constraints:
        forms["conflict"] = "these clues and rules cannot all hold: {}"
        forms["fewest_removed"] = "the fewest clues and rules to drop for a solution: {}"
    if found.redundant == []:  # nothing can go: the minimal set is all of it
        data["minimal"] = None
        lines.append("every clue and rule is needed: none can go and keep it unique")
    for key, form in forms.items():
        value = data[key]
        if value is not None and value != []:
            lines.append(form.format(", ".join(value) if isinstance(value, list) else value))
    if data["best_fill"] is not None:
        size = found.outcome.puzzle.size
        lines.append(f"best fill: {data['best_fill']['filled']} of {size**2} cells (blanks marked)")
    return lines + found.notes


def _shown_grid(found: Explanation) -> tuple[Grid, set[int]]:
    """The grid an explanation is about, and the cells it names."""
    p = found.outcome.puzzle
    marked: set[int] = set()
    grid = p.cells
    if found.conflict:
        marked = {
            cell
            for part in found.conflict
            for cell in ((part[0],) if isinstance(part, tuple) else part.cells())
        }
    if found.differ:
        marked = set(found.differ)
        grid = found.outcome.solutions[0]
    if found.best_fill is not None:
        grid = found.best_fill
        marked |= {cell for cell, v in enumerate(grid) if not v}
    if found.redundant:  # the clues that could go, shaded
        marked |= {part[0] for part in found.redundant if isinstance(part, tuple)}
    return grid, marked


def show_explanation(console: rich_console.Console, found: Explanation) -> None:
    """The explanation for people, with the cells it names marked on the grid."""
    grid, marked = _shown_grid(found)
    console.print(rich_grid(found.outcome.puzzle, grid, marked), end="")
    console.print(
        rich_text.Text(status_line(found.outcome), style=STATUS_STYLE[found.outcome.status])
    )
    for line in explanation_lines(found):
        console.print(line, markup=False, highlight=False)


def explanation_text(found: Explanation) -> str:
    """The explanation as plain text, for logs and mail: the grid, the status line,
    and what explains it (the cells are named, not marked)."""
    grid, _ = _shown_grid(found)
    lines = [format_grid(found.outcome.puzzle, grid), status_line(found.outcome)]
    return "\n".join(lines + explanation_lines(found)) + "\n"


def _explanations(results: list[Result], view: View) -> str:
    """Explanations in ``view``'s format: json, jsonl, text or rich."""
    if view.fmt in ("json", "jsonl"):
        return json_text([explanation_record(r) for r in results], view)
    blocks = []
    for result in results:
        head = f"# {result.where()}\n" if view.many else ""
        found = result.explanation
        if view.fmt == "rich":
            out = io.StringIO()
            console = view_console(out, view)
            if view.many:
                console.print(rich_text.Text(result.where(), style="bold underline"))
            if found is None:
                console.print(rich_text.Text(f"error: {result.error}", style="bold red"))
            else:
                show_explanation(console, found)
            blocks.append(out.getvalue())
        else:
            body = f"error: {result.error}\n" if found is None else explanation_text(found)
            blocks.append(head + body + ("\n" if view.many else ""))
    return "".join(blocks)


# --- the solvers an installation has -----------------------------------------------


def solver_tables(listing: list[dict[str, Any]]) -> list[Table]:
    """``sudosat solvers`` on a terminal: PySAT's solvers, then the programs."""
    from rich.table import Table  # deferred: only this command draws tables

    def yes(flag: bool) -> str:
        return "yes" if flag else "no"

    pysat = Table(title="PySAT solvers (in process)")
    for column in ("name", "aliases", "version (class)", "incremental", "budgets"):
        pysat.add_column(column)
    for column in ("interrupt", "stats", "note"):
        pysat.add_column(column)
    programs = Table(title="Solver programs (--solver NAME, or any with --solver-cmd)")
    for column in ("name", "path", "version", "output", "called as"):
        programs.add_column(column)
    for i in listing:
        if i["kind"] == "program":
            where, version = (i["path"], i["version"]) if i["available"] else ("not on PATH", "-")
            style = None if i["available"] else "dim"
            programs.add_row(i["name"], where, version, i["convention"], i["command"], style=style)
        elif not i["available"]:
            dashes = ["-"] * 5
            pysat.add_row(i["name"], ", ".join(i["aliases"]), *dashes, "not installed", style="dim")
        else:
            name = i["name"] + (" (default)" if i["default"] else "")
            flags = [yes(i[key]) for key in ("incremental", "budgets", "interrupt", "stats")]
            pysat.add_row(name, ", ".join(i["aliases"]), i["class"], *flags, i["note"])
    return [pysat, programs]
