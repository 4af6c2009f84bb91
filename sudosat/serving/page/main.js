// The setter's page: the puzzle as data (model.js), drawn from data (grid.js),
// asked of `sudosat serve` over the plugin's socket (client.js). Every edit is
// one part in the history (undo, redo) and, a moment later, a question for the
// true candidates; the last good answer stays drawn while an edit is broken.

import {Client} from "./client.js";
import {cellAt, draw} from "./grid.js";
import {FLAGS, History, SIZES, blank, cellIndex, regionsOf, regionsProblem, symbols, toText} from "./model.js";

const $ = (id) => document.getElementById(id);
const DEBOUNCE = 300;  // ms after the last edit, as the plugin waits

let history = new History(blank(9));
let selection = [], mode = "givens", dragging = false, timer = null;
let view = {};        // what the grid shows besides the puzzle: candidates, counts, solution, step
let path = null, shown = 0, found = [];

const client = new Client(receive, (open) => { if (!open) say("Not connected (start sudosat serve)."); });

function puzzle() { return history.now; }

function say(status, message = "") {
  $("status").textContent = status;
  $("message").textContent = message;
}

function working(busy) { $("cancel").disabled = !busy; }

function redraw() {
  const start = performance.now();
  draw($("board"), {puzzle: puzzle(), selection, cap: Number($("cap").value), ...view});
  $("marks").dataset.drawn = (performance.now() - start).toFixed(1);  // ms: the benchmark reads it
  $("undo").disabled = !history.back.length;
  $("redo").disabled = !history.ahead.length;
  for (const box of document.querySelectorAll("#flags input")) box.checked = puzzle().flags.includes(box.dataset.flag);
  if (document.activeElement !== $("rules")) $("rules").value = puzzle().rules;
  $("prev").disabled = !path || shown <= 0;
  $("next").disabled = !path || shown >= path.steps.length;
}

/** An edit: one part, kept for undo; the true candidates follow. */
function edit(change) {
  if (!history.change(change)) return;
  edited();
}

function edited() {
  view = {...view, solution: null, step: null, problem: null};
  path = null;
  $("steps").replaceChildren();
  redraw();
  clearTimeout(timer);
  timer = setTimeout(askMarks, DEBOUNCE);
}

function text() { return toText(puzzle()); }

function askMarks() {
  const problem = regionsProblem(puzzle());
  if (problem) { say("Not asked: the regions are not whole yet.", problem); return; }
  client.ask("marks", text(), {cap: Number($("cap").value), logical: $("logical").checked});
  say("Working...");
  working(true);
}

function ask(command, extra = {}) {
  client.ask(command, text(), extra);
  say("Working...");
  working(true);
}

// --- answers ------------------------------------------------------------------

function named(message) {  // the cells a message names: drawn as the part that caused it
  const n = puzzle().size;
  return [...(message || "").matchAll(/r\d+c\d+/gi)].map((m) => cellIndex(n, m[0].toLowerCase())).filter((c) => c >= 0);
}

function receive(answer, asked) {
  if (answer.type === "canceled") {
    say(`Cancelled${found.length ? `; ${found.length} steps found so far` : ""}.`);
    working(false);
    return;
  }
  if (answer.type === "invalid") {
    working(false);
    say(found.length ? "Stopped." : "Not read.", answer.message);
    view = {...view, problem: named(answer.message)};  // the last good candidates stay
    redraw();
    return;
  }
  if (answer.inProgress) { progress(answer); return; }
  working(false);
  const handle = {marks, solved, count, estimate, path: pathAnswer, read, link, picture};
  (handle[answer.type] || (() => {}))(answer, asked);
}

function progress(answer) {
  if (answer.type === "marks") {
    view = {...view, candidates: answer.candidates, counts: null, logical: null};
    $("marks").dataset.partial = JSON.stringify(answer.candidates);
    const witnessed = answer.candidates.reduce((sum, values) => sum + values.length, 0);
    say(`Working... ${witnessed} candidates witnessed so far (Cancel stops it)`);
    redraw();
  } else if (answer.type === "path") {
    found = answer.steps;
    listSteps(found, 0);
    say(`Working... ${found.length} steps so far (Cancel stops it)`);
  } else if (answer.type === "count") {
    say(`Counting... ${answer.count.toLocaleString()} solutions so far (Cancel stops it)`);
  } else if (answer.type === "estimate") {
    say(`Estimating... about ${Math.round(answer.estimate).toLocaleString()} solutions ` +
        `(95%: ${Math.round(answer.ci95_lower).toLocaleString()} to ${Math.round(answer.ci95_upper).toLocaleString()}; ` +
        `${answer.iterations} samples; Cancel stops it)`);
  }
}

function marks(answer) {
  view = {...view, candidates: answer.candidates, counts: answer.counts || null, logical: answer.logical || null};
  $("marks").dataset.candidates = JSON.stringify(answer.candidates);
  $("marks").dataset.answers = String(Number($("marks").dataset.answers || 0) + 1);  // for tests and scripts
  const words = {unique: "one solution", multiple: "more than one solution", solved: "solved"};
  say(`${answer.status}: ${words[answer.status] || answer.status}`);
  selection = selection.filter((c) => c >= 0);
  redraw();
}

