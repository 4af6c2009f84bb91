"""``sudosat merge``: shards of one run put back together, byte for byte, from
files, pipes and fifos; shards of different runs and strange trailers refused in
one line."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

from tests.conftest import KILLERS_16, PUZZLES, SUDOSAT, Run, one_line_error


def shards(tmp_path: Path, name: str, source: Path, count: int, *args: str) -> list[Path]:
    found = []
    for k in range(1, count + 1):
        path = tmp_path / f"{name}-{k}.jsonl"
        with path.open("w") as out:
            command = [str(SUDOSAT), *args, "--shard", f"{k}/{count}", "-f", "jsonl", "-q"]
            done = subprocess.run([*command, str(source)] if source.name else command, stdout=out)
        assert done.returncode in (0, 1, 2, 3)
        found.append(path)
    return found


def mixed(tmp_path: Path) -> Path:
    """Classic lines (hard and easy), variant links, broken lines: one input."""
    lines = (PUZZLES / "tdoku-magictour-25.txt").read_text().splitlines()
    lines += [line for line in KILLERS_16.read_text().splitlines() if line.startswith("http")][:1]
    lines += (PUZZLES / "variants.links").read_text().splitlines()
    lines += [
        "this line is no puzzle",
        "1" * 80,
        *(PUZZLES / "royle17-25.txt").read_text().splitlines(),
    ]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.slow
def test_merged_shards_equal_one_run_byte_for_byte(tmp_path: Path) -> None:
    source = mixed(tmp_path)
    whole = subprocess.run(
        [str(SUDOSAT), "solve", str(source), "-f", "jsonl", "-q", "--no-time"],
        capture_output=True,
        text=True,
    ).stdout
    parts = shards(tmp_path, "part", source, 3, "solve", "--no-time")
    merged = subprocess.run(
        [str(SUDOSAT), "merge", *map(str, parts)], capture_output=True, text=True
    )
    assert merged.returncode == 0 and merged.stdout == whole
    assert '"time": null' in whole


@pytest.mark.slow
def test_merge_reads_each_shard_once_from_pipes_and_fifos(tmp_path: Path) -> None:
    parts = shards(tmp_path, "p", PUZZLES / "royle17-25.txt", 3, "solve", "--no-time")
    expected = subprocess.run(
        [str(SUDOSAT), "merge", *map(str, parts)], capture_output=True, text=True
    ).stdout
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with fifo.open("w") as handle:
            handle.write(parts[1].read_text())

    feeder = threading.Thread(target=feed)
    feeder.start()
    script = f'exec "{SUDOSAT}" merge <(cat "{parts[0]}") "{fifo}" - < "{parts[2]}"'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    feeder.join(timeout=60)
    assert done.returncode == 0 and done.stdout == expected, done.stderr


@pytest.mark.slow
def test_merge_refuses_shards_of_different_runs(tmp_path: Path, run: Run) -> None:
    first = PUZZLES / "royle17-25.txt"
    other = tmp_path / "other.txt"
    other.write_text("\n".join(reversed(first.read_text().splitlines())) + "\n")
    a = shards(tmp_path, "a", first, 2, "solve")
    b = shards(tmp_path, "b", other, 2, "solve")
    code, _, err = run("merge", str(a[0]), str(b[1]))
    assert one_line_error(err, code) and "of another run" in err
    c = shards(tmp_path, "c", first, 2, "solve", "--count")
    code, _, err = run("merge", str(a[0]), str(c[1]))
    assert one_line_error(err, code) and "of another run" in err
    made = shards(tmp_path, "g", Path(""), 2, "generate", "--puzzles", "25", "--seed", "1")
    code, _, err = run("merge", str(a[0]), str(made[1]))
    assert one_line_error(err, code) and "not one run" in err


@pytest.mark.parametrize(
    ("trailer", "says"),
    [
        ('{"shard": "1/2", "records": 0, "of": 12.9, "run": "x"}', "no shard trailer"),
        ('{"shard": "1/2", "records": "0", "of": 1, "run": "x"}', "no shard trailer"),
        ('{"shard": "1/1", "records": 0, "of": 0}', "no shard trailer"),
        (
            '{"shard": "1/1000000000", "records": 0, "of": 0, "run": "x"}',
            "missing: 1 of 1000000000",
        ),
    ],
)
def test_merge_refuses_strange_trailers_at_once(
    trailer: str, says: str, tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(trailer + "\n")
    code, _, err = run("merge", str(path))
    assert one_line_error(err, code) and says in err, err


def test_merge_names_a_file_that_is_no_text_and_stops_on_endless_input(
    tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a": 1}\n\xff\xfe\n')
    code, _, err = run("merge", str(path))
    assert one_line_error(err, code) and "s.jsonl:2:1: not UTF-8" in err
    code, _, err = run("merge", "/dev/zero")
    assert one_line_error(err, code) and "/dev/zero:1:1: a line of more than" in err
