// The grid drawn from data as SVG: regions, cages, givens, the true candidates
// coloured by how many solutions hold them, a solution, and a step of a path
// (its cells shaded, its removals struck, its placements ringed). Nothing here
// asks the server; big grids show a cell's number of candidates past a few.

import {CELL, MARGIN, pointAt} from "./geometry.js";
import {regionsOf, symbols} from "./model.js";
import {KINDS} from "./parts/index.js";

const ON_TOP = new Set(["edge", "outside", "corner"]);  // drawn over the digits; lines and marks under them
const DEFS = `<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" ` +
  `orient="auto-start-reverse"><path d="M0 0L10 5L0 10" fill="none" stroke="#555" stroke-width="2"/></marker></defs>`;

/** The colour of a candidate held by ``count`` solutions, up to ``cap``. */
export function colour(count, cap) {
  if (cap <= 1 || count === undefined) return "#333";
  if (count >= cap) return "#555";
  return count === 1 ? "#0a7d28" : "#1f5fbf";
}

/** Draw ``view`` (puzzle, selection, candidates, counts, cap, logical, solution,
 * step) into the svg element, changing only what changed since the last draw:
 * a cell's fill is an attribute set, a cell's digits and marks are its own group
 * rewritten alone, the lines, cages and parts a layer each, rewritten when their
 * markup differs (a 36x36's every partial answer rewrote 2,600 elements and ran
 * 200-650 ms tasks). Many cells changed at once are written as one string of
 * markup: one parse is several times faster than a cell at a time. */
