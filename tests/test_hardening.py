"""The regression corpus of issue 11: hostile input, closed pipes, full disks,
bugs. Each case is run through the installed command in a real process, so the
exit code and stderr are what a shell sees."""

from __future__ import annotations

import errno
import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from sudosat.cli import os_failure
from sudosat.core.notation import format_line
from sudosat.core.puzzle import verify
from sudosat.reading.formats import parse

from .conftest import ESCARGOT, SUDOSAT


def sudosat(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    done = subprocess.run([str(SUDOSAT), *args], input=input, capture_output=True, timeout=120)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def one_line_error(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "code", "says"),
    [
        (b"1\t2\t3\n", 2, "wrong number of cells"),  # a tab once raised StopIteration
        (" ".join(["\u00b2"] + ["0"] * 15).encode(), 2, "unknown symbol"),  # isdigit() but no int
        (" ".join(["\u0663"] + ["0"] * 15).encode(), 2, "unknown symbol"),  # Arabic-Indic 3
        (" ".join(["1" * 5000] + ["0"] * 15).encode(), 2, "(5,000 characters) out of range"),
        (b"x" * 3_000_000 + b"\n", 2, "line longer than 2,097,152 bytes"),
        (b"1" * 1_000_000 + b"\n", 2, "wrong number of cells: found 1000000"),  # took 9 s
        (b"12 3 " * 200_000 + b"\n", 2, "wrong number of cells: found 400000"),
        (b"\xff\xfe junk", 2, "binary data"),
    ],
)
@pytest.mark.slow
def test_bad_puzzle_text_is_one_line_never_a_traceback(
    tmp_path: Path, content: bytes, code: int, says: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    got, _, err = sudosat("solve", str(path))
    assert got == code and says in err and one_line_error(err), err


def test_tabs_are_white_space(tmp_path: Path) -> None:
    path = tmp_path / "tabs.txt"
    path.write_text("\n".join("\t".join(ESCARGOT[r * 9 : r * 9 + 9]) for r in range(9)))
    code, out, err = sudosat("solve", str(path), "--format", "line")
    assert code == 0, err
    assert not verify(parse(ESCARGOT), tuple(int(ch) for ch in out.strip()))


@pytest.mark.slow
def test_csv_with_cr_line_ends_and_huge_fields(tmp_path: Path) -> None:
    cr = tmp_path / "cr.csv"
    cr.write_bytes(f"puzzle,solution\r{ESCARGOT},\r{ESCARGOT},\r".encode())
    code, out, err = sudosat("solve", str(cr), "--format", "jsonl", "-q")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert [(r["line"], r["status"]) for r in records] == [(2, "unique"), (3, "unique")]
    huge = tmp_path / "huge.csv"
    huge.write_text(f"puzzle,solution\n{ESCARGOT},{'x' * 200_000}\n")
    code, _, err = sudosat("solve", str(huge), "--format", "jsonl", "-q")
    assert code == 0 and "Traceback" not in err


@pytest.mark.slow
def test_an_overlong_line_in_a_batch_is_one_error_record(tmp_path: Path) -> None:
    path = tmp_path / "batch.txt"
    path.write_text(f"{ESCARGOT}\n{'1' * 3_000_000}\n{ESCARGOT}\n")
    code, out, _ = sudosat("solve", str(path), "--format", "jsonl", "-q")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [(r["line"], r["status"]) for r in records] == [
        (1, "unique"),
        (2, "error"),
        (3, "unique"),
    ]
    assert "line longer than" in records[1]["reason"]


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "/dev/zero"),
        ("cnf", "/dev/zero"),
        ("solve", "-f", "jsonl", "/dev/zero"),
        ("solve", "-f", "csv", "/dev/zero"),
        ("decode", "puzzles/ai-escargot.txt", "/dev/zero"),
        ("rate", "/dev/zero"),
    ],
)
@pytest.mark.slow
def test_endless_input_is_refused_in_bounded_memory(args: tuple[str, ...]) -> None:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([str(SUDOSAT), *args], cwd=root, capture_output=True, timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 2 and "/dev/zero" in err and one_line_error(err), err
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [str(SUDOSAT), *[arg if arg != "/dev/zero" else "-" for arg in args]],
            cwd=root,
            stdin=zeros,
            capture_output=True,
            timeout=120,
        )
    err = done.stderr.decode()
    assert done.returncode == 2 and "<stdin>" in err and one_line_error(err), err


