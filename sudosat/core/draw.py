"""Pictures of puzzles: SVG through drawsvg, PDF and PNG through cairosvg.

A picture is drawn in layers, back to front: marked cells, the cell lines,
the rules (each rule draws itself with a :class:`Pen`, see ``Rule.draw``), the
region borders, then the digits (givens bold, solved digits blue). The grid is
``CELL`` units a cell at every size, and the SVG scales (a viewBox), so a 36x36
prints as legibly as its page allows. Clues outside the grid (sandwiches,
little killers) get a margin of one cell; whole-grid rules (anti-knight) are
named under the grid.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import drawsvg as dw

from sudosat.core.puzzle import Puzzle

CELL = 40.0
INK = "#000000"
SOLVED_INK = "#1f5fbf"
MARKED = "#ffb3b3"
ALERT = "#d62728"
RINGED = "#2ca02c"
"""A step's placed value, ringed among its cell's candidates."""
JUSTIFYING = "#cfe2ff"
"""The cells that justify a step of a logical path."""
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
PAPER = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
"""Page sizes in points, for PDF pages."""
PAGE_MARGIN = 40.0
"""Points of white around a page's puzzles."""
LARGEST_CELL = 36.0
"""Points a cell may take on a page at most (about 13 mm: a puzzle book's)."""
LINE = 0.45
"""A line of words under the grid, in cells."""