export function draw(svg, view) {
  const {puzzle} = view, n = puzzle.size, side = n * CELL;
  svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${side + 2 * MARGIN} ${side + 2 * MARGIN}`);
  // zoomed, a big grid's cells grow past the page's width: its frame scrolls (pans)
  svg.setAttribute("width", Math.min(Math.max(side + 2 * MARGIN, 600), 800) * (view.zoom || 1));
  const drawn = svg.sudosatDrawn && svg.sudosatDrawn.n === n ? svg.sudosatDrawn : fresh(svg, n);
  const selected = new Set(view.selection || []);
  const wrong = new Set(view.problem || []);
  const stepCells = new Set(view.step ? view.step.cells : []);
  const fills = [], contents = [];
  const inCell = cellMarks(view);
  for (let cell = 0; cell < n * n; cell++) {
    let fill = selected.has(cell) ? "#cfe3ff" : stepCells.has(cell) ? "#fff3b0" : "#fff";
    if (wrong.has(cell)) fill = "#ffd0d0";  // the part a message is about
    fills.push(fill);
    contents.push(inCell(cell));
  }
  drawn.fills = changed(drawn.fills, fills, drawn.layers.cells, (cell, fill) => `<rect x="${(cell % n) * CELL}" ` +
    `y="${Math.floor(cell / n) * CELL}" width="${CELL}" height="${CELL}" fill="${fill}" class="cell"/>`,
  (element, fill) => element.setAttribute("fill", fill));
  drawn.contents = changed(drawn.contents, contents, drawn.layers.marks, (cell, markup) => `<g>${markup}</g>`,
    (element, markup) => { element.innerHTML = markup; });
  const parts = puzzle.parts || [];
  const partsOf = (top) => parts.map((part, index) => {
    const kind = KINDS[part.kind];
    if (ON_TOP.has(kind.tool) !== top) return "";
    const chosen = index === view.chosen ? ` class="chosen"` : "";
    return `<g data-part="${index}"${chosen}>${kind.draw(part, n)}</g>`;
  }).join("");
  write(drawn, "under", partsOf(false));
  write(drawn, "lines", lines(n, regionsOf(puzzle)));
  write(drawn, "cages", cages(puzzle));
  write(drawn, "over", partsOf(true));
}

/** The svg emptied for a grid of ``n``: its layers, bottom to top, and what each
 * holds (nothing drawn yet). */
function fresh(svg, n) {
  svg.innerHTML = `${DEFS}<g class="cells"></g><g class="parts under"></g><g class="marks"></g>` +
    `<g class="lines" pointer-events="none"></g><g class="cages" pointer-events="none"></g><g class="parts over"></g>`;
  const [, cells, under, marks, lines, cages, over] = svg.children;  // the first: the defs
  svg.sudosatDrawn = {n, layers: {cells, under, marks, lines, cages, over}, fills: null, contents: null, markup: {}};
  return svg.sudosatDrawn;
}

/** ``now`` drawn into ``layer``, an element a cell, where it differs from ``before``:
 * each changed cell through ``update``, or (nothing drawn yet, or most cells
 * changed) the whole layer as one string of each cell's ``markup``. */
function changed(before, now, layer, markup, update) {
  const cells = [];
  if (before) now.forEach((value, cell) => { if (value !== before[cell]) cells.push(cell); });
  if (!before || cells.length > now.length / 4) {
    layer.innerHTML = now.map((value, cell) => markup(cell, value)).join("");
  } else {
    const elements = layer.children;
    for (const cell of cells) update(elements[cell], now[cell]);
  }
  return now;
}

/** A layer rewritten when its markup is not what it holds. */
function write(drawn, name, markup) {
  if (drawn.markup[name] === markup) return;
  drawn.markup[name] = markup;
  drawn.layers[name].innerHTML = markup;
}

/** The markup of a cell's digit or candidates, as ``view`` shows them (a big grid
 * shows how many, not which). */
function cellMarks(view) {
  const {puzzle} = view, n = puzzle.size, alphabet = symbols(n);
  const step = view.step || null;
  const struck = new Set(step ? step.eliminations.map(([c, v]) => c * 64 + v) : []);
  const placed = new Set(step ? step.placements.map(([c, v]) => c * 64 + v) : []);
  const per = n <= 9 ? 3 : Math.ceil(Math.sqrt(n)), full = CELL / per;
  // a cage's sum sits in its first cell's top-left corner: that cell's candidates
  // are drawn smaller, in the rest of the cell, so that none is under the sum
  const summed = new Set(puzzle.cages.filter((cage) => cage.sum).map((cage) => Math.min(...cage.cells)));
  const caged = new Set(puzzle.cages.flatMap((cage) => cage.cells));
  return (cell) => {
    const x = (cell % n) * CELL, y = Math.floor(cell / n) * CELL;
    const given = puzzle.givens[cell];
    const solved = view.solution ? view.solution[cell] : 0;
    if (given || solved) {
      return `<text x="${x + CELL / 2}" y="${y + CELL * 0.72}" text-anchor="middle" font-size="${CELL * 0.62}" ` +
        `fill="${given ? "#000" : "#1f5fbf"}" class="${given ? "given" : "solved"}">${alphabet[(given || solved) - 1]}</text>`;
    }
    const values = view.candidates ? view.candidates[cell] : null;
    if (!values) return "";
    const logical = view.logical ? view.logical[cell].filter((v) => !values.includes(v)) : [];
    const shown = logical.length ? [...values, ...logical].sort((a, b) => a - b) : values;
    if (shown.length === 1 && !step) {  // one candidate: every solution's digit, drawn as a digit
      return `<text x="${x + CELL / 2}" y="${y + CELL * 0.72}" text-anchor="middle" font-size="${CELL * 0.62}" ` +
        `fill="#1f5fbf" class="candidate single">${alphabet[values[0] - 1]}</text>`;
    }
    if (shown.length > 9 && !step) {  // a big grid: how many, not which
      return `<text x="${x + CELL / 2}" y="${y + CELL * 0.62}" text-anchor="middle" font-size="${CELL * 0.34}" ` +
        `fill="#888">${values.length}</text>`;
    }
    // inside a cage its dashed edges run 4 units in: the marks keep within them
    const edge = caged.has(cell) ? 5 : 0;
    const inset = summed.has(cell) ? CELL * 0.26 : edge;
    const small = (CELL - inset - edge) / per;
    const marks = [];
    shown.forEach((value, order) => {
      const spot = n <= 9 ? value - 1 : order;
      const cx = x + inset + ((spot % per) + 0.5) * small;
      const cy = y + inset + (Math.floor(spot / per) + 0.8) * small;
      const index = values.indexOf(value);
      const fill = index < 0 ? "#c00" : colour(view.counts ? view.counts[cell][index] : undefined, view.cap);
      marks.push(`<text x="${cx}" y="${cy}" text-anchor="middle" font-size="${small * 0.9}" fill="${fill}" ` +
        `class="${index < 0 ? "logical" : "candidate"}">${alphabet[value - 1]}</text>`);
      if (struck.has(cell * 64 + value)) {
        marks.push(`<line x1="${cx - small / 2}" y1="${cy - small / 3}" x2="${cx + small / 2}" y2="${cy}" ` +
          `stroke="#c00" stroke-width="1.5"/>`);
      }
      if (placed.has(cell * 64 + value)) {
        marks.push(`<circle cx="${cx}" cy="${cy - small / 3}" r="${small / 2}" fill="none" stroke="#0a7d28" ` +
          `stroke-width="1.5"/>`);
      }
    });
    return marks.join("");
  };
}

