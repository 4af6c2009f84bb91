"""A puzzle's CNF as data: the variable numbering, the encoding options, the
clauses in parts, and the at-most-one groups written in the chosen encoding."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

from sudosat.core import masks
from sudosat.core.notation import format_line
from sudosat.core.puzzle import Grid, Puzzle

RULES = ("minimal", "efficient", "extended")


AMO_ENCODINGS = (
    "pairwise",
    "seqcounter",
    "ladder",
    "bitwise",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
    "sortnetwrk",
    "cardnetwrk",
)


@dataclass(frozen=True)
class Encoding:
    """Which clauses to write. The defaults are the fastest in benchmarks/encodings.py."""

    rules: str = "extended"
    amo: str = "pairwise"
    reduced: bool = True

    def __post_init__(self) -> None:
        if self.rules not in RULES:
            raise ValueError(f"unknown rules {self.rules!r}; choose from {', '.join(RULES)}")
        if self.amo not in AMO_ENCODINGS:
            raise ValueError(
                f"unknown at-most-one encoding {self.amo!r}; choose from {', '.join(AMO_ENCODINGS)}"
            )

    def describe(self) -> str:
        return f"{self.rules}, at-most-one {self.amo}" + (", reduced" if self.reduced else "")


def literal(size: int, cell: int, value: int) -> int:
    """The variable for ``value`` (1..N) in ``cell`` (row-major): the one numbering
    of sudosat's full CNF (the compact one is :class:`Cnf`'s own)."""
    return cell * size + value


def cell_value(size: int, lit: int) -> tuple[int, int]:
    """The (cell, value) of a candidate's literal, either sign (:func:`literal`'s inverse)."""
    cell, low = divmod(abs(lit) - 1, size)
    return cell, low + 1


def lookup(size: int) -> tuple[list[int], list[int]]:
    """For each variable 0..N**3 (0: none), its cell and its value: models read by
    table, without a call per literal."""
    cells = [0] + [cell for cell in range(size * size) for _ in range(size)]
    found = [0] + list(range(1, size + 1)) * (size * size)
    return cells, found


def is_candidate(size: int, lit: int) -> bool:
    """Whether a literal is a candidate's (the numbering's first N**3 variables)."""
    return abs(lit) <= size**3


def cell_literals(size: int, cell: int, values: Iterable[int]) -> list[int]:
    """The variables of these values in ``cell``."""
    base = cell * size
    return [base + value for value in values]


def ruled_out(size: int, found: Iterable[int], cells: Iterable[int] | None = None) -> list[int]:
    """The negative literals of every value the masks (:mod:`sudosat.core.masks`)
    leave out of their cells: ``cells`` in order, or every cell's mask in order."""
    every = masks.full(size)
    return [
        -(cell * size + v)
        for cell, m in zip(range(size * size) if cells is None else cells, found, strict=True)
        for v in masks.values(every & ~m)
    ]


def model_value(size: int, model: Sequence[int], cell: int) -> int:
    """The value a whole model (listed by variable, as PySAT lists it) of the full
    numbering puts in ``cell``: its literals are one slice, one of them true."""
    start = cell * size
    return max(model[start : start + size]) - start


def model_grid(size: int, model: Iterable[int]) -> Grid:
    """The grid of a model of the full numbering (0 where it holds no value)."""
    grid = [0] * (size * size)
    top = size**3
    for lit in model:
        if 0 < lit <= top:
            cell, low = divmod(lit - 1, size)
            grid[cell] = low + 1
    return tuple(grid)


