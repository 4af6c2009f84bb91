// The shapes a drawn part takes, each knowing how it is drawn (SVG markup), how
// it is written in sudosat's text format, read back from it, and what makes it
// wrong. A kind of part (a thermometer, a white kropki dot, ...) is one of these
// with its word, its label and its looks, as its rule describes it in Python
// (the server's parts.json, ./index.js): adding a kind touches its rule alone.
//
// A part is plain data: {kind, cells, value}; an outside clue's cells are its
// square beside the grid (row or column -1 or N, written r0 or rN+1), and a
// little killer's value carries its direction too ({sum, direction}).

import {CELL, cellIndex, cellName as name, centre} from "../geometry.js";

const touching = (n, a, b) => Math.max(Math.abs(a % n - b % n), Math.abs(Math.floor(a / n) - Math.floor(b / n))) === 1;

export function cellsOf(n, text) {
  return text.trim().split(/\s+/).map((word) => cellIndex(n, word));
}

/** A line drawn through cells, from its first: a thermometer, a renban, ... */
export function line({word, label, colour, width = 0.3, least = 2, bulb = false, ends = false, dashed = false}) {
  return {
    word, label, tool: "line", valued: false,
    draw(part, n) {
      const points = part.cells.map((c) => centre(n, c).join(",")).join(" ");
      const dash = dashed ? ` stroke-dasharray="${CELL * 0.25} ${CELL * 0.12}"` : "";
      let markup = `<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="${CELL * width}" ` +
        `stroke-linecap="round" stroke-linejoin="round" opacity="0.75"${dash}/>`;
      const circle = (cell, fill) => {
        const [x, y] = centre(n, cell);
        return `<circle cx="${x}" cy="${y}" r="${CELL * 0.36}" fill="${fill}" stroke="${colour}" stroke-width="2" opacity="0.85"/>`;
      };
      if (bulb) markup += circle(part.cells[0], colour);
      if (ends) markup += circle(part.cells[0], "#fff") + circle(part.cells[part.cells.length - 1], "#fff");
      return markup;
    },
    text(part, n) { return `${word}: ${part.cells.map((c) => name(n, c)).join(" ")}`; },
    read(value, rest, n) { return {kind: word, cells: cellsOf(n, rest), value: null}; },
    /** Read from a link while it is drawn (shorter than ``least``): kept, drawn, and
     * constraining nothing yet, as f-puzzles keeps it. */
    unfinished(part) { return part.cells.length >= 1 && part.cells.length < least; },
    problem(part, n) {
      const seen = new Set();
      for (const cell of part.cells) {
        if (seen.has(cell)) return `a ${label.toLowerCase()} goes through ${name(n, cell)} twice`;
        seen.add(cell);
      }
      if (part.cells.length < least) return `a ${label.toLowerCase()} needs ${least} cells or more`;
      for (let i = 1; i < part.cells.length; i++) {
        if (!touching(n, part.cells[i - 1], part.cells[i])) {
          return `${name(n, part.cells[i - 1])} to ${name(n, part.cells[i])} is no step of a line`;
        }
      }
      return "";
    },
  };
}

/** A mark on the edge between two touching cells: a kropki dot, an X or a V. */
export function edge({word, label, fill = "#fff", letter = ""}) {
  return {
    word, label, tool: "edge", valued: false,
    draw(part, n) {
      const [[x1, y1], [x2, y2]] = part.cells.map((c) => centre(n, c));
      const x = (x1 + x2) / 2, y = (y1 + y2) / 2;
      if (letter) {  // outlined in white: readable over the marks beside it, hiding none of them
        return `<text x="${x}" y="${y + CELL * 0.11}" text-anchor="middle" font-size="${CELL * 0.32}" ` +
          `font-weight="bold" stroke="#fff" stroke-width="3" paint-order="stroke">${letter}</text>`;
      }
      return `<circle cx="${x}" cy="${y}" r="${CELL * 0.14}" fill="${fill}" stroke="#000" stroke-width="1.5"/>`;
    },
    text(part, n) { return `${word}: ${part.cells.map((c) => name(n, c)).join(" ")}`; },
    read(value, rest, n) { return {kind: word, cells: cellsOf(n, rest), value: null}; },
    problem(part, n) {
      const [a, b] = part.cells;
      const side = Math.abs(a - b) === n || (Math.abs(a - b) === 1 && Math.floor(a / n) === Math.floor(b / n));
      return side ? "" : `a ${label.toLowerCase()} lies between two cells side by side`;
    },
  };
}

