"""Start-up (issue 50): each command loads only what it uses. The modules a
classic `solve` imports are checked by name, so a new import on that path is
a decision, not an accident."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PUZZLES

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
    "sudosat.commands.helptext",
    "sudosat.commands.paramtypes",
    "sudosat.commands.solve",
    "sudosat.core",
    "sudosat.core.errors",
    "sudosat.core.jsonobject",
    "sudosat.core.masks",
    "sudosat.core.notation",
    "sudosat.core.puzzle",
    "sudosat.making",
    "sudosat.reading",
    "sudosat.reading.cells",
    "sudosat.reading.chunks",
    "sudosat.reading.formats",
    "sudosat.reading.lines",
    "sudosat.reading.inputs",
    "sudosat.reading.ruletext",
    "sudosat.running",
    "sudosat.running.batch",
    "sudosat.running.report",
    "sudosat.showing",
    "sudosat.showing.records",
    "sudosat.showing.text",
    "sudosat.showing.view",
    "sudosat.running.runner",
    "sudosat.running.tasks",
    "sudosat.sat",
    "sudosat.sat.builder",
    "sudosat.sat.cnf",
    "sudosat.sat.deadline",
    "sudosat.sat.encoding",
    "sudosat.sat.limits",
    "sudosat.sat.solvers",
    "sudosat.sat.solvers.base",
    "sudosat.sat.solvers.native",
    "sudosat.solving",
    "sudosat.solving.engine",
    "sudosat.solving.fast",
    "sudosat.solving.outcome",
    "sudosat.solving.progress",
    "sudosat.system",
    "sudosat.system.janitor",
    "sudosat.system.lazy",
    "sudosat.system.process",
    "sudosat.system.signals",
    "sudosat.system.writing",
}
"""What `solve` of one classic 9x9 to a pipe imports of sudosat: no other command,
no generator, rating, drawing, rules or serving."""

NEVER = (
    *("rich.console", "rich.text", "numpy", "drawsvg", "websockets", "dratify", "lzstring"),
    *("pysat.solvers", "pysat.formula"),
)
"""Never for one classic puzzle to a pipe: rich draws for terminals, numpy is the
batch front end's, the batch engine calls PySAT's C functions (not its Python
layer), the rest belong to other commands."""


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


def test_a_killer_link_loads_only_the_killer_rule(tmp_path: Path) -> None:
    links = tmp_path / "killer.links"
    links.write_text((PUZZLES / "variants.links").read_text().splitlines()[4] + "\n")
    code, modules = loaded("solve", "-f", "line", str(links))
    rules = {m for m in modules if m.startswith("sudosat.rules.")}
    assert code == 0 and rules == {
        "sudosat.rules.base",
        "sudosat.rules.index",
        "sudosat.rules.kinds",  # a group rule
        "sudosat.rules.where",
        "sudosat.rules.killer",
        "sudosat.rules.diagonals",  # the killer's "no repeats" check
    }
    # the quick Minicard search answers it: no PySAT class, no solver program table
    assert not modules & {"pysat.solvers", "pysat.formula", "sudosat.sat.solvers.programs"}


def test_every_rule_is_found_by_its_names() -> None:
    """The index the lazy registry uses names each rule's module (as make reference
    writes it): in a fresh process every word and field finds its class there,
    and the index lists every name the modules register."""
    code = (
        "import json\n"
        "from sudosat.rules import index, BY_FIELD, BY_WORD\n"
        "found = {w: BY_WORD[w].__module__ for w in index.WORDS}\n"
        "found |= {f: BY_FIELD[f].__module__ for f in index.FIELDS}\n"
        "listed = sorted(BY_WORD) + sorted(BY_FIELD)\n"
        "print(json.dumps([found, listed, sorted(index.WORDS) + sorted(index.FIELDS)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    found, listed, indexed = json.loads(done.stdout)
    assert listed == indexed
    from sudosat.rules import index

    for name, module in found.items():
        where = index.WORDS.get(name) or index.FIELDS[name]
        assert module == f"sudosat.rules.{where}"
