"""The workbench attacked as a hostile user would (issue 46): each wrong answer,
broken meaning, crash and misleading message found, kept as a test. Answers are
checked by brute force (every 4x4 grid, the rules by their own checks), by a
second solver on the full CNF, or by arithmetic, never by the code under test."""

from __future__ import annotations

import json
import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import lzstring
import pytest

from sudosat import InputError, Puzzle, candidates, estimate, explain, parse, solve
from sudosat.core.puzzle import Grid, Rules
from sudosat.making.path import logical_path
from sudosat.reading import lz
from sudosat.sat.cnf import Encoding
from tests.test_workbench import solutions_4x4, solutions_by_backtracking
from tests.variants.test_brute import every_grid
from tests.variants.test_reading import scl, zipped

from .conftest import PUZZLES, Run

Part = tuple[int, int] | object
FULL = Encoding(reduced=False)


def with_parts(puzzle: Puzzle, parts: list[Part]) -> Puzzle:
    """The puzzle of ``parts`` alone: these givens, these rules (settled anew)."""
    n = puzzle.size
    cells = [0] * (n * n)
    rules = []
    for part in parts:
        if isinstance(part, tuple):
            cells[part[0]] = part[1]
        else:
            rules.append(part)
    return replace(puzzle, cells=tuple(cells), rules=Rules.of(puzzle.layout, rules))  # type: ignore[arg-type]


def every_part(puzzle: Puzzle) -> list[Part]:
    return [*puzzle.givens, *(puzzle.rules.constraints if puzzle.rules else ())]


def same(a: Part, b: Part) -> bool:
    """A clue is a (cell, value) pair, a rule the puzzle's own object."""
    return a == b if isinstance(a, tuple) else a is b


def without(parts: list[Part], gone: Part) -> list[Part]:
    return [p for p in parts if not same(p, gone)]


def named(part: Part, parts: list[Part]) -> bool:
    return any(same(part, p) for p in parts)


# --- 1. explain under negative constraints -----------------------------------------


def all_dots_4x4() -> Puzzle:
    """A 4x4 with a white dot on every consecutive pair of one grid, nonconsecutive,
    and r1c1 given: 12 dots."""
    grid = next(g for g in every_grid() if g[0] == 1 and consecutive_pairs(g) == 12)
    dots = [f"difference: {rc(a)} {rc(b)}" for a, b in pairs_4x4() if abs(grid[a] - grid[b]) == 1]
    rows = ["1...", "....", "....", "...."]
    return parse("\n".join(["size 4", "nonconsecutive", *dots, *rows]) + "\n")


def pairs_4x4() -> list[tuple[int, int]]:
    return [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)] + [
        (r * 4 + c, r * 4 + c + 4) for r in range(3) for c in range(4)
    ]


def consecutive_pairs(grid: Grid) -> int:
    return sum(abs(grid[a] - grid[b]) == 1 for a, b in pairs_4x4())


def rc(cell: int) -> str:
    return f"r{cell // 4 + 1}c{cell % 4 + 1}"


def test_a_dot_under_nonconsecutive_is_redundant_only_if_its_removal_keeps_the_answer() -> None:
    puzzle = all_dots_4x4()
    (solution,) = solutions_4x4(puzzle)
    found = explain(puzzle)
    assert found.redundant is not None and found.minimal is not None
    for part in found.redundant:
        assert solutions_4x4(with_parts(puzzle, without(every_part(puzzle), part))) == [solution], (
            part
        )
    for part in every_part(puzzle):  # and every part that can go is named
        alone = solutions_4x4(with_parts(puzzle, without(every_part(puzzle), part))) == [solution]
        assert alone == named(part, found.redundant), part
    assert_minimal(puzzle, found.minimal, solution)


def assert_minimal(puzzle: Puzzle, minimal: list[Part], solution: Grid) -> None:
    """The parts alone have ``solution`` and no other; without any one of them, not."""
    assert solutions_4x4(with_parts(puzzle, minimal)) == [solution]
    for part in minimal:
        assert solutions_4x4(with_parts(puzzle, without(minimal, part))) != [solution], part


