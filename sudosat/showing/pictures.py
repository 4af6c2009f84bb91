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
from sudosat.rules.kinds import LineRule
from sudosat.showing.pen import (
    ALERT,
    CELL,
    CHAIN,
    FONT,
    INK,
    JUSTIFYING,
    LARGEST_CELL,
    LINE,
    MARKED,
    PAGE_MARGIN,
    PAPER,
    RINGED,
    SOLVED_INK,
    Pen,
)

# the pen's names, for those who import them from here
__all__ = ["ALERT", "CELL", "INK", "JUSTIFYING", "MARKED", "PAPER", "RINGED", "SOLVED_INK", "Pen"]


def margin_of(puzzle: Puzzle) -> float:
    """Room around the grid: a cell's when some clue sits outside it."""
    constraints = puzzle.constraints
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
    links: Sequence[tuple[tuple[int, int], tuple[int, int], bool]] = (),
) -> str:
    """The puzzle as an SVG document (with ``grid``: its digits beside the
    givens), ``marked`` cells shaded, the rules in ``alert`` drawn in red;
    ``pencil``: each cell's candidates, as small digits (one alone: the digit),
    those in ``struck`` (cell, value) red and struck through, those in ``ringed``
    ringed (a step's removals and placements); ``links``: a chain's links
    between pencil marks (from, to, strong), strong ones solid, weak ones dashed.
    Under the grid: the whole-grid rules by name, a legend of the lines drawn,
    and the caption's rules."""
    caption = title if isinstance(title, Caption) else Caption(title)
    n = puzzle.size
    margin = margin_of(puzzle)
    width = n * CELL + 2 * margin
    constraints = puzzle.constraints
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
        _links(pen, puzzle, links)
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


def _links(
    pen: Pen, puzzle: Puzzle, links: Sequence[tuple[tuple[int, int], tuple[int, int], bool]]
) -> None:
    """A chain's links, from pencil mark to pencil mark: strong solid, weak dashed."""
    width = max((len(puzzle.symbol(v)) for v in range(1, puzzle.size + 1)), default=1)
    for (ca, va), (cb, vb), strong in links:
        xa, ya, _ = pen.pencil(ca, va, width)
        xb, yb, _ = pen.pencil(cb, vb, width)
        dash = "none" if strong else f"{0.08 * CELL:g},{0.06 * CELL:g}"
        pen.elements.append(
            dw.Line(xa, ya, xb, yb, stroke=CHAIN, stroke_width=0.04 * CELL, stroke_dasharray=dash)
        )


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
        if isinstance(rule, LineRule) and rule.drawn and rule.title and rule.title not in legend:
            legend[rule.title] = rule.colour
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
    """A PDF of SVG pages, one page each (cairosvg, over the cairo library)."""
    missing = missing_pdf("pdf")
    if missing:
        raise MissingExtra(missing)
    import cairocffi
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

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
    missing = missing_pdf("png")
    if missing:
        raise MissingExtra(missing)
    import cairosvg

    return bytes(cairosvg.svg2png(bytestring=page.encode(), scale=scale))


def missing_pdf(fmt: str = "pdf") -> str | None:
    """What PDF (or PNG) output lacks here (None: nothing), to say before a run starts."""
    try:
        import cairosvg  # noqa: F401
    except ImportError as err:  # an install of sudosat without its dependencies
        return f"{fmt.upper()} needs cairosvg, a dependency: pip install cairosvg ({err})"
    except OSError:  # cairocffi found no libcairo
        return (
            f"{fmt.upper()} needs the cairo library: apt install libcairo2 (Debian, Ubuntu), "
            "dnf install cairo, or brew install cairo; make run installs it where it can"
        )
    return None


class MissingExtra(RuntimeError):
    """What PDF and PNG need is missing here (the cairo library, or cairosvg)."""
