// What the page says, worked out from plain data: an answer's words, a cage's
// problem, the cells a message names, the puzzle an address holds.

import {cellIndex} from "./geometry.js";

/** What the status line says of an ``invalid`` answer, by why it came: a puzzle
 * not read is told apart from one read that has no solution, a busy server and
 * a question stopped at the server's time limit. */
export const INVALID = {
  read: "Not read.",
  none: "No solution.",
  busy: "Busy: the server has its hands full.",
  limit: "Stopped at the server's time limit.",
  error: "Failed (a bug in sudosat).",
};

/** The cells a message names (``r3c4``): drawn as the part that caused it. */
export function cellsNamed(message, n) {
  return [...(message || "").matchAll(/r\d+c\d+/gi)].map((m) => cellIndex(n, m[0])).filter((c) => c >= 0);
}

/** An estimate in words: its numbers may be past a float, sent as text ("1.49E+888"),
 * and a bound there is none of yet is "Infinity". */
export function estimated(answer) {
  const number = (x) => typeof x === "string" ? x.replace("E", "e")
    : x < 1e15 ? Math.round(x).toLocaleString() : x.toExponential(2);
  const high = answer.ci95_upper === "Infinity" ? "no upper bound yet" : `up to ${number(answer.ci95_upper)}`;
  return `about ${number(answer.estimate)} solutions (95%: at least ${number(answer.ci95_lower)}, ${high})`;
}

/** What is wrong with a cage of ``count`` cells and this sum, or "": its cells hold
 * different digits, so the sum lies between the smallest and the largest digits'. */
export function cageProblem(count, sum, n) {
  if (!sum) return count > n ? `a cage of ${count} cells cannot hold different digits 1-${n}` : "";
  if (!/^\d+$/.test(sum)) return `a cage's sum is a whole number, not ${JSON.stringify(sum)}`;
  if (count > n) return `a cage of ${count} cells cannot hold different digits 1-${n}`;
  const least = (count * (count + 1)) / 2, most = (count * (2 * n - count + 1)) / 2;
  const value = Number(sum);
  return value < least || value > most
    ? `no ${count} different digits make ${value}: a cage of ${count} cells sums to ${least}-${most}` : "";
}

/** The puzzle an address's ``#...`` holds: percent-decoded where it can be, else as
 * written (``#100%`` is no escape: decodeURIComponent throws on it). */
export function fromHash(hash) {
  try {
    return decodeURIComponent(hash);
  } catch (error) {
    return hash;
  }
}
