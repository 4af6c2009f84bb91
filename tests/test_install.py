"""`make install`: sudosat on the user's PATH the way Debian installs Python
programs (pipx; pip install --user is refused there), working from there."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sudosat import parse, solve

from .conftest import PUZZLES, ROOT


@pytest.mark.slow
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
