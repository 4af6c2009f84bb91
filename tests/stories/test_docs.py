"""The docs cannot go stale: the README and every page of docs/ have their
examples run, their generated parts (--help, the rules, the techniques' examples)
regenerated and compared, and the site builds strictly."""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudosat import Encoding, encode, parse
from sudosat.core.puzzle import Puzzle
from sudosat.reading.ruletext import apply, from_option
from sudosat.rules import BY_WORD
from tests.conftest import ROOT, SUDOSAT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
GENERATED = {DOCS / "reference" / "commands.md"}
"""Pages that are --help text: their examples are the commands' own, run elsewhere."""
PAGES = [README, *(p for p in sorted(DOCS.rglob("*.md")) if p not in GENERATED)]
HISTORY = DOCS / "project" / "history.md"
"""The lab notebook: commands of past sessions, on files of their day; not run."""


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def code_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block: its fence's language, and its text."""
    return re.findall(r"```(\w*)\n(.*?)```", text, re.S)


# --- generated parts ---------------------------------------------------------------


def test_the_generated_reference_is_current() -> None:
    """--help, the rule table and pictures, sudosat/rules/index.py, the modules."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "reference.py"), "--check", "--fast"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_the_techniques_examples_are_current() -> None:
    """Every technique's example, from the bundled puzzles' paths as they are now."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "reference.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_rule_has_an_example_that_reads_as_that_rule() -> None:
    for kind in dict.fromkeys(BY_WORD.values()):
        if not kind.__module__.startswith("sudosat.rules"):
            continue  # a rule a test registers for itself
        assert kind.example, kind
        puzzle = apply(Puzzle.empty(3), (from_option(kind.example),))
        found = {type(rule) for rule in puzzle.rules.constraints}
        # a word for several rules (diagonals: both; negative ratio: its own kind)
        assert kind in found or (found and all(issubclass(f, kind) or kind.words for f in found))
        assert (DOCS / "reference" / "rules" / f"{kind.__name__.lower()}.svg").exists()


def test_every_technique_in_the_examples_is_in_the_table() -> None:
    page = (DOCS / "reference" / "techniques.md").read_text()
    table, examples = page.split("## Examples", 1)
    rows = re.findall(r"^\| ([^|]+) \|", examples, re.M)[1:]
    assert len(rows) >= 25
    for technique in rows:
        first = technique.split(",")[0].replace(" N ", " ").split()[0]
        assert first.lower() in table.lower(), technique


# --- the README ----------------------------------------------------------------------


def test_the_readme_fits_on_a_few_screens_and_links_into_the_docs() -> None:
    text = README.read_text()
    assert len(text.splitlines()) < 300
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert len(links) >= 15
    for link in links:
        assert (ROOT / link).exists(), link


def test_the_reduced_size_quoted_for_ai_escargot() -> None:
    cnf = encode(parse((ROOT / "puzzles" / "ai-escargot.txt").read_text()))
    full = encode(cnf.puzzle, Encoding(reduced=False))
    quoted = (
        f"AI Escargot: {len(cnf.clauses):,} clauses over {len(cnf.cell_variables)} variables "
        f"instead\n  of {len(full.clauses):,} over {full.nv}."
    )
    assert quoted in (DOCS / "sat" / "cnf.md").read_text()


# --- examples ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in PAGES if p != HISTORY], ids=page_id)
def test_python_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = [text for language, text in code_blocks(page.read_text()) if language == "python"]
    doctests = "\n".join(b for b in blocks if ">>> " in b)
    if not doctests:
        pytest.skip("no Python examples")
    monkeypatch.chdir(ROOT)  # the examples open puzzles/ by relative path
    test = doctest.DocTestParser().get_doctest(doctests, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda text: print(text, end=""))
    results = runner.summarize(verbose=False)
    assert results.attempted > 0 and results.failed == 0


@pytest.mark.slow
def test_every_statement_paragraph_of_the_variants_page_is_a_puzzle_file(tmp_path: Path) -> None:
    text = (DOCS / "setters" / "variants.md").read_text()
    (block,) = [b for _, b in code_blocks(text) if "size 6  " in b]
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


PLACEHOLDER = "your-"
"""How the docs mark a file of the reader's own: such lines are shown, not run."""
NOT_RUN = (
    "part-*.jsonl",  # made by the lines before them from a placeholder
    "kissat",  # a program CI does not install
    "sbatch",
    "sudosat serve",  # a server runs until stopped: tests/serving/test_serve.py starts it
    "--count 1000 ",  # long here: run by hand, shown as they are
    "--puzzles 1000 ",
    "--puzzles 100 ",
    "rank6-36x36",
    "rank5-25x25",
    "--estimate puzzles/empty-9x9",
)