function solved(answer) {
  view = {...view, solution: answer.solution};
  say("Solved: one solution shown (Check says whether it is the only one).");
  redraw();
}

function count(answer, asked) {
  if (asked.command === "check") {
    const said = answer.count === 0 ? "none: no solution" : answer.count === 1 ? "unique: one solution" : "multiple: more than one solution";
    say(`Check: ${said}`);
    return;
  }
  say(`${answer.count.toLocaleString()} solution${answer.count === 1 ? "" : "s"}`);
}

function estimate(answer) {
  say(`About ${Math.round(answer.estimate).toLocaleString()} solutions (95%: ` +
      `${Math.round(answer.ci95_lower).toLocaleString()} to ${Math.round(answer.ci95_upper).toLocaleString()})`);
}

function pathAnswer(answer) {
  path = {end: answer.end, reason: answer.reason, start: answer.start, steps: answer.steps};
  found = answer.sentences;
  showStep(0);
}

/** The path's candidates before step ``index`` (0: the start), replayed from the start. */
function before(index) {
  const masks = path.start.map((values) => new Set(values));
  for (const step of path.steps.slice(0, index)) {
    for (const [cell, value] of step.eliminations) masks[cell].delete(value);
    for (const [cell, value] of step.placements) masks[cell] = new Set([value]);
  }
  return masks.map((values) => [...values].sort((a, b) => a - b));
}

function showStep(index) {
  shown = Math.max(0, Math.min(index, path.steps.length));
  const step = shown ? path.steps[shown - 1] : null;
  view = {...view, candidates: before(shown ? shown - 1 : 0), counts: null, logical: null, step};
  listSteps(found, shown);
  const where = shown ? `step ${shown} of ${path.steps.length}` : `the start (${path.steps.length} steps)`;
  say(`Path ${path.end}${path.reason ? ": " + path.reason : ""}; showing ${where}`);
  redraw();
}

function listSteps(lines, current) {
  $("steps").replaceChildren(...lines.map((line, index) => {
    const item = document.createElement("li");
    item.textContent = line;
    if (index + 1 === current) item.className = "current";
    item.onclick = () => { if (path) showStep(index + 1); };
    return item;
  }));
}

function read(answer) {
  const next = {...blank(answer.size), givens: answer.givens, cages: answer.cages, regions: answer.regions,
    flags: answer.flags, rules: answer.rules || "", title: answer.title || ""};
  history.replace(next);
  $("size").value = String(answer.size);
  selection = [];
  view = {};
  edited();
  clearTimeout(timer);
  askMarks();
}

function link(answer) {
  $("exported").value = answer.fpuzzles || `(no f-puzzles link: ${answer.reason})`;
  $("textout").value = answer.text;
  say(answer.fpuzzles ? "Link made: an f-puzzles link, which SudokuPad opens too." : "No link: " + answer.reason);
}

function picture(answer) {
  const kinds = {svg: "image/svg+xml", pdf: "application/pdf", png: "image/png"};
  const bytes = answer.svg !== undefined ? answer.svg
    : Uint8Array.from(atob(answer.base64), (c) => c.charCodeAt(0));
  const anchor = document.createElement("a");
  anchor.href = URL.createObjectURL(new Blob([bytes], {type: kinds[answer.format]}));
  anchor.download = `${(puzzle().title || "puzzle").replace(/[^\w.-]+/g, "-")}.${answer.format}`;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(anchor.href), 60_000);
  say(`Picture made: ${anchor.download}.`);
}

// --- the mouse and the keyboard ------------------------------------------------

function select(cell, add) {
  if (cell < 0) return;
  if (!add) selection = [];
  if (!selection.includes(cell)) selection.push(cell);
  redraw();
}

function endDrag() {
  if (!dragging) return;
  dragging = false;
  if (mode === "cages" && selection.length) $("sum").focus();
  if (mode === "regions" && selection.length > 1) {
    const regions = regionsOf(puzzle()), into = regions[selection[0]];
    const cells = selection.slice();
    edit((p) => {
      p.regions = [...regions];
      cells.forEach((c) => { p.regions[c] = into; });
    });
  }
}

function addCage() {
  const cells = [...new Set(selection)].sort((a, b) => a - b);
  const sum = $("sum").value.trim();
  if (!cells.length) { say("Select the cage's cells first: drag over them."); return; }
  const wrong = cageProblem(cells.length, sum, puzzle().size);
  if (wrong) {
    view = {...view, problem: cells};
    say("Not added.", wrong);
    redraw();
    return;
  }
  edit((p) => {
    p.cages = p.cages.filter((cage) => !cage.cells.some((c) => cells.includes(c)));
    p.cages.push({cells, sum: sum ? Number(sum) : null});
  });
  $("sum").value = "";
  $("board").focus();
}

/** What is wrong with a cage of ``count`` cells and this sum, or "": its cells hold
 * different digits, so the sum lies between the smallest and the largest digits'. */
