// The setter's page: the puzzle as data (model.js), drawn from data (grid.js),
// asked of `sudosat serve` over the plugin's socket (client.js). Every edit is
// one part in the history (undo, redo) and, a moment later, a question for the
// true candidates; the last good answer stays drawn while an edit is broken.

import {Asking} from "./asking.js";
import {Client} from "./client.js";
import {CELL, between, cellIndex, cellName, centre, clientAt, pointAt} from "./geometry.js";
import {cellAt, draw} from "./grid.js";
import {FLAGS, History, SIZES, blank, regionsOf, regionsProblem, symbols, toText} from "./model.js";
import {KINDS, partOf} from "./parts/index.js";
import {STEPS} from "./parts/shapes.js";
import {INVALID, cageProblem, cellsNamed, estimated, fromHash} from "./words.js";
import {Zoom} from "./zoom.js";

const $ = (id) => document.getElementById(id);
const DEBOUNCE = 300;  // ms after the last edit, as the plugin waits
// what tests and scripts read of the page (its counters, window.sudosatBoard): only
// on a page opened with ?test, never in the page a setter uses
const TESTING = new URLSearchParams(location.search).has("test");

let history = new History(blank(9));
let selection = [], mode = "givens", dragging = false;
let drawing = null;   // the line being dragged: its cells
let chosen = null;    // what is chosen in the list: {cage: i} or {part: i} (null: none)
let view = {};        // what the grid shows besides the puzzle: candidates, counts, solution, step
let path = null, shown = 0, found = [];
let lost = "";        // what the puzzle read lost (rules its link holds as shapes only): said with its answers
let last = -1;        // the cell the drag was last over: the cells between are crossed too

const client = new Client(receive, (open) => { if (!open) say("Not connected (start sudosat serve)."); });
const zoom = new Zoom($("frame"), $("zoom"), () => redraw());
const asking = new Asking({
  send: (command, extra, source) => client.ask(command, source ?? text(), extra),
  candidates: () => ({cap: Number($("cap").value), logical: $("logical").checked}),
  ready() {
    const problem = regionsProblem(puzzle());
    if (problem) say("Not asked: the regions are not whole yet.", problem);
    return !problem;
  },
  asked(command, quiet) {
    if (command === "read") { say("Reading..."); return; }
    if (!quiet) say("Working...");
    working(true);
  },
  delay: DEBOUNCE,
});

function puzzle() { return history.now; }

function say(status, message = "") {
  $("status").textContent = status;
  $("message").textContent = message;
}

function working(busy) { $("cancel").disabled = !busy; }

/** For tests and scripts (?test): one more ``key`` counted on #marks, or its value set. */
function tally(key) { if (TESTING) $("marks").dataset[key] = String(Number($("marks").dataset[key] || 0) + 1); }
function noted(key, value) { if (TESTING) $("marks").dataset[key] = value; }

function redraw() {
  const start = performance.now();
  if (chosen && !(chosen.part < puzzle().parts.length || chosen.cage < puzzle().cages.length)) chosen = null;
  const shown = drawing ? {...puzzle(), parts: [...puzzle().parts, {kind: mode, cells: drawing, value: null}]} : puzzle();
  const part = chosen && chosen.part !== undefined ? chosen.part : -1;
  draw($("board"), {puzzle: shown, selection, cap: Number($("cap").value), chosen: part, zoom: zoom.scale, ...view});
  listParts();
  noted("drawn", (performance.now() - start).toFixed(1));  // ms: the benchmark reads it
  $("undo").disabled = !history.back.length;
  $("redo").disabled = !history.ahead.length;
  for (const box of document.querySelectorAll("#flags input")) box.checked = puzzle().flags.includes(box.dataset.flag);
  if (document.activeElement !== $("rules")) $("rules").value = puzzle().rules;
  for (const key of ["title", "author", "ruleset"]) {
    if (document.activeElement !== $(key)) $(key).value = puzzle()[key] || "";
  }
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
  asking.edited();
}

function text() { return toText(puzzle()); }