def test_the_bundled_kropki_minimal_set_keeps_its_solution_alone() -> None:
    puzzle = parse((PUZZLES / "kropki-6x6.txt").read_text())
    found = explain(puzzle)
    solution = found.outcome.solutions[0]
    assert found.minimal is not None and found.redundant is not None

    def alone(parts: list[Part]) -> bool:  # Glucose on the full CNF: another path
        outcome = solve(with_parts(puzzle, parts), solver="glucose4", encoding=FULL)
        return outcome.solutions == [solution] and str(outcome.status) == "unique"

    assert alone(found.minimal)
    for part in found.minimal:
        assert not alone(without(found.minimal, part))
    for part in found.redundant:
        assert alone(without(every_part(puzzle), part))


def test_a_maximum_cell_taken_away_compares_its_neighbour_again() -> None:
    # two maximum cells side by side are not compared; without one of them, they are
    puzzle = parse("size 4\nmaximum: r1c3 r1c2\n1.3.\n32..\n41.3\n....\n")
    (solution,) = solutions_4x4(puzzle)
    found = explain(puzzle)
    assert found.redundant is not None and found.minimal is not None
    for part in every_part(puzzle):
        alone = solutions_4x4(with_parts(puzzle, without(every_part(puzzle), part))) == [solution]
        assert alone == named(part, found.redundant), part
    assert_minimal(puzzle, found.minimal, solution)


def test_a_conflict_under_a_negative_rule_holds_without_the_rest() -> None:
    # 1 and 2 side by side, a dot between them, nonconsecutive; 3 and 4 too, but
    # no dot: that pair alone with the rule conflicts
    puzzle = parse("size 4\nnonconsecutive\ndifference: r1c1 r1c2\n12..\n....\n....\n..34\n")
    found = explain(puzzle)
    assert str(found.outcome.status) == "none" and found.conflict
    assert solutions_4x4(with_parts(puzzle, found.conflict)) == []
    for part in found.conflict:
        assert solutions_4x4(with_parts(puzzle, without(found.conflict, part))), part


# --- 2. a path ends solved only with a grid that keeps every rule -------------------


def test_the_path_of_a_puzzle_with_no_solution_never_ends_solved() -> None:
    puzzle = parse("size 4\ndifference 2: r1c1 r1c2\n.234\n3412\n2143\n4321\n")
    assert solutions_4x4(puzzle) == []
    path = logical_path(puzzle)
    assert path.end == "contradiction"
    assert "difference 2 r1c1-r1c2" in path.reason


# --- 3. estimates: the interval's coverage (a statistical test, slow) ---------------

THERMO_6X6 = "size 6\nthermo: r6c5 r6c6 r5c6\n....3.\n2.....\n......\n...3..\n......\n5....3\n"
BAND_9X9_GRIDS = 7_022_836_224
"""The grids whose first band is ``puzzles/band-9x9.txt``'s, counted exhaustively
by ``benchmarks/count_band.c`` (every second band, each one's third bands)."""
COVERAGE = {
    "blank 4x4, sampled": ("....\n" * 4, lambda: 288, {"exact_limit": 0}, 300),
    "blank 6x6": ("size 6\n" + "......\n" * 6, lambda: 28_200_960, {}, 200),
    "6x6 thermo": (THERMO_6X6, lambda: len(solutions_by_backtracking(parse(THERMO_6X6))), {}, 120),
    "9x9 first band": (
        (PUZZLES / "band-9x9.txt").read_text(),
        lambda: BAND_9X9_GRIDS,
        {"epsilon": 0.5},
        100,
    ),
}


def covered(args: tuple[str, int, int]) -> bool:
    name, seed, truth = args
    text, _, options, _ = COVERAGE[name]
    found = estimate(parse(text), seed=seed, **options)  # type: ignore[arg-type]
    return found.low <= truth <= found.high


