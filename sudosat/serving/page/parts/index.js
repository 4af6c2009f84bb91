// Every kind of part the page draws, by its word in sudosat's text format: each
// described once, by its rule in Python (sudosat/rules, ``Rule.page``), served as
// ../parts.json and drawn by one of the shapes of ./shapes.js.

import {arrow, corner, edge, line, mark, outside} from "./shapes.js";

const SHAPES = {arrow, corner, edge, line, mark, outside};
const described = await (await fetch(new URL("../parts.json", import.meta.url))).json();

export const KINDS = Object.fromEntries(described.map((looks) => [looks.word, SHAPES[looks.shape](looks)]));

/** A text line as a part, when its first word names a kind the page draws (else null). */
export function partOf(line, n) {
  const match = /^\s*([a-z+-]+)(?:\s+([^:]+))?\s*:\s*(.*)$/i.exec(line);
  if (!match || !(match[1].toLowerCase() in KINDS)) return null;
  const kind = KINDS[match[1].toLowerCase()];
  try {
    const part = kind.read((match[2] || "").trim(), match[3], n);
    return part.cells.some(Number.isNaN) ? null : part;
  } catch {
    return null;
  }
}
