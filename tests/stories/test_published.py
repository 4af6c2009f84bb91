"""Every published puzzle read, nothing dropped, and a verifier that treats a folder
as hostile (issue 55): each wrong answer, refused puzzle and crash found by the
hostile pass, kept as a test. Answers are checked by brute force over every 4x4
grid with the cell fields' meanings written out here, never by the code under test."""

from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sudosat import parse, solve
from sudosat.core.puzzle import Grid
from sudosat.logic.forcing import DYNAMIC_PLUS, length_bonus
from sudosat.logic.path import FORCING_KINDS, Pathfinder, logical_path, truth_of
from sudosat.logic.solve_path import technique_of
from sudosat.solving.certificate import certify, write
from sudosat.solving.checking import check
from tests.conftest import ESCARGOT, PUZZLES, SUDOSAT, Run, shared
from tests.rules.test_brute import every_grid

# --- decode: a false UNSATISFIABLE is refused for every puzzle ---------------------

SINGLES_SOLVE = "..97........6..3..8....4.5.934.8.....5.....31........2581.7....7.2....6.4...1...8"
"""A generated easy puzzle: the singles solve it, so a search reports it unique."""


@pytest.mark.parametrize("puzzle", [SINGLES_SOLVE, ESCARGOT])
def test_decode_refuses_a_false_unsatisfiable(puzzle: str, run: Run, tmp_path: Path) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text(puzzle + "\n")
    code, out, err = run("decode", str(path), "-", input="s UNSATISFIABLE\n")
    assert code == 4 and "has a solution" in err and "none" not in out


# --- f-puzzles as f-puzzles and its solver plugin save them -------------------------


def blank(size: int = 9) -> list[list[dict[str, Any]]]:
    return [[{} for _ in range(size)] for _ in range(size)]


def fpuzzles(grid: list[list[dict[str, Any]]], **fields: Any) -> str:
    return json.dumps({"size": len(grid), "grid": grid, **fields})


def test_a_puzzle_saved_with_the_solver_plugin_is_read() -> None:
    grid = blank()
    grid[0][0] = {"givenPencilMarks": None}
    grid[0][1] = {"value": 5, "given": True, "givenPencilMarks": None, "centerPencilMarks": [1]}
    grid[4][4] = {"cornerPencilMarks": [1, 2], "c": "#FFA0A0", "cArray": ["#A0A0FF"]}
    grid[5][5] = {"highlight": "#FFE060", "candidates": [1, 2, 3]}
    text = fpuzzles(grid, disabledlogic=[], truecandidatesoptions=[], title="Plugin", author=None)
    puzzle = parse(text)
    assert list(puzzle.givens) == [(1, 5)] and not puzzle.rules.constraints  # type: ignore[union-attr]
    assert puzzle.name == "Plugin"