function askMarks() { asking.askCandidates(); }

function ask(command, extra = {}) { asking.ask(command, extra); }

// --- answers ------------------------------------------------------------------

function receive(answer, asked) {
  const out = asking.out;  // the question this answer ends (a cancel's answer ends it too)
  const how = asking.received(answer);
  const steps = out === "path" ? found.length : 0;  // a message names only its own job
  if (answer.type === "canceled") {
    say(`Cancelled${steps ? `; ${steps} steps found so far` : ""}.`);
    working(false);
    return;
  }
  if (answer.type === "invalid") {
    working(false);
    say(steps ? "Stopped." : INVALID[answer.why] || "Not read.", answer.message);
    view = {...view, problem: cellsNamed(answer.message, puzzle().size)};  // the last good candidates stay
    redraw();
    return;
  }
  if (how === "progress") { progress(answer); return; }
  working(false);
  const handle = {marks, solved, count, estimate, path: pathAnswer, read, link, picture};
  (handle[answer.type] || (() => {}))(answer, asked);
  asking.settle();  // the edit's candidates, put off by this question: its answer stays said
}

function progress(answer) {
  if (answer.type === "marks") {
    view = {...view, candidates: answer.candidates, counts: null, logical: null};
    const witnessed = answer.candidates.reduce((sum, values) => sum + values.length, 0);
    say(`Working... ${witnessed} candidates witnessed so far (Cancel stops it)`);
    redraw();
  } else if (answer.type === "path") {
    found = answer.sentences || answer.steps;  // the steps so far, in words
    listSteps(found, 0);
    say(`Working... ${found.length} steps so far (Cancel stops it)`);
  } else if (answer.type === "count") {
    say(`Counting... ${answer.count.toLocaleString()} solutions so far (Cancel stops it)`);
  } else if (answer.type === "estimate") {
    say(`Estimating... ${estimated(answer)}; ${answer.iterations} samples (Cancel stops it)`);
  }
}

