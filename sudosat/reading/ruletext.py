"""Variant rules in plain text, for puzzles written by hand and for the shell.

A statement is one rule, ``WORD [VALUE]: CELLS``, or words alone for rules of
the whole grid::

    size 9                       # without a grid: an empty 9x9 (the default size)
    anti-knight, diagonals       # flags, comma-separated
    cage 15: r1c1 r1c2 r2c1      # a killer cage and its sum (cage: ... without one)
    thermo: r2c2 r2c3 r2c4       # from the bulb
    arrow: r5c5 > r5c6 r5c7      # the circle's cells, >, the line
    difference: r1c1 r1c2        # a white kropki dot (difference 3: ...), ratio: black
    sandwich 10: r0c3            # outside clues sit in row or column 0 or N+1
    regions: 111222333111222333...   # a jigsaw: N*N region labels, or N rows of them below
    title: Miracle                   # what the puzzle says about itself: title, author,
    author: Mitchell Lee             # ruleset (the rules in the setter's words), each
    ruleset: Normal sudoku rules...  # drawn on its page (a line each; ``#`` kept)

Cells are ``r1c1`` (1-based, any case) or straight runs ``r1c1-r1c5``. Each
rule's words are in :data:`rules.BY_WORD`; the README lists them all.
Statements come in a puzzle file (a line each, anywhere; the grid's lines are
the others), in ``--rules`` (separated by ``;``) or in ``--rules-file``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from sudosat.core.errors import InputError
from sudosat.core.notation import format_grid
from sudosat.core.puzzle import MAX_SIZE, Constraint, Layout, Puzzle, Rules, rank_for_cells

if TYPE_CHECKING:
    from sudosat.rules import Rule, Where


# The rules package is imported where a statement is first met, in the two
# functions below: a classic puzzle's reading never pays for importing every
# rule (about 50 ms).


def rule_words() -> dict[str, type[Rule]]:
    """Each rule class by its words (:data:`rules.BY_WORD`)."""
    from sudosat.rules import BY_WORD  # deferred for start-up, as said above

    return BY_WORD


def place(source: str, line: int, size: int, what: str = "", layout: Layout | None = None) -> Where:
    """Where a statement is read (:class:`rules.Where`)."""
    from sudosat.rules import Where  # deferred for start-up, as said above

    return Where(source, line, size, what, layout)


STATEMENT = re.compile(r"\s*([A-Za-z][A-Za-z0-9+\-]*)\s*([^:]*?)\s*(?::(.*))?")
SPECIAL = ("size", "regions")
CELLS = re.compile(r"\s*r[0-9]+\s*c[0-9]+", re.IGNORECASE)
META = re.compile(r"\s*(title|author|ruleset)\s*:\s*(.*?)\s*", re.IGNORECASE)
"""What a puzzle says about itself (``title: Miracle``), kept whole: a title may hold ``#``."""
COMMENT = re.compile(r"(?:^|\s)#.*$")
"""A comment: from a ``#`` that starts the line or follows a space, to its end."""
WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*[+-]?")


def _near(word: str, stems: bool = False) -> list[str]:
    """The rule words close to a misspelled one (``anti-kngiht``: anti-knight);
    with ``stems``, also those whose own stem it holds (``kingsmove``: anti-king)."""
    import difflib  # only a misspelled rule needs it

    by_word = rule_words()
    near = difflib.get_close_matches(word, list(by_word), n=6, cutoff=0.75)
    if not near:
        return _holding_stem(word) if stems else []
    score = {w: difflib.SequenceMatcher(None, word, w).ratio() for w in near}
    best = max(score.values())  # the closest, and any about as close
    return list(dict.fromkeys(by_word[w].words[0] for w in near if score[w] >= best - 0.05))[:3]


def _holding_stem(word: str) -> list[str]:
    """The rules whose stem (a part of four letters or more of their words that no
    other rule's words have: ``king`` of anti-king) ``word`` holds."""
    owners: dict[str, set[type[Rule]]] = {}
    for known, kind in rule_words().items():
        for part in re.split(r"[-+]", known.removeprefix("anti")):
            if len(part) >= 4:
                owners.setdefault(part, set()).add(kind)
    found = [kinds.pop() for part, kinds in owners.items() if len(kinds) == 1 and part in word]
    return sorted({kind.words[0] for kind in found})[:3]


@dataclass
class Statements:
    """Rule statements as read, with the lines they came from."""

    lines: list[tuple[int, str]] = field(default_factory=list)
    source: str = ""

    def __bool__(self) -> bool:
        return bool(self.lines)

    def size(self) -> int | None:
        """The size a ``size N`` statement gives, if any."""
        for number, text in self.lines:
            words = text.split()
            if words and words[0].lower() == "size":
                where = place(self.source, number, 0)
                size = where.number(words[1] if len(words) > 1 else None, low=2)
                if size is None or size > MAX_SIZE:
                    raise where.error(f"size: expected a number 2..{MAX_SIZE}")
                return size
        return None


