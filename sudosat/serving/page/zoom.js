// The board's scale: a step bigger or smaller, the point under the pointer (or the
// frame's centre) kept where it is; the frame's scrollbars pan. A 36x36's cells are
// 16 px at 1.

const ZOOMS = [1, 1.5, 2, 3, 4];

export class Zoom {
  /** ``frame``: the scrolled box the board is in; ``label``: where the scale is said;
   * ``redraw()``: the board drawn again at the new scale. */
  constructor(frame, label, redraw) {
    Object.assign(this, {frame, label, redraw});
    this.scale = 1;
  }

  /** One step bigger (1) or smaller (-1), about the pointer of ``event`` if given. */
  by(direction, event) {
    const frame = this.frame, index = ZOOMS.indexOf(this.scale) + direction;
    if (index < 0 || index >= ZOOMS.length) return;
    const box = frame.getBoundingClientRect();
    const px = event ? event.clientX - box.left : box.width / 2, py = event ? event.clientY - box.top : box.height / 2;
    const fx = (frame.scrollLeft + px) / this.scale, fy = (frame.scrollTop + py) / this.scale;
    this.scale = ZOOMS[index];
    this.redraw();
    frame.scrollLeft = fx * this.scale - px;
    frame.scrollTop = fy * this.scale - py;
    this.label.textContent = this.scale === 1 ? "" : `${this.scale}x`;
  }
}
