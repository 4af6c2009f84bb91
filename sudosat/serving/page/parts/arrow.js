// An arrow: its circle on its first cell, or a pill over its first two or three
// (the value: how many), then its shaft through the rest.
import {CELL, cellName, centre} from "../geometry.js";
import {cellsOf, line} from "./shapes.js";

const shape = line({word: "arrow", label: "Arrow", colour: "#888", width: 0.06});
const circled = (part) => Number(part.value) || 1;

export default {
  ...shape,
  valued: true,
  optional: true,  // a circle of one cell when no value is typed
  draw(part, n) {
    const k = circled(part), pill = part.cells.slice(0, k), shaft = part.cells.slice(k);
    const at = (c) => centre(n, c);
    const r = CELL * 0.38, last = at(pill[pill.length - 1]);
    const [nx, ny] = at(shaft[0] ?? pill[0]);
    const length = Math.hypot(nx - last[0], ny - last[1]) || 1;
    const start = [last[0] + (nx - last[0]) / length * r, last[1] + (ny - last[1]) / length * r];
    const body = pill.length > 1
      ? `<polyline points="${pill.map((c) => at(c).join(",")).join(" ")}" fill="none" stroke="#888" ` +
        `stroke-width="${2 * r + 2}" stroke-linecap="round" stroke-linejoin="round"/>` +
        `<polyline points="${pill.map((c) => at(c).join(",")).join(" ")}" fill="none" stroke="#fff" ` +
        `stroke-width="${2 * r - 2}" stroke-linecap="round" stroke-linejoin="round"/>`
      : `<circle cx="${last[0]}" cy="${last[1]}" r="${r}" fill="#fff" stroke="#888" stroke-width="2"/>`;
    const points = [start, ...shaft.map(at)].map((p) => p.join(",")).join(" ");
    return body + `<polyline points="${points}" fill="none" stroke="#888" stroke-width="2" marker-end="url(#arrowhead)"/>`;
  },
  text(part, n) {
    const name = (c) => cellName(n, c), k = circled(part), shaft = part.cells.slice(k).map(name).join(" ");
    return `arrow: ${part.cells.slice(0, k).map(name).join(" ")}${shaft ? ` > ${shaft}` : ""}`;
  },
  read(value, rest, n) {
    const [circle, shaft = ""] = rest.split(">");
    const cells = cellsOf(n, circle), body = shaft.trim() ? cellsOf(n, shaft) : [];
    return {kind: "arrow", cells: [...cells, ...body], value: cells.length > 1 ? String(cells.length) : null};
  },
  unfinished(part) { return part.cells.length === circled(part); },  // a circle, no shaft yet
  problem(part, n) {
    const k = circled(part);
    if (!(k >= 1 && k <= 3)) return "an arrow's circle covers one cell, or a pill two or three";
    if (part.cells.length <= k) return "an arrow needs a shaft: drag from its circle along the line";
    return shape.problem(part, n);
  },
};
