"""Answers for people at a terminal: rich grids, boxes and colours (rich is loaded
only when this format is asked for)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from sudosat.core.jsonobject import JsonObject
from sudosat.core.notation import format_grid, symbols_of
from sudosat.core.puzzle import Grid, Puzzle, differences
from sudosat.showing.records import explanation_json
from sudosat.showing.text import sentence, stats_lines, status_line
from sudosat.showing.view import STATUS_STYLE, Result, View
from sudosat.system.lazy import lazy

if TYPE_CHECKING:
    import rich.console as rich_console
    import rich.text as rich_text
    from rich.table import Table

    from sudosat.making.explain import Explanation
    from sudosat.making.generator import Generated
else:  # rich for the rich format alone: a pipe does not pay for it
    rich_console = lazy("rich.console")
    rich_text = lazy("rich.text")


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
    ruled = {c for rule in puzzle.constraints for c in rule.cells()}

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


def rich_results(results: list[Result], view: View) -> str:
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
    if puzzle.constraints:
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


def shown_grid(found: Explanation) -> tuple[Grid, set[int]]:
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
    grid, marked = shown_grid(found)
    console.print(rich_grid(found.outcome.puzzle, grid, marked), end="")
    console.print(
        rich_text.Text(status_line(found.outcome), style=STATUS_STYLE[found.outcome.status])
    )
    for line in explanation_lines(found):
        console.print(line, markup=False, highlight=False)


def explanation_text(found: Explanation) -> str:
    """The explanation as plain text, for logs and mail: the grid, the status line,
    and what explains it (the cells are named, not marked)."""
    grid, _ = shown_grid(found)
    lines = [format_grid(found.outcome.puzzle, grid), status_line(found.outcome)]
    return "\n".join(lines + explanation_lines(found)) + "\n"


ALIASES_SHOWN = 2
"""Aliases a solver's row shows (the shortest; ``--format json`` lists them all)."""


def solver_tables(listing: list[JsonObject]) -> list[Table | str]:
    """``sudosat solvers`` on a terminal: PySAT's solvers, their notes below them,
    then the programs; readable at 80 columns (names never cut, long cells
    wrapped, the full record in ``--format json``)."""
    from rich import box
    from rich.table import Table  # deferred: only this command draws tables

    def yes(flag: bool) -> str:
        return "yes" if flag else "no"

    pysat = Table(title="PySAT solvers (in process)", box=box.SIMPLE_HEAD)
    pysat.add_column("name", no_wrap=True)
    pysat.add_column("also called", overflow="fold", min_width=16)
    for column in ("incremental", "budgets", "interrupt", "stats"):
        pysat.add_column(column, no_wrap=True)
    notes: list[str] = []
    programs = Table(
        title="Solver programs (--solver NAME, or any with --solver-cmd)", box=box.SIMPLE_HEAD
    )
    programs.add_column("name", no_wrap=True)
    for column in ("path", "version", "called as"):
        programs.add_column(column, overflow="fold")
    for i in listing:
        if i["kind"] == "program":
            where, version = (i["path"], i["version"]) if i["available"] else ("not on PATH", "-")
            style = None if i["available"] else "dim"
            programs.add_row(i["name"], where, version, i["command"], style=style)
            continue
        aliases = sorted((a for a in i["aliases"] if a != i["name"]), key=len)
        also = ", ".join(aliases[:ALIASES_SHOWN]) + (
            ", ..." if len(aliases) > ALIASES_SHOWN else ""
        )
        if not i["available"]:
            pysat.add_row(i["name"], also, *["-"] * 4, style="dim")
            notes.append(f"{i['name']}: not installed")
            continue
        name = i["name"] + ("*" if i["default"] else "")
        if i["default"]:
            notes.insert(0, f"* the default solver (--solver {i['name']})")
        flags = [yes(i[key]) for key in ("incremental", "budgets", "interrupt", "stats")]
        pysat.add_row(name, also, *flags)
        if i["note"]:
            notes.append(f"{i['name']}: {i['note']}")
    return [pysat, *notes, "", programs]


def rich_generated(batch: list[Generated], view: View) -> str:
    """Generated puzzles for people: each grid, its seed, clues and rating."""
    text = io.StringIO()
    shown = view_console(text, view)
    for made in batch:
        shown.print(rich_grid(made.puzzle, made.puzzle.cells), end="")
        said = f"seed {made.seed}: {made.clues} clues"
        if made.rating is not None:
            said += f", {made.rating.said()}"
        shown.print(rich_text.Text(said, style="bold"))
    return text.getvalue()


def rich_explanation(result: Result, view: View) -> str:
    """One puzzle's explanation for people (or why there is none)."""
    out = io.StringIO()
    shown = view_console(out, view)
    if view.many:
        shown.print(rich_text.Text(result.where(), style="bold underline"))
    if result.explanation is None:
        shown.print(rich_text.Text(f"error: {result.error}", style="bold red"))
    else:
        show_explanation(shown, result.explanation)
    return out.getvalue()
