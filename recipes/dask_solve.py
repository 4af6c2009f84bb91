"""Solve a file of puzzles on a Dask cluster: the puzzles as a ``dask.bag``, each
partition through :func:`sudosat.solve_many` on a worker, the outcomes back in
input order (a line that cannot be read keeps its place, as its InputError).

    pip install 'sudosat[dask]'
    python recipes/dask_solve.py PUZZLES                 # a local cluster, 2 workers
    python recipes/dask_solve.py PUZZLES tcp://host:8786 # a running scheduler

From Python, with a ``distributed.Client`` already made::

    from recipes.dask_solve import solve_on
    outcomes = solve_on(client, "big.txt")
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable

import dask.bag as db
from dask.distributed import Client, LocalCluster

from sudosat import InputError, Outcome, Puzzle, read_puzzles, solve_many


def solve_part(part: Iterable[Puzzle | InputError]) -> list[Outcome | InputError]:
    """One partition on a worker: its puzzles solved in order, errors kept in place."""
    entries = list(part)
    outcomes = iter(solve_many(e for e in entries if isinstance(e, Puzzle)))
    return [next(outcomes) if isinstance(e, Puzzle) else e for e in entries]


def solve_on(client: Client, path: str, partition_size: int = 500) -> list[Outcome | InputError]:
    """Every puzzle of ``path`` solved on ``client``'s workers, in input order."""
    bag = db.from_sequence(read_puzzles(path), partition_size=partition_size)
    return bag.map_partitions(solve_part).compute(scheduler=client.get)  # type: ignore[no-any-return]


def record(entry: Outcome | InputError) -> dict[str, object]:
    """A short JSON record of one answer."""
    if isinstance(entry, InputError):
        return {"source": entry.source, "line": entry.line, "status": "error", "reason": str(entry)}
    solutions = ["".join(map(str, grid)) for grid in entry.solutions]
    puzzle = entry.puzzle
    return {
        "source": puzzle.source,
        "line": puzzle.line,
        "status": str(entry.status),
        "solutions": solutions,
    }


def main() -> None:
    path = sys.argv[1]
    if len(sys.argv) > 2:
        client = Client(sys.argv[2])
    else:
        client = Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True))
    with client:
        for entry in solve_on(client, path):
            print(json.dumps(record(entry)))


if __name__ == "__main__":
    main()
