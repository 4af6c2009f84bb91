"""`make install`: sudosat on the user's PATH the way Debian installs Python
programs (pipx; pip install --user is refused there), working from there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sudosat import parse, solve
from tests.conftest import PUZZLES, ROOT

INSTALLING = pytest.mark.timeout(900)
"""An install's budget: under a minute on a quiet 2-core machine, several on one at
load 10, past the 300 s every other test is held to."""


@pytest.mark.slow
@INSTALLING
def test_make_install_puts_a_working_sudosat_on_the_path(tmp_path: Path) -> None:
    if shutil.which("pipx") is None and os.geteuid() != 0 and not os.environ.get("CI"):
        pytest.skip("pipx is missing and installing it needs root")
    env = {
        **os.environ,
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
        "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
    }
    done = subprocess.run(["make", "install"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    installed = tmp_path / "bin" / "sudosat"
    assert f"sudosat installed: {installed}" in done.stdout
    escargot = PUZZLES / "ai-escargot.txt"
    solved = subprocess.run(
        ["sudosat", "solve", str(escargot), "-f", "line"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert solved.returncode == 0, solved.stderr
    expected = solve(parse(escargot.read_text())).solutions[0]
    assert solved.stdout.strip() == "".join(map(str, expected))
    # the installed copy is its own: not the clone's editable one
    where = subprocess.run(
        [
            str(tmp_path / "pipx" / "venvs" / "sudosat" / "bin" / "python"),
            "-c",
            "import sudosat; print(sudosat.__file__)",
        ],
        cwd=tmp_path,  # not the clone, whose sudosat/ -c would import
        capture_output=True,
        text=True,
    )
    assert str(ROOT) not in where.stdout and "site-packages" in where.stdout
    # and the README's PDF example works from there
    made = subprocess.run(
        ["sudosat", "generate", "--puzzles", "2", "--seed", "1", "--format", "pdf"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
    )
    assert made.returncode == 0 and made.stdout.startswith(b"%PDF"), made.stderr


def copy_of_the_clone(target: Path) -> Path:
    """The clone's files as a fresh clone of this tree would have them (tracked, and
    new ones git does not ignore), without its virtualenv or caches."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.mark.slow
@INSTALLING
def test_make_run_alone_makes_pdf_and_png(tmp_path: Path) -> None:
    """README: after `make run` (running's dependencies alone, no dev tools), the
    PDF example and a PNG work."""
    clone = copy_of_the_clone(tmp_path / "clone")
    done = subprocess.run(["make", "run"], cwd=clone, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "unique solution" in done.stdout + done.stderr
    assert list((clone / "sudosat" / "logic").glob("_engine*.so"))  # the engine, built
    sudosat = clone / ".venv" / "bin" / "sudosat"
    example = "--puzzles 6 --seed 1 --symmetry rotate180 --format pdf --solution"
    book = subprocess.run(
        [str(sudosat), "generate", *example.split()], cwd=clone, capture_output=True
    )
    assert book.returncode == 0 and book.stdout.startswith(b"%PDF"), book.stderr
    picture = subprocess.run(
        [str(sudosat), "solve", "--format", "png", "puzzles/killer.txt"],
        cwd=clone,
        capture_output=True,
    )
    assert picture.returncode in (0, 1) and picture.stdout.startswith(b"\x89PNG"), picture.stderr
    assert not (clone / ".venv" / "bin" / "pytest").exists()  # running's dependencies alone


@pytest.mark.slow
@INSTALLING
def test_make_run_without_a_compiler_runs_the_logic_in_python(tmp_path: Path) -> None:
    """A machine with no C compiler (CC a program that fails): `make run` still
    installs and solves; the logical path runs on Python and Minicard, says so
    under --verbose, and gives the same steps as the compiled engine here."""
    clone = copy_of_the_clone(tmp_path / "clone")
    env = {**os.environ, "CC": "/bin/false"}
    done = subprocess.run(["make", "run"], cwd=clone, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not list((clone / "sudosat" / "logic").glob("_engine*.so"))
    escargot = str(PUZZLES / "ai-escargot.txt")
    there = subprocess.run(
        [str(clone / ".venv" / "bin" / "sudosat"), "--verbose", "steps", escargot],
        cwd=clone,
        capture_output=True,
        text=True,
    )
    assert there.returncode == 0, there.stderr
    assert "the compiled reasoning engine is not built" in there.stderr
    here = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "sudosat"), "--verbose", "steps", escargot],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert "compiled reasoning engine" not in here.stderr  # built here

    def steps(said: str) -> list[str]:  # (each run's times apart)
        return [line for line in said.splitlines() if '"time":' not in line]

    assert steps(there.stdout) == steps(here.stdout)
    # without --verbose a run of the logic says once what running without it costs,
    # and a rating past 9.0 says its ER is not computed rather than another number
    forcing = next(  # top1465's first: forcing chains, ER 8.0 (past 9.0: test_explainer.py)
        line for line in (PUZZLES / "tdoku-magictour-25.txt").read_text().split() if len(line) == 81
    )

    def rated_by(sudosat: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(sudosat), "rate", "-f", "json", forcing], capture_output=True, text=True
        )

    rated = rated_by(clone / ".venv" / "bin" / "sudosat")
    record = json.loads(rated.stdout)
    assert rated.returncode == 0 and rated.stderr.count("the logic runs in Python") == 1
    here = json.loads(rated_by(ROOT / ".venv" / "bin" / "sudosat").stdout)
    assert (record["engine"], here["engine"]) == ("python", "compiled")
    for field in ("level", "rating", "er", "ep", "ed"):  # one rating whatever the build
        assert record[field] == here[field], field
