"""The pen a picture is drawn with: drawsvg shapes in grid units (``CELL`` a cell),
and the colours pictures use. Each rule draws itself with it (``Rule.draw``, typed
by :class:`sudosat.core.pen.Pen`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import drawsvg as dw

CELL = 40.0
INK = "#000000"
SOLVED_INK = "#1f5fbf"
MARKED = "#ffb3b3"
ALERT = "#d62728"
RINGED = "#2ca02c"
"""A step's placed value, ringed among its cell's candidates."""
CHAIN = "#7b2cbf"
"""A chain's links in a step's picture."""
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
