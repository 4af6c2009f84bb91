// Every kind of part the page draws, by its word in sudosat's text format.

import arrow from "./arrow.js";
import between from "./between.js";
import entropic from "./entropic.js";
import even from "./even.js";
import black from "./kropki-black.js";
import white from "./kropki-white.js";
import littleKiller from "./little-killer.js";
import maximum from "./maximum.js";
import minimum from "./minimum.js";
import modular from "./modular.js";
import odd from "./odd.js";
import palindrome from "./palindrome.js";
import quadruple from "./quadruple.js";
import regionSum from "./region-sum.js";
import renban from "./renban.js";
import sandwich from "./sandwich.js";
import skyscraper from "./skyscraper.js";
import slowThermo from "./slow-thermo.js";
import thermo from "./thermo.js";
import v from "./v.js";
import whispers from "./whispers.js";
import x from "./x.js";
import xSum from "./x-sum.js";
import zipper from "./zipper.js";

export const KINDS = Object.fromEntries([
  thermo, slowThermo, arrow, renban, whispers, palindrome, regionSum, between, entropic, modular, zipper,
  white, black, x, v, littleKiller, sandwich, xSum, skyscraper, odd, even, minimum, maximum, quadruple,
].map((kind) => [kind.word, kind]));

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