function lines(n, regions) {  // two paths, thin and thick: a few elements however big the grid
  const thin = [], thick = [];
  for (let cell = 0; cell < n * n; cell++) {
    const x = (cell % n) * CELL, y = Math.floor(cell / n) * CELL;
    if (cell % n < n - 1) (regions[cell + 1] !== regions[cell] ? thick : thin).push(`M${x + CELL} ${y}v${CELL}`);
    if (cell + n < n * n) (regions[cell + n] !== regions[cell] ? thick : thin).push(`M${x} ${y + CELL}h${CELL}`);
  }
  return `<path d="${thin.join("")}" stroke="#bbb" stroke-width="1" fill="none"/>` +
    `<path d="${thick.join("")}" stroke="#000" stroke-width="2.5" fill="none"/>` +
    `<rect x="0" y="0" width="${n * CELL}" height="${n * CELL}" fill="none" stroke="#000" stroke-width="3"/>`;
}

function cages(puzzle) {
  const n = puzzle.size, inset = 4, drawn = [];
  for (const cage of puzzle.cages) {
    const inside = new Set(cage.cells);
    for (const cell of cage.cells) {
      const x = (cell % n) * CELL, y = Math.floor(cell / n) * CELL;
      const edges = [
        [cell % n === 0 || !inside.has(cell - 1), x + inset, y + inset, x + inset, y + CELL - inset],
        [cell % n === n - 1 || !inside.has(cell + 1), x + CELL - inset, y + inset, x + CELL - inset, y + CELL - inset],
        [cell < n || !inside.has(cell - n), x + inset, y + inset, x + CELL - inset, y + inset],
        [cell >= n * n - n || !inside.has(cell + n), x + inset, y + CELL - inset, x + CELL - inset, y + CELL - inset],
      ];
      for (const [open, x1, y1, x2, y2] of edges) {
        if (open) drawn.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#444" stroke-width="1" ` +
          `stroke-dasharray="3 2"/>`);
      }
    }
    if (cage.sum) {
      const first = Math.min(...cage.cells);
      drawn.push(`<text x="${(first % n) * CELL + inset + 1}" y="${Math.floor(first / n) * CELL + inset + 9}" ` +
        `font-size="10" fill="#000" class="sum">${Number(cage.sum)}</text>`);
    }
  }
  return drawn.join("");
}

/** The cell under a mouse event (-1: none, outside the grid). */
export function cellAt(svg, event, n) {
  const [x, y] = pointAt(svg, event, n);
  if (x < 0 || y < 0 || x >= n * CELL || y >= n * CELL) return -1;
  return Math.floor(y / CELL) * n + Math.floor(x / CELL);
}