def too_many_misses(misses: int, seeds: int, delta: float) -> bool:
    """Whether ``misses`` of ``seeds`` intervals at confidence 1 - delta is so many
    that an honest interval would miss that often less than once in 1,000 runs."""
    tail = sum(
        math.comb(seeds, k) * delta**k * (1 - delta) ** (seeds - k)
        for k in range(misses, seeds + 1)
    )
    return tail < 0.001


def test_the_coverage_test_can_fail() -> None:
    assert too_many_misses(30, 300, 0.05) and not too_many_misses(20, 300, 0.05)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COVERAGE))
def test_the_interval_covers_the_known_count_as_often_as_it_says(name: str) -> None:
    _, truth_of, _, seeds = COVERAGE[name]
    truth = truth_of()
    with ProcessPoolExecutor(2) as pool:
        hits = list(pool.map(covered, [(name, seed, truth) for seed in range(seeds)]))
    misses = hits.count(False)
    assert not too_many_misses(misses, seeds, 0.05), f"{misses} of {seeds} missed {truth}"


def test_an_estimate_can_be_made_to_sample_and_covers_the_4x4s() -> None:
    blank = parse("....\n" * 4)
    found = estimate(blank, exact_limit=0, seed=1)
    assert found.method == "sampling" and found.low <= 288 <= found.high


# --- 4. --count-each N: N+ means more than N were found -----------------------------


def test_count_each_says_n_plus_only_past_n(run: Run) -> None:
    blank = "....\n" * 4
    for limit, expected in ((71, "71+"), (72, 72), (73, 72)):
        code, out, _ = run("candidates", "--count-each", str(limit), "-f", "json", "-", input=blank)
        assert code == 1
        counts = json.loads(out)["counts"]
        assert {v for cell in counts.values() for v in cell.values()} == {expected}, limit
    found = candidates(parse(blank), count_each=72)
    assert all(count.complete and int(count) == 72 for count in found.counts.values())


# --- 5, 6. documented meaning ------------------------------------------------------


@pytest.mark.parametrize("word", ["modular", "entropic"])
def test_a_two_cell_line_of_three_in_a_row_is_refused_by_name(word: str, run: Run) -> None:
    size = "size 4" if word == "modular" else "size 6"
    rows = "....\n" * 4 if word == "modular" else "......\n" * 6
    code, _, err = run("solve", "-", input=f"{size}\n{word}: r1c1 r1c2\n{rows}")
    assert code == 2 and err.count("\n") == 1 and f"{word}: r1c1 r1c2" in err
    assert "at least 3 cell" in err


@pytest.mark.parametrize(
    "statement",
    ["cage \uff11\uff17: r1c1 r1c2", "cage \u0661\u0667: r1c1 r1c2", "cage 17: r\uff11c1 r1c2"],
)
def test_digits_that_are_not_ascii_make_no_number(statement: str, run: Run) -> None:
    code, _, err = run("solve", "-", input=statement + "\n" + ".........\n" * 9)
    assert code == 2 and err.count("\n") == 1 and ":1:" in err