/** A mark in one cell: odd, even, minimum, maximum. */
export function mark({word, label, mark: shape, fill = "#ddd"}) {
  return {
    word, label, tool: "cell", valued: false,
    draw(part, n) {
      const [x, y] = centre(n, part.cells[0]), r = CELL * 0.4;
      if (shape === "circle") return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" opacity="0.8"/>`;
      if (shape === "square") return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" fill="${fill}" opacity="0.8"/>`;
      const tip = shape === "up" ? -1 : 1, w = CELL * 0.14, h = CELL * 0.12;  // a chevron in each corner
      return [[-1, -1], [1, -1], [-1, 1], [1, 1]].map(([sx, sy]) => {
        const cx = x + sx * CELL * 0.3, cy = y + sy * CELL * 0.3;
        return `<path d="M${cx - w} ${cy + tip * h / 2}L${cx} ${cy - tip * h / 2}L${cx + w} ${cy + tip * h / 2}" ` +
          `fill="none" stroke="#666" stroke-width="1.5"/>`;
      }).join("");
    },
    text(part, n) { return `${word}: ${name(n, part.cells[0])}`; },
    read(value, rest, n) { return {kind: word, cells: cellsOf(n, rest), value: null}; },
    problem() { return ""; },
  };
}

/** A clue in a square beside the grid, about its row or column: sandwich, X-sum,
 * skyscraper (``diagonal``: a little killer, about the diagonal it points down). */
export function outside({word, label, diagonal = false}) {
  const spot = (n, cell) => {  // the clue's square: row and column, -1 to n
    const r = Math.floor(cell / (n + 2)) - 1, c = (cell % (n + 2)) - 1;
    return [r, c];
  };
  return {
    word, label, tool: "outside", valued: true,
    draw(part, n) {
      const [r, c] = spot(n, part.cells[0]);
      const x = (c + 0.5) * CELL, y = (r + 0.5) * CELL;
      const sum = diagonal ? part.value.sum : part.value;
      let markup = `<text x="${x}" y="${y + CELL * 0.15}" text-anchor="middle" font-size="${CELL * 0.42}" fill="#000">${sum}</text>`;
      if (diagonal) {
        const [dr, dc] = STEPS[part.value.direction];
        markup += `<path d="M${x + dc * CELL * 0.25} ${y + dr * CELL * 0.25}l${dc * CELL * 0.2} ${dr * CELL * 0.2}" ` +
          `stroke="#000" stroke-width="1.5" marker-end="url(#arrowhead)"/>`;
      }
      return markup;
    },
    text(part, n) {
      const [r, c] = spot(n, part.cells[0]);
      if (diagonal) return `${word} ${part.value.sum}: r${r + 1}c${c + 1} ${part.value.direction}`;
      return `${word} ${part.value}: r${r + 1}c${c + 1}`;
    },
    read(value, rest, n) {
      const words = rest.trim().split(/\s+/);
      const found = words.map((w) => /^r(\d+)c(\d+)$/i.exec(w)).filter(Boolean).map((m) => [Number(m[1]) - 1, Number(m[2]) - 1]);
      if (!diagonal) return {kind: word, cells: [(found[0][0] + 1) * (n + 2) + found[0][1] + 1], value};
      if (words.length === 2 && words[1] in STEPS) {  // a clue and its direction
        return {kind: word, cells: [(found[0][0] + 1) * (n + 2) + found[0][1] + 1], value: {sum: value, direction: words[1]}};
      }
      const [[r1, c1], [r2, c2]] = found.length > 1 ? found : [found[0], [found[0][0] + 1, found[0][1] + 1]];
      const dr = Math.sign(r2 - r1), dc = Math.sign(c2 - c1);  // the cells of its diagonal: the clue one before
      const direction = Object.keys(STEPS).find((k) => STEPS[k][0] === dr && STEPS[k][1] === dc);
      return {kind: word, cells: [(r1 - dr + 1) * (n + 2) + c1 - dc + 1], value: {sum: value, direction}};
    },
    problem(part, n) {
      const [r, c] = spot(n, part.cells[0]);
      const value = diagonal ? part.value.sum : part.value;
      if (!/^\d+$/.test(String(value))) return `a ${label.toLowerCase()} clue is a whole number, not ${JSON.stringify(value)}`;
      if (!diagonal && (r === -1 || r === n) === (c === -1 || c === n)) return `a ${label.toLowerCase()} clue sits beside a row or a column`;
      if (diagonal) {
        const [dr, dc] = STEPS[part.value.direction];
        const inside = (x) => x >= 0 && x < n;
        if (!inside(r + dr) || !inside(c + dc)) return `the little killer at r${r + 1}c${c + 1} points away from the grid`;
      }
      return "";
    },
  };
}

