// Where things are on the board: cells of CELL units, and a ring of one cell
// around the grid for the clues outside it.

export const CELL = 40;
export const MARGIN = CELL;

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
