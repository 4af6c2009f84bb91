from __future__ import annotations

import gc
import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.core.errors import AmbiguousInput, InputError
from sudosat.core.notation import BASE36, HEX, REXL, format_grid, format_line
from sudosat.core.puzzle import Puzzle
from sudosat.reading.formats import parse, read_text
from sudosat.reading.inputs import read_file, read_puzzles
from tests.conftest import ESCARGOT, PUZZLES, Run, one_line_error


def test_one_line_with_dots_and_zeros_read_the_same() -> None:
    dots = parse(ESCARGOT)
    zeros = parse(ESCARGOT.replace(".", "0"))
    assert dots.cells == zeros.cells
    assert dots.rank == 3
    assert dots.cells[0] == 1 and dots.cells[1] == 0 and dots.cells[7] == 9
    assert len(dots.givens) == 23


@pytest.mark.parametrize("blank", ["_", "*", "?"])
def test_every_blank_mark(blank: str) -> None:
    assert parse(ESCARGOT.replace(".", blank)).cells == parse(ESCARGOT).cells


def test_grid_with_box_rules_and_bars() -> None:
    puzzle = read_file(str(PUZZLES / "clashing-clues.txt"))[0]
    assert isinstance(puzzle, Puzzle)
    assert puzzle.cells[0] == 5 and puzzle.cells[4] == 2 and puzzle.cells[80] == 0


def test_grid_as_people_paste_it() -> None:
    text = "\n".join(" ".join(ESCARGOT[r * 9 + c] for c in range(9)) for r in range(9))
    assert parse(text).cells == parse(ESCARGOT).cells


def test_fixed_width_rows_with_spaces_as_blanks() -> None:
    rows = [ESCARGOT[r * 9 : r * 9 + 9].replace(".", " ") for r in range(9)]
    assert parse("\n".join(rows)).cells == parse(ESCARGOT).cells


def test_hex_is_case_insensitive_and_zero_is_a_value() -> None:
    puzzle = read_file(str(PUZZLES / "hex-16x16.txt"))[0]
    assert isinstance(puzzle, Puzzle)
    assert puzzle.rank == 4 and puzzle.alphabet == HEX
    assert puzzle.cells[1] == 15  # 'e' is 14, the value 15
    assert puzzle.cells[3] == 1  # '0' is the first value, not a blank
    upper = (PUZZLES / "hex-16x16.txt").read_text().upper()
    assert parse(upper).cells == puzzle.cells


def test_numbers_grid_any_size() -> None:
    puzzle = read_file(str(PUZZLES / "numbers-16x16.txt"))[0]
    assert isinstance(puzzle, Puzzle)
    assert puzzle.rank == 4 and puzzle.alphabet == ""
    assert puzzle.cells[:4] == (13, 9, 2, 0)


def test_base36_25x25_and_rexl_36x36() -> None:
    p25 = read_file(str(PUZZLES / "rank5-25x25.txt"))[0]
    assert isinstance(p25, Puzzle) and p25.rank == 5 and p25.alphabet == BASE36[:25]
    p36 = read_file(str(PUZZLES / "rank6-36x36.txt"))[0]
    assert isinstance(p36, Puzzle) and p36.rank == 6 and p36.alphabet == REXL


def test_rexl_25x25_is_told_apart_by_its_zero() -> None:
    line = REXL[:25] + "." * (625 - 25)
    assert parse(line).alphabet == REXL[:25]
    assert parse(line).cells[9] == 10


def test_explicit_alphabet() -> None:
    line = "ABCD" + "." * 12
    puzzle = parse(line, alphabet="ABCD")
    assert puzzle.rank == 2 and puzzle.cells[:4] == (1, 2, 3, 4)
    assert parse(ESCARGOT, alphabet="digits").cells == parse(ESCARGOT).cells


def test_many_puzzles_one_per_line_with_comments() -> None:
    found = read_file(str(PUZZLES / "tdoku-magictour-25.txt"))
    assert len(found) == 25
    assert all(isinstance(p, Puzzle) for p in found)
    assert [p.line for p in found if isinstance(p, Puzzle)][:2] == [3, 4]


def test_broken_line_in_a_many_puzzle_file_keeps_its_place() -> None:
    text = "\n".join([ESCARGOT, ESCARGOT[:-1] + "x", ESCARGOT[:40], ESCARGOT])
    found = read_text(text, "many.txt")
    assert [type(e).__name__ for e in found] == ["Puzzle", "InputError", "InputError", "Puzzle"]
    assert str(found[1]).startswith("many.txt:2:81: unknown symbol 'x'")


def _error(text: str, **options: object) -> str:
    with pytest.raises(InputError) as info:
        read_text(text, "p.txt", **options)  # type: ignore[arg-type]
    return str(info.value)


def test_wrong_cell_count_names_the_place() -> None:
    assert _error(ESCARGOT[:80]) == (
        "p.txt:1:81: wrong number of cells: found 80, expected 81 for a 9x9: 1 short"
    )
    assert _error(ESCARGOT + "12") == (
        "p.txt:1:84: wrong number of cells: found 83, expected 81 for a 9x9: 2 too many"
    )
    assert _error(ESCARGOT[:50]) == (
        "p.txt:1:51: wrong number of cells: found 50, expected 16, 81, 256, 625 or 1296 "
        "cells (4x4, 9x9, 16x16, 25x25 or 36x36)"
    )


def test_unknown_symbol_names_line_and_column() -> None:
    rows = [ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)]
    rows[2] = rows[2][:4] + "x" + rows[2][5:]
    message = _error("\n".join(rows))
    assert message.startswith("p.txt:3:5: unknown symbol 'x': expected 1-9")


