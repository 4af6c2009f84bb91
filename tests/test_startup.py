"""Start-up (issue 50): each command loads only what it uses. The modules a
classic `solve` imports are checked by name, so a new import on that path is
a decision, not an accident."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import PUZZLES

LOADED = """
import json, sys
sys.argv = ["sudosat", *json.loads(sys.argv[1])]
from sudosat.cli import run_command
try:
    code = run_command()
except SystemExit as done:
    code = done.code
# a lazy module not yet used is still a _LazyModule: not loaded
loaded = sorted(n for n, m in sys.modules.items() if type(m).__name__ != "_LazyModule")
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""

SOLVE_LOADS = {
    "sudosat",
    "sudosat.cli",
    "sudosat.commands",
    "sudosat.commands.common",
    "sudosat.commands.solve",
    "sudosat.core",
    "sudosat.core.errors",
    "sudosat.core.notation",
    "sudosat.core.puzzle",
    "sudosat.making",
    "sudosat.reading",
    "sudosat.reading.formats",
    "sudosat.reading.inputs",
    "sudosat.reading.ruletext",
    "sudosat.running",
    "sudosat.running.batch",
    "sudosat.running.report",
    "sudosat.running.runner",
    "sudosat.running.shards",
    "sudosat.sat",
    "sudosat.sat.builder",
    "sudosat.sat.cnf",
    "sudosat.sat.deadline",
    "sudosat.sat.dimacs",
    "sudosat.sat.encoding",
    "sudosat.sat.limits",
    "sudosat.sat.solvers",
    "sudosat.sat.solvers.base",
    "sudosat.solving",
    "sudosat.solving.deduce",
    "sudosat.solving.engine",
    "sudosat.solving.fast",
    "sudosat.solving.outcome",
    "sudosat.system",
    "sudosat.system.janitor",
    "sudosat.system.lazy",
    "sudosat.system.process",
    "sudosat.system.signals",
    "sudosat.system.writing",
}
"""What `solve` of one classic 9x9 to a pipe imports of sudosat: no other command,
no generator, rating, drawing, rules or serving."""

NEVER = ("rich.console", "rich.text", "numpy", "drawsvg", "websockets", "dratify", "lzstring")
"""Never for one classic puzzle to a pipe: rich draws for terminals, numpy is the
batch front end's, the rest belong to other commands."""


def loaded(*args: str) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, json.dumps(list(args))],
        capture_output=True,
        text=True,
        check=False,
    )
    said = json.loads(done.stderr.strip().splitlines()[-1])
    return said["code"], set(said["loaded"])


def test_solve_of_a_classic_puzzle_loads_only_what_it_uses() -> None:
    code, modules = loaded("solve", str(PUZZLES / "ai-escargot.txt"), "-f", "line")
    assert code == 0
    assert {m for m in modules if m.startswith("sudosat")} == SOLVE_LOADS
    assert not [m for m in NEVER if m in modules]


def test_version_loads_no_command() -> None:
    code, modules = loaded("--version")
    assert code == 0
    assert not [m for m in modules if m.startswith("sudosat.") and m not in ALWAYS]


ALWAYS = {"sudosat.cli", "sudosat.core", "sudosat.core.errors", "sudosat.system"}
ALWAYS |= {"sudosat.system.process", "sudosat.system.signals", "sudosat.system.janitor"}
ALWAYS |= {"sudosat.system.lazy"}


@pytest.mark.parametrize("fmt", ["rich", "json"])
def test_rich_is_loaded_for_the_rich_format_only(fmt: str) -> None:
    code, modules = loaded("solve", str(PUZZLES / "ai-escargot.txt"), "-f", fmt)
    assert code == 0 and ("rich.console" in modules) == (fmt == "rich")


def test_the_quick_version_is_clicks() -> None:
    from click.testing import CliRunner

    from sudosat.__main__ import VERSION
    from sudosat.cli import cli

    said = CliRunner().invoke(cli, ["--version"]).output
    quick = subprocess.run(
        [sys.executable, "-m", "sudosat", "--version"], capture_output=True, text=True
    )
    assert said == quick.stdout == VERSION + "\n" and quick.returncode == 0