function cageProblem(count, sum, n) {
  if (!sum) return count > n ? `a cage of ${count} cells cannot hold different digits 1-${n}` : "";
  if (!/^\d+$/.test(sum)) return `a cage's sum is a whole number, not ${JSON.stringify(sum)}`;
  if (count > n) return `a cage of ${count} cells cannot hold different digits 1-${n}`;
  const least = (count * (count + 1)) / 2, most = (count * (2 * n - count + 1)) / 2;
  const value = Number(sum);
  return value < least || value > most
    ? `no ${count} different digits make ${value}: a cage of ${count} cells sums to ${least}-${most}` : "";
}

function typed(event) {
  if (event.target.closest("input, textarea, select")) return;
  const key = event.key, n = puzzle().size;
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") {
    event.preventDefault();
    if (event.shiftKey ? history.redo() : history.undo()) edited();
    return;
  }
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "y") {
    event.preventDefault();
    if (history.redo()) edited();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const moves = {ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1};
  if (key in moves && selection.length) {
    event.preventDefault();
    const last = selection[selection.length - 1], next = last + moves[key];
    if (next >= 0 && next < n * n) select(next, event.shiftKey);
    return;
  }
  if (key === "Escape") { selection = []; redraw(); return; }
  if (key === "Enter" && mode === "cages") { addCage(); return; }
  const cells = selection.slice();
  if (!cells.length) return;
  if (key === "Backspace" || key === "Delete") {
    event.preventDefault();
    if (mode === "cages") edit((p) => { p.cages = p.cages.filter((cage) => !cage.cells.some((c) => cells.includes(c))); });
    else edit((p) => { cells.forEach((c) => { p.givens[c] = 0; }); });
    return;
  }
  const value = symbols(n).indexOf(key.toUpperCase()) + 1;
  if (value > 0 && mode === "givens") {
    edit((p) => {
      if (cells.every((c) => p.givens[c] === value)) return false;
      cells.forEach((c) => { p.givens[c] = value; });
    });
  }
}

function setMode(next) {
  mode = next;
  for (const name of ["givens", "cages", "regions"]) $(`mode-${name}`).classList.toggle("on", name === mode);
  $("cage-tools").hidden = mode !== "cages";
}

// --- start --------------------------------------------------------------------

function setUp() {
  for (const size of SIZES) $("size").append(new Option(`${size}x${size}`, String(size)));
  $("size").value = String(puzzle().size);
  for (const [flag, label] of FLAGS) {
    const box = Object.assign(document.createElement("input"), {type: "checkbox"});
    box.dataset.flag = flag;
    box.onchange = () => edit((p) => { p.flags = box.checked ? [...p.flags, flag] : p.flags.filter((f) => f !== flag); });
    const tag = document.createElement("label");
    tag.append(box, " " + label);
    $("flags").append(tag);
  }
  $("new").onclick = () => {
    history.replace(blank(Number($("size").value)));
    selection = []; view = {};
    if ($("jigsaw").checked) setMode("regions");
    edited();
  };
  $("mode-givens").onclick = () => setMode("givens");
  $("mode-cages").onclick = () => setMode("cages");
  $("mode-regions").onclick = () => setMode("regions");
  $("add-cage").onclick = addCage;
  $("sum").addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); addCage(); } });
  $("rules").addEventListener("change", () => edit((p) => { if (p.rules === $("rules").value) return false; p.rules = $("rules").value; }));
  $("undo").onclick = () => { if (history.undo()) edited(); };
  $("redo").onclick = () => { if (history.redo()) edited(); };
  $("cap").onchange = askMarks;
  $("logical").onchange = askMarks;
  $("solve").onclick = () => ask("solve");
  $("check").onclick = () => ask("check");
  $("count").onclick = () => ask("count");
  $("estimate").onclick = () => ask("estimate");
  $("path").onclick = () => { found = []; ask("path"); };
  $("prev").onclick = () => showStep(shown - 1);
  $("next").onclick = () => showStep(shown + 1);
  $("cancel").onclick = () => client.cancel();
  $("export").onclick = () => ask("link");
  for (const button of document.querySelectorAll("button.picture")) {
    button.onclick = () => ask("picture", {format: button.dataset.format});
  }
  $("load").onclick = () => loadText($("puzzle").value);
  $("puzzle").addEventListener("paste", () => setTimeout(() => loadText($("puzzle").value), 0));
  const board = $("board");
  board.addEventListener("mousedown", (event) => {
    event.preventDefault();
    board.focus();
    dragging = true;
    select(cellAt(board, event, puzzle().size), event.shiftKey || event.ctrlKey || event.metaKey);
  });
  board.addEventListener("mousemove", (event) => { if (dragging) select(cellAt(board, event, puzzle().size), true); });
  window.addEventListener("mouseup", endDrag);
  document.addEventListener("keydown", typed);
  setMode("givens");
  if (location.hash.length > 1) loadText(decodeURIComponent(location.hash.slice(1)));
  else edited();
}

/** A link or any text sudosat reads, taken apart into the page's parts. */
function loadText(source) {
  if (!source.trim()) return;
  $("puzzle").value = source;
  client.ask("read", source);
  say("Reading...");
}

setUp();
