"""Showing outcomes: a rich grid for people, plain text and JSON for programs."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from .engine import ERROR, MULTIPLE, NONE, SOLVED, TIMEOUT, UNIQUE, Outcome
from .formats import format_grid, format_line, symbols_of
from .puzzle import Grid, cell_name, differences

FORMATS = ("rich", "grid", "line", "json")
STATUS_STYLE = {
    UNIQUE: "bold green",
    SOLVED: "green",
    MULTIPLE: "bold yellow",
    NONE: "bold red",
    TIMEOUT: "bold red",
    ERROR: "bold red",
}


def where(outcome: Outcome) -> str:
    return f"{outcome.puzzle.source}:{outcome.puzzle.line}"


def status_line(outcome: Outcome) -> str:
    """One line saying what was found, for people."""
    p, found = outcome.puzzle, len(outcome.solutions)
    if outcome.status == UNIQUE:
        return "unique solution"
    if outcome.status == SOLVED:
        return "solved (uniqueness not checked)"
    if outcome.status == MULTIPLE:
        counted = f"{found} solutions" if outcome.exhausted else f"at least {found} solutions"
        cells = [cell_name(p.rank, c) for c in differences(*outcome.solutions[:2])]
        shown = ", ".join(cells[:12]) + (", ..." if len(cells) > 12 else "")
        return f"not unique: {counted}; the first two differ in {shown}"
    if outcome.status == NONE:
        if outcome.clashes:
            clash = outcome.clashes[0]
            more = (
                f" (and {len(outcome.clashes) - 1} more clashes)"
                if len(outcome.clashes) > 1
                else ""
            )
            return f"no solution: {clash.describe(p)}{more}"
        return f"no solution: {outcome.reason}" if outcome.reason else "no solution"
    if outcome.status == TIMEOUT:
        partial = f"; {found} solution(s) found before" if found else ""
        return f"timeout: {outcome.reason}{partial}"
    return f"error: {outcome.reason}"


def count_line(outcome: Outcome) -> str:
    found = len(outcome.solutions)
    if outcome.status in (TIMEOUT, ERROR):
        return status_line(outcome)
    noun = "solution" if found == 1 else "solutions"
    return f"{found} {noun}" if outcome.exhausted else f"at least {found} {noun} (--max-solutions)"


def stats_lines(outcome: Outcome) -> list[str]:
    """The MiniSat-style report: problem size, search effort, time."""
    s = outcome.stats
    rows = [
        ("solver", outcome.solver),
        ("encoding", outcome.encoding.describe() if outcome.encoding else "-"),
        ("variables", s.variables),
        ("clauses", s.clauses),
        ("solves", s.solves),
        ("conflicts", s.conflicts),
        ("decisions", s.decisions),
        ("propagations", s.propagations),
        ("restarts", s.restarts),
        ("time", f"{s.time:.4f} s"),
    ]
    return [f"{name:<13}: {'-' if value is None else value}" for name, value in rows]


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    p = outcome.puzzle
    return {
        "source": p.source,
        "line": p.line,
        "rank": p.rank,
        "puzzle": format_line(p),
        "status": outcome.status,
        "unique": outcome.unique,
        "count": len(outcome.solutions),
        "count_complete": outcome.exhausted,
        "solutions": [format_line(p, grid) for grid in outcome.solutions],
        "differ": [cell_name(p.rank, c) for c in differences(*outcome.solutions[:2])]
        if len(outcome.solutions) > 1
        else [],
        "clashes": [c.describe(p) for c in outcome.clashes],
        "reason": outcome.reason or None,
        "solver": outcome.solver,
        "encoding": outcome.encoding.describe() if outcome.encoding else None,
        "time": round(outcome.stats.time, 6),
        "stats": outcome.stats.as_dict(),
    }


def plain(outcome: Outcome, fmt: str, limit: int | None = None) -> str:
    """Solutions in the puzzle's own notation; the status word when there is none."""
    grids = outcome.solutions[:limit] if limit else outcome.solutions
    if not grids:
        return outcome.status
    if fmt == "line":
        return "\n".join(format_line(outcome.puzzle, g) for g in grids)
    return "\n\n".join(format_grid(outcome.puzzle, g) for g in grids)


def rich_grid(outcome: Outcome, grid: Grid, highlight: set[int] | None = None) -> Text:
    """The grid with box rules; givens bold, filled cells cyan, ``highlight`` reversed."""
    p = outcome.puzzle
    m, n = p.rank, p.size
    symbols = symbols_of(p, grid)
    width = max(len(s) for s in symbols)
    box = (width + 1) * m + 1
    text = Text()

    def rule(left: str, mid: str, right: str) -> str:
        return left + mid.join("━" * box for _ in range(m)) + right + "\n"

    text.append(rule("┏", "┳", "┓"), style="dim")
    for r in range(n):
        if r and r % m == 0:
            text.append(rule("┣", "╋", "┫"), style="dim")
        text.append("┃", style="dim")
        for c in range(n):
            cell = r * n + c
            style = "bold" if p.cells[cell] else "cyan"
            if highlight and cell in highlight:
                style += " reverse"
            text.append(" ")
            text.append(symbols[cell].rjust(width), style=style)
            if c % m == m - 1:
                text.append(" ┃", style="dim")
        text.append("\n")
    text.append(rule("┗", "┻", "┛"), style="dim")
    return text


def show_rich(console: Console, outcome: Outcome, *, title: bool) -> None:
    """Every solution found (the puzzle when there is none), then the status line."""
    if title:
        console.print(Text(where(outcome), style="bold underline"))
    grids = outcome.solutions
    diff = set(differences(*grids[:2])) if len(grids) > 1 else None
    if not grids:
        console.print(rich_grid(outcome, outcome.puzzle.cells), end="")
    for index, grid in enumerate(grids):
        if len(grids) > 1:
            console.print(Text(f"solution {index + 1}", style="italic"))
        console.print(rich_grid(outcome, grid, diff), end="")
    console.print(Text(status_line(outcome), style=STATUS_STYLE[outcome.status]))
