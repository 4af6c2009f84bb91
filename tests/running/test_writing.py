"""Writing --out: whole or not at all, through special files, never over an input."""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sudosat.system.writing import OutputRefused, write_out
from tests.conftest import (
    ESCARGOT,
    PATIENCE,
    PUZZLES,
    SUDOSAT,
    Run,
    as_a_shell_starts_it,
    one_line_error,
    tree,
)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_write_replaces_whole_and_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "out.cnf"
    write_out(str(target), lambda handle: handle.write("new\n"))
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o666 & ~_umask()
    os.chmod(target, 0o640)
    write_out(str(target), lambda handle: handle.write("newer\n"))
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640  # kept, as a shell's > keeps it

    def broken(handle: object) -> None:
        raise OSError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        write_out(str(target), broken)
    assert target.read_text() == "newer\n"  # a failed write keeps the old file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.cnf"]


def test_a_symlink_keeps_its_link_and_gets_a_new_target(tmp_path: Path) -> None:
    real = tmp_path / "real.cnf"
    real.write_text("old\n")
    link = tmp_path / "link.cnf"
    link.symlink_to(real)
    write_out(str(link), lambda handle: handle.write("new\n"))
    assert link.is_symlink() and real.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.cnf", "real.cnf"]


def test_a_fifo_and_a_device_are_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_out(str(fifo), lambda handle: handle.write("p cnf 1 1\n1 0\n"))
    reader.join(PATIENCE)
    assert got == [b"p cnf 1 1\n1 0\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    write_out(os.devnull, lambda handle: handle.write("gone\n"))
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)  # still the device


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "empty"),
        ("sub", "is a directory"),
        ("missing/out.cnf", "no directory"),
        ("in.txt", "is also an input"),
    ],
)
def test_paths_that_must_not_be_written(tmp_path: Path, name: str, message: str) -> None:
    (tmp_path / "sub").mkdir()
    source = tmp_path / "in.txt"
    source.write_text(ESCARGOT)
    path = str(tmp_path / name) if name else ""
    with pytest.raises(OutputRefused, match=message):
        write_out(path, lambda handle: handle.write("x"), [str(source)])
    assert source.read_text() == ESCARGOT


def test_a_kill_mid_write_leaves_no_file_and_stale_ones_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "out.cnf"
    code = (
        "import os, signal\n"
        "from sudosat.system.writing import write_out\n"
        "def die(handle):\n"
        "    handle.write('x' * 100000); handle.flush()\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        f"write_out({str(target)!r}, die)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=60)
    assert done.returncode == -9
    assert list(tmp_path.iterdir()) == []  # O_TMPFILE: nothing was ever named
    stale = tmp_path / f".sudosat-{done.args and 2**22 + 7}-0badf00d.tmp"  # a pid no one has
    stale.write_text("left by a killed run")
    mine = tmp_path / f".sudosat-{os.getpid()}-0badf00d.tmp"  # a live process's
    mine.write_text("still being written")
    write_out(str(target), lambda handle: handle.write("new\n"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["out.cnf", mine.name])


@pytest.mark.parametrize(("signum", "code", "says"), [(1, 129, "hung up"), (15, 143, "terminated")])
@pytest.mark.slow
def test_a_signal_during_a_big_cnf_out_leaves_nothing(
    tmp_path: Path, signum: int, code: int, says: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    process = subprocess.Popen(
        [str(SUDOSAT), "cnf", "--rank", "7", "--out", str(out / "r7.cnf")],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )
    try:
        while not _writing_unnamed(process.pid, out) and process.poll() is None:
            time.sleep(0.01)  # waits for the moment to signal; decides nothing
        if process.poll() is not None:
            pytest.skip("the 185 MB CNF was written before it could be interrupted")
        process.send_signal(signum)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == code and err.strip() == f"sudosat: {says}"
    assert list(out.iterdir()) == []


def _writing_unnamed(pid: int, directory: Path) -> bool:
    """Whether ``pid`` or a process below it holds an O_TMPFILE file in ``directory`` open."""
    links = []
    for member in tree(pid):
        with contextlib.suppress(OSError):
            links += [
                os.readlink(f"/proc/{member}/fd/{fd}") for fd in os.listdir(f"/proc/{member}/fd")
            ]
    return any(link.startswith(f"{directory}/#") for link in links)


def test_cnf_out_refuses_its_input_and_a_directory(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "p.txt"
    source.write_text(ESCARGOT + "\n")
    code, _, err = run("cnf", str(source), "--out", str(source))
    assert code == 2 and "is also an input" in err and source.read_text() == ESCARGOT + "\n"
    code, _, err = run("cnf", str(source), "--out", str(tmp_path))
    assert code == 2 and "is a directory" in err
    code, _, err = run("cnf", str(source), "--out", str(tmp_path / "no" / "x.cnf"))
    assert code == 2 and "no directory" in err and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["same", "symlink", "hard link"])
def test_no_input_is_overwritten(kind: str, tmp_path: Path, run: Run) -> None:
    rules = tmp_path / "r.txt"
    rules.write_text("cage 3: r1c1 r1c2\n")
    out = tmp_path / "out.cnf"
    if kind == "symlink":
        out.symlink_to(rules)
    elif kind == "hard link":
        os.link(rules, out)
    else:
        out = rules
    puzzle = str(PUZZLES / "ai-escargot.txt")
    code, _, err = run("cnf", puzzle, "--rules-file", str(rules), "--out", str(out))
    assert one_line_error(err, code) and "is also an input" in err
    assert rules.read_text() == "cage 3: r1c1 r1c2\n"
