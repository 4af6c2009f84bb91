// The page's asking, as an explicit state machine. The page asks the server one
// question at a time (a new one stops the server's job). Its true candidates are
// asked once the edits pause; a question the setter asks (solve, count, a path...)
// goes first, and the candidates it put off are asked after its answer, quietly
// (the status line keeps that answer's words).
//
//   idle ──edit──▶ waiting ──pause──▶ asked ──progress──▶ streaming ──answer──▶ idle
//   waiting, or candidates out ──a question──▶ stale ──its answer──▶ asked (quietly)
//   asked, streaming, stale ──cancelled or refused──▶ cancelled
//
// What is asked, and what the answers do to the page, is main.js's: this module
// only keeps the order.

export class Asking {
  /** ``send(command, extra, source)``: one question to the server (of ``source``, else
   * the puzzle edited); ``candidates()``: what the candidates are asked with;
   * ``ready()``: whether they may be asked now (false: the puzzle cannot be asked
   * yet, and the page says why); ``asked(command, quiet)``: a question went out;
   * ``delay``: ms after the last edit. */
  constructor({send, candidates, ready, asked, delay}) {
    Object.assign(this, {send, candidates, ready, asked, delay});
    this.timer = null;     // the pause after an edit, running
    this.out = null;       // the command whose answer has not come
    this.streaming = false;  // its progress replies have begun
    this.owed = false;     // the candidates, put off by a question: asked after its answer
    this.quiet = false;    // the candidates out were asked quietly
    this.cancelled = false;
  }

  /** Where the asking stands: idle, waiting, asked, streaming, stale or cancelled. */
  get state() {
    if (this.timer) return "waiting";
    if (this.out && this.owed) return "stale";
    if (this.out) return this.streaming ? "streaming" : "asked";
    return this.cancelled ? "cancelled" : "idle";
  }

  /** An edit: the candidates are asked once the edits pause. */
  edited() {
    this.stopWaiting();
    this.timer = setTimeout(() => { this.timer = null; this.askCandidates(); }, this.delay);
  }

  /** The candidates, asked now; ``quiet``: the status line keeps what it says. */
  askCandidates(quiet = false) {
    this.stopWaiting();
    this.owed = false;
    if (!this.ready()) return false;
    this.quiet = quiet;
    this.post("marks", this.candidates());
    return true;
  }

  /** Any other question: it goes first; candidates waiting or out are owed after it. */
  ask(command, extra = {}) {
    if (this.timer || this.out === "marks") this.owed = true;
    this.stopWaiting();
    this.post(command, extra);
  }

  /** A question that replaces the puzzle edited (``source`` read): nothing edited is
   * owed any more. */
  replace(command, source) {
    this.stopWaiting();
    this.post(command, {}, source);
  }

  /** The candidates owed are no longer wanted (the path shows its own). */
  forget() { this.owed = false; }

  /** An answer came. "progress": a reply of the question still out; "stopped": it was
   * cancelled or refused; "answered": its final answer (then the candidates owed,
   * if any, are asked, quietly). */
  received(answer) {
    if (answer.type === "canceled" || answer.type === "invalid") {
      this.out = null;
      this.streaming = false;
      this.cancelled = answer.type === "canceled";
      return "stopped";
    }
    if (answer.inProgress) {
      this.streaming = true;
      return "progress";
    }
    this.out = null;
    this.streaming = false;
    return "answered";
  }

  /** After a final answer is shown: the candidates it put off, asked quietly. */
  settle() {
    if (this.owed) this.askCandidates(true);
  }

  /** Whether the candidates now answered were asked quietly (said once). */
  takeQuiet() {
    const quiet = this.quiet;
    this.quiet = false;
    return quiet;
  }

  post(command, extra, source = null) {
    this.send(command, extra, source);
    this.out = command;
    this.streaming = false;
    this.cancelled = false;
    this.asked(command, command === "marks" && this.quiet);
  }

  stopWaiting() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}