class Pen:
    """What a rule draws itself with: cells by index, in grid units.

    ``accent``, when set, replaces a rule's own colour (explain's conflict)."""

    def __init__(self, size: int, origin: tuple[float, float]) -> None:
        self.size = size
        self.x0, self.y0 = origin
        self.elements: list[Any] = []
        self.accent: str | None = None

    # --- places ---------------------------------------------------------------

    def centre(self, cell: int) -> tuple[float, float]:
        r, c = divmod(cell, self.size)
        return self.x0 + (c + 0.5) * CELL, self.y0 + (r + 0.5) * CELL

    def place(self, row: float, col: float) -> tuple[float, float]:
        """The centre of the square at (row, col), counted from 1 as cells are
        (row 0 and N+1, column 0 and N+1 lie outside)."""
        return self.x0 + (col - 0.5) * CELL, self.y0 + (row - 0.5) * CELL

    def colour(self, own: str) -> str:
        return self.accent or own

    # --- marks ----------------------------------------------------------------

    def line(self, cells: Sequence[int], colour: str, width: float = 0.22) -> None:
        """A thick line through the cells' centres, round at the ends."""
        points = [p for cell in cells for p in self.centre(cell)]
        self.elements.append(
            dw.Lines(
                *points,
                fill="none",
                stroke=self.colour(colour),
                stroke_width=width * CELL,
                stroke_linecap="round",
                stroke_linejoin="round",
            )
        )

    def circle(
        self, cell: int, radius: float, fill: str, stroke: str = "none", width: float = 0.05
    ) -> None:
        x, y = self.centre(cell)
        self.elements.append(
            dw.Circle(
                x,
                y,
                radius * CELL,
                fill=fill,
                stroke=self.colour(stroke),
                stroke_width=width * CELL,
            )
        )

    def diamond(self, cell: int, radius: float, fill: str, stroke: str) -> None:
        """A square on its corner in the cell (a lockout line's end)."""
        x, y = self.centre(cell)
        r = radius * CELL
        self.elements.append(
            dw.Lines(
                x,
                y - r,
                x + r,
                y,
                x,
                y + r,
                x - r,
                y,
                close=True,
                fill=fill,
                stroke=self.colour(stroke),
                stroke_width=0.05 * CELL,
            )
        )

    def square(self, cell: int, side: float, fill: str) -> None:
        x, y = self.centre(cell)
        half = side * CELL / 2
        self.elements.append(dw.Rectangle(x - half, y - half, 2 * half, 2 * half, fill=fill))

    def shade(self, cells: Iterable[int], fill: str) -> None:
        for cell in cells:
            self.square(cell, 1.0, fill)

    def text(
        self,
        x: float,
        y: float,
        words: str,
        size: float = 0.3,
        fill: str = INK,
        bold: bool = False,
        kind: str | None = None,
    ) -> None:
        """Words centred on (x, y); ``kind``: their SVG class (``given``)."""
        self.elements.append(
            dw.Text(
                words,
                size * CELL,
                x,
                y,
                fill=fill,
                text_anchor="middle",
                dominant_baseline="central",
                font_family=FONT,
                font_weight="bold" if bold else "normal",
                class_=kind,
            )
        )

    def between(self, a: int, b: int) -> tuple[float, float]:
        """The middle of the edge (or corner) two cells share."""
        (xa, ya), (xb, yb) = self.centre(a), self.centre(b)
        return (xa + xb) / 2, (ya + yb) / 2

    def dot(self, pair: Sequence[int], fill: str, label: str = "") -> None:
        """A kropki dot on the edge between two cells (with a number in it)."""
        x, y = self.between(*pair)
        self.elements.append(
            dw.Circle(x, y, 0.13 * CELL, fill=fill, stroke=self.colour(INK), stroke_width=1.2)
        )
        if label:
            self.text(x, y, label, 0.17, "#ffffff" if fill != "#ffffff" else INK)

    def mark(self, pair: Sequence[int], label: str) -> None:
        """A letter on the edge between two cells (XV), on a white patch."""
        x, y = self.between(*pair)
        side = 0.3 * CELL
        self.elements.append(dw.Rectangle(x - side / 2, y - side / 2, side, side, fill="#ffffff"))
        self.text(x, y, label, 0.3, self.colour(INK), bold=True)

    def cage(self, cells: Sequence[int], label: str, colour: str = INK) -> None:
        """A dashed outline just inside the cage's border, its label in the
        corner of its first cell."""
        inset = 0.1 * CELL
        members = set(cells)
        n = self.size
        outer, self.elements = self.elements, []
        for cell in cells:
            r, c = divmod(cell, n)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if self._inside(r + dr, c + dc, members):
                    continue
                self._cage_edge(r, c, (dr, dc), members, inset, colour)
        if label:
            first = min(cells)
            r, c = divmod(first, n)
            x, y = self.x0 + c * CELL + inset, self.y0 + r * CELL + inset
            width = 0.14 * CELL * len(label) + 2
            self.elements.append(dw.Rectangle(x - 1, y - 1, width, 0.26 * CELL, fill="#ffffff"))
            self.elements.append(
                dw.Text(
                    label,
                    0.22 * CELL,
                    x,
                    y + 0.2 * CELL,
                    fill=self.colour(colour),
                    font_family=FONT,
                )
            )
        cage = dw.Group(class_="cage")
        cage.extend(self.elements)
        self.elements = [*outer, cage]

    def _inside(self, r: int, c: int, members: set[int]) -> bool:
        n = self.size
        return 0 <= r < n and 0 <= c < n and r * n + c in members

    def _cage_edge(
        self,
        r: int,
        c: int,
        out: tuple[int, int],
        members: set[int],
        inset: float,
        colour: str,
    ) -> None:
        """One side of a cell on the cage's border, inset, met at each end by the
        next side: short at an outer corner, long at an inner one."""
        dr, dc = out
        tr, tc = (0, 1) if dr else (1, 0)  # along the side

        def end(sign: int) -> float:
            if not self._inside(r + sign * tr, c + sign * tc, members):
                return -inset  # an outer corner
            if self._inside(r + sign * tr + dr, c + sign * tc + dc, members):
                return inset  # an inner corner
            return 0.0

        left, top = self.x0 + c * CELL, self.y0 + r * CELL
        if dr:
            y = top + (inset if dr < 0 else CELL - inset)
            x1, x2 = left - end(-1), left + CELL + end(1)
            coords = (x1, y, x2, y)
        else:
            x = left + (inset if dc < 0 else CELL - inset)
            y1, y2 = top - end(-1), top + CELL + end(1)
            coords = (x, y1, x, y2)
        self.elements.append(
            dw.Line(
                *coords,
                stroke=self.colour(colour),
                stroke_width=1.1,
                stroke_dasharray="4,3",
            )
        )

    def diagonal(self, rising: bool, colour: str = "#4a90d9") -> None:
        n = self.size * CELL
        x1, x2 = self.x0, self.x0 + n
        y1, y2 = (self.y0 + n, self.y0) if rising else (self.y0, self.y0 + n)
        self.elements.append(dw.Line(x1, y1, x2, y2, stroke=self.colour(colour), stroke_width=1.5))

    def pencil(self, cell: int, value: int, width: int) -> tuple[float, float, float]:
        """Where a cell's pencil mark of ``value`` goes (each value in its own place
        of a square in the cell, 1 top left), and its size for symbols of
        ``width`` characters."""
        side = math.isqrt(self.size - 1) + 1
        x, y = self.centre(cell)
        row, col = divmod(value - 1, side)
        dx, dy = (col + 0.5) / side - 0.5, (row + 0.5) / side - 0.5
        size = 0.9 / side / max(1, width * 0.6)
        return x + dx * 0.9 * CELL, y + dy * 0.9 * CELL + 0.02 * CELL, size

    def marks(self, cell: int, values: Sequence[int]) -> None:
        """Pencil marks a setter gives (the cell holds one of them): in ink, bold."""
        for value in values:
            px, py, size = self.pencil(cell, value, len(str(self.size)))
            self.text(px, py, str(value), size, self.colour(INK), True, "given-mark")

    def note(self, cell: int, words: str) -> None:
        """Small words at the top of a cell (a minimum's "min")."""
        x, y = self.centre(cell)
        self.text(x, y - 0.34 * CELL, words, 0.16, self.colour("#555555"))

    def corner(self, cells: Sequence[int], words: str) -> None:
        """A white disc where the cells meet (a quadruple's digits)."""
        points = [self.centre(c) for c in cells]
        x = sum(p[0] for p in points) / len(points)
        y = sum(p[1] for p in points) / len(points)
        self.elements.append(
            dw.Circle(x, y, 0.26 * CELL, fill="#ffffff", stroke=self.colour(INK), stroke_width=1)
        )
        self.text(x, y, words, 0.16 if len(words) < 4 else 0.12, self.colour(INK))

    def arrow(self, circle: Sequence[int], line: Sequence[int], colour: str) -> None:
        """A circle (a pill of 2-3 cells) and its line, with an arrowhead."""
        start = min(circle, key=lambda c: _apart(c, line[0], self.size))
        self.line((start, *line), colour, 0.05)
        if len(circle) == 1:
            self.circle(circle[0], 0.38, "#ffffff", colour)
        else:  # a pill: a thick line, hollowed
            self.line(circle, colour, 0.82)
            self.line(circle, "#ffffff", 0.72)
        tail, head = self.centre(([start, *line])[-2]), self.centre(line[-1])
        self._arrowhead(tail, head, self.colour(colour), 0.25)

    def diagonal_clue(self, cells: Sequence[int], words: str) -> None:
        """A little killer's number outside the grid, and its arrow along ``cells``:
        a drawn arrow of a cell's scale, ending at the grid's edge so that no digit
        hides its head."""
        n = self.size
        r, c = divmod(cells[0], n)
        if len(cells) > 1:
            r2, c2 = divmod(cells[1], n)
            dy, dx = (r2 - r, c2 - c)
        else:  # a corner cell: its arrow points in from the corner
            dy, dx = (1 if r == 0 else -1, 1 if c == 0 else -1)
        x, y = self.place(r + 1 - dy, c + 1 - dx)
        ink = self.colour(INK)
        self.text(x - 0.16 * CELL * dx, y - 0.16 * CELL * dy, words, 0.3, ink)
        tail = (x + 0.1 * CELL * dx, y + 0.1 * CELL * dy)
        head = (x + 0.44 * CELL * dx, y + 0.44 * CELL * dy)
        self.elements.append(dw.Line(*tail, *head, stroke=ink, stroke_width=0.04 * CELL))
        self._arrowhead(tail, head, ink, 0.16)

    def _arrowhead(
        self, tail: tuple[float, float], head: tuple[float, float], colour: str, size: float
    ) -> None:
        """Two strokes back from ``head``, away from ``tail``: an arrow's head."""
        (xa, ya), (xb, yb) = tail, head
        length = max(math.hypot(xb - xa, yb - ya), 1e-9)
        ux, uy = (xb - xa) / length, (yb - ya) / length
        back = size * CELL
        for side in (1, -1):
            x = xb - back * ux + side * back * 0.6 * uy
            y = yb - back * uy - side * back * 0.6 * ux
            self.elements.append(
                dw.Line(
                    x, y, xb, yb, stroke=colour, stroke_width=0.05 * CELL, stroke_linecap="round"
                )
            )

    def outside(self, row: int, col: int, words: str) -> None:
        """A clue beside the grid, at (row, col) counted from 1 (0 and N+1 outside)."""
        x, y = self.place(row, col)
        self.text(x, y, words, 0.36, self.colour(INK))