@dataclass
class Cnf:
    """Clauses over the numbering above, with what is needed to read a model back.

    The clauses are kept as parts: lists of clauses, and groups whose pairwise
    "at most one" clauses are made only when read, so a big CNF is counted
    exactly and streamed without being held (see :meth:`iter_clauses`).

    ``compact``: the open candidates are numbered 1, 2, ... in cell order
    instead (what solvers get, so that a 400x400 grid does not make a solver
    allocate for 64 million variables); :meth:`decode` reads either.
    """

    puzzle: Puzzle
    encoding: Encoding
    nv: int
    parts: list[Part]
    open_cells: list[tuple[int, Sequence[int]]] = field(default_factory=list)
    """For every cell the solver decides: (cell, candidate values)."""
    compact: bool = False
    groups: list[list[int]] = field(default_factory=list)
    """Every "exactly one" group of the rules (cells' values, units' cells for a
    value), for solvers with native cardinality constraints."""
    atmost: list[list[int]] = field(default_factory=list)
    """A variant's "at most one" groups (a cage's cells for a value), likewise."""
    extra: list[list[int]] = field(default_factory=list)
    """A variant's other clauses, which a solver with native cardinality
    constraints needs beside the groups."""
    names: list[str] = field(default_factory=list)
    """A name per part: its clause family (a variant's CNF writes a comment
    block before each; a classic one's names are empty)."""

    def families(self) -> dict[str, int]:
        """Clauses per named family, in order."""
        found: dict[str, int] = {}
        for name, part in zip(self.names, self.parts, strict=False):
            if name:
                found[name] = found.get(name, 0) + len(part)
        return found

    @property
    def clauses(self) -> list[list[int]]:
        """Every clause, as one list (small CNFs; big ones: :meth:`iter_clauses`)."""
        return list(self.iter_clauses())

    def iter_clauses(self) -> Iterator[list[int]]:
        for part in self.parts:
            if isinstance(part, Pairwise):
                for group in part.groups:
                    yield from ([-a, -b] for a, b in combinations(group, 2))
            else:
                yield from part

    @property
    def clause_count(self) -> int:
        return sum(len(part) for part in self.parts)

    def first_variables(self) -> list[int]:
        """The variable of each open cell's first candidate."""
        if not self.compact:
            size = self.puzzle.size
            return [literal(size, cell, values[0]) for cell, values in self.open_cells]
        found, top = [], 1
        for _, values in self.open_cells:
            found.append(top)
            top += len(values)
        return found

    def variable(self, first: int, values: Sequence[int], value: int) -> int:
        """The variable saying an open cell (whose first variable is ``first``) holds ``value``."""
        if self.compact:
            return first + values.index(value)
        return first - values[0] + value

    def literals(self) -> dict[tuple[int, int], int]:
        """(cell, value) -> its variable, for every open cell's candidates (made once:
        the same dict each call, to be read, never changed)."""
        return self._literal

    @property
    def variable_count(self) -> int:
        """Variables the clauses use: the open candidates' and the auxiliary ones."""
        if self.compact:
            return self.nv
        cells = sum(len(values) for _, values in self.open_cells)
        return cells + self.nv - self.puzzle.size**3

    @property
    def cell_variables(self) -> list[int]:
        if self.compact:
            return list(range(1, sum(len(values) for _, values in self.open_cells) + 1))
        size = self.puzzle.size
        return [literal(size, cell, v) for cell, values in self.open_cells for v in values]

    def comments(self) -> list[str]:
        p, n = self.puzzle, self.puzzle.size
        lines = [
            "sudosat CNF",
            f"rank {p.rank} ({n}x{n}), encoding {self.encoding.describe()}",
            f"variable (r*{n} + c)*{n} + v + 1 means row r, column c holds value v (0-based)",
            f"variables 1..{n**3} are cells; any above are auxiliary",
        ]
        if p.givens:
            lines.append(f"puzzle {format_line(p)}")
            if self.encoding.reduced:
                lines.append("givens are left out (reduced): read them from the puzzle")
        else:
            lines.append("rules only: add one unit clause per given")
        return lines

    def decode(self, model: Iterable[int]) -> Grid:
        """The grid a model describes; 0 where a cell has no single value.

        Only the cell variables this CNF constrains are read: solvers may set
        variables that occur in no clause to anything (CaDiCaL sets them true).
        """
        where = self._where
        grid = list(self._unset)
        doubled = []
        if self.compact and isinstance(model, list):
            model = self._candidate_part(model)
        for lit in model:
            found = where.get(lit) if lit > 0 else None
            if found is not None:
                cell, value = found
                if grid[cell] and grid[cell] != value:
                    doubled.append(cell)
                grid[cell] = value
        for cell in doubled:
            grid[cell] = 0
        return tuple(grid)

    def blocking_clause(self, grid: Grid) -> list[int]:
        """A clause that every solution but ``grid`` satisfies (over the cells it decides)."""
        cells, literal = self.puzzle.cells, self._literal
        return [-literal[cell, grid[cell]] for cell, _ in self.open_cells if not cells[cell]]

    def _candidate_part(self, model: list[int]) -> list[int]:
        """The true candidate literals of a model listed by variable (as PySAT lists
        them): the candidates are variables 1..K here, so the first K entries.
        Any other model is read whole (and a model misread is no solution: it
        fails the check every grid passes before it is shown)."""
        k = len(self._where)
        if k and len(model) >= k and abs(model[k - 1]) == k:
            return [lit for lit in model[:k] if lit > 0]
        return model

    @cached_property
    def _literal(self) -> dict[tuple[int, int], int]:
        found = {}
        for first, (cell, values) in zip(self.first_variables(), self.open_cells, strict=True):
            for value in values:
                found[cell, value] = self.variable(first, values, value)
        return found

    @cached_property
    def _where(self) -> dict[int, tuple[int, int]]:
        """Each open candidate's variable -> (cell, value): a model read in one pass
        (a solution at a time, thousands of times an edit when counting)."""
        return {variable: key for key, variable in self._literal.items()}

    @cached_property
    def _unset(self) -> tuple[int, ...]:
        """The puzzle's cells with every cell the solver decides blank."""
        grid = list(self.puzzle.cells)
        for cell, _ in self.open_cells:
            grid[cell] = 0
        return tuple(grid)


class Pairwise:
    """Groups whose "at most one" is a binary clause per pair, made when read."""

    def __init__(self, groups: Sequence[Sequence[int]]) -> None:
        self.groups = groups

    def __len__(self) -> int:
        return sum(len(group) * (len(group) - 1) // 2 for group in self.groups)


Part = list[list[int]] | Pairwise


def at_most_one_part(groups: Sequence[list[int]], amo: str, top: int) -> tuple[Part, int]:
    if amo == "pairwise":
        return Pairwise(groups), top
    from pysat.card import CardEnc, EncType  # deferred: the default (pairwise) needs neither

    kind = getattr(EncType, amo)
    clauses: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            continue
        if len(group) <= 4:  # pairwise is smaller here, and needs no new variables
            clauses.extend(pairwise([group]))
            continue
        cnf = CardEnc.atmost(group, 1, top_id=top, encoding=kind)
        clauses.extend(cnf.clauses)
        top = max(top, cnf.nv)
    return clauses, top


def pairwise(groups: Iterable[Sequence[int]]) -> list[list[int]]:
    """At most one literal of each group, as one binary clause per pair."""
    return [[-a, -b] for group in groups for a, b in combinations(group, 2)]
