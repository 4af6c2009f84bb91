// The socket to `sudosat serve`: one question at a time, as the plugin asks. A
// new question cancels the one at work (the server stops it); answers to an
// older question are dropped. Every frame is {nonce, command, dataType, data}.

export class Client {
  constructor(onAnswer, onState) {
    this.onAnswer = onAnswer;  // (answer, asked): every reply to the question at work
    this.onState = onState;    // (connected): the socket opened or closed
    this.socket = null;
    this.nonce = 0;
    this.asked = null;
    this.queued = [];
  }

  connect() {
    const opening = new WebSocket(`ws://${location.host}/`);
    this.socket = opening;
    opening.onopen = () => {
      this.onState(true);
      this.queued.splice(0).forEach((frame) => opening.send(frame));
    };
    opening.onclose = () => {
      if (this.socket !== opening) return;
      this.socket = null;
      this.onState(false);
    };
    opening.onmessage = (event) => {
      const answer = JSON.parse(event.data);
      if (this.asked && answer.nonce === this.asked.nonce) this.onAnswer(answer, this.asked);
    };
  }

  send(frame) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(frame);
    else { this.queued = [frame]; if (!this.socket) this.connect(); }
  }

  /** Ask ``command`` of the puzzle ``text`` (sudosat's text, or a link). */
  ask(command, text, extra = {}) {
    this.nonce += 1;
    this.asked = {nonce: this.nonce, command, ...extra};
    this.send(JSON.stringify({nonce: this.nonce, command, dataType: "sudosat", data: text, ...extra}));
    return this.asked;
  }

  /** Stop the question at work: the server answers ``canceled``. */
  cancel() {
    this.nonce += 1;
    this.asked = {nonce: this.nonce, command: "cancel"};
    this.send(JSON.stringify({nonce: this.nonce, command: "cancel"}));
  }
}