def _apart(a: int, b: int, size: int) -> int:
    (ra, ca), (rb, cb) = divmod(a, size), divmod(b, size)
    return max(abs(ra - rb), abs(ca - cb))


def margin_of(puzzle: Puzzle) -> float:
    """Room around the grid: a cell's when some clue sits outside it."""
    constraints = puzzle.rules.constraints if puzzle.rules is not None else ()
    return CELL if any(rule.outside for rule in constraints) else 0.3 * CELL


@dataclass(frozen=True)
class Caption:
    """What a page says with its grid: a title and a byline above it, the rules in
    words below it (wrapped to the grid's width)."""

    title: str = ""
    byline: str = ""
    rules: str = ""


def picture(
    puzzle: Puzzle,
    grid: Sequence[int] | None = None,
    marked: Iterable[int] = (),
    alert: Iterable[Any] = (),
    title: str | Caption = "",
    pencil: Sequence[Sequence[int]] | None = None,
    struck: Iterable[tuple[int, int]] = (),
    ringed: Iterable[tuple[int, int]] = (),
    shade: str = MARKED,
) -> str:
    """The puzzle as an SVG document (with ``grid``: its digits beside the
    givens), ``marked`` cells shaded, the rules in ``alert`` drawn in red;
    ``pencil``: each cell's candidates, as small digits (one alone: the digit),
    those in ``struck`` (cell, value) red and struck through, those in ``ringed``
    ringed (a step's removals and placements).
    Under the grid: the whole-grid rules by name, a legend of the lines drawn,
    and the caption's rules."""
    caption = title if isinstance(title, Caption) else Caption(title)
    n = puzzle.size
    margin = margin_of(puzzle)
    width = n * CELL + 2 * margin
    constraints = puzzle.rules.constraints if puzzle.rules is not None else ()
    head = [(caption.title, 0.4, True), (caption.byline, 0.28, False)]
    head = [line for line in head if line[0]]
    heading = sum(size * 1.5 * CELL for _, size, _ in head) + (0.3 * CELL if head else 0)
    top = heading + margin
    below = _footer(constraints, n, caption.rules, n * CELL)
    bottom = margin + (len(below) * LINE * CELL + 0.3 * CELL if below else 0)
    height = n * CELL + top + bottom
    canvas = dw.Drawing(width, height)
    canvas.append(dw.Rectangle(0, 0, width, height, fill="#ffffff"))
    pen = Pen(n, (margin, top))
    pen.shade(marked, shade)
    _cell_lines(pen)
    alerted = set(alert)
    for rule in constraints:
        pen.accent = ALERT if rule in alerted else None
        rule.draw(pen)
    pen.accent = None
    _borders(pen, puzzle)
    if pencil is not None:
        grid = [values[0] if len(values) == 1 else 0 for values in pencil]
        _pencil_marks(pen, puzzle, pencil, set(struck), set(ringed))
    _digits(pen, puzzle, grid)
    canvas.extend(pen.elements)
    y = 0.2 * CELL
    for words, size, bold in head:
        y += size * 1.25 * CELL
        weight = "bold" if bold else "normal"
        canvas.append(
            dw.Text(words, size * CELL, margin, y, font_family=FONT, fill=INK, font_weight=weight)
        )
    y = top + n * CELL + max(margin, 0.5 * CELL) + 0.2 * CELL
    for line in below:
        canvas.extend(_footer_line(line, margin, y))
        y += LINE * CELL
    return str(canvas.as_svg())


