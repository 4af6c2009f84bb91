// Where things are on the board: cells of CELL units, and a ring of one cell
// around the grid for the clues outside it.

export const CELL = 40;
export const MARGIN = CELL;

/** A cell's name: r1c1, its row and column counted from 1. */
export function cellName(n, cell) {
  return `r${Math.floor(cell / n) + 1}c${(cell % n) + 1}`;
}

/** The cell a name such as r1c1 (either case) stands for; NaN for anything else. */
export function cellIndex(n, name) {
  const match = /^r(\d+)c(\d+)$/i.exec(name);
  return match ? (Number(match[1]) - 1) * n + Number(match[2]) - 1 : NaN;
}

/** A cell's centre on the board, in grid units. */
export function centre(n, cell) {
  return [(cell % n + 0.5) * CELL, (Math.floor(cell / n) + 0.5) * CELL];
}

/** The board's point under a mouse event, in grid units (0,0: the grid's corner). */
export function pointAt(svg, event, n) {
  const box = svg.getBoundingClientRect(), scale = (n * CELL + 2 * MARGIN) / box.width;
  return [(event.clientX - box.left) * scale - MARGIN, (event.clientY - box.top) * scale - MARGIN];
}

/** The client coordinates of a grid point (for scripts and tests). */
export function clientAt(svg, n, x, y) {
  const box = svg.getBoundingClientRect(), scale = box.width / (n * CELL + 2 * MARGIN);
  return [box.left + (x + MARGIN) * scale, box.top + (y + MARGIN) * scale];
}

/** The cells a straight stroke from ``from`` to ``to`` crosses, in order (both
 * included): a quick drag skips cells between two mouse events. */
export function between(n, from, to) {
  const [r0, c0, r1, c1] = [Math.floor(from / n), from % n, Math.floor(to / n), to % n];
  const steps = Math.max(Math.abs(r1 - r0), Math.abs(c1 - c0));
  const found = [];
  for (let i = 0; i <= steps; i++) {
    const r = Math.round(r0 + ((r1 - r0) * i) / (steps || 1)), c = Math.round(c0 + ((c1 - c0) * i) / (steps || 1));
    const cell = r * n + c;
    if (found[found.length - 1] !== cell) found.push(cell);
  }
  return found;
}
