"""What a new user meets first: puzzles and links given on the command line, `cnf`
reading stdin, the same option letters everywhere, progress and the partial count
on Ctrl-C, and hints for a mistyped grid."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
from pathlib import Path

import click
import pytest

from sudosat.cli import cli
from sudosat.reading.inputs import Inputs
from sudosat.reading.lines import NO_VARIANTS
from sudosat.running import runner
from tests.conftest import (
    ESCARGOT,
    PATIENCE,
    PUZZLES,
    SUDOSAT,
    Run,
    as_a_shell_starts_it,
    cpu_seconds,
    drained,
    waited_for,
)

LINK = next(
    line
    for line in (PUZZLES / "variants.links").read_text().splitlines()
    if line.startswith("https://")
)


# --- a puzzle or a link where a file is expected ---------------------------------


def test_a_puzzle_line_given_as_the_argument_is_solved(run: Run) -> None:
    code, out, err = run("solve", ESCARGOT, "-f", "line")
    from_file = run("solve", str(PUZZLES / "ai-escargot.txt"), "-f", "line")[1]
    assert code == 0 and out == from_file
    assert err.count("as a puzzle") == 1  # said once


def test_a_link_given_as_the_argument_is_read_as_its_puzzle(run: Run, tmp_path: Path) -> None:
    (tmp_path / "link.txt").write_text(LINK + "\n")
    code, out, err = run("solve", LINK, "-f", "line")
    assert code == 0
    assert out == run("solve", str(tmp_path / "link.txt"), "-f", "line")[1]
    assert "reading an argument as a puzzle" in err


def test_a_mistyped_file_name_is_still_no_such_file(run: Run) -> None:
    code, _, err = run("solve", "puzles/ai-escargot.txt")
    assert code == 2
    assert "puzles/ai-escargot.txt: no such file" in err and "as a puzzle" not in err
    code, _, err = run("solve", "escargot")
    assert code == 2 and "no such file" in err
    # digits alone, shorter than a 9x9: a file named by a date, as likely as a 4x4
    code, _, err = run("solve", "2024010112000000")
    assert code == 2 and "2024010112000000: no such file" in err and "as a puzzle" not in err
    code, _, err = run("solve", "--rank", "2", "2024010112000000")  # said to be a 4x4: one
    assert code == 3 and "as a puzzle" in err


@pytest.mark.parametrize("fmt", ["grid", "jsonl"])
def test_a_pasted_puzzle_a_cell_short_says_so_not_no_such_file(run: Run, fmt: str) -> None:
    code, out, err = run("solve", "-f", fmt, ESCARGOT[:80])
    said = "not a file, and not a puzzle: wrong number of cells: found 80, expected 81"
    assert code == 2 and said in (err if fmt == "grid" else out + err), err
    assert "no such file" not in out + err
    code, _, err = run("solve", ESCARGOT + "5")
    assert code == 2 and "found 82, expected 81 for a 9x9: 1 too many" in err
    code, _, err = run("cnf", ESCARGOT[:80])
    assert code == 2 and "not a file, and not a puzzle" in err


def test_a_comma_separated_paste_gets_a_hint_about_the_commas(run: Run) -> None:
    code, _, err = run("solve", ",".join(ESCARGOT))
    assert code == 2 and "found 161" in err and "commas are read as cells" in err
    code, out, _ = run("solve", " ".join(ESCARGOT), "-f", "line")  # as the hint says
    assert code == 0 and out == run("solve", ESCARGOT, "-f", "line")[1]


def test_a_broken_link_is_named_as_an_argument_not_a_file(run: Run) -> None:
    code, _, err = run("solve", LINK[:120])
    assert code == 2
    assert "<argument>:1:1" in err and "no such file" not in err and LINK[:120] not in err


def test_an_existing_file_wins_over_a_puzzle_of_the_same_text(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    name = "1" * 81  # a file whose name would read as a puzzle (one with clashes)
    (tmp_path / name).write_text(ESCARGOT + "\n")
    code, _, err = run("solve", name)
    assert code == 0 and "as a puzzle" not in err


@pytest.mark.slow
def test_cnf_and_rate_take_a_puzzle_argument_too(run: Run) -> None:
    cnf = run("cnf", ESCARGOT)[1]
    assert cnf == run("cnf", str(PUZZLES / "ai-escargot.txt"))[1]
    code, out, _ = run("rate", ESCARGOT, "-f", "line")
    assert code == 0 and out.strip()


# --- cnf reads stdin as solve does ---------------------------------------------


def test_cnf_reads_a_puzzle_from_a_pipe() -> None:
    path = PUZZLES / "ai-escargot.txt"
    piped = subprocess.run([str(SUDOSAT), "cnf"], stdin=path.open(), capture_output=True, text=True)
    named = subprocess.run([str(SUDOSAT), "cnf", str(path)], capture_output=True, text=True)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == named.stdout and "p cnf" in piped.stdout


def test_cnf_with_rank_and_no_puzzle_is_still_the_rules_alone(run: Run) -> None:
    code, out, _ = run("cnf", "--rank", "2")
    assert code == 0 and "rank 2 (4x4)" in out


# --- one meaning per option letter ----------------------------------------------


def visible_options() -> dict[str, list[tuple[str, click.Option]]]:
    """Every command's visible options, by command name."""
    found = {}
    for name in cli.list_commands(click.Context(cli)):
        command = cli.get_command(click.Context(cli), name)
        assert command is not None
        found[name] = [
            (name, p) for p in command.params if isinstance(p, click.Option) and not p.hidden
        ]
    return found


