"""One puzzle a line: the stream reader that settles a file's alphabet and size
once, f-puzzles lines, grids of sizes no rank has, and the rules given with
the puzzles (:class:`Variants`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sudosat.core.errors import InputError
from sudosat.core.notation import DIGITS, is_link
from sudosat.core.puzzle import Layout, Puzzle, Rules, rank_for_cells
from sudosat.reading import ruletext
from sudosat.reading.cells import (
    NUMBERS,
    Alphabet,
    Reading,
    Row,
    choose,
    lookup_alphabet,
    numbers_of,
    puzzle_of,
    readings_of,
    symbols_of,
)


@dataclass(frozen=True)
class Variants:
    """What turns puzzles into variants as they are read: rule statements from
    ``--rules`` and ``--rules-file`` (see :mod:`ruletext`), and whether an
    f-puzzles value that is not marked given counts as one."""

    statements: tuple[Any, ...] = ()
    values_as_givens: bool = False


NO_VARIANTS = Variants()


def maybe_fpuzzles(text: str, json: bool = True) -> bool:
    """Whether a line may be an f-puzzles link or string (or, with ``json``, JSON):
    the module is asked only when the line could be one, so that reading a file
    of digits never loads it."""
    stripped = text.strip()
    named = (json and stripped.startswith("{")) or is_link(stripped)
    if not named and (len(stripped) < 40 or not any(char.isalpha() for char in stripped)):
        return False
    from sudosat.reading import fpuzzles  # deferred: rules and lz-string, for f-puzzles only

    return fpuzzles.looks_like(stripped) if json else fpuzzles.looks_like_line(stripped)


def sized_grid(rows: list[Row], size: int, source: str, alphabet: str | None) -> Puzzle:
    """A grid of a size no rank has (a 6x6): N rows of N cells, digits with blanks
    up to 9x9, whitespace-separated numbers beyond (or with ``--alphabet numbers``)."""

    if alphabet == NUMBERS or size > 9:
        cells = [cell for row in rows for cell in row.words()]
        values = numbers_of(cells, size, source)
        symbols = ""
    else:
        chosen = lookup_alphabet(alphabet, size) if alphabet else Alphabet("digits", DIGITS[:size])
        cells = [cell for row in rows for cell in row.chars()]
        values = symbols_of(cells, chosen, source)
        symbols = chosen.symbols
    if isinstance(values, InputError):
        raise values
    if len(values) != size * size:
        last = rows[-1]
        raise InputError(
            source,
            last.number,
            len(last.text) + 1,
            f"wrong number of cells: found {len(values)}, expected {size * size} (size {size})",
        )
    layout = Layout.boxes(size)
    return Puzzle(layout.rank, tuple(values), symbols, source, rows[0].number, "", Rules(layout))


def with_rules(entry: Puzzle | InputError, statements: Sequence[Any]) -> Puzzle | InputError:
    """A puzzle given the rules of ``statements``, or the InputError that stops it."""
    if isinstance(entry, InputError) or not statements:
        return entry
    try:
        return ruletext.apply(entry, statements)
    except InputError as err:
        return err


def fpuzzles_row(row: Row, source: str, variants: Variants) -> Puzzle | InputError:
    """The f-puzzles puzzle on one line (a link or a bare string), with ``variants``."""
    from sudosat.reading import links  # deferred: rules and lz-string, for links only

    try:
        puzzle = links.read(row.text, source, row.number, variants.values_as_givens)
    except InputError as err:
        return err
    return with_rules(puzzle, variants.statements)


def fits(count: int, rank: int | None) -> bool:
    """Whether ``count`` cells make a whole puzzle (of ``rank``, or of rank 3 or more)."""
    found = rank_for_cells(count)
    return found is not None and (found == rank if rank else found >= 3)


FOUR_BY_FOUR = frozenset("1234.0")
"""A 4x4 line's symbols: its values and blanks."""


def four_by_four_lines(texts: Sequence[str]) -> bool:
    """Whether ``texts`` are 4x4 puzzles one a line, as ``generate --rank 2 -f
    line`` writes them: 16 cells of 1-4 and blanks each. Never the rows of a
    16x16 grid: fewer than 16 rows are no such grid, and 16 rows of these cells
    would use four of its sixteen values, no puzzle with one solution."""
    cells = [text.strip() for text in texts]
    return bool(cells) and all(len(c) == 16 and set(c) <= FOUR_BY_FOUR for c in cells)


def read_lines(
    rows: Sequence[Row], source: str, rank: int | None, alphabet: str | None
) -> Iterator[Puzzle | InputError]:
    """One puzzle per row. The alphabet is settled once for the whole file."""
    return LineReader(source, rank, alphabet).read(rows)