export const STEPS = {dr: [1, 1], dl: [1, -1], ur: [-1, 1], ul: [-1, -1]};

/** A circle on the corner of four cells, with digits: a quadruple. */
export function corner({word, label}) {
  return {
    word, label, tool: "corner", valued: true,
    draw(part, n) {
      const x = ((part.cells[0] % n) + 1) * CELL, y = (Math.floor(part.cells[0] / n) + 1) * CELL;
      const digits = String(part.value).replace(/\D/g, "");
      return `<circle cx="${x}" cy="${y}" r="${CELL * 0.3}" fill="#fff" stroke="#000" stroke-width="1.2"/>` +
        `<text x="${x}" y="${y + CELL * 0.07}" text-anchor="middle" font-size="${CELL * (digits.length > 2 ? 0.17 : 0.22)}">${digits}</text>`;
    },
    text(part, n) { return `${word} ${String(part.value).replace(/\D/g, "")}: ${part.cells.map((c) => name(n, c)).join(" ")}`; },
    read(value, rest, n) { return {kind: word, cells: cellsOf(n, rest), value: String(value).replace(/\D/g, "")}; },
    problem(part) {
      const digits = String(part.value).replace(/\D/g, "");
      return digits.length >= 1 && digits.length <= 4 ? "" : "a quadruple holds one to four digits";
    },
  };
}

/** An arrow: its circle on its first cell, or a pill over its first two or three
 * (the value: how many), then its shaft through the rest. */
export function arrow({word, label, colour}) {
  const shape = line({word, label, colour, width: 0.06});
  const circled = (part) => Number(part.value) || 1;
  return {
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
        ? `<polyline points="${pill.map((c) => at(c).join(",")).join(" ")}" fill="none" stroke="${colour}" ` +
          `stroke-width="${2 * r + 2}" stroke-linecap="round" stroke-linejoin="round"/>` +
          `<polyline points="${pill.map((c) => at(c).join(",")).join(" ")}" fill="none" stroke="#fff" ` +
          `stroke-width="${2 * r - 2}" stroke-linecap="round" stroke-linejoin="round"/>`
        : `<circle cx="${last[0]}" cy="${last[1]}" r="${r}" fill="#fff" stroke="${colour}" stroke-width="2"/>`;
      if (!shaft.length) return body;  // a circle still being drawn: no shaft, no head
      const points = [start, ...shaft.map(at)].map((p) => p.join(",")).join(" ");
      return body + `<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2" marker-end="url(#arrowhead)"/>`;
    },
    text(part, n) {
      const named = (c) => name(n, c), k = circled(part), shaft = part.cells.slice(k).map(named).join(" ");
      return `${word}: ${part.cells.slice(0, k).map(named).join(" ")}${shaft ? ` > ${shaft}` : ""}`;
    },
    read(value, rest, n) {
      const [circle, shaft = ""] = rest.split(">");
      const cells = cellsOf(n, circle), body = shaft.trim() ? cellsOf(n, shaft) : [];
      return {kind: word, cells: [...cells, ...body], value: cells.length > 1 ? String(cells.length) : null};
    },
    unfinished(part) { return part.cells.length === circled(part); },  // a circle, no shaft yet
    problem(part, n) {
      const k = circled(part);
      if (!(k >= 1 && k <= 3)) return "an arrow's circle covers one cell, or a pill two or three";
      if (part.cells.length <= k) return "an arrow needs a shaft: drag from its circle along the line";
      return shape.problem(part, n);
    },
  };
}