def test_a_short_letter_names_the_same_long_option_in_every_command() -> None:
    longs: dict[str, set[str]] = {}
    for options in visible_options().values():
        for _, option in options:
            for short in (o for o in option.opts if not o.startswith("--")):
                longs.setdefault(short, set()).update(o for o in option.opts if o.startswith("--"))
    assert longs and all(len(names) == 1 for names in longs.values()), longs


def test_an_option_shared_by_commands_has_one_default_and_count_one_meaning() -> None:
    defaults: dict[str, dict[str, object]] = {}
    for command, options in visible_options().items():
        for _, option in options:
            default = None if repr(option.default) == "Sentinel.UNSET" else option.default
            defaults.setdefault(option.opts[0], {})[command] = default
    differing = {
        name: by_command
        for name, by_command in defaults.items()
        if len({repr(d) for d in by_command.values()}) > 1
    }
    # The exceptions docs/reference/options.md gives: generate makes puzzles from
    # nothing, so its --rank has no puzzle to come from; serve's jobs must end, so
    # its --timeout has one; generate's --seed is random (and said), --estimate's 0.
    assert differing.keys() <= {"--rank", "--timeout", "--seed"}, differing
    assert {c for c, d in differing["--rank"].items() if d is not None} == {"generate"}
    assert {c for c, d in differing["--timeout"].items() if d is not None} == {"serve"}
    assert defaults["--count"].keys() == {"solve"}  # --count: count solutions, nowhere else
    assert defaults["--timeout"].keys() >= {"solve", "rate", "steps", "explain"}
    assert "generate" not in defaults["--timeout"]  # the whole run is --time-limit


def test_every_visible_option_has_help() -> None:
    bare = [
        f"{command} {option.opts[0]}"
        for command, options in visible_options().items()
        for _, option in options
        if not option.help
    ]
    assert bare == []


def test_generate_old_spellings_still_work_with_a_note(run: Run) -> None:
    code, out, err = run("generate", "--count", "2", "--seed", "3", "-f", "line")
    assert code == 0 and len(out.splitlines()) == 2
    assert "--count is now --puzzles" in err
    assert run("generate", "--puzzles", "2", "--seed", "3", "-f", "line")[1] == out
    code, _, err = run("generate", "-n", "1", "--seed", "3", "--timeout", "60")
    assert code == 0 and "--timeout is now --time-limit" in err


def test_the_formats_on_a_pipe_are_one_table_in_the_docs() -> None:
    table = (PUZZLES.parent / "docs" / "batch" / "formats.md").read_text()
    context = click.Context(cli)
    for command, formats in runner.DEFAULT_FORMATS.items():
        found = cli.get_command(context, command)
        assert found is not None
        option = next(p for p in found.params if p.name == "fmt")
        every = ", ".join(option.type.choices)  # type: ignore[attr-defined]
        row = f"| `{command}` | {formats.many} | {formats.one} | {every} |"
        assert row in table, row


# --- progress and Ctrl-C --------------------------------------------------------