FOOT = 0.28
"""The words under the grid, in cells."""


def _footer(constraints: Sequence[Any], n: int, rules: str, width: float) -> list[Any]:
    """The lines under the grid: the whole-grid rules named, the line rules' legend
    (a swatch of each colour and its name), then the rules' words, wrapped."""
    lines: list[Any] = []
    flags = [rule.describe(n) for rule in constraints if rule.flag and not rule.drawn]
    if flags:
        lines += [("words", line) for line in _wrap(", ".join(flags), width)]
    legend: dict[str, str] = {}
    for rule in constraints:
        colour = getattr(rule, "colour", None)
        if rule.drawn and colour and rule.title and rule.title not in legend:
            legend[rule.title] = colour
    row: list[tuple[str, str]] = []
    for name, colour in legend.items():
        if row and _legend_width([*row, (name, colour)]) > width:
            lines.append(("legend", row))
            row = []
        row.append((name, colour))
    if row:
        lines.append(("legend", row))
    for paragraph in rules.splitlines():
        lines += [("words", line) for line in _wrap(paragraph, width)]
    return lines


def _text_width(words: str, size: float = FOOT) -> float:
    """About how wide ``words`` are in the pictures' font (DejaVu Sans)."""
    return len(words) * 0.56 * size * CELL