def test_parity_kept_in_a_cell_is_the_even_odd_rule() -> None:
    """A 9x9 with 7 solutions: one even cell leaves 3 (an independent count: each
    solution's digit there, by the count without the rule)."""
    puzzle = parse((PUZZLES / "several-solutions.txt").read_text())
    every = solve(puzzle, max_solutions=100).solutions
    assert len(every) == 7
    cell = next(c for c in range(81) if len({g[c] % 2 for g in every}) > 1)
    grid = blank()
    for c, value in puzzle.givens:
        grid[c // 9][c % 9] = {"value": value, "given": True}
    grid[cell // 9][cell % 9] = {"parity": "Even"}
    even = [g for g in every if g[cell] % 2 == 0]
    found = solve(parse(fpuzzles(grid)), max_solutions=100).solutions
    assert sorted(found) == sorted(even) and 0 < len(even) < 7
    grid[cell // 9][cell % 9] = {"parity": "Odd"}
    found = solve(parse(fpuzzles(grid)), max_solutions=100).solutions
    assert sorted(found) == sorted(g for g in every if g[cell] % 2)


def test_extreme_kept_in_a_cell_is_the_minimum_rule() -> None:
    grid = blank(4)
    grid[1][1] = {"extreme": "Minimum"}
    (rule,) = parse(fpuzzles(grid)).rules.constraints  # type: ignore[union-attr]
    assert rule.describe(4) == "minimum r2c2"


@pytest.mark.parametrize(
    ("cell", "top", "message"),
    [
        ({"wibble": 1}, {}, "R1C1: unknown key 'wibble'"),
        ({"parity": "Green"}, {}, 'expected "Even" or "Odd"'),
        ({"extreme": 3}, {}, 'expected "Maximum" or "Minimum"'),
        ({"givenPencilMarks": "12"}, {}, "expected a list of digits"),
        ({"region": None}, {}, "in no region"),
        ({}, {"wobble": []}, "unknown constraint 'wobble'"),
        ({}, {"givenPencilMarks": [1]}, "unknown constraint 'givenPencilMarks'"),
        ({}, {"parity": "Even"}, "unknown constraint 'parity'"),
    ],
)
def test_a_key_that_is_no_rule_nor_drawing_is_refused_by_name(
    cell: dict[str, Any], top: dict[str, Any], message: str, run: Run, tmp_path: Path
) -> None:
    grid = blank(4)
    grid[0][0] = cell
    path = tmp_path / "puzzle.json"
    path.write_text(fpuzzles(grid, **top))
    code, _, err = run("solve", str(path))
    assert code == 2 and message in err and err.count("\n") == 1


def test_null_fields_at_the_top_are_absent(run: Run, tmp_path: Path) -> None:
    grid = blank(4)
    path = tmp_path / "puzzle.json"
    path.write_text(fpuzzles(grid, killercage=None, odd=None, ruleset=None))
    code, out, _ = run("solve", str(path), "--count", "-f", "line")
    assert code == 1 and out.strip() == "288"


ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


def holds(grid: Grid, cells: dict[int, dict[str, Any]], n: int) -> bool:
    """Whether ``grid`` keeps what the cells' fields say, as f-puzzles means them:
    marks and colours nothing, given pencil marks its values, parity its kind, an
    extreme cell beyond each orthogonal neighbour that is not of its kind."""
    kinds = {c: f.get("extreme") for c, f in cells.items()}
    for cell, fields in cells.items():
        value = grid[cell]
        if fields.get("givenPencilMarks") and value not in fields["givenPencilMarks"]:
            return False
        if fields.get("parity") and value % 2 != (fields["parity"] == "Odd"):
            return False
        if fields.get("extreme"):
            r, c = divmod(cell, n)
            for dr, dc in ORTHOGONAL:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    other = (r + dr) * n + c + dc
                    if kinds.get(other) == fields["extreme"]:
                        continue
                    if (
                        (value > grid[other])
                        if fields["extreme"] == "Minimum"
                        else (value < grid[other])
                    ):
                        return False
    return True


def random_cells(rng: random.Random, n: int) -> dict[int, dict[str, Any]]:
    """A few cells with the fields f-puzzles and its plugin write: scribbles,
    colours, nulls, given pencil marks, parity and extremes."""
    found: dict[int, dict[str, Any]] = {}
    for cell in rng.sample(range(n * n), rng.randint(1, 6)):
        fields: dict[str, Any] = {}
        for key, make in (
            ("centerPencilMarks", lambda: rng.sample(range(1, n + 1), 2)),
            ("cornerPencilMarks", lambda: rng.sample(range(1, n + 1), 2)),
            ("c", lambda: "#FFA0A0"),
            ("cArray", lambda: ["#FFA0A0", "#A0A0FF"]),
            ("givenPencilMarks", lambda: rng.choice([None, rng.sample(range(1, n + 1), 3)])),
            ("parity", lambda: rng.choice(["Odd", "Even"])),
            ("extreme", lambda: rng.choice(["Minimum", "Maximum"])),
        ):
            if rng.random() < 0.3:
                fields[key] = make()
        found[cell] = fields
    return found


@pytest.mark.parametrize("block", range(3))
def test_random_cell_fields_agree_with_brute_force(block: int) -> None:
    n, statuses = 4, set()
    for seed in range(block * 40, block * 40 + 40):
        rng = random.Random(seed)
        cells = random_cells(rng, n)
        grid = blank(n)
        for cell, fields in cells.items():
            grid[cell // n][cell % n] = fields
        solution = rng.choice(every_grid())
        for cell in rng.sample(range(n * n), rng.randint(0, 4)):
            grid[cell // n][cell % n] |= {"value": solution[cell], "given": True}
        givens = {c: solution[c] for c in range(n * n) if grid[c // n][c % n].get("given")}
        found = [
            g
            for g in every_grid()
            if all(g[c] == v for c, v in givens.items()) and holds(g, cells, n)
        ]
        expected = "none" if not found else "unique" if len(found) == 1 else "multiple"
        outcome = solve(parse(fpuzzles(grid, disabledlogic=[])), max_solutions=300)
        assert str(outcome.status) == expected, seed
        assert sorted(outcome.solutions) == sorted(found), seed
        statuses.add(expected)
    assert len(statuses) >= 2


# --- a rule word above a grid ------------------------------------------------------


@pytest.mark.parametrize("layout", ["grid", "line"])
def test_an_unknown_one_word_rule_above_a_grid_is_one_refused_puzzle(
    layout: str, run: Run, tmp_path: Path
) -> None:
    rows = [ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)] if layout == "grid" else [ESCARGOT]
    path = tmp_path / "puzzle.txt"
    path.write_text("\n".join(["kingsmove", *rows]) + "\n")
    code, out, err = run("solve", str(path), "-f", "line")
    assert code == 2 and out == ""
    assert f"{path}:1:1:" in err and "unknown rule 'kingsmove'" in err
    assert "did you mean anti-king?" in err


def test_a_name_above_a_grid_is_still_a_name(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "puzzle.txt"
    rows = [ESCARGOT[r * 9 : r * 9 + 9] for r in range(9)]
    path.write_text("\n".join(["Escargot", *rows]) + "\n")
    code, out, _ = run("solve", str(path), "-f", "json")
    assert code == 0 and json.loads(out)["name"] == "Escargot"


# --- estimates ------------------------------------------------------------------


@pytest.mark.slow
def test_a_sampled_interval_never_claims_certainty(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text("size 6\n")
    code, out, err = run("solve", "--estimate", "--delta", "1e-17", str(path))
    assert code == 2 and "--delta" in err and out == ""
    code, _, err = run("solve", "--estimate", "--delta", "1e-6", "--seed", "1", str(path))
    assert code == 1 and "at 99.9999% confidence" in err and "100%" not in err


# --- sudosat's own records, one broken ----------------------------------------------


def records(run: Run, tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "three.txt"
    path.write_text("\n".join((PUZZLES / "royle17-25.txt").read_text().split()[:3]) + "\n")
    _, out, _ = run("solve", str(path), "-f", "json")
    found = json.loads(out)
    assert len(found) == 3
    return found  # type: ignore[no-any-return]


@pytest.mark.parametrize("indent", [None, 2])
@pytest.mark.parametrize("broken", ["syntax", "symbol"])
def test_a_broken_record_of_a_json_list_is_an_error_of_its_own(
    indent: int | None, broken: str, run: Run, tmp_path: Path
) -> None:
    found = records(run, tmp_path)
    text = json.dumps(found, indent=indent)
    second = found[1]["puzzle"]
    if broken == "syntax":  # the second record's puzzle loses its closing quote
        text = text.replace(f'"{second}"', f'"{second}', 1)
    else:
        text = text.replace(second, "x" + second[1:], 1)
    path = tmp_path / "records.json"
    path.write_text(text + "\n")
    code, out, err = run("solve", str(path), "-f", "jsonl")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [a["status"] for a in answers] == ["unique", "error", "unique"]
    assert [a["solution"] for a in answers[::2]] == [found[0]["solution"], found[2]["solution"]]
    assert str(path) in err


# --- verify: a received folder is hostile ----------------------------------------


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("certificates") / "escargot"
    write(certify(parse(ESCARGOT)), folder)
    return folder


def forged(certificate: Path, tmp_path: Path, change: Any) -> Path:
    """A copy of the certificate, its manifest changed by ``change(folder, manifest)``."""
    folder = tmp_path / "forged"
    folder.mkdir()
    for path in certificate.iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((folder / "manifest.json").read_text())
    change(folder, manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def outside(folder: Path, manifest: dict[str, Any], name: str, target: Path) -> None:
    manifest["claim"]["proof"] = name
    manifest["sha256"][name] = sha(target.read_bytes())


def link_out(folder: Path, manifest: dict[str, Any]) -> None:
    secret = folder.parent / "secret.drup"
    secret.write_bytes((folder / "claim.drup").read_bytes())
    (folder / "claim.drup").unlink()
    (folder / "claim.drup").symlink_to(secret)


def sparse(folder: Path, manifest: dict[str, Any], size: int = 3 << 30) -> None:
    with open(folder / "claim.drup", "wb") as file:
        file.truncate(size)  # no block written: sparse


def fifo(folder: Path, manifest: dict[str, Any]) -> None:
    (folder / "claim.drup").unlink()
    os.mkfifo(folder / "claim.drup")  # read, it would never end


HOSTILE = {
    "absolute": (
        lambda f, m: outside(f, m, str(f / "claim.drup"), f / "claim.drup"),
        "is not a file of the certificate's folder",
    ),
    "dotdot": (
        lambda f, m: outside(f, m, f"../{f.name}/claim.drup", f / "claim.drup"),
        "is not a file of the certificate's folder",
    ),
    "link out": (link_out, "claim.drup leads out of the certificate's folder"),
    "past the cap": (sparse, "past the cap of 1,073,741,824"),
    "fifo": (fifo, "claim.drup is not a regular file"),
    "puzzle unhashed": (
        lambda f, m: m["sha256"].pop("puzzle.txt"),
        "puzzle.txt has no SHA-256",
    ),
    "solutions not a list": (
        lambda f, m: m["claim"].update(solutions={"solution": "solution-1.txt"}),
        "solutions are not a list",
    ),
    "claim not an object": (lambda f, m: m.update(claim=["unique"]), "claim is not an object"),
    "sha256 a list": (lambda f, m: m.update(sha256=[1, 2]), "sha256 is not an object"),
    "hash a list": (lambda f, m: m["sha256"].update({"claim.cnf": [1]}), "claim.cnf has no SHA"),
    "proof a number": (lambda f, m: m["claim"].update(proof=5), "names no proof file"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_certificate_is_not_valid(
    case: str, certificate: Path, tmp_path: Path, run: Run
) -> None:
    change, reason = HOSTILE[case]
    folder = forged(certificate, tmp_path, change)
    code, out, err = run("verify", "--max-size", "1GiB", str(folder))
    assert code == 1 and out.startswith("NOT VALID") and reason in out, (out, err)


@pytest.mark.slow
def test_a_file_under_the_cap_is_hashed_before_it_is_read_whole(
    certificate: Path, tmp_path: Path
) -> None:
    """A large file whose hash is not the manifest's is refused as it streams."""
    folder = forged(certificate, tmp_path, lambda f, m: sparse(f, m, 256 << 20))
    verdict = check(folder, max_file=1 << 30)
    assert verdict.problems == ["claim.drup was changed: its SHA-256 is not the manifest's"]


def test_a_manifest_that_leads_out_of_the_folder_is_not_followed(
    certificate: Path, tmp_path: Path, run: Run
) -> None:
    folder = forged(certificate, tmp_path, lambda f, m: None)
    secret = tmp_path / "elsewhere.json"
    secret.write_bytes((folder / "manifest.json").read_bytes())
    (folder / "manifest.json").unlink()
    (folder / "manifest.json").symlink_to(secret)
    code, _, err = run("verify", str(folder))
    assert code == 2 and "manifest.json leads out of the certificate's folder" in err


def linked(folder: Path, manifest: dict[str, Any], count: int, size: int) -> None:
    """``count`` solutions whose files are links, inside the folder, to one sparse
    file of ``size`` bytes, each hashed as it is."""
    with open(folder / "big.txt", "wb") as file:
        file.truncate(size)
    digest = hashlib.sha256(bytes(size)).hexdigest()
    pairs = []
    for number in range(1, count + 1):
        for kind in ("solution", "model"):
            (folder / f"{kind}-{number}.txt").unlink(missing_ok=True)
            (folder / f"{kind}-{number}.txt").symlink_to("big.txt")
            manifest["sha256"][f"{kind}-{number}.txt"] = digest
        pairs.append({"solution": f"solution-{number}.txt", "model": f"model-{number}.txt"})
    manifest["claim"]["solutions"] = pairs


@pytest.mark.slow
def test_a_file_named_many_times_is_read_once(certificate: Path, tmp_path: Path) -> None:
    """Sixteen names, links inside the folder to one file of 64 MiB: read once (the
    peak of the process stays near one copy, where sixteen were 2 GB)."""
    folder = forged(certificate, tmp_path, lambda f, m: linked(f, m, 8, 64 << 20))
    script = (
        "import re; from pathlib import Path; "
        "from sudosat.solving.checking import check; "
        f"v = check(Path({str(folder)!r}), max_file=100 << 20); print(v.problems); "
        # VmHWM, not ru_maxrss: Linux keeps the parent's peak in ru_maxrss across exec,
        # and a pytest worker that ran other tests can hold more than the cap
        "print(re.search(r'VmHWM:\\s*(\\d+)', Path('/proc/self/status').read_text())[1])"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    problems, peak = done.stdout.splitlines()
    assert "solution-1 is not a grid" in problems  # read (once, within the cap), then judged
    assert int(peak) < 400 * 1024  # KiB: one copy and its text, not sixteen


def test_the_cap_counts_the_certificate_s_files_together(certificate: Path, tmp_path: Path) -> None:
    def two(folder: Path, manifest: dict[str, Any]) -> None:
        linked(folder, manifest, 1, 1 << 20)
        (folder / "model-1.txt").unlink()
        (folder / "model-1.txt").write_bytes(bytes(1 << 20))  # the same bytes, another file

    folder = forged(certificate, tmp_path, two)
    (problem,) = check(folder, max_file=(3 << 20) // 2).problems
    assert "past the cap of 1,572,864 (--max-size) on the certificate's files together" in problem


@pytest.mark.slow
def test_a_genuine_certificate_verifies_under_a_3_gb_address_space(certificate: Path) -> None:
    """The default cap is 4 GiB; a file is read at its own size, never the cap's."""
    done = subprocess.run(
        [str(SUDOSAT), "verify", str(certificate)],
        capture_output=True,
        text=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)),
    )
    assert done.returncode == 0 and done.stdout.startswith("valid"), done.stdout + done.stderr


def test_the_untouched_certificate_stays_valid(certificate: Path, run: Run) -> None:
    code, out, _ = run("verify", str(certificate))
    assert code == 0 and out.startswith("valid")


# --- a plain contradiction chain is one ---------------------------------------------


def test_a_contradiction_chain_found_by_the_nested_finder_is_labelled_and_weighed_as_one() -> None:
    """With the chains and forcing chains (+ too) left out, the nested chains' finder is
    what finds AI Escargot's contradiction chains: those with no chain inside are
    dynamic contradiction chains (8.5 and the length bonus), not nested ones (9.5 up)."""
    puzzle = parse(ESCARGOT)
    with Pathfinder(puzzle, without=("chains",)) as finder:
        finder.order = [
            (t, find) for t, find in finder.order if t not in FORCING_KINDS and t != DYNAMIC_PLUS
        ]
        path = finder.path(truth_of(puzzle))
    plain = [s for s in path.steps if s.name == "dynamic contradiction chain"]
    assert plain and not [s for s in path.steps if "0 inside" in s.name]
    for step in plain:
        weight = technique_of(step).weight
        assert weight == round(8.5 + length_bonus(step.length), 1)
        assert step.length >= 2 and "to a contradiction" in step.reason


def test_the_length_bonus_is_sudoku_explainers() -> None:
    # thresholds 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192 on the length less 2
    assert [length_bonus(n) for n in (6, 7, 8, 9, 10, 11, 14, 15, 18, 19)] == [
        0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5,
    ]  # fmt: skip
    assert length_bonus(195) == 1.2


@pytest.mark.slow
def test_a_monhard_puzzles_plain_contradiction_chain_is_not_nested() -> None:
    """The 16th of the T&E(3) list, solved by logic: no step is a nested chain with
    nothing inside (it was "nested forcing chains, 0 inside ( go)", weighed as
    nested), and a contradiction chain the nested finder takes has no chain inside."""
    rows = shared("se-rated/monhard_te3_dev.tsv").read_text().splitlines()
    line = [row.split("\t")[0] for row in rows if not row.startswith("#")][15]
    path = logical_path(parse(line))
    assert path.end == "solved"
    assert not any("0 inside" in step.name for step in path.steps)
    assert all(not s.inside for s in path.steps if s.name == "dynamic contradiction chain")
