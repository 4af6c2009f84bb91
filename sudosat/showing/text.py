"""Answers in words: status sentences, a solution as a line or a grid, the notes
under a result, a puzzle's rules and parts as text, a puzzle as a link
f-puzzles (and SudokuPad) open."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sudosat.core.notation import format_grid, format_line, is_link
from sudosat.core.puzzle import Puzzle, cell_name, differences, rank_for_cells
from sudosat.reading import ruletext
from sudosat.showing.view import Result, View
from sudosat.solving.outcome import INTERRUPTED, Outcome, Status


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
    if outcome.reason == INTERRUPTED:  # Ctrl-C: what was found, a lower bound
        return f"{len(outcome.solutions)}+ solutions (interrupted)"
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
        text += f"; {result.rating.said()}"
        text += f" ({result.rating.conflicts} search conflicts)" if result.rating.conflicts else ""
        text += f" ({result.rating.explained()})" if result.rating.explainer else ""
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
    notes = (said, lost_note(result), drawn_note(result), drawing_note(result))
    lines = [line for line in notes if line]
    return "\n".join(lines) if lines else None


def lost_note(result: Result) -> str | None:
    """The warning for a link whose rules an editor dropped (:attr:`Rules.lost`):
    the puzzle is solved without them, whatever its status."""
    outcome = result.outcome
    rules = outcome.puzzle.rules if outcome is not None else None
    if rules is None or not rules.lost:
        return None
    return f"{result.where()}: warning: {lost_words(rules.lost)}"


def lost_words(lost: Sequence[str]) -> str:
    """What a puzzle whose link lost rules of these kinds says of them."""
    kinds = lost[0] if len(lost) == 1 else f"{', '.join(lost[:-1])} and {lost[-1]}"
    return (
        f"this link holds its {kinds} rules as shapes only (an editor that does not know "
        "them, as f-puzzles, dropped them when it saved the link): solved without them"
    )


def drawing_note(result: Result) -> str | None:
    """The parts still being drawn (an arrow's circle without its shaft), named once:
    read and kept, they constrain nothing yet."""
    outcome = result.outcome
    rules = outcome.puzzle.rules if outcome is not None else None
    if outcome is None or rules is None:
        return None
    notes = [said for rule in rules.constraints if (said := rule.note(outcome.puzzle.size))]
    if not notes:
        return None
    return f"{result.where()}: note: {'; '.join(notes)} (constraining nothing until drawn)"


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
    if result.outcome is None and (view.record == "explanation" or view.fmt == "fpuzzles"):
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


def line_of(result: Result, view: View) -> str:
    """The ``line`` format's line for one puzzle."""
    outcome = result.outcome
    if outcome is None or outcome.status == Status.ERROR:
        return "error"
    if result.estimate is not None:
        found = result.estimate
        if found.exact or found.at_least:  # counted (all, or some: N+)
            return str(found.count) + ("" if found.exact else "+")
        from sudosat.solving.estimate import scientific  # deferred: estimates alone

        return scientific(found.ln_estimate, 6)
    if view.count:
        return f"{len(outcome.solutions)}" + ("" if outcome.exhausted else "+")
    if view.record == "rating":
        rating = result.rating
        return f"{rating.named} {rating.rating:g}" if rating else str(outcome.status)
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


def rules_in_words(puzzle: Puzzle) -> str:
    """The puzzle's rules said in words: the classic rule, then each kind of rule's
    meaning once (a paragraph each)."""
    n = puzzle.size
    region = "region" if puzzle.layout.irregular else "box"
    said = [f"Place the digits 1 to {n} once each in every row, column and {region}."]
    if n > 9:
        said[0] = f"Place each of the {n} symbols once in every row, column and {region}."
    kinds: dict[str, str] = {}
    for rule in puzzle.constraints:
        if rule.title and rule.meaning:
            kinds.setdefault(rule.title, rule.meaning)
    said += [f"{title[0].upper()}{title[1:]}: {meaning}" for title, meaning in kinds.items()]
    return "\n".join(said)


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


def grid_text(puzzle: Puzzle) -> str:
    """The grid, and a variant's rules below it as statements (read back too)."""
    if puzzle.classic:
        return format_grid(puzzle)
    return "\n".join([format_grid(puzzle), *ruletext.write(puzzle)])


def clue_text(puzzle: Puzzle, cell: int, value: int) -> str:
    """``r1c9=4``, in the puzzle's own symbols."""
    return f"{cell_name(puzzle.size, cell)}={puzzle.symbol(value)}"


def part_text(puzzle: Puzzle, part: Any) -> str:
    """A clue (``r1c9=4``) or a variant's rule (``cage r1c1-r1c3 sum 25``)."""
    if isinstance(part, tuple):
        return clue_text(puzzle, *part)
    return str(part.describe(puzzle.size))


def link_line(puzzle: Puzzle | None) -> str:
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