def on_a_terminal(args: list[str], until: bytes) -> tuple[subprocess.Popen[str], bytes, int]:
    """``sudosat ARGS`` with stderr on a pseudo-terminal, read until ``until``
    shows there; the process, what stderr showed, and the terminal's end."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [str(SUDOSAT), *args],
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )
    os.close(slave)
    seen = b""
    while until not in seen:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            seen += os.read(master, 4096)
        except OSError:
            break
    return process, seen, master


def rest_of(master: int) -> bytes:
    seen = drained(master, "the command's terminal to close")
    os.close(master)
    return seen


@pytest.mark.slow
def test_ctrl_c_during_a_count_prints_what_was_found_as_n_plus() -> None:
    args = ["solve", "--count", "-n", "100000000", str(PUZZLES / "empty-9x9.txt"), "-f", "line"]
    process, seen, master = on_a_terminal(args, b"solutions found so far")
    assert b"solutions found so far" in seen  # the count's progress on the terminal
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=PATIENCE)
    said = (seen + rest_of(master)).decode(errors="replace")
    assert process.returncode == 130
    count = out.strip()
    assert count.endswith("+") and int(count[:-1]) > 1
    assert f"{count} solutions (interrupted)" in said and "sudosat: interrupted" in said


@pytest.mark.slow
def test_ctrl_c_during_a_count_on_a_solver_program_keeps_its_solutions() -> None:
    args = ["solve", "--count", "-n", "100000000", "--solver", "minisat"]
    args += [str(PUZZLES / "empty-9x9.txt"), "-f", "jsonl"]
    process, _, master = on_a_terminal(args, b"solutions found so far")
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=PATIENCE)
    rest_of(master)
    assert process.returncode == 130
    record = json.loads(out)
    assert record["count"] > 1 and record["count_complete"] is False
    assert record["reason"] == "interrupted" and record["status"] == "multiple"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "code", "word"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGHUP, 129, "hung up")],
)
def test_sigterm_and_sighup_during_a_count_keep_it_as_ctrl_c_does(
    sig: int, code: int, word: str
) -> None:
    args = ["solve", "--count", "-n", "100000000", str(PUZZLES / "empty-9x9.txt"), "-f", "jsonl"]
    process, _, master = on_a_terminal(args, b"solutions found so far")
    process.send_signal(sig)
    out, _ = process.communicate(timeout=PATIENCE)
    said = rest_of(master).decode(errors="replace")
    assert process.returncode == code, said
    record = json.loads(out)
    assert record["count"] > 1 and record["count_complete"] is False
    assert record["reason"] == "interrupted" and record["time"] > 0.1  # it searched
    assert said.rstrip().endswith(f"sudosat: {word}")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_with_workers_keeps_the_count_in_hand(sig: int, tmp_path: Path) -> None:
    """-j 2: the workers are told to stop too, and the first puzzle in progress is
    written with what its count had found (N+), its records before it whole."""
    blanks = tmp_path / "blanks.txt"
    blanks.write_text("." * 81 + "\n" + "." * 81 + "\n")
    args = ["solve", "--count", "-n", "100000000", "-j", "2", str(blanks), "-f", "jsonl"]
    process, _, master = on_a_terminal(args, b"puzzle")  # the progress bar: at work
    waited_for(lambda: cpu_seconds(process.pid) >= 2, "2 s of CPU")
    process.send_signal(sig)
    out, _ = process.communicate(timeout=PATIENCE)
    said = rest_of(master).decode(errors="replace")
    assert process.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], said
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["line"] == 1 and record["count"] > 1 and record["count_complete"] is False
    assert record["time"] > 0.1


def test_an_estimate_tells_its_count_and_its_walks() -> None:
    from sudosat import parse
    from sudosat.solving import progress
    from sudosat.solving.estimate import estimate

    blank = parse("." * 16)  # 288 solutions
    told: list[tuple[str, int]] = []
    with progress.watched(lambda what, done: told.append((what, done))):
        estimate(blank, seed=1)  # counted exactly
    assert told[-1] == ("solutions counted", 288)
    told.clear()
    with progress.watched(lambda what, done: told.append((what, done))):
        estimate(blank, seed=1, exact_limit=0)  # sampled
    walks = [done for what, done in told if what == "walks sampled"]
    assert walks[:2] == [1, 2] and len(walks) > 2  # the pilot's, then each look's


def test_a_batch_knows_its_total_for_the_time_left(tmp_path: Path) -> None:
    lines = (PUZZLES / "tdoku-magictour-25.txt").read_text()
    path = tmp_path / "batch.txt"
    path.write_text("# a comment\n" + lines + "# another\n")
    inputs = Inputs([str(path)], variants=NO_VARIANTS)
    puzzles = [line for line in lines.splitlines() if line.strip() and line[0] != "#"]
    assert inputs.total() == len(puzzles) == 25
    assert Inputs([str(path), ESCARGOT], inline={ESCARGOT}).total() == inputs.total() + 1


# --- a grid that cannot be read -------------------------------------------------


def test_a_16x16_with_its_numbers_run_together_gets_a_hint(run: Run, tmp_path: Path) -> None:
    grid = (PUZZLES / "numbers-16x16.txt").read_text()
    rows = [line.split() for line in grid.splitlines() if line.strip() and line[0] != "#"]
    assert len(rows) == 16
    path = tmp_path / "together.txt"
    path.write_text("\n".join("".join(v if v != "0" else "." for v in row) for row in rows))
    code, _, err = run("solve", str(path))
    assert code == 2
    assert "run-together numbers" in err and "separate them with spaces" in err


# --- usage errors, help and completion ----------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["solve", "--bogus"], "sudosat solve: no such option --bogus; see sudosat solve --help"),
        (["solve", "--cout"], "sudosat solve: no such option --cout; did you mean --count?"),
        (["solve", "--version"], "sudosat solve: no such option --version; sudosat --version"),
        (["slove"], "sudosat: no such command slove; did you mean solve?"),
        (["solve", "--rank", "99", "x"], "sudosat solve: invalid value for --rank: 99 is not"),
        (["solve", "--format"], "sudosat solve: option --format requires an argument"),
        (["cnf", "a", "b"], "sudosat cnf: got unexpected extra argument (b)"),
        (["verify"], "sudosat verify: missing argument DIR..."),
    ],
)
def test_a_usage_error_is_one_line_as_an_input_error_is(
    args: list[str], said: str, run: Run
) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(said), err
    assert "Usage:" not in err and "Try " not in err


def test_the_same_one_line_from_the_installed_command() -> None:
    done = subprocess.run([str(SUDOSAT), "solve", "--bogus"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "sudosat solve: no such option --bogus; see sudosat solve --help\n"


@pytest.mark.parametrize("name", sorted(visible_options()))
def test_dash_h_is_short_and_dash_dash_help_is_whole_by_heading(name: str, run: Run) -> None:
    command = cli.get_command(click.Context(cli), name)
    _, short, _ = run(name, "-h")
    _, whole, _ = run(name, "--help")
    assert short.startswith(f"Usage: sudosat {name} ") and whole.startswith(short.split("\n")[0])
    listed = [o for _, o in visible_options()[name]]
    usual = getattr(command, "usual", ())
    assert 1 <= len(usual) <= 10 and all(any(u in o.opts for o in listed) for u in usual)
    shown = re.findall(r"^  (?:-\w, )?(--?[\w-]+)", short.split("Usual options:")[1], re.M)
    assert shown == [*usual, "-h", "--help"]
    if len(listed) > 12:  # a long list: -h shows the usual ones, --help all by heading
        assert len(short.splitlines()) < 0.6 * len(whole.splitlines())
    assert "Examples:" in short and "Examples:" in whole
    assert f"sudosat {name} --help lists every option" in short
    assert "Help:" in whole and all(o.opts[-1] in whole for o in listed)
    assert "not used" not in whole.lower()


def test_solve_help_groups_its_options_under_headings(run: Run) -> None:
    _, whole, _ = run("solve", "--help")
    headings = [line for line in whole.splitlines() if line.endswith(":") and line[0] != " "]
    for heading in ("Counting:", "Reading puzzles:", "Solver:", "Output:", "Runs of many:"):
        assert heading in headings, headings
    counting = whole.split("Counting:")[1].split("\n\n")[0]
    assert "--estimate" in counting and "--jobs" not in counting


@pytest.mark.slow
def test_bash_completes_file_names_and_options(tmp_path: Path) -> None:
    """In a real interactive bash on a terminal, with the completion the docs give."""
    (tmp_path / "puzzles").symlink_to(PUZZLES)
    master, slave = pty.openpty()
    env = {**os.environ, "PATH": f"{SUDOSAT.parent}:{os.environ['PATH']}", "PS1": "$ "}
    env.update(HOME=str(tmp_path), TERM="dumb", INPUTRC="/dev/null")
    process = subprocess.Popen(
        ["bash", "--norc", "--noprofile", "-i"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=tmp_path,
        env=env,
        start_new_session=True,
    )
    os.close(slave)

    def typed(text: str, until: bytes) -> bytes:
        os.write(master, text.encode())
        seen = b""
        while until not in seen:
            ready, _, _ = select.select([master], [], [], PATIENCE)
            assert ready, f"bash never showed {until!r}: {seen[-300:]!r}"
            seen += os.read(master, 4096)
        return seen

    try:
        typed('eval "$(_SUDOSAT_COMPLETE=bash_source sudosat)"; echo READY\n', b"READY\r\n")
        typed("sudosat solve puzzles/ai-esc\t", b"ai-escargot.txt")
        typed("\x15", b"")  # the line erased
        typed("sudosat solve --rules-f\t", b"--rules-file")
        typed("\x15sudosat solve --rules-file puzzles/thermo-a\t", b"thermo-arrow.json")
        typed("\x15exit\n", b"exit")
    finally:
        process.kill()
        process.wait(PATIENCE)
        os.close(master)