def is_statement(text: str) -> bool:
    """Whether a line of a puzzle file is a rule statement (not a row of cells)."""
    if META.fullmatch(text):
        return True
    match = STATEMENT.fullmatch(text)
    if match is None:  # most rows of cells: decided without the rules
        return False
    by_word = rule_words()
    word = match[1].lower()
    if word == "size":
        return bool(re.fullmatch(r"\s*size\s+[0-9]+\s*", text, re.IGNORECASE))
    if word == "regions":
        return match[3] is not None
    if match[3] is not None:  # an unknown word before cells is an unknown rule, never a row
        return word in by_word or bool(CELLS.match(match[3]))
    if word in by_word and CELLS.search(match[2]):  # cage 15 r1c1 r1c2: its colon is missing
        return True
    words = [w for w in re.split(r"[,\s]+", text.strip()) if w]
    if all(w.lower() in by_word and by_word[w.lower()].flag for w in words):
        return True
    # anti-kngiht: a misspelled rule, reported as one rather than as a row of cells;
    # in lower case, as rules are typed, a word holding a rule's stem too (kingsmove)
    stems = text.islower()
    return all(WORD.fullmatch(w) for w in words) and any(_near(w.lower(), stems) for w in words)


def split(text: str, source: str) -> tuple[Statements, str]:
    """The statements of a puzzle file, and its text with them blanked out (so
    that lines keep their numbers). A ``regions:`` statement with nothing after
    its colon takes the rows of labels below it."""
    found = Statements(source=source)
    lines = text.splitlines()
    kept: list[str] = []
    taking = 0  # rows of region labels still to take
    for number, line in enumerate(lines, 1):
        if taking:
            found.lines[-1] = (found.lines[-1][0], found.lines[-1][1] + " " + line.strip())
            taking -= 1
            kept.append("")
            continue
        if META.fullmatch(line):
            found.lines.append((number, line.strip()))
            kept.append("")
            continue
        said = uncommented(line)
        if said and is_statement(said):
            found.lines.append((number, said))
            kept.append("")
            head, _, rest = line.partition(":")
            if head.strip().lower() == "regions" and not rest.strip():
                taking = _label_rows(lines[number:])
            continue
        kept.append(line)
    return found, "\n".join(kept)


def uncommented(line: str) -> str:
    """A statement line without its ``# comment`` (a whole line, or after the rule)."""
    return COMMENT.sub("", line).strip()


def _label_rows(below: Sequence[str]) -> int:
    """How many of the lines below are rows of region labels: as many as the first
    is long (N rows of N labels)."""
    rows = [line.strip().replace(" ", "") for line in below]
    width = len(rows[0]) if rows else 0
    count = 0
    while count < width and count < len(rows) and len(rows[count]) == width:
        count += 1
    return count


def from_option(text: str, source: str = "--rules") -> Statements:
    """``--rules`` statements: separated by ``;`` or new lines."""
    found = Statements(source=source)
    for part in re.split(r"[;\n]", text):
        said = part.strip() if META.fullmatch(part) else uncommented(part)
        if said:
            found.lines.append((0, said))
    return found


def apply(puzzle: Puzzle, statements: Iterable[Statements]) -> Puzzle:
    """``puzzle`` with the rules of ``statements`` added to its own; InputError
    for a statement that cannot be read, naming its place."""
    layout = puzzle.layout
    constraints: list[Constraint] = list(puzzle.constraints)
    regions: tuple[int, str] | None = None
    about: dict[str, str] = {}  # title, author, ruleset
    for group in statements:
        for number, text in group.lines:
            meta = META.fullmatch(text)
            if meta:
                key = {"title": "name"}.get(meta[1].lower(), meta[1].lower())
                about[key] = f"{about[key]}\n{meta[2]}" if key in about else meta[2]
                continue
            where = place(group.source, number, puzzle.size, text[:40], layout)
            word = text.split(":")[0].split()[0].lower()
            if word == "size":
                if where.number(text.split()[1]) != puzzle.size:
                    raise where.error(f"the grid is {puzzle.size}x{puzzle.size}")
                continue
            if word == "regions":
                regions = (number, text.partition(":")[2])
                continue
            constraints += statement(text, where)
    if regions is not None:
        layout = _regions(
            regions[1], place(_source(statements), regions[0], puzzle.size, "regions")
        )
    if about:
        name, author = about.get("name", puzzle.name), about.get("author", puzzle.author)
        puzzle = replace(
            puzzle, name=name, author=author, ruleset=about.get("ruleset", puzzle.ruleset)
        )
    if not constraints and layout == puzzle.layout and puzzle.rules is None:
        return puzzle
    known = puzzle.rules
    rules = Rules.of(layout, constraints, *((known.drawings, known.lost) if known else ()))
    return replace(puzzle, rank=layout.rank, rules=rules)


