"""Certificates (issue 49): `solve --certify DIR` writes, `verify DIR` checks, and a
changed file, a wrong solution or a proof that proves nothing is refused by name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from sudosat import parse
from sudosat.sat.solvers.external import drat_lines
from sudosat.solving.certificate import certify, write
from sudosat.solving.checking import check
from sudosat.solving.proofs import Verdict, check_proof
from tests.conftest import PUZZLES, Run
from tests.sat.test_external import REXL_FIRST, broken

CASES = {
    "ai-escargot.txt": "unique",
    "no-solution.txt": "none",
    "several-solutions.txt": "several",
    "killer.txt": "unique",
    "thermo-arrow.json": "unique",
    "jigsaw.txt": "unique",
    "kropki-6x6.txt": "unique",
}


def made(tmp_path: Path, name: str = "ai-escargot.txt") -> Path:
    folder = tmp_path / name
    write(certify(parse((PUZZLES / name).read_text())), folder)
    return folder


def rewritten(folder: Path, name: str, change: object) -> None:
    """Change a file of a certificate and its hash in the manifest (a forger's
    change: the hashes alone no longer tell)."""
    path = folder / name
    text = path.read_text()
    path.write_text(change(text))  # type: ignore[operator]
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["sha256"][name] = hashlib.sha256(path.read_text().encode()).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_certificates_of_classic_and_variant_puzzles_verify(name: str, tmp_path: Path) -> None:
    folder = made(tmp_path, name)
    verdict = check(folder)
    assert verdict.valid and verdict.status == CASES[name], verdict.problems
    if CASES[name] != "several":
        assert "dratify" in verdict.proven


def test_the_certificate_is_standard_files(tmp_path: Path) -> None:
    folder = made(tmp_path)
    cnf = (folder / "claim.cnf").read_text().splitlines()
    header = next(line for line in cnf if line.startswith("p cnf"))
    clauses = [line for line in cnf if line and not line.startswith(("c", "p"))]
    assert int(header.split()[3]) == len(clauses) and all(c.endswith(" 0") for c in clauses)
    proof = (folder / "claim.drup").read_text().splitlines()
    assert proof and all(line.endswith("0") for line in proof)
    rows = (folder / "solution-1.txt").read_text().splitlines()
    assert len(rows) == 9 and rows[0] == "1 6 2 8 5 7 4 9 3"


def test_a_changed_file_is_named(tmp_path: Path) -> None:
    folder = made(tmp_path)
    (folder / "claim.drup").write_text("0\n")
    verdict = check(folder)
    assert not verdict.valid and verdict.problems == [
        "claim.drup was changed: its SHA-256 is not the manifest's"
    ]


def listed(folder: Path, name: str, digest: str) -> None:
    """One more entry in the manifest's hashes, which no claim needs."""
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["sha256"][name] = digest
    (folder / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize("name", ["../../../../etc/hostname", "/etc/hostname", "x/../../y"])
def test_an_entry_outside_the_folder_is_not_valid_though_no_claim_needs_it(
    tmp_path: Path, name: str
) -> None:
    folder = made(tmp_path)
    listed(folder, name, "0" * 64)
    verdict = check(folder)
    assert not verdict.valid
    assert verdict.problems == [f"{name!r} is not a file of the certificate's folder"]


def test_an_entry_whose_hash_does_not_match_is_not_valid(tmp_path: Path) -> None:
    folder = made(tmp_path)
    (folder / "notes.txt").write_text("beside the certificate\n")
    listed(folder, "notes.txt", "0" * 64)
    verdict = check(folder)
    assert not verdict.valid
    assert verdict.problems == ["notes.txt was changed: its SHA-256 is not the manifest's"]
    listed(folder, "notes.txt", hashlib.sha256(b"beside the certificate\n").hexdigest())
    assert check(folder).valid  # a file beside it, held to its hash, is no harm
    listed(folder, "gone.txt", "0" * 64)
    assert check(folder).problems == ["gone.txt is missing"]


def test_a_big_entry_counts_against_the_cap(tmp_path: Path) -> None:
    folder = made(tmp_path)
    with (folder / "big.bin").open("wb") as big:
        big.truncate(3 << 20)  # sparse: 3 MiB that take no disk
    listed(folder, "big.bin", "0" * 64)
    verdict = check(folder, max_file=2 << 20)
    assert not verdict.valid and "past the cap" in verdict.problems[0]


def test_a_proof_that_proves_nothing_is_refused(tmp_path: Path) -> None:
    folder = made(tmp_path)
    rewritten(folder, "claim.drup", lambda text: "0\n")
    verdict = check(folder)
    assert not verdict.valid
    assert verdict.problems[0].startswith("claim.drup does not refute claim.cnf (dratify:")


def test_a_flipped_literal_of_the_proof_is_refused(tmp_path: Path) -> None:
    folder = made(tmp_path)

    def flip(text: str) -> str:
        lines = text.splitlines()
        first = lines[0].split()
        lines[0] = " ".join([str(-int(first[0])), *first[1:]])
        return "\n".join(lines) + "\n"

    rewritten(folder, "claim.drup", flip)
    verdict = check(folder)
    assert not verdict.valid and "does not refute" in verdict.problems[0]


def test_a_dropped_clause_or_a_swapped_cnf_is_refused(tmp_path: Path) -> None:
    folder = made(tmp_path)
    drop = lambda text: text.replace("\n-1 -2 0\n", "\n", 1)  # noqa: E731
    rewritten(folder, "puzzle.cnf", drop)
    assert check(folder).problems == ["puzzle.cnf is not the full CNF of puzzle.txt"]
    folder = made(tmp_path)
    rewritten(folder, "claim.cnf", drop)
    assert check(folder).problems == ["claim.cnf is not puzzle.cnf with the solutions blocked"]
    folder = made(tmp_path)
    other = (PUZZLES / "royle17-25.txt").read_text().splitlines()[0]
    rewritten(folder, "puzzle.txt", lambda text: other + "\n")
    assert check(folder).problems == ["puzzle.cnf is not the full CNF of puzzle.txt"]


def test_a_changed_digit_of_the_solution_is_refused(tmp_path: Path) -> None:
    folder = made(tmp_path)
    rewritten(folder, "solution-1.txt", lambda text: "2" + text[1:])  # r1c1 1 -> 2
    problems = check(folder).problems
    assert problems and problems[0].startswith("solution-1 breaks the puzzle:")
    folder = made(tmp_path)
    rewritten(folder, "model-1.txt", lambda text: text.replace("-2 ", "2 ", 1))
    problems = check(folder).problems
    assert len(problems) == 1 and problems[0].startswith("model-1 breaks clause ")


@pytest.mark.parametrize("checker", ["dratify", "dratify-python", "drup"])
def test_each_checker_takes_a_refutation_and_refuses_a_non_proof(checker: str) -> None:
    if checker == "drup":
        pytest.importorskip("drup")
    formula = "p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n"  # no unit: a proof is needed
    for proof, valid in (("1 0\n0\n", True), ("0\n", False)):
        verdict = Verdict(Path("x"), "none")
        check_proof(formula, proof, checker, verdict)
        assert verdict.valid == valid, (proof, verdict.problems)


def test_drup_checks_a_small_certificate(tmp_path: Path) -> None:
    pytest.importorskip("drup")
    folder = tmp_path / "small"
    write(certify(parse("1...\n..2.\n.3..\n...4\n")), folder)
    verdict = check(folder, "drup")
    assert verdict.valid and verdict.proven == "proof checked by drup"


@pytest.mark.slow
def test_solve_certify_then_verify(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "proofs"
    files = [str(PUZZLES / n) for n in ("ai-escargot.txt", "no-solution.txt", "killer.txt")]
    code, _, _ = run("solve", "--certify", str(out), *files)
    assert code == 3  # the most severe: one has no solution
    assert sorted(p.name for p in out.iterdir()) == [
        "ai-escargot.txt-1",
        "killer.txt-2",
        "no-solution.txt-2",
    ]
    code, said, _ = run("verify", str(out))
    assert code == 0 and said.count("valid: ") == 3 and "none, refuted" in said
    (out / "killer.txt-2" / "solution-1.txt").write_text("1 " * 81 + "\n")
    code, said, _ = run("verify", str(out))
    assert code == 1 and "NOT VALID: " in said and "solution-1.txt was changed" in said
    code, _, err = run("verify", str(tmp_path))
    assert code == 2 and "no certificate here" in err


def test_a_lying_solver_program_gets_no_certificate(run: Run, tmp_path: Path) -> None:
    seven = REXL_FIRST.replace("....34...", "....04...", 1)  # 7 solutions
    out = tmp_path / "proofs"
    code, _, err = run(
        "solve", "--solver-cmd", broken("denier"), "--trust-solver", "--certify", str(out),
        "-", input=seven,
    )  # fmt: skip
    assert code == 4 and "denier's proof does not refute its formula" in err
    assert not out.exists() or not any(out.iterdir())


def manifest_of(folder: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((folder / "manifest.json").read_text())


def test_an_exact_count_is_certified_and_a_dropped_solution_refused(
    run: Run, tmp_path: Path
) -> None:
    out = tmp_path / "proofs"
    several = str(PUZZLES / "several-solutions.txt")
    code, said, _ = run("solve", "--count", "--certify", str(out), "-f", "line", several)
    folder = out / "several-solutions.txt-2"
    claim = manifest_of(folder)["claim"]
    assert code == 1 and claim["status"] == "exactly"
    assert len(claim["solutions"]) == int(said.split()[0]) > 2
    verdict = check(folder)
    assert verdict.valid and verdict.status == "exactly", verdict.problems
    manifest = manifest_of(folder)
    manifest["claim"]["solutions"].pop()  # one solution fewer: its blocking clause is extra
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert check(folder).problems == ["claim.cnf is not puzzle.cnf with the solutions blocked"]
    code, _, _ = run("solve", "--count", "-n", "3", "--certify", str(out), several)
    claim = manifest_of(folder)["claim"]  # three of more: at least three, shown by models
    assert claim["status"] == "several" and len(claim["solutions"]) == 3 and "proof" not in claim
    assert check(folder).valid


@pytest.mark.parametrize("name", ["several-solutions.txt", "killer.txt", "no-solution.txt"])
def test_candidates_are_certified(run: Run, tmp_path: Path, name: str) -> None:
    out = tmp_path / "proofs"
    code, _, _ = run("candidates", "--certify", str(out), "-f", "line", str(PUZZLES / name))
    (folder,) = out.iterdir()
    verdict = check(folder)
    assert verdict.valid and verdict.status == "candidates", verdict.problems
    marks = (folder / "candidates.txt").read_text().splitlines()
    assert len(marks) == 81 and code == {"several": 1, "killer.": 0, "no-solu": 3}[name[:7]]


def test_a_candidate_left_out_or_added_is_refused(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "proofs"
    run("candidates", "--certify", str(out), str(PUZZLES / "several-solutions.txt"))
    folder = out / "several-solutions.txt-2"
    rewritten(folder, "candidates.txt", lambda text: text.replace("r1c4: 3 5", "r1c4: 3", 1))
    assert check(folder).problems == [
        "candidates.txt lists [3] in r1c4, the solutions put [3, 5] there"
    ]
    rewritten(folder, "candidates.txt", lambda text: text.replace("r1c4: 3\n", "r1c4: 3 5 8\n"))
    assert check(folder).problems == [
        "candidates.txt lists [3, 5, 8] in r1c4, the solutions put [3, 5] there"
    ]


@pytest.mark.slow
def test_explain_certifies_no_solution(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "proofs"
    files = [str(PUZZLES / n) for n in ("no-solution.txt", "ai-escargot.txt")]
    code, _, _ = run("explain", "--certify", str(out), "-f", "text", *files)
    assert code == 3 and [p.name for p in out.iterdir()] == ["no-solution.txt-2"]
    code, said, _ = run("verify", str(out))
    assert code == 0 and "valid: " in said and ": none" in said


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["cadical", "cadical -q --no-binary"])
def test_a_solver_program_writes_the_proof(run: Run, tmp_path: Path, solver: str) -> None:
    out = tmp_path / "proofs"
    option = "--solver" if solver == "cadical" else "--solver-cmd"
    files = [str(PUZZLES / n) for n in ("ai-escargot.txt", "no-solution.txt", "killer.txt")]
    code, _, _ = run("solve", option, solver, "--certify", str(out), *files)
    assert code == 3
    for folder in sorted(out.iterdir()):
        manifest = manifest_of(folder)
        assert manifest["claim"]["proof"] == "claim.drat" and manifest["prover"] == solver
        verdict = check(folder)
        assert verdict.valid, verdict.problems


def test_a_binary_proof_reads_as_its_text(tmp_path: Path) -> None:
    """CaDiCaL writes the same proof in binary (its default) and in text."""
    import subprocess

    folder = made(tmp_path)
    cnf = folder / "claim.cnf"
    for flag, name in (("--binary=true", "bin.drat"), ("--no-binary", "text.drat")):
        done = subprocess.run(["cadical", "-q", flag, str(cnf), str(tmp_path / name)])
        assert done.returncode == 20
    binary = (tmp_path / "bin.drat").read_bytes()
    assert b"\0" in binary
    assert drat_lines(binary) == drat_lines((tmp_path / "text.drat").read_bytes())
    with pytest.raises(ValueError, match="ends inside a clause"):
        drat_lines(binary[:-1])


@pytest.mark.slow
def test_a_program_that_never_proves_is_stopped_at_the_timeout(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "proofs"
    code, said, _ = run(
        "solve", "--solver-cmd", broken("stalls-on-proof"), "--timeout", "2",
        "--certify", str(out), "-f", "jsonl", str(PUZZLES / "ai-escargot.txt"),
    )  # fmt: skip
    record = json.loads(said)
    assert code == 5 and record["status"] == "timeout" and "no certificate" in record["reason"]
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("solver", ["minisat", "cryptominisat5"])
def test_a_program_that_writes_no_drat_proof_is_refused(
    run: Run, tmp_path: Path, solver: str
) -> None:
    """MiniSat writes no proof; CryptoMiniSat 5.11 writes FRAT, which no DRAT checker reads."""
    out = tmp_path / "proofs"
    code, _, err = run(
        "solve", "--solver", solver, "--certify", str(out), str(PUZZLES / "ai-escargot.txt")
    )
    assert code == 4 and f"{solver} writes no DRAT proof" in err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.slow
def test_a_16x16_killer_certificate_verifies(tmp_path: Path) -> None:
    """CaDiCaL's proof deletes clauses a later step needs: checked without deletions."""
    from sudosat.reading.inputs import read_puzzles

    puzzle = next(iter(read_puzzles(str(PUZZLES / "killer-16x16.links"))))
    folder = tmp_path / "k16"
    write(certify(puzzle), folder)  # type: ignore[arg-type]
    verdict = check(folder)
    assert verdict.valid, verdict.problems