def _legend_width(items: Sequence[tuple[str, str]]) -> float:
    return sum(0.9 * CELL + _text_width(name) + 0.4 * CELL for name, _ in items)


def _wrap(text: str, width: float) -> list[str]:
    import textwrap  # deferred: pictures with words under them only

    return textwrap.wrap(text, max(10, int(width / _text_width("m")))) or []


def _footer_line(line: Any, margin: float, y: float) -> list[Any]:
    kind, what = line
    if kind == "words":
        return [dw.Text(what, FOOT * CELL, margin, y, font_family=FONT, fill=INK)]
    parts: list[Any] = []
    x = margin + 0.1 * CELL
    for name, colour in what:
        parts.append(
            dw.Line(
                x,
                y - 0.1 * CELL,
                x + 0.6 * CELL,
                y - 0.1 * CELL,
                stroke=colour,
                stroke_width=0.18 * CELL,
                stroke_linecap="round",
            )
        )
        x += 0.9 * CELL
        parts.append(dw.Text(name, FOOT * CELL, x, y, font_family=FONT, fill=INK))
        x += _text_width(name) + 0.4 * CELL
    return parts


def _cell_lines(pen: Pen) -> None:
    """Thin lines between the cells: one path (``data-cells``: how many cells),
    as a PDF of many puzzles draws each element in turn."""
    n, x0, y0 = pen.size, pen.x0, pen.y0
    side = n * CELL
    path = dw.Path(stroke="#999999", stroke_width=1, class_="cells", data_cells=n * n)
    for i in range(1, n):
        path.M(x0 + i * CELL, y0).v(side).M(x0, y0 + i * CELL).h(side)
    pen.elements.append(path)


def _borders(pen: Pen, puzzle: Puzzle) -> None:
    """Thick borders between regions and around the grid."""
    n, x0, y0 = puzzle.size, pen.x0, pen.y0
    side = n * CELL
    region = puzzle.layout.unit_index[2]
    thick = max(2.0, CELL * 0.06)
    path = dw.Path(stroke=INK, stroke_width=thick, stroke_linecap="square")
    for cell in range(n * n):
        r, c = divmod(cell, n)
        if c + 1 < n and region[cell] != region[cell + 1]:
            path.M(x0 + (c + 1) * CELL, y0 + r * CELL).v(CELL)
        if r + 1 < n and region[cell] != region[cell + n]:
            path.M(x0 + c * CELL, y0 + (r + 1) * CELL).h(CELL)
    pen.elements.append(path)
    pen.elements.append(
        dw.Rectangle(x0, y0, side, side, fill="none", stroke=INK, stroke_width=thick)
    )


def _digits(pen: Pen, puzzle: Puzzle, grid: Sequence[int] | None) -> None:
    symbols = [puzzle.symbol(v) for v in range(1, puzzle.size + 1)]
    longest = max(len(s) for s in symbols)
    size = 0.6 if longest == 1 else 0.45
    for cell in range(puzzle.size**2):
        given = puzzle.cells[cell]
        value = given or (grid[cell] if grid is not None else 0)
        if value:
            x, y = pen.centre(cell)
            ink = INK if given else SOLVED_INK
            kind = "given" if given else "solved"
            pen.text(x, y + 0.03 * CELL, symbols[value - 1], size, ink, bool(given), kind)