def _source(statements: Iterable[Statements]) -> str:
    return next((group.source for group in statements), "")


def statement(text: str, where: Where) -> list[Rule]:
    """The rules of one statement."""
    by_word = rule_words()

    match = STATEMENT.fullmatch(text)
    if match is None:
        raise where.error("expected WORD [VALUE]: CELLS, or flags such as anti-knight")
    word, value, cells = match[1].lower(), match[2], match[3]
    if cells is None and word == "negative":
        return by_word[word].from_text(word, value, "", where)
    if cells is None and word in by_word and CELLS.search(value):
        head = " ".join([word, *_head(value).split()])
        raise where.error(f"expected a colon before the cells: {head}: r1c1 ...")
    if cells is None:  # flags: anti-knight, diagonals
        found: list[Rule] = []
        for flag in (w for w in re.split(r"[,\s]+", text.strip()) if w):
            kind = by_word.get(flag.lower())
            if kind is None or not kind.flag:
                raise where.error(f"unknown rule {flag[:20]!r}{_known(flag)}")
            found += kind.from_text(flag.lower(), "", "", where)
        return found
    kind = by_word.get(word)
    if kind is None:
        raise where.error(f"unknown rule {word[:20]!r}{_known(word)}")
    return kind.from_text(word, value, cells.strip(), where)


def _known(word: str) -> str:
    """What to say after an unknown rule's word: the words near it, else every rule."""
    by_word = rule_words()

    near = _near(word.lower(), stems=True)
    if near:
        return f"; did you mean {' or '.join(near)}?"
    return "; known: " + ", ".join(sorted({cls.words[0] for cls in by_word.values()}))


def _head(value: str) -> str:
    """The number before the cells of a statement that lost its colon."""
    match = CELLS.search(value)
    return value[: match.start()].strip() if match else value


def _regions(text: str, where: Where) -> Layout:
    """A jigsaw's layout from N*N labels, one per cell in reading order."""
    labels = text.replace(" ", "")
    n = where.size
    if len(labels) != n * n:
        raise where.error(f"expected {n * n} region labels, one per cell, found {len(labels)}")
    names: dict[str, int] = {}
    region_of = [names.setdefault(label, len(names)) for label in labels]
    layout = Layout.jigsaw(region_of)
    if len(layout.regions) != n or any(len(r) != n for r in layout.regions):
        sizes = sorted({len(r) for r in layout.regions})
        raise where.error(f"{len(layout.regions)} regions of {sizes} cells: expected {n} of {n}")
    return layout


def read_empty(statements: Statements, source: str) -> Puzzle:
    """The puzzle of rule statements alone (no grid): an empty grid of the size
    they give (9 when they give none)."""

    size = statements.size() or 9
    layout = Layout.boxes(size)
    try:
        rank = layout.rank
        alphabet = "123456789"[:size] if size <= 9 else ""
        line = statements.lines[0][0] if statements.lines else 1
        empty = Puzzle(rank, (0,) * (size * size), alphabet, source, line, "", Rules(layout))
    except ValueError as err:
        raise InputError(source, 1, 1, str(err)) from None
    return apply(empty, [statements])


LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def write(puzzle: Puzzle) -> list[str]:
    """A variant puzzle's statements, what :func:`apply` reads back: a jigsaw's
    ``regions:`` line, then a line per rule."""
    lines = []
    layout, n = puzzle.layout, puzzle.size
    if layout.irregular:
        if n > len(LABELS):
            raise ValueError(f"a {n}x{n} jigsaw's regions have no text form: use f-puzzles")
        lines.append("regions: " + "".join(LABELS[r] for r in layout.unit_index[2]))
    constraints = puzzle.constraints
    return lines + [rule.text(n) for rule in constraints]


def puzzle_text(puzzle: Puzzle) -> str:
    """The puzzle as text sudosat reads back: its size when the grid does not say
    it, its grid, and a variant's rules as statements."""
    if puzzle.classic:
        return format_grid(puzzle) + "\n"
    sized = [] if rank_for_cells(puzzle.size**2) else [f"size {puzzle.size}"]
    return "\n".join([*sized, format_grid(puzzle), *write(puzzle)]) + "\n"