function marks(answer) {
  if (answer.status === "none") {  // read, and no solution: said, its cause drawn; the
    view = {...view, problem: answer.cells};  // last good candidates stay, as for a broken edit
    tally("nones");
    noted("answeredRead", $("marks").dataset.reads || "0");
    say("none: no solution", answer.message);
    asking.takeQuiet();
    redraw();
    return;
  }
  view = {...view, candidates: answer.candidates, counts: answer.counts || null, logical: answer.logical || null};
  noted("candidates", JSON.stringify(answer.candidates));
  tally("answers");
  noted("answeredRead", $("marks").dataset.reads || "0");  // the puzzle read that these candidates are of
  const words = {unique: "one solution", multiple: "more than one solution", solved: "solved"};
  // parts still being drawn (an arrow's circle before its shaft) are named once, under it
  const notes = [answer.notes, lost].filter(Boolean).join(" ");
  if (!asking.takeQuiet()) say(`${answer.status}: ${words[answer.status] || answer.status}`, notes);
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

function estimate(answer) {  // an exact count (few solutions): the answer
  const said = estimated(answer);
  say(said[0].toUpperCase() + said.slice(1));
}

/** Every part, a line each, the killer cages first: click one to choose it (its
 * cells selected, its value in the box: Set value changes it), x to delete it. */
function listParts() {
  const n = puzzle().size;
  const cages = puzzle().cages.map((cage, index) => listed({cage: index}, "Killer cage",
    cage.sum ? `cage ${cage.sum}: ${cage.cells.map((c) => cellName(n, c)).join(" ")}`
      : `cage: ${cage.cells.map((c) => cellName(n, c)).join(" ")}`, cage.cells, cage.sum));
  const parts = puzzle().parts.map((part, index) => {
    const kind = KINDS[part.kind];
    const value = part.value && typeof part.value === "object" ? part.value.sum : part.value;
    return listed({part: index}, kind.label, kind.text(part, n), null, value);
  });
  $("parts").replaceChildren(...cages, ...parts);
}

/** One line of the parts list: ``key`` ({cage: i} or {part: i}) chosen by a click. */
function listed(key, label, text, cells, value) {
  const item = document.createElement("li");
  item.append(Object.assign(document.createElement("span"), {className: "text", textContent: text}));
  item.title = label;
  const same = chosen && chosen.cage === key.cage && chosen.part === key.part;
  if (same) item.className = "chosen";
  item.onclick = () => {
    chosen = same ? null : key;
    if (chosen && cells) selection = [...cells];  // a cage is seen by its cells
    $("sum").value = chosen && value !== null && value !== undefined ? String(value) : "";
    $("set-value").hidden = !chosen || (key.part !== undefined && !KINDS[puzzle().parts[key.part].kind].valued);
    redraw();
  };
  const gone = Object.assign(document.createElement("button"), {textContent: "\u00d7", title: "delete"});
  gone.className = "delete";
  gone.onclick = (event) => { event.stopPropagation(); remove(key); };
  item.append(" ", gone);
  return item;
}

function remove(key) {
  chosen = null;
  if (key.cage !== undefined) edit((p) => { p.cages.splice(key.cage, 1); });
  else edit((p) => { p.parts.splice(key.part, 1); });
}

/** A part added, unless it is wrong: then its message, at its cells, and the last
 * good state stays. The same part again takes it away (a dot clicked twice). */
function addPart(part) {
  const kind = KINDS[part.kind], n = puzzle().size;
  const wrong = kind.problem(part, n);
  $("sum").value = "";  // each part's value is its own: the next starts empty
  if (wrong) {
    view = {...view, problem: kind.tool === "outside" ? [] : part.cells.filter((c) => c >= 0 && c < n * n)};
    say("Not added.", wrong);
    redraw();
    return;
  }
  const text = kind.text(part, n);
  const same = puzzle().parts.findIndex((p) => KINDS[p.kind].text(p, n) === text);
  if (same >= 0 && kind.tool !== "line") { remove({part: same}); return; }
  edit((p) => { p.parts.push(part); });
}

/** The value the box holds for a part of ``kind`` (null: it wants one and has none). */
function valueFor(kind) {
  if (!kind.valued) return null;
  const typed = $("sum").value.trim();
  if (!typed) return kind.optional ? null : undefined;
  if (kind.word === "little-killer") return {sum: typed, direction: $("direction").value};
  return typed;
}

/** Where the mouse is pressed, for the tools that are no drag: an edge, a corner,
 * a square beside the grid, a cell. */
function pressed(kind, event) {
  const n = puzzle().size, [x, y] = pointAt($("board"), event, n);
  const col = Math.floor(x / CELL), row = Math.floor(y / CELL);
  const inside = col >= 0 && row >= 0 && col < n && row < n;
  const value = valueFor(kind);
  if (value === undefined) { say("Not added.", `type the ${kind.label.toLowerCase()}'s value first, then click`); return; }
  if (kind.tool === "cell" && inside) addPart({kind: kind.word, cells: [row * n + col], value: null});
  if (kind.tool === "edge" && inside) {
    const fx = x / CELL - col, fy = y / CELL - row;
    const sides = [[fx, 0, -1], [1 - fx, 0, 1], [fy, -1, 0], [1 - fy, 1, 0]].sort((a, b) => a[0] - b[0]);
    const [, dr, dc] = sides[0], r2 = row + dr, c2 = col + dc;
    if (r2 < 0 || c2 < 0 || r2 >= n || c2 >= n) return;
    const pair = [row * n + col, r2 * n + c2].sort((a, b) => a - b);
    addPart({kind: kind.word, cells: pair, value: null});
  }
  if (kind.tool === "corner") {
    const i = Math.round(x / CELL), j = Math.round(y / CELL);
    if (i < 1 || j < 1 || i >= n || j >= n) return;
    addPart({kind: kind.word, cells: [(j - 1) * n + i - 1, (j - 1) * n + i, j * n + i - 1, j * n + i], value});
  }
  if (kind.tool === "outside" && !inside && row >= -1 && col >= -1 && row <= n && col <= n) {
    addPart({kind: kind.word, cells: [(row + 1) * (n + 2) + col + 1], value});
  }
}

function pathAnswer(answer) {
  path = {end: answer.end, reason: answer.reason, start: answer.start, steps: answer.steps};
  found = answer.sentences;
  asking.forget();  // the path's own candidates are shown, step by step
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
  const parts = [], others = [];
  for (const line of (answer.rules || "").split("\n").filter((l) => l.trim())) {
    const part = partOf(line, answer.size), kind = part && KINDS[part.kind];
    // a part read while it is still being drawn (an arrow's circle alone) is kept and drawn
    if (part && (!kind.problem(part, answer.size) || (kind.unfinished && kind.unfinished(part)))) {
      parts.push(part);
    } else others.push(line);
  }
  const next = {...blank(answer.size), givens: answer.givens, cages: answer.cages, regions: answer.regions,
    parts, flags: answer.flags, rules: others.join("\n"), title: answer.title || "",
    author: answer.author || "", ruleset: answer.ruleset || ""};
  lost = answer.lost ? answer.lost[0].toUpperCase() + answer.lost.slice(1) + "." : "";
  history.replace(next);
  $("size").value = String(answer.size);
  selection = [];
  view = {};
  tally("reads");
  edited();
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
  if (drawing) {
    const cells = drawing;
    drawing = null;
    const kind = KINDS[mode];
    addPart({kind: mode, cells, value: kind.valued ? $("sum").value.trim() || null : null});
    return;
  }
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
  $("sum").value = "";  // each cage's sum is its own: a refused 50 is no start of the next
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
  $("board").focus({preventScroll: true});
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
  if (key === "Escape") { selection = []; chosen = null; redraw(); return; }
  if ((key === "Backspace" || key === "Delete") && chosen) {
    event.preventDefault();
    remove(chosen);
    return;
  }
  if (key === "Enter" && mode === "cages") { addCage(); return; }
  const cells = selection.slice();
  if (!cells.length) return;
  if (key === "Backspace" || key === "Delete") {
    event.preventDefault();
    if (mode === "cages") {
      edit((p) => {
        const kept = p.cages.filter((cage) => !cage.cells.some((c) => cells.includes(c)));
        if (kept.length === p.cages.length) return false;  // no cage there: nothing to undo
        p.cages = kept;
      });
    }
    else edit((p) => {
      if (cells.every((c) => !p.givens[c])) return false;  // nothing to clear: no undo step, no ask
      cells.forEach((c) => { p.givens[c] = 0; });
    });
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
  if (next !== mode) $("sum").value = "";  // a value typed for one tool is not the next one's
  mode = next;
  for (const name of ["givens", "cages", "regions"]) $(`mode-${name}`).classList.toggle("on", name === mode);
  $("tool").value = next;
  const kind = KINDS[mode];
  $("cage-tools").hidden = !(mode === "cages" || (kind && kind.valued));
  const labels = {cages: "sum", arrow: "circle cells (pill: 2 or 3)"};
  $("sum-label").textContent = labels[mode] || (kind ? `${kind.label.toLowerCase()} value` : "");
  $("add-cage").hidden = mode !== "cages";
  $("direction").hidden = mode !== "little-killer";
  $("set-value").hidden = !(mode === "cages" || (kind && kind.valued));
}

function setValue() {  // the chosen part's value (a cage's sum), from the box
  if (!chosen) { say("Choose a part in the list first."); return; }
  if (chosen.cage !== undefined) {
    const index = chosen.cage, cage = puzzle().cages[index], sum = $("sum").value.trim();
    const wrong = cageProblem(cage.cells.length, sum, puzzle().size);
    if (wrong) { say("Not changed.", wrong); return; }
    edit((p) => { p.cages[index] = {...cage, sum: sum ? Number(sum) : null}; });
    return;
  }
  const part = puzzle().parts[chosen.part], kind = KINDS[part.kind];
  if (!kind.valued) return;
  const value = valueFor(kind);
  if (value === undefined) return;
  const changed = {...part, value: kind.word === "little-killer" ? {...part.value, sum: value.sum} : value};
  const wrong = kind.problem(changed, puzzle().size);
  if (wrong) { say("Not changed.", wrong); return; }
  const index = chosen.part;
  edit((p) => { p.parts[index] = changed; });
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
    lost = "";
    history.replace(blank(Number($("size").value)));
    selection = []; view = {};
    if ($("jigsaw").checked) setMode("regions");
    edited();
  };
  const groups = {line: "Lines", edge: "Dots and pairs", outside: "Clues outside the grid", cell: "Cell marks",
    corner: "Corners"};
  for (const [tool, label] of Object.entries(groups)) {
    const group = Object.assign(document.createElement("optgroup"), {label});
    for (const kind of Object.values(KINDS).filter((k) => k.tool === tool)) group.append(new Option(kind.label, kind.word));
    $("tool").append(group);
  }
  for (const direction of Object.keys(STEPS)) $("direction").append(new Option(direction, direction));
  $("tool").onchange = () => setMode($("tool").value);
  $("set-value").onclick = setValue;
  $("mode-givens").onclick = () => setMode("givens");
  $("mode-cages").onclick = () => setMode("cages");
  $("mode-regions").onclick = () => setMode("regions");
  $("add-cage").onclick = addCage;
  for (const key of ["title", "author", "ruleset"]) {  // the puzzle's words: no edit, no question
    $(key).addEventListener("input", () => { history.now[key] = $(key).value; });
  }
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
    // the cell under the pointer first, and a focus that never scrolls: a board
    // not wholly in view would scroll under the pointer and the edit land elsewhere
    const kind = KINDS[mode], cell = cellAt(board, event, puzzle().size);
    board.focus({preventScroll: true});
    if (kind && kind.tool !== "line") { pressed(kind, event); return; }
    dragging = true;
    last = cell;
    if (kind) {
      if (cell >= 0) { drawing = [cell]; redraw(); } else dragging = false;
      return;
    }
    select(cell, event.shiftKey || event.ctrlKey || event.metaKey);
  });
  board.addEventListener("mousemove", (event) => {
    if (!dragging) return;
    const cell = cellAt(board, event, puzzle().size);
    if (!drawing) {  // every cell the pointer crossed since the last event, not only where it is
      if (cell < 0) return;
      for (const crossed of between(puzzle().size, last < 0 ? cell : last, cell)) select(crossed, true);
      last = cell;
      return;
    }
    if (cell < 0 || cell === drawing[drawing.length - 1]) return;
    if (cell === drawing[drawing.length - 2]) drawing.pop();  // dragged back: the last step undone
    else drawing.push(cell);
    redraw();
  });
  window.addEventListener("mouseup", endDrag);
  $("zoom-in").onclick = () => zoom.by(1);
  $("zoom-out").onclick = () => zoom.by(-1);
  $("frame").addEventListener("wheel", (event) => {  // Ctrl + wheel zooms where the pointer is
    if (!event.ctrlKey) return;
    event.preventDefault();
    zoom.by(event.deltaY < 0 ? 1 : -1, event);
  }, {passive: false});
  document.addEventListener("keydown", typed);
  setMode("givens");
  if (TESTING) window.sudosatBoard = {  // where a cell's centre, an edge or a corner is on screen
    at: (x, y) => clientAt(board, puzzle().size, x, y),
    centre: (cell) => clientAt(board, puzzle().size, ...centre(puzzle().size, cell)),
    text: () => text(),  // the puzzle as the page would send it, whole or not
    redraw: () => redraw(),
    asking: () => asking.state,  // idle, waiting, asked, streaming, stale or cancelled
  };
  const linked = location.hash.length > 1 ? fromHash(location.hash.slice(1)) : "";
  if (linked) loadText(linked);
  else edited();
}


/** A link or any text sudosat reads, taken apart into the page's parts. */
function loadText(source) {
  if (!source.trim()) return;
  $("puzzle").value = source;
  asking.replace("read", source);  // the puzzle read replaces the one edited
}

setUp();