def test_a_sudokupad_value_in_arabic_digits_is_refused(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": "\u0663"}
    code, _, err = run("solve", "-", input=scl({"id": "x", "cells": cells}) + "\n")
    assert code == 2 and "is no digit" in err


# --- 7-10. crashes and unbounded memory --------------------------------------------


def bomb(codes: int) -> str:
    """An lz-string base64 payload of one "a" and ``codes`` codes, each for the word
    before it and its first letter again: about codes^2 / 2 characters out."""
    bits: list[int] = []

    def write(value: int, width: int) -> None:
        bits.extend((value >> k) & 1 for k in range(width))  # lz-string: low bit first

    write(0, 2)  # an 8-bit character follows
    write(ord("a"), 8)
    entries, width, enlarge = 4, 3, 4
    for _ in range(codes):
        write(entries, width)  # the next entry, not yet made: the last word and its first letter
        entries, enlarge = entries + 1, enlarge - 1
        if enlarge == 0:
            enlarge, width = 1 << width, width + 1
    write(2, width)  # the end
    bits.extend([0] * (-len(bits) % 6))
    sixes = ("".join(map(str, bits[i : i + 6])) for i in range(0, len(bits), 6))
    return "".join(lz.BASE64[int(six, 2)] for six in sixes)


def test_the_bomb_is_what_lz_string_reads() -> None:
    small = bomb(100)
    assert lzstring.LZString().decompressFromBase64(small) == "a" * (1 + sum(range(2, 102)))
    assert lz.decompress_base64(small) == "a" * 5151


@pytest.mark.parametrize(
    "prefix", ["https://www.f-puzzles.com/?load=", "https://sudokupad.app/scl"]
)
def test_an_lz_string_bomb_is_refused_in_one_line(prefix: str, run: Run) -> None:
    payload = bomb(4200)  # 8.8 million characters from 7.7 KB
    assert len(payload) < 10_000
    with pytest.raises(lz.TooLong):
        lz.decompress_base64(payload)
    code, _, err = run("solve", "-", input=prefix + payload + "\n")
    assert code == 2 and err.count("\n") == 1 and "decompresses to more than" in err


LONG = "1" * 5000


@pytest.mark.parametrize(
    "text",
    [
        '{"size": ' + LONG + ', "grid": []}',
        '{"size": 4, "grid": [[{"region": ' + LONG + "}]]}",
        '{"size": 4, "grid": [[{"value": "' + LONG + '", "given": true}]]}',
        f"cage 5: r{LONG}c1\n" + ".........\n" * 9,
        '{"puzzle": "' + "." * 81 + '", "line": ' + LONG + "}",
    ],
    ids=["size", "region", "value", "cell name", "record line"],
)
def test_a_number_of_thousands_of_digits_is_an_input_error(text: str, run: Run) -> None:
    code, _, err = run("solve", "-", input=text + "\n")
    assert code == 2 and err.count("\n") == 1


def test_a_sudokupad_value_of_thousands_of_digits_is_an_input_error(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    link_text = scl({"id": "x", "cells": cells}).replace("ce:", "ce:")
    packed = zipped({"id": "x", "cells": cells}).replace("[[,,,]", f"[[{{v:{LONG}}},,,]", 1)
    code, _, err = run("solve", "-", input=link_text[:0] + scl_of(packed) + "\n")
    assert code == 2 and err.count("\n") == 1


def scl_of(packed: str) -> str:
    return "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(packed)


def test_a_sudokupad_global_that_is_no_list_is_refused(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    code, _, err = run("solve", "-", input=scl({"id": "x", "cells": cells, "global": 5}) + "\n")
    assert code == 2 and "expected global: a list" in err


@pytest.mark.parametrize("option", [("--epsilon", "nan"), ("--delta", "nan"), ("--timeout", "nan")])
def test_nan_is_a_usage_error(option: tuple[str, str], run: Run) -> None:
    code, _, err = run("solve", "--estimate", *option, "-", input="size 6\n" + "......\n" * 6)
    assert code == 2 and "is not a number" in err


def test_the_smallest_delta_sampling_takes_gets_an_answer() -> None:
    """Smaller ones are refused (issue 55: no sampled interval is that sure)."""
    blank = parse("size 6\n" + "......\n" * 6)
    found = estimate(blank, delta=1e-6, epsilon=0.5)
    assert found.low <= 28_200_960 <= found.high and found.delta == 1e-6
    with pytest.raises(ValueError, match="delta 1e-06 or more"):
        estimate(blank, delta=1e-17, epsilon=0.5)


# --- 11-15. exit codes and messages ------------------------------------------------

RELLIK = "rellik 5: r1c1 r1c2\n" + ".........\n" * 9


@pytest.mark.parametrize("command", ["solve", "candidates"])
def test_a_rule_fpuzzles_cannot_hold_is_an_input_error_in_its_format(
    command: str, run: Run
) -> None:
    code, _, err = run(command, "-f", "fpuzzles", "-", input=RELLIK)
    assert code == 2 and err.count("\n") == 1 and "no field for rellik" in err


def test_a_sudokupad_link_without_its_scheme_is_read() -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": 3}
    full = scl({"id": "x", "cells": cells})
    for text in (full, full.removeprefix("https://"), "www." + full.removeprefix("https://")):
        assert parse(text).cells[0] == 3


def records(tmp_path: Path, run: Run) -> list[str]:
    puzzles = tmp_path / "three.txt"
    puzzles.write_text("".join(link_or_line(i) + "\n" for i in range(3)))
    _, out, _ = run("solve", str(puzzles), "-f", "json", "-q")
    return out.splitlines()


def link_or_line(i: int) -> str:
    return [
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        "7.8...3.....6.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    ][i]


@pytest.mark.parametrize("broken", [1, 2, 3])
def test_a_broken_record_of_a_json_list_is_an_error_of_its_own(
    broken: int, tmp_path: Path, run: Run
) -> None:
    lines = records(tmp_path, run)
    assert lines[0] == "[" and len(lines) == 5
    lines[broken] = lines[broken][:40] + '"x,' + lines[broken][40:]
    path = tmp_path / "broken.json"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("solve", str(path), "-f", "line")
    answers = out.split()
    assert len(answers) == 3 and answers[broken - 1] == "error"
    assert all(a != "error" for i, a in enumerate(answers) if i != broken - 1)
    assert code == 2 and f"broken.json:{broken + 1}:" in err and "does not parse" in err


def test_a_record_without_a_puzzle_says_so(tmp_path: Path, run: Run) -> None:
    lines = records(tmp_path, run)
    lines[1] = lines[1].replace('"puzzle"', '"puzz"')
    path = tmp_path / "nopuzzle.json"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("solve", str(path), "-f", "line")
    assert out.split()[0] == "error" and "expected a puzzle field" in err
    code, _, err = run("solve", "-", input='{"status": "unique", "line": 3}\n')
    assert code == 2 and "expected a puzzle field" in err and "f-puzzles" not in err


def test_each_step_pictures_of_a_path_with_no_step_draw_the_start(tmp_path: Path, run: Run) -> None:
    solved = solve(parse((PUZZLES / "ai-escargot.txt").read_text())).solutions[0]
    path = tmp_path / "solved.txt"
    path.write_text("".join(map(str, solved)) + "\n")
    code, out, _ = run("steps", "-f", "svg", "--each-step", str(path))
    assert code == 0 and out.count("<svg") == 1 and out.rstrip().endswith("</svg>")


def test_sudokupad_regions_that_share_a_cell_or_name_no_cell_are_refused(run: Run) -> None:
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    twice = [
        [[0, 0], [0, 1], [1, 0], [1, 1]],
        [[0, 0], [0, 2], [0, 3], [1, 2]],
        [[1, 3], [2, 0], [2, 1], [3, 0]],
        [[3, 1], [2, 2], [2, 3], [3, 2], [3, 3]],
    ]
    code, _, err = run(
        "solve", "-", input=scl({"id": "x", "cells": cells, "regions": twice}) + "\n"
    )
    assert code == 2 and "R1C1 is in two regions" in err
    cage = {"cells": [[True, False], [0, 1]], "value": "3"}
    code, _, err = run("solve", "-", input=scl({"id": "x", "cells": cells, "cages": [cage]}) + "\n")
    assert code == 2 and "expected a cell [row, column]" in err


def test_refusals_are_input_errors_in_the_library_too() -> None:
    with pytest.raises(InputError):
        parse("size 4\nmodular: r1c1 r1c2\n" + "....\n" * 4)