def _pencil_marks(
    pen: Pen,
    puzzle: Puzzle,
    pencil: Sequence[Sequence[int]],
    struck: set[tuple[int, int]] = frozenset(),  # type: ignore[assignment]
    ringed: set[tuple[int, int]] = frozenset(),  # type: ignore[assignment]
) -> None:
    """Candidates as setters pencil them: small, each value in its own place of a
    square in the cell (1 top left), for the cells with more than one; the
    ``struck`` red and crossed out, the ``ringed`` in a green ring."""
    side = math.isqrt(puzzle.size - 1) + 1
    width = max(len(puzzle.symbol(v)) for v in range(1, puzzle.size + 1))
    for cell, values in enumerate(pencil):
        if len(values) < 2 or puzzle.cells[cell]:
            continue
        for value in values:
            px, py, size = pen.pencil(cell, value, width)
            out = (cell, value) in struck
            if (cell, value) in ringed:
                radius = 0.45 * CELL / side
                pen.elements.append(
                    dw.Circle(px, py, radius, fill="none", stroke=RINGED, stroke_width=1.5)
                )
            ink = ALERT if out else SOLVED_INK
            pen.text(px, py, puzzle.symbol(value), size, ink, False, "pencil")
            if out:
                half = 0.35 * CELL / side
                stroke = {"stroke": ALERT, "stroke_width": 1.2}
                pen.elements.append(dw.Line(px - half, py + half, px + half, py - half, **stroke))


ROOT = re.compile(r'<svg ([^>]*?)width="([0-9.]+)" height="([0-9.]+)"')


def size_of(picture: str) -> tuple[float, float]:
    found = ROOT.search(picture)
    if found is None:
        raise ValueError("not a picture of sudosat's")
    return float(found[2]), float(found[3])


def sheet(pictures: Sequence[str], columns: int) -> str:
    """Pictures side by side, ``columns`` a row (each an SVG of :func:`picture`),
    as one SVG at their own size."""
    sizes = [size_of(p) for p in pictures]
    cell_w, cell_h = max(w for w, _ in sizes), max(h for _, h in sizes)
    gap = 0.06 * cell_w
    columns = max(1, min(columns, len(pictures)))
    rows = -(-len(pictures) // columns)
    total_w = columns * cell_w + (columns + 1) * gap
    total_h = rows * cell_h + (rows + 1) * gap
    places = []
    for i in range(len(pictures)):
        row, col = divmod(i, columns)
        places.append((gap + col * (cell_w + gap), gap + row * (cell_h + gap)))
    return _placed(pictures, places, 1.0, (f"{total_w:.1f}", f"{total_h:.1f}"), (total_w, total_h))


def _placed(
    pictures: Sequence[str],
    places: Sequence[tuple[float, float]],
    scale: float,
    size: tuple[str, str],
    box: tuple[float, float],
) -> str:
    """One SVG of ``box`` units (written ``size``: ``595.3pt``), each picture at its
    place, scaled by ``scale``."""
    (width, height), (w, h) = size, box
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width}" height="{height}" viewBox="0 0 {w:.2f} {h:.2f}">',
        f'<rect width="{w:.2f}" height="{h:.2f}" fill="#ffffff"/>',
    ]
    for picture, (x, y) in zip(pictures, places, strict=True):
        pw, ph = size_of(picture)
        body = picture[picture.index("<svg") :]
        placed = f'x="{x:.2f}" y="{y:.2f}" width="{pw * scale:.2f}" height="{ph * scale:.2f}"'
        parts.append(ROOT.sub(f"<svg \\1{placed}", body, count=1))
    parts.append("</svg>\n")
    return "\n".join(parts)


def page_scale(pictures: Sequence[str], per_page: int, paper: str = "a4") -> float:
    """Points a picture unit takes on the pages of ``pictures``: the same for every
    picture (one cell size throughout, so that a grid with clues outside it is
    not shrunk below the others), the largest that fits each in its place and
    keeps a cell at most LARGEST_CELL."""
    slot_w, slot_h = _slot(per_page, paper)
    sizes = [size_of(p) for p in pictures] or [(1.0, 1.0)]
    fits = min(min(slot_w / w, slot_h / h) for w, h in sizes)
    return min(fits, LARGEST_CELL / CELL)


