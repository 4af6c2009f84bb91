from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudosat.core.puzzle import Puzzle, rule_violations
from sudosat.reading.formats import parse
from sudosat.sat.cnf import AMO_ENCODINGS, RULES, Encoding, literal
from sudosat.sat.encoding import augmented, encode
from sudosat.solving.engine import solve
from tests.conftest import ESCARGOT, PUZZLES, REXL_FIRST

# Lynce and Ouaknine's clause counts for the rules alone (REFERENCE.md).
RULE_CLAUSES = {
    3: {"minimal": 8829, "efficient": 11745, "extended": 11988},
    4: {"minimal": 92416, "efficient": 123136, "extended": 123904},
}


def empty(rank: int) -> Puzzle:
    return Puzzle(rank, (0,) * rank**4)


@pytest.mark.parametrize("rank", [3, 4])
@pytest.mark.parametrize("rules", RULES)
def test_rule_clause_counts(rank: int, rules: str) -> None:
    cnf = encode(empty(rank), Encoding(rules, "pairwise", reduced=False))
    assert len(cnf.clauses) == RULE_CLAUSES[rank][rules]
    assert cnf.nv == rank**6


def test_seqcounter_and_bitwise_sizes_for_9x9() -> None:
    seq = encode(empty(3), Encoding("extended", "seqcounter", reduced=False))
    assert (len(seq.clauses), seq.nv) == (7776, 3321)
    bitwise = encode(empty(4), Encoding("extended", "bitwise", reduced=False))
    assert len(bitwise.clauses) == 66560


def test_numbering_is_the_hex_reports() -> None:
    # row r, column c, value v (0-based): (r*N + c)*N + v + 1
    assert literal(16, 0, 1) == 1
    assert literal(16, 15 * 16 + 15, 16) == 4096
    assert literal(9, 1 * 9 + 2, 5) == (1 * 9 + 2) * 9 + 4 + 1


def test_givens_are_unit_clauses_in_the_full_form() -> None:
    puzzle = parse(ESCARGOT)
    cnf = encode(puzzle, Encoding(reduced=False))
    units = [c[0] for c in cnf.clauses if len(c) == 1]
    assert units == [literal(9, cell, v) for cell, v in puzzle.givens]


def test_reduced_form_is_smaller_and_leaves_out_decided_variables() -> None:
    puzzle = parse(ESCARGOT)
    full = encode(puzzle, Encoding(reduced=False))
    reduced = encode(puzzle, Encoding(reduced=True))
    assert len(reduced.clauses) < len(full.clauses) / 5
    used = {abs(lit) for clause in reduced.clauses for lit in clause}
    assert not used & {literal(9, cell, v) for cell, v in puzzle.givens}
    assert used <= set(reduced.cell_variables)


def test_decode_ignores_variables_outside_the_cnf() -> None:
    puzzle = parse(ESCARGOT)
    cnf = encode(puzzle)
    solution = solve(puzzle).solutions[0]
    model = [literal(9, cell, v) for cell, v in enumerate(solution)]
    noise = [v for v in range(1, 730) if v not in cnf.cell_variables and v not in model]
    assert cnf.decode(model + noise) == solution


@pytest.mark.slow
@pytest.mark.parametrize("amo", AMO_ENCODINGS)
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("reduced", [True, False])
def test_every_encoding_counts_the_same(amo: str, rules: str, reduced: bool) -> None:
    encoding = Encoding(rules, amo, reduced)
    seven = parse(REXL_FIRST.replace("....34...", "....04...", 1))
    assert len(solve(seven, encoding=encoding, max_solutions=50).solutions) == 7
    assert solve(parse(ESCARGOT), encoding=encoding).status == "unique"


def test_unknown_encoding_names_are_refused() -> None:
    with pytest.raises(ValueError, match="choose from"):
        Encoding("huge")
    with pytest.raises(ValueError, match="unknown at-most-one encoding"):
        Encoding(amo="magic")


ESCARGOT_SOLUTION = solve(parse(ESCARGOT)).solutions[0]


@settings(max_examples=25, deadline=None)
@given(
    blanks=st.sets(st.integers(0, 80), min_size=45, max_size=64),
    encodings=st.lists(
        st.builds(Encoding, st.sampled_from(RULES), st.sampled_from(AMO_ENCODINGS), st.booleans()),
        min_size=2,
        max_size=2,
    ),
)
@pytest.mark.slow
def test_encodings_agree_on_random_puzzles(blanks: set[int], encodings: list[Encoding]) -> None:
    """Blank cells of a known grid: every encoding finds the same solutions (up to 30)."""
    cells = tuple(0 if cell in blanks else v for cell, v in enumerate(ESCARGOT_SOLUTION))
    puzzle = Puzzle(3, cells, "123456789")
    first, second = (solve(puzzle, encoding=e, max_solutions=30) for e in encodings)
    assert first.exhausted == second.exhausted
    if first.exhausted:
        assert sorted(first.solutions) == sorted(second.solutions)
        assert ESCARGOT_SOLUTION in first.solutions
    else:
        assert len(first.solutions) == len(second.solutions) == 30


def test_triads_and_one_value_per_cell_are_exactly_the_rules() -> None:
    # The batch engine's probe: every model is a Sudoku and every Sudoku a model
    # (4x4: 288 grids), the triad variables being fixed by the cells.
    clauses, top = augmented(2)
    grids = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        for model in solver.enum_models():
            true = [lit for lit in model if 0 < lit <= 64]
            grid = tuple((lit - 1) % 4 + 1 for lit in true)
            assert len(grid) == 16 and rule_violations(2, grid) == []
            assert max(abs(lit) for lit in model) == top
            grids.add(grid)
    assert len(grids) == 288


@pytest.mark.parametrize("source", [ESCARGOT, "jigsaw"])
def test_minicard_holding_a_full_cnf_keeps_its_givens(source: str) -> None:
    from sudosat import read_puzzles
    from sudosat.solving.fast import holding

    puzzle = (
        parse(ESCARGOT) if source == ESCARGOT else next(read_puzzles(str(PUZZLES / "jigsaw.txt")))
    )
    assert isinstance(puzzle, Puzzle) and puzzle.givens
    cnf = encode(puzzle, Encoding(reduced=False))
    with holding(cnf) as search:
        assert search.solve()
        grid = cnf.decode(search.get_model())
    assert grid == solve(puzzle).solutions[0]