def test_wrong_count_of_numbers_counts_numbers() -> None:
    assert "found 255, expected" in _error(" ".join(["12"] + ["0"] * 254))


def test_value_out_of_range() -> None:
    numbers = " ".join(["17"] + ["0"] * 255)
    assert "p.txt:1:1: value 17 out of range: expected 1..16" in _error(numbers)


def test_rows_of_different_lengths() -> None:
    rows = [ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)]
    rows[4] = rows[4][:8]
    assert "p.txt:5:1: row has 8 cells, expected 9 like line 1" in _error("\n".join(rows))


def test_mixed_sizes_in_one_file() -> None:
    found = read_text(ESCARGOT + "\n" + "." * 256 + "\n", "m.txt")
    assert isinstance(found[1], InputError)
    assert "mixed sizes" in str(found[1])


def test_empty_and_binary_input() -> None:
    assert "empty input" in _error("")
    assert "empty input" in _error("# only a comment\n\n")
    assert "binary data" in _error("\x00\x01" + ESCARGOT)


def test_ambiguous_16x16_asks_for_the_alphabet() -> None:
    only_digits = "123456789" + "." * 247
    with pytest.raises(AmbiguousInput) as info:
        read_text(only_digits, "a.txt")
    assert "choose an alphabet" in str(info.value)
    assert parse(only_digits, alphabet="hex").cells[0] == 2
    assert parse(only_digits, alphabet="base36").cells[0] == 1


def test_numbers_that_fit_hex_too_are_ambiguous() -> None:
    numbers = " ".join(["1", "2"] + ["."] * 254)
    with pytest.raises(AmbiguousInput):
        read_text(numbers, "n.txt")
    assert parse(numbers, alphabet="numbers").cells[:3] == (1, 2, 0)


def test_a_reading_whose_givens_clash_gives_way() -> None:
    # as hex every 0 is the value 1, so the rows would clash: numbers, with 0 blank
    assert parse(" ".join(["1"] + ["0"] * 255)).cells[:3] == (1, 0, 0)
    # as rexl every 0 is the value 10: an empty 25x25
    empty = parse(" ".join(["0"] * 625))
    assert (empty.rank, set(empty.cells)) == (5, {0})


def test_a_stream_of_numbers_that_starts_with_empty_grids() -> None:
    # lloyd_acs's files begin with 100 empty grids, which alphabets could read too
    rows = [" ".join(["0"] * 256)] * 3 + [" ".join(["13"] + ["0"] * 255)]
    found = read_text("\n".join(rows) + "\n", "s.txt")
    assert all(isinstance(p, Puzzle) for p in found)
    assert [p.cells[0] for p in found if isinstance(p, Puzzle)] == [0, 0, 0, 13]


def test_missing_file_and_directory(tmp_path: object) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_file("/nonexistent/puzzle.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_file(str(PUZZLES))


def test_rank_option_forces_the_size() -> None:
    with pytest.raises(InputError, match="expected 256 cells"):
        read_text(ESCARGOT, "r.txt", rank=4)


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    rank = draw(st.sampled_from([2, 3, 4, 5, 6]))
    n = rank * rank
    cells = draw(st.lists(st.integers(0, n), min_size=rank**4, max_size=rank**4))
    if n <= 9:
        alphabet = "123456789"[:n]
    else:
        alphabet = draw(st.sampled_from(["", HEX if n == 16 else REXL[:n]]))
    return Puzzle(rank, tuple(cells), alphabet)


@settings(max_examples=60, deadline=None)
@given(puzzles())
@pytest.mark.slow
def test_line_and_grid_round_trip(puzzle: Puzzle) -> None:
    spec = "numbers" if not puzzle.alphabet else puzzle.alphabet
    for text in (format_line(puzzle), format_grid(puzzle)):
        back = parse(text, alphabet=spec, rank=puzzle.rank)
        assert back.cells == puzzle.cells


def test_read_puzzles_closes_each_file_once_read_or_left() -> None:
    """The library reads lazily and closes what it opens (no file left for the
    garbage collector, which warns): one read whole, one read as lines to the
    end, and one whose reader stops after its first puzzle."""
    whole, lines = PUZZLES / "ai-escargot.txt", PUZZLES / "tdoku-magictour-25.txt"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        everything = read_puzzles([str(whole), str(lines)])
        assert len(list(everything)) == 26
        first = read_puzzles(str(lines))
        assert isinstance(next(first), Puzzle)
        first.close()  # the reader stops early
        del everything, first
        gc.collect()
    assert [str(w.message) for w in caught if w.category is ResourceWarning] == []


@pytest.mark.parametrize(
    "text",
    [
        "ratio 0: r1c1 r1c2\n",
        json.dumps(
            {
                "size": 9,
                "grid": [[{}] * 9] * 9,
                "ratio": [{"cells": ["R1C1", "R1C2"], "value": "0"}],
            }
        ),
        '{"size": 9, "grid": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "little-killer 10: r1c1 r1c2\n",
        # f-puzzles JSON without its size or grid (found by test_fuzz): an f-puzzles
        # document whose reader says what it lacks, not a record line of a batch
        json.dumps(
            {"killercage": [{"cells": ["R1C1", "R1C2"], "value": "15"}], "antiknight": True}
        ),
    ],
    ids=[
        "ratio-0-text",
        "ratio-0-json",
        "nested-json",
        "little-killer-no-diagonal",
        "fpuzzles-without-size",
    ],
)
def test_what_raised_is_one_line(text: str, run: Run) -> None:
    code, _, err = run("solve", "-", input=text)
    assert one_line_error(err, code), err