def _grid_of(per_page: int) -> tuple[int, int]:
    """(columns, rows) of a page holding ``per_page`` puzzles."""
    columns = 1 if per_page == 1 else 2 if per_page <= 6 else 3
    return columns, -(-per_page // columns)


def _slot(per_page: int, paper: str) -> tuple[float, float]:
    """The points each puzzle's place on a page is wide and high."""
    (width, height), gap = PAPER[paper], PAGE_MARGIN / 2
    columns, rows = _grid_of(per_page)
    inner_w, inner_h = width - 2 * PAGE_MARGIN, height - 2 * PAGE_MARGIN
    return (inner_w - (columns - 1) * gap) / columns, (inner_h - (rows - 1) * gap) / rows


def pages(
    pictures: Sequence[str], per_page: int, paper: str = "a4", scale: float | None = None
) -> list[str]:
    """Whole pages of ``paper`` (A4 or US letter, in points), ``per_page``
    pictures each in rows, each centred in its place; ``scale``: points a picture
    unit (:func:`page_scale` of these pictures when not given)."""
    scale = page_scale(pictures, per_page, paper) if scale is None else scale
    (width, height), gap = PAPER[paper], PAGE_MARGIN / 2
    columns, _ = _grid_of(per_page)
    slot_w, slot_h = _slot(per_page, paper)
    found = []
    for first in range(0, len(pictures), per_page):
        chunk = pictures[first : first + per_page]
        places = []
        for i, picture in enumerate(chunk):
            row, col = divmod(i, columns)
            w, _ = size_of(picture)
            x = PAGE_MARGIN + col * (slot_w + gap) + (slot_w - w * scale) / 2
            places.append((x, PAGE_MARGIN + row * (slot_h + gap)))
        size = (f"{width:.2f}pt", f"{height:.2f}pt")
        found.append(_placed(chunk, places, scale, size, (width, height)))
    return found


def notice(words: str) -> str:
    """A picture that only says something (an input that could not be read)."""
    width = max(8.0, 0.6 * len(words)) * CELL * 0.5
    drawing = dw.Drawing(width, CELL)
    drawing.append(dw.Rectangle(0, 0, width, CELL, fill="#ffffff"))
    drawing.append(
        dw.Text(words, 0.35 * CELL, 0.2 * CELL, 0.6 * CELL, font_family=FONT, fill=ALERT)
    )
    return str(drawing.as_svg())


def pdf(pages: Sequence[str]) -> bytes:
    """A PDF of SVG pages, one page each (cairosvg, an optional extra)."""
    try:
        import cairocffi
        from cairosvg.parser import Tree
        from cairosvg.surface import PDFSurface
    except (ImportError, OSError) as err:  # the package, or the cairo library
        raise MissingExtra(f"PDF needs cairosvg and the cairo library ({err})") from None

    out = io.BytesIO()
    target: list[Any] = []

    class Page(PDFSurface):  # type: ignore[misc]
        """Each page drawn onto one PDF surface: cairosvg's own surfaces make a file each."""

        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            if not target:
                target.append(cairocffi.PDFSurface(out, width, height))
            target[0].set_size(width, height)
            return target[0], width, height

    for page in pages:
        Page(Tree(bytestring=page.encode()), None, 96)
        target[0].show_page()
    if target:
        target[0].finish()
    return out.getvalue()


def png(page: str, scale: float = 1.0) -> bytes:
    try:
        import cairosvg
    except (ImportError, OSError) as err:
        raise MissingExtra(f"PNG needs cairosvg and the cairo library ({err})") from None
    return bytes(cairosvg.svg2png(bytestring=page.encode(), scale=scale))


def missing_pdf(fmt: str = "pdf") -> str | None:
    """What PDF (or PNG) output lacks here (None: nothing), to say before a run starts."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as err:
        what = fmt.upper()
        return f"{what} needs cairosvg and the cairo library: pip install 'sudosat[pdf]' ({err})"
    return None


class MissingExtra(RuntimeError):
    """An optional package (the ``pdf`` extra: cairosvg) is not installed."""
