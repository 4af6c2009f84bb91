"""Find, for each technique of the logical path, a grid of candidates where it is the
easiest that makes progress: the examples tests/logic/test_path.py checks each technique on.

    python scripts/technique_examples.py > tests/data/techniques.jsonl

Reads tdoku's sets (BSD-2-Clause) from ../shared/puzzles; each line: the technique,
the puzzle's givens, the candidates before the step (as `candidates -f line` writes
them), and where the puzzle came from.
"""

from __future__ import annotations

import json
import sys
from itertools import islice
from pathlib import Path

from sudosat.logic.board import Step
from sudosat.logic.path import Pathfinder, truth_of
from sudosat.logic.solve_path import technique_of
from sudosat.reading.inputs import read_puzzles

SHARED = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "tdoku"
SETS = {
    "puzzles3_magictour_top1465": 1465,
    "puzzles6_forum_hardest_1106": 3,
    "puzzles7_serg_benchmark": 3000,
    "puzzles2_17_clue": 3000,
}
"""Each set, and how many of its puzzles to look through at most."""


def tokens(masks: list[int]) -> str:
    return " ".join("".join(str(v) for v in range(1, 10) if m >> (v - 1) & 1) for m in masks)


def main() -> None:
    found: dict[str, dict[str, object]] = {}
    wanted = None
    for name, most in SETS.items():
        for index, puzzle in enumerate(islice(read_puzzles(str(SHARED / name)), most)):
            truth = truth_of(puzzle)
            with Pathfinder(puzzle) as finder:
                finder.truth = truth  # (what the uniqueness techniques ask)
                wanted = wanted or {t.name for t, _ in finder.order[1:]}
                board = finder.board()
                while not board.solved and not board.contradiction():
                    masks = list(board.masks)
                    step = finder.next_step(board)
                    if step is None:
                        break
                    made: Step = board.apply(step)
                    family = technique_of(step).name.split(",")[0]  # (a nested chain: by its size)
                    if family not in wanted:  # (a unique rectangle's type: its finder's)
                        family = next((w for w in sorted(wanted) if family.startswith(w)), family)
                    if family not in found and family != "naked single":  # marks: placed
                        found[family] = {
                            "technique": family,
                            "step": made.name,
                            "puzzle": "".join(str(v or ".") for v in puzzle.cells),
                            "marks": tokens(masks),
                            "source": f"tdoku/{name} puzzle {index + 1}",
                        }
                        print(json.dumps(found[family]), flush=True)
                        print(f"{family}: {name} {index + 1}", file=sys.stderr)
                    assert truth is not None
            if wanted and wanted <= set(found):
                return


if __name__ == "__main__":
    main()