class LineReader:
    """Reads a stream of one-puzzle lines, in pieces: the first piece settles the
    alphabet (from up to 200 rows) and the size (its first puzzle) for all that follow."""

    def __init__(
        self,
        source: str,
        rank: int | None,
        alphabet: str | None,
        variants: Variants = NO_VARIANTS,
    ) -> None:
        self.source, self.rank, self.alphabet = source, rank, alphabet
        self.variants = variants
        self.settled = alphabet is not None
        self.first: Puzzle | None = None
        self.fast: dict[str, int] = {}

    @property
    def classic(self) -> bool:
        """No rule statements apply: the puzzles read are classic ones."""
        return not self.variants.statements

    def read(self, rows: Sequence[Row]) -> Iterator[Puzzle | InputError]:
        self._settle_alphabet(rows)
        for row in rows:
            yield self.read_row(row)

    def settle(self, rows: Sequence[Row]) -> None:
        """Settle the alphabet and the size from ``rows`` (up to its first good puzzle),
        so that copies of this reader read any later piece the same way."""
        self._settle_alphabet(rows)
        for row in rows:
            if self.first is not None:
                return
            if not is_link(row.text):  # a link settles nothing: read it later
                self.read_row(row)

    def _settle_alphabet(self, rows: Sequence[Row]) -> None:
        if not self.settled:
            rows = [row for row in rows[:200] if not is_link(row.text)]
            sample = [readings_of([row], self.source, self.rank, None, False) for row in rows]
            self.alphabet = _file_alphabet(sample)
            self.settled = True

    def read_row(self, row: Row, rules: Sequence[str] = ()) -> Puzzle | InputError:
        """One line's puzzle, with the rules of ``variants`` (and ``rules``: the
        statements of a record's or a CSV's ``rules``); an f-puzzles link is read
        as such."""
        if rules:
            return self._read_with_rules(row, rules)
        if is_link(row.text):  # a link is no row of cells: read it at once
            return fpuzzles_row(row, self.source, self.variants)
        found = self._read_classic_row(row)
        if isinstance(found, InputError) and maybe_fpuzzles(row.text):
            return fpuzzles_row(row, self.source, self.variants)
        return with_rules(found, self.variants.statements)

    def _read_with_rules(self, row: Row, rules: Sequence[str]) -> Puzzle | InputError:
        statements = ruletext.Statements([(row.number, rule) for rule in rules], self.source)
        try:
            size = statements.size()
            if size is not None and rank_for_cells(size * size) is None:  # a 6x6
                found: Puzzle | InputError = sized_grid([row], size, self.source, self.alphabet)
            else:
                found = self.read_row(row)
            return found if isinstance(found, InputError) else ruletext.apply(found, [statements])
        except InputError as err:
            return err

    def _read_classic_row(self, row: Row) -> Puzzle | InputError:
        first, source = self.first, self.source
        text = row.text.strip()
        if first is not None and self.fast and len(text) == len(first.cells):
            # The common case, decided without building a Reading: one line, known symbols.
            try:
                cells = tuple(map(self.fast.__getitem__, text))
            except KeyError:
                pass
            else:
                return Puzzle(first.rank, cells, first.alphabet, source, row.number)
        readings = readings_of([row], source, self.rank, self.alphabet, False)
        try:
            reading = choose(
                readings, [row], source, first.rank if first else self.rank, self.alphabet
            )
        except InputError as err:
            return err
        puzzle = puzzle_of(reading, source, row.number)
        if first is None:
            self.first = puzzle
            if reading.alphabet is not None and reading.kind == "chars":
                self.fast = reading.alphabet.table()
        elif puzzle.rank != first.rank:
            return InputError(
                source,
                row.number,
                1,
                f"mixed sizes: this puzzle is {puzzle.size}x{puzzle.size}, "
                f"expected {first.size}x{first.size} like line {first.line}",
            )
        return puzzle


def _file_alphabet(per_row: list[list[Reading]]) -> str | None:
    """The alphabet that reads the most rows, when the rows use symbols at all;
    numbers when they read more rows than any alphabet (blank rows of "0 0 0"
    fit alphabets too, "13 0 7" only numbers)."""
    scores: dict[str, int] = {}
    for readings in per_row:
        for name in {_alphabet_name(r) for r in readings if r.values is not None}:
            scores[name] = scores.get(name, 0) + 1
    numbers = scores.pop(NUMBERS, 0)
    if not scores:
        return NUMBERS if numbers else None
    best = max(scores.values())
    if numbers > best:
        return NUMBERS
    winners = [name for name, score in scores.items() if score == best]
    return winners[0] if len(winners) == 1 else None


def _alphabet_name(reading: Reading) -> str:
    return reading.alphabet.name if reading.alphabet is not None else NUMBERS
