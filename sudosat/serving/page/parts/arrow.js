// An arrow: its circle on the first cell, its shaft through the rest (a pill of
// several circle cells is written as text: `arrow: r1c1 r1c2 > r2c3`).
import {CELL} from "../geometry.js";
import {cellsOf, line} from "./shapes.js";

const shape = line({word: "arrow", label: "Arrow", colour: "#888", width: 0.06});

export default {
  ...shape,
  draw(part, n) {
    const [first, ...shaft] = part.cells;
    const at = (c) => [(c % n + 0.5) * CELL, (Math.floor(c / n) + 0.5) * CELL];
    const [x, y] = at(first);
    const [nx, ny] = at(shaft[0] ?? first);
    const length = Math.hypot(nx - x, ny - y) || 1, r = CELL * 0.38;
    const start = [x + (nx - x) / length * r, y + (ny - y) / length * r];
    const points = [start, ...shaft.map(at)].map((p) => p.join(",")).join(" ");
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" stroke="#888" stroke-width="2"/>` +
      `<polyline points="${points}" fill="none" stroke="#888" stroke-width="2" marker-end="url(#arrowhead)"/>`;
  },
  text(part, n) {
    const name = (c) => `r${Math.floor(c / n) + 1}c${c % n + 1}`;
    return `arrow: ${name(part.cells[0])} > ${part.cells.slice(1).map(name).join(" ")}`;
  },
  read(value, rest, n) {
    const [circle, shaft = ""] = rest.split(">");
    const circled = cellsOf(n, circle);
    if (circled.length !== 1) throw new Error("a pill: kept as text");
    return {kind: "arrow", cells: [...circled, ...cellsOf(n, shaft)], value: null};
  },
  problem(part, n) {
    return part.cells.length < 2 ? "an arrow needs a shaft: drag from its circle along the line" : shape.problem(part, n);
  },
};
