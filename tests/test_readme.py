"""The README cannot go stale: its command reference is --help, its Python examples run."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys

import pytest

from sudosat import Encoding, encode, parse

from .conftest import ROOT

README = (ROOT / "README.md").read_text()


def test_command_reference_is_the_help_text() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_python_api_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    section = README.split("## Python API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 4
    monkeypatch.chdir(ROOT)  # the examples open puzzles/ by relative path
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda text: print(text, end=""))
    results = runner.summarize(verbose=False)
    assert results.attempted > 20 and results.failed == 0


def test_reduced_size_quoted_for_ai_escargot() -> None:
    cnf = encode(parse((ROOT / "puzzles" / "ai-escargot.txt").read_text()))
    full = encode(cnf.puzzle, Encoding(reduced=False))
    quoted = (
        f"AI Escargot: {len(cnf.clauses):,} clauses over {len(cnf.cell_variables)} variables "
        f"instead\n  of {len(full.clauses):,} over {full.nv}."
    )
    assert quoted in README