def shell_examples(text: str) -> list[tuple[str, list[str]]]:
    """Each `sudosat` command line of a page's shell blocks, and the output lines
    the page shows under it (for ``$ `` lines)."""
    found: list[tuple[str, list[str]]] = []
    for language, block in code_blocks(text):
        if language or "Usage:" in block:
            continue
        prompted = "\n$ " in f"\n{block}"  # then only "$ " lines are commands
        for line in block.splitlines():
            command = line.removeprefix("$ ")
            asked = command.startswith("sudosat ") or " | sudosat " in command
            if line.startswith("$ ") or (asked and not prompted):
                found.append((command, []))
            elif found and line.strip() and not line.startswith(("#", " ")) and block.count("$ "):
                found[-1][1].append(line)
    return found


def test_examples_name_only_files_in_the_clone_or_placeholders() -> None:
    """A file an example reads is bundled (puzzles/, recipes/) or marked ``your-``."""
    for page in PAGES:
        if page == HISTORY:
            continue
        for command, _ in shell_examples(page.read_text()):
            for word in read_by_sudosat(command):
                if word.endswith((".txt", ".links", ".csv", ".json", ".jsonl")):
                    bundled = (ROOT / word).exists() or "*" in word  # a glob: made above
                    assert bundled or word.startswith(PLACEHOLDER), (page, command, word)


def read_by_sudosat(command: str) -> list[str]:
    """The words of a command line's ``sudosat`` parts that may name files it reads
    (not what follows ``>``, ``-o`` or ``--out``)."""
    words: list[str] = []
    for part in re.split(r"[|;&]", command.split("  #")[0]):
        said = part.split()
        if not said or said[0] != "sudosat":
            continue
        for before, word in zip(["", *said], said, strict=False):
            if before not in (">", "-o", "--out") and not word.startswith((">", "-")):
                words.append(word)
    return words


CLAIMED_EXIT = re.compile(r"#.*\bexit (\d+)")


CLAIMED_OUTPUT = re.compile(r"#\s*prints ([^;:]+)")


def claimed_output(command: str) -> str | None:
    """What an example claims it prints: ``# prints 7`` beside it."""
    found = CLAIMED_OUTPUT.search(command)
    return found[1].strip() if found else None


def claimed_exit(command: str) -> int:
    """The exit code an example claims: ``# exit 1 (several solutions)`` beside it
    says what it is when it is not 0."""
    found = CLAIMED_EXIT.search(command)
    return int(found[1]) if found else 0


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in PAGES if p != HISTORY], ids=page_id)
def test_shell_examples_run_as_pasted(page: Path, tmp_path: Path) -> None:
    examples = shell_examples(page.read_text())
    if not examples:
        pytest.skip("no shell examples")
    for name in ("puzzles", "recipes"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "PATH": f"{SUDOSAT.parent}:{os.environ['PATH']}"}
    for command, shown in examples:
        if PLACEHOLDER in command or any(p in command for p in NOT_RUN):
            continue
        if not command.startswith("sudosat"):
            continue
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, env=env
        )
        assert done.returncode == claimed_exit(command), (command, done.stderr[-500:])
        printed = claimed_output(command)
        assert printed is None or done.stdout.split() == [printed], (command, done.stdout)
        said = done.stdout + done.stderr
        for line in shown:
            if line != "..." and not line.startswith("  "):
                assert line.split("  #")[0].strip() in said, (command, line)


def gate_examples() -> list[tuple[str, str]]:
    """Every shell example of the docs and of --help that gates a run with
    ``--fail-on`` (but ``never``, which gates nothing), with its page."""
    found = []
    for page in PAGES:
        for command, _ in shell_examples(page.read_text()):
            if re.search(r"--fail-on (?!never)", command):
                found.append((page_id(page), command))
    for page in GENERATED:  # --help's examples
        for command in re.findall(r"^ +(sudosat .*--fail-on (?!never).*)$", page.read_text(), re.M):
            found.append((page_id(page), command))
    return found