@pytest.mark.slow
def test_a_file_name_with_a_newline_is_printed_escaped(tmp_path: Path) -> None:
    path = tmp_path / "evil\n\x1b[31mname.txt"
    path.write_text("123")
    code, _, err = sudosat("solve", str(path))
    assert code == 2 and one_line_error(err) and "evil\\n\\x1b[31mname.txt" in err


@pytest.mark.parametrize(
    "args",
    [("cnf", "--rank", "5"), ("solve", "--format", "jsonl", "puzzles/tdoku-magictour-25.txt")],
)
@pytest.mark.slow
def test_a_closed_pipe_ends_the_run_quietly(args: tuple[str, ...]) -> None:
    root = Path(__file__).resolve().parents[1]
    shell = f"'{SUDOSAT}' {' '.join(args)} | head -1 > /dev/null; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run(
        ["bash", "-c", shell], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "0"
    assert "Error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_full_disk_is_one_line_exit_74(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(ESCARGOT)
    for args in (
        ("solve", str(puzzle)),
        ("cnf", str(puzzle)),
        ("cnf", str(puzzle), "-o", "/dev/full"),
    ):
        with open("/dev/full", "wb") as full:
            done = subprocess.run(
                [str(SUDOSAT), *args], stdout=full, stderr=subprocess.PIPE, timeout=60
            )
        err = done.stderr.decode()
        assert done.returncode == 74 and "No space left on device" in err and one_line_error(err)


@pytest.mark.slow
def test_a_resource_the_system_refuses_is_one_line_exit_71(tmp_path: Path) -> None:
    # Ten file descriptors: enough to start, too few for a pool of two workers.
    puzzles = tmp_path / "many.txt"
    puzzles.write_text((format_line(parse(ESCARGOT)) + "\n") * 300)

    def few_descriptors() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (10, 10))

    done = subprocess.run(
        [str(SUDOSAT), "solve", str(puzzles), "-f", "jsonl", "-j", "2", "-q"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=few_descriptors,
    )
    assert done.returncode == 71, done.stderr
    assert "system error: Too many open files" in done.stderr and one_line_error(done.stderr)


def test_os_failure_tells_output_from_the_system() -> None:
    assert os_failure(OSError(errno.ENOSPC, "No space left on device"))[0] == 74
    code, message = os_failure(OSError(errno.EMFILE, "Too many open files"))
    assert code == 71 and message == "system error: Too many open files"
    code, message = os_failure(PermissionError(errno.EACCES, "Permission denied", "/dev/shm"))
    assert code == 71 and message == "system error: /dev/shm: Permission denied"


@pytest.mark.slow
def test_a_sigterm_during_a_finalizer_still_ends_in_143(tmp_path: Path) -> None:
    # Python drops an exception raised in __del__; the signal must not be lost with it.
    code = (
        "import os, signal, sys, sudosat.commands.solve as cli\n"
        "class Late:\n"
        "    def __del__(self):\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        sum(range(1000))  # the handler runs here, inside the finalizer\n"
        "solve = cli.answer\n"
        "def answer(*args, **kwargs):\n"
        "    Late()\n"
        "    return solve(*args, **kwargs)\n"
        "cli.answer = answer\n"
    )
    done = with_patched_cli(code, tmp_path)
    assert done.returncode == 143 and done.stderr.endswith("sudosat: terminated\n")
    assert "Exception ignored" not in done.stderr  # the dropped exception says nothing


@pytest.mark.slow
def test_an_internal_error_is_one_line_exit_70_and_debug_shows_it(tmp_path: Path) -> None:
    # a bug, put in on purpose: the solve command's worker raises
    code = (
        "import sys, sudosat.commands.solve as cli\n"
        "def bug(*args, **kwargs): raise ZeroDivisionError('a bug')\n"
        "cli.answer = bug\n"
    )
    done = with_patched_cli(code, tmp_path)
    assert done.returncode == 70 and one_line_error(done.stderr)
    assert "internal error: ZeroDivisionError: a bug" in done.stderr
    done = with_patched_cli(code, tmp_path, "--debug")
    assert done.returncode == 70 and "Traceback" in done.stderr


def with_patched_cli(patch: str, tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``sudosat [options] solve`` on a puzzle, in a process whose solve command's
    module ``patch`` (Python source) has changed first."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(ESCARGOT)
    run = "import sudosat.__main__ as entry\nentry.main()\n"
    code = patch + "sys.argv = ['sudosat', *sys.argv[1:]]\n" + run
    return subprocess.run(
        [sys.executable, "-c", code, *options, "solve", str(puzzle)],
        capture_output=True,
        text=True,
        timeout=60,
    )
