"""The README cannot go stale: its command reference is --help, its Python examples run."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sudosat import Encoding, encode, parse

from .conftest import ROOT, SUDOSAT

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


def code_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block of the README outside the command reference: its fence's
    language, and its text."""
    text = text.split("<!-- command reference:", 1)[0]
    return re.findall(r"```(\w*)\n(.*?)```", text, re.S)


@pytest.mark.slow
def test_every_statement_paragraph_of_the_readme_is_a_puzzle_file(tmp_path: Path) -> None:
    (block,) = [b for _, b in code_blocks(README) if "size 6  " in b]
    paragraphs = [p for p in block.split("\n\n") if p.strip()]
    assert len(paragraphs) == 3
    for number, paragraph in enumerate(paragraphs):
        path = tmp_path / f"p{number}.txt"
        path.write_text(paragraph + "\n")
        done = subprocess.run(
            [str(SUDOSAT), "solve", str(path), "-f", "line"], capture_output=True, text=True
        )
        assert done.returncode in (0, 1), (paragraph, done.stderr)
    assert done.returncode == 0  # the 6x6 is unique


PLACEHOLDERS = (
    "puzzles2_17_clue",
    "sudoku.csv",
    "collection.txt",
    "incoming.txt",
    "big.txt",
    "part-*.jsonl",
    "empty-400x400.txt",
    "tdoku/",
    "kissat",
    "recipes/",
    "sbatch",
    "puzzle.txt",
)
"""What the README's examples name that is the reader's own (their files, their
programs): those lines are shown, not run."""
SLOW = (
    "--count 1000",
    "rank6-36x36",
    "rank5-25x25",
    "--count 100 ",
    "sudosat serve",
    "--estimate puzzles/empty-9x9",
)
"""Examples that take long here (a server runs until it is stopped: tests/test_serve.py
starts it): run by hand, shown as they are."""


def shell_examples() -> list[tuple[str, list[str]]]:
    """Each `sudosat` command line of the README's shell blocks, and the output
    lines the README shows under it (for ``$ `` lines)."""
    found: list[tuple[str, list[str]]] = []
    for language, block in code_blocks(README):
        if language or "Usage:" in block:
            continue
        for line in block.splitlines():
            command = line.removeprefix("$ ")
            if command.startswith("sudosat ") or " | sudosat " in command or line.startswith("$ "):
                found.append((command, []))
            elif found and line.strip() and not line.startswith(("#", " ")) and block.count("$ "):
                found[-1][1].append(line)
    return found


@pytest.mark.slow
def test_the_readme_shell_examples_run_as_pasted(tmp_path: Path) -> None:
    for name in ("puzzles", "recipes"):
        (tmp_path / name).symlink_to(ROOT / name)
    ran = 0
    for command, shown in shell_examples():
        if any(p in command for p in PLACEHOLDERS + SLOW) or not command.startswith("sudosat"):
            continue
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, "PATH": f"{SUDOSAT.parent}:{os.environ['PATH']}"},
        )
        assert done.returncode not in (2, 70, 127), (command, done.stderr)
        said = done.stdout + done.stderr
        for line in shown:
            if line != "..." and not line.startswith("  "):
                assert line.split("  #")[0].strip() in said, (command, line)
        ran += 1
    assert ran >= 30