def gate_inputs(tmp_path: Path, at: int) -> dict[str, tuple[Path, Path]]:
    """Puzzle files, in lines and as CSV with expected solutions: clean, and with
    line ``at`` malformed, with no solution, or with several."""
    clean = (ROOT / "puzzles" / "royle17-25.txt").read_text().split()[:9]
    several = (ROOT / "puzzles" / "several-solutions.txt").read_text().splitlines()[1]
    none = (ROOT / "puzzles" / "no-solution.txt").read_text().splitlines()[1]
    solved = subprocess.run(
        [str(SUDOSAT), "solve", "-f", "line", "-q", "-"],
        input="\n".join(clean) + "\n",
        capture_output=True,
        text=True,
    ).stdout.split()
    files = {}
    for kind, bad in [
        ("clean", None),
        ("malformed", "12x4"),
        ("none", none),
        ("multiple", several),
    ]:
        lines = list(clean)
        rows = [f"{puzzle},{solution}" for puzzle, solution in zip(clean, solved, strict=True)]
        if bad is not None:
            lines[at - 1] = bad
            rows[at - 1] = f"{bad},{solved[0]}"
        text, csv = tmp_path / f"{kind}.txt", tmp_path / f"{kind}.csv"
        text.write_text("\n".join(lines) + "\n")
        csv.write_text("quizzes,solutions\n" + "\n".join(rows) + "\n")
        files[kind] = (text, csv)
    return files


def test_the_docs_have_ci_gates() -> None:
    pages = {page for page, _ in gate_examples()}
    assert {"README.md", "docs/batch/recipes.md", "docs/batch/batches.md"} <= pages


@pytest.mark.slow
@pytest.mark.parametrize(("page", "command"), gate_examples())
def test_every_ci_gate_of_the_docs_fails_what_it_should(
    page: str, command: str, tmp_path: Path
) -> None:
    """Each gate, as pasted, on its input replaced: non-zero with a malformed
    line, a puzzle with no solution or one with several; 0 on a clean file."""
    shard = re.search(r"--shard (\d+)/", command)
    files = gate_inputs(tmp_path, int(shard[1]) if shard else 4)
    word = next(w for w in reversed(command.split(">")[0].split()) if "." in w)
    env = {**os.environ, "PATH": f"{SUDOSAT.parent}:{os.environ['PATH']}"}
    for kind, (text, csv) in files.items():
        pasted = command.replace(word, str(csv if word.endswith(".csv") else text))
        done = subprocess.run(
            ["bash", "-c", pasted], cwd=tmp_path, capture_output=True, text=True, env=env
        )
        if kind == "clean":
            assert done.returncode == 0, (page, pasted, done.stderr)
        else:
            assert done.returncode not in (0, 70), (page, kind, pasted, done.stderr)
            assert "fail the run" in done.stderr, (page, kind, done.stderr)


# --- the site and the man pages ----------------------------------------------------


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    mkdocs = Path(sys.executable).parent / "mkdocs"
    done = subprocess.run(
        [str(mkdocs), "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    api = (tmp_path / "site" / "api" / "index.html").read_text()
    assert "looking for up to" in api  # solve's docstring, from the sources
    rules = (tmp_path / "site" / "reference" / "rules" / "index.html").read_text()
    kinds = [k for k in dict.fromkeys(BY_WORD.values()) if k.__module__.startswith("sudosat.")]
    assert rules.count("<img") == len(kinds)


@pytest.mark.slow
def test_man_pages_are_made_from_the_help(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "man.py"), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    solve = (tmp_path / "sudosat-solve.1").read_text()
    assert "max\\-solutions" in solve
    names = {p.name for p in tmp_path.iterdir()}
    commands = [line.split()[0] for line in help_of().split("Commands:")[1].splitlines() if line]
    assert names == {"sudosat.1", *(f"sudosat-{c}.1" for c in commands)}
    top = (tmp_path / "sudosat.1").read_text()
    see_also = top.split(".SH SEE ALSO")[1]
    assert all(f"sudosat\\-{c} (1)" in see_also for c in commands)
    assert ".BR sudosat (1)" in solve.split(".SH SEE ALSO")[1]
    for name in names:  # the whole first sentence, never cut with "..."
        text = (tmp_path / name).read_text()
        title = text.split(".SH NAME\n")[1].split("\n")[0]
        assert "..." not in title and len(title) > 40, (name, title)
        examples = text.split("Examples:")[1].split(".fi")[0]
        assert ".nf" in text.split("Examples:")[0][-40:] and examples.count("sudosat") >= 1
    if shutil.which("man"):
        shown = subprocess.run(
            ["man", "-l", str(tmp_path / "sudosat-solve.1")],
            capture_output=True,
            text=True,
            env={**os.environ, "MANPAGER": "cat", "MANWIDTH": "80"},
        )
        assert "uniqueness" in shown.stdout
        # the examples as written: one a line, never hyphenated or spread out
        assert "    sudosat solve --count -n 1000 puzzles/several-solutions.txt\n" in shown.stdout
        assert "\u2010" not in shown.stdout and "puz-\n" not in shown.stdout


def help_of(*args: str) -> str:
    done = subprocess.run([str(SUDOSAT), *args, "--help"], capture_output=True, text=True)
    return done.stdout
