// The puzzle a setter is making, as plain data: its size, regions, givens,
// killer cages, drawn parts (lines, dots, outside clues, cell marks: each kind
// in ./parts/), switches and the rules typed as text; and its text in sudosat's
// own format, which is all the server is sent.

import {cellName} from "./geometry.js";
import {KINDS} from "./parts/index.js";

export const SIZES = [4, 6, 8, 9, 12, 16, 25, 36];
const BOXES = {4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4], 25: [5, 5], 36: [6, 6]};
const BASE36 = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const REXL = "1234567890ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export const FLAGS = [
  ["anti-knight", "Anti-knight"],
  ["anti-king", "Anti-king"],
  ["nonconsecutive", "Nonconsecutive"],
  ["diagonal+", "Diagonal \u2197"],
  ["diagonal-", "Diagonal \u2198"],
  ["disjoint-groups", "Disjoint groups"],
  ["negative: ratio", "No black dot"],
  ["negative: xv", "No X or V"],
];

/** The symbols a grid of this size is typed and shown in (sudosat's alphabets). */
export function symbols(size) {
  if (size <= 9) return BASE36.slice(0, size);
  return size < 36 ? BASE36.slice(0, size) : REXL;
}

export function blank(size) {
  return {size, givens: new Array(size * size).fill(0), cages: [], parts: [], regions: null, flags: [], rules: "",
    title: "", author: "", ruleset: ""};
}

/** Each cell's region: the setter's (a jigsaw), else the usual boxes. */
export function regionsOf(puzzle) {
  if (puzzle.regions) return puzzle.regions;
  const n = puzzle.size, [rows, cols] = BOXES[n] || [1, n];
  const found = new Array(n * n);
  for (let cell = 0; cell < n * n; cell++) {
    const r = Math.floor(cell / n), c = cell % n;
    found[cell] = Math.floor(r / rows) * (n / cols) + Math.floor(c / cols);
  }
  return found;
}

/** What is wrong with the regions drawn, or "" (each must hold N cells). */
export function regionsProblem(puzzle) {
  if (!puzzle.regions) return "";
  const counts = new Map();
  puzzle.regions.forEach((r) => counts.set(r, (counts.get(r) || 0) + 1));
  for (const [region, count] of counts) {
    if (count !== puzzle.size) return `region ${region + 1} has ${count} cells; each needs ${puzzle.size}`;
  }
  return counts.size === puzzle.size ? "" : `${counts.size} regions; ${puzzle.size} are needed`;
}

/** The puzzle in sudosat's text format: its size, grid, regions and rules. */
export function toText(puzzle) {
  const n = puzzle.size, lines = [`size ${n}`];
  for (const key of ["title", "author", "ruleset"]) {  // what links and pictures carry: a line each
    const said = (puzzle[key] || "").replace(/\s+/g, " ").trim();
    if (said) lines.push(`${key}: ${said}`);
  }
  for (let r = 0; r < n; r++) {
    const row = puzzle.givens.slice(r * n, (r + 1) * n);
    lines.push(n <= 9 ? row.map((v) => (v ? String(v) : ".")).join("") : row.map(String).join(" "));
  }
  if (puzzle.regions) {
    const labels = REXL;  // 36 labels: one a region
    lines.push("regions:");
    for (let r = 0; r < n; r++) lines.push(puzzle.regions.slice(r * n, (r + 1) * n).map((x) => labels[x]).join(""));
  }
  for (const cage of puzzle.cages) {
    const cells = cage.cells.map((c) => cellName(n, c)).join(" ");
    lines.push(cage.sum ? `cage ${cage.sum}: ${cells}` : `cage: ${cells}`);
  }
  for (const part of puzzle.parts) lines.push(KINDS[part.kind].text(part, n));
  lines.push(...puzzle.flags);
  if (puzzle.rules.trim()) lines.push(puzzle.rules.trim());
  return lines.join("\n") + "\n";
}

/** Undo and redo of whole parts: every edit keeps a copy of the puzzle before it. */
export class History {
  constructor(puzzle) { this.now = puzzle; this.back = []; this.ahead = []; }
  change(edit) {
    const next = structuredClone(this.now);
    if (edit(next) === false) return false;
    this.back.push(this.now);
    this.ahead = [];
    this.now = next;
    return true;
  }
  replace(puzzle) { this.back.push(this.now); this.ahead = []; this.now = puzzle; }
  undo() { if (!this.back.length) return false; this.ahead.push(this.now); this.now = this.back.pop(); return true; }
  redo() { if (!this.ahead.length) return false; this.back.push(this.now); this.now = this.ahead.pop(); return true; }
}
