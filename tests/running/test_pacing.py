"""Work shared by its cost (:mod:`sudosat.running.pacing`): chunks cut to about
TARGET seconds of work by the cost heard so far, and a run cut so answering as
one worker does, in order, every line once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sudosat.reading.chunks import Chunk, Entry
from sudosat.running.pacing import TARGET, Pacer
from tests.conftest import ESCARGOT, PUZZLES, Run, jsonl


def handed_out(
    items: list[int],
    cost: Callable[[int], float],
    behind: int = 0,
    total: Callable[[], int | None] = lambda: None,
) -> list[list[int]]:
    """The chunks a pacer for two workers cuts ``items`` into (two of the reader's
    chunks), each answered, its cost heard, ``behind`` chunks after it is cut (the
    pool's window); ``total``: the input's length, where it is known."""
    pacer: Pacer[list[int]] = Pacer(lambda chunk, size: (chunk[:size], chunk[size:]), 2, total)
    chunks: list[list[int]] = []
    for chunk in pacer.cut([items[:300], items[300:]]):
        chunks.append(chunk)
        if len(chunks) > behind:
            answered = chunks[-1 - behind]
            pacer.heard(sum(cost(item) for item in answered), len(answered))
    assert [item for chunk in chunks for item in chunk] == items
    return chunks


def test_cheap_puzzles_go_out_in_chunks_that_double_to_the_reader_s() -> None:
    chunks = handed_out(list(range(1000)), lambda item: 1e-6)
    assert [len(chunk) for chunk in chunks[:5]] == [1, 2, 4, 8, 16]
    assert [len(chunk) for chunk in chunks[-3:]] == [45, 256, 444]  # none across the reader's


def test_a_size_grows_by_what_was_heard_not_by_what_was_cut() -> None:
    chunks = handed_out(list(range(1000)), lambda item: 1e-6, behind=8)
    assert [len(chunk) for chunk in chunks[:12]] == [1] * 9 + [2, 2, 2]


def test_a_hard_end_goes_out_a_puzzle_at_a_time() -> None:
    def cost(item: int) -> float:  # a list sorted easy to hard: 1 ms to 9 s
        return 1e-3 * 1.01**item

    for behind in (0, 8):
        chunks = handed_out(list(range(919)), cost, behind)
        for chunk in chunks:
            if cost(chunk[0]) > 2 * TARGET:
                assert len(chunk) == 1, (behind, chunk)
        easy = [chunk for chunk in chunks if cost(chunk[-1]) < TARGET / 100]
        assert sum(map(len, easy)) > 4 * len(easy)  # the easy start was not cut to ones


def test_sizes_fall_at_once_when_puzzles_turn_hard() -> None:
    chunks = handed_out(list(range(600)), lambda item: 1e-5 if item < 500 else 1.0)
    all_hard = next(i for i, chunk in enumerate(chunks) if chunk[0] >= 500)
    assert all(len(chunk) == 1 for chunk in chunks[all_hard + 1 :])


def test_a_cliff_near_a_known_end_is_shared_out() -> None:
    """Hard puzzles right after cheap ones: cost cannot see them coming, but the
    chunks shrink as the end nears, so no chunk holds more than two of them."""

    def cost(item: int) -> float:
        return 0.002 if item < 400 else 10.0

    asked = []

    def total() -> int:
        asked.append(True)
        return 408

    chunks = handed_out(list(range(408)), cost, behind=8, total=total)
    assert asked == [True]  # once
    assert all(sum(item >= 400 for item in chunk) <= 2 for chunk in chunks), chunks[-10:]
    assert [len(chunk) for chunk in chunks[-4:]] == [1, 1, 1, 1]
    unknown = handed_out(list(range(408)), cost, behind=8)  # a pipe: by cost alone
    assert any(sum(item >= 400 for item in chunk) > 2 for chunk in unknown)


def test_cheap_puzzles_never_ask_the_input_s_length() -> None:
    asked = []
    handed_out(list(range(1000)), lambda item: 1e-5, total=lambda: asked.append(True) or 1000)
    assert not asked


def test_a_solve_keeps_the_reader_s_chunks_until_its_puzzles_are_heard_to_be_dear() -> None:
    def cut(cost: float) -> list[int]:
        pacer: Pacer[list[int]] = Pacer(lambda c, n: (c[:n], c[n:]), 2, dear=False)
        sizes = []
        for chunk in pacer.cut([list(range(128)), list(range(256)), list(range(512))]):
            sizes.append(len(chunk))
            pacer.heard(cost * len(chunk), len(chunk))
        return sizes

    assert cut(1e-5) == [128, 256, 512]  # a classic solve: as the reader cut it
    assert cut(0.05)[:3] == [128, 10, 10]  # 16x16s: by their cost once heard


def test_a_chunk_splits_into_its_rows_or_its_entries_in_order() -> None:
    rows = [Entry(line, f"text {line}") for line in range(1, 6)]
    head, tail = Chunk("f.txt", rows=rows).split(2)
    assert [r.line for r in head.rows] == [1, 2] and [r.line for r in tail.rows] == [3, 4, 5]
    assert head.source == tail.source == "f.txt" and not head.entries and not tail.entries
    whole = Chunk("g.txt", entries=["a", "b", "c"])  # type: ignore[list-item]
    head, tail = whole.split(1)
    assert head.entries == ["a"] and tail.entries == ["b", "c"] and not head.rows


@pytest.mark.slow
def test_rate_with_two_workers_answers_a_sorted_list_as_one_worker(
    tmp_path: Path, run: Run
) -> None:
    """Easy first, hard last, a broken line between: cut by cost, the records are
    the same, in order, one a line."""
    text = (PUZZLES / "tdoku-magictour-25.txt").read_text().splitlines()
    easy = [line for line in text if line.strip() and not line.startswith("#")][:12]
    lines = [*easy, ESCARGOT[:-1] + "x", ESCARGOT, ESCARGOT]
    path = tmp_path / "sorted.txt"
    path.write_text("\n".join(lines) + "\n")
    outputs = {}
    for jobs in ("1", "2"):
        code, out, _ = run("rate", "-f", "jsonl", "-j", jobs, str(path))
        assert code == 2  # the broken line
        outputs[jobs] = [{k: v for k, v in r.items() if k != "time"} for r in jsonl(out)]
    assert outputs["1"] == outputs["2"]
    records = outputs["2"]
    assert [r["line"] for r in records] == list(range(1, len(lines) + 1))
    assert records[-1]["er"] is not None and records[len(easy)]["status"] == "error"
