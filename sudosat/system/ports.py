"""Which program holds a TCP port: what ``sudosat serve`` says when it cannot
listen (Linux: /proc/net/tcp and tcp6, and each process's open sockets)."""

from __future__ import annotations

import os
from pathlib import Path

LISTEN = "0A"
"""The state of a listening socket in /proc/net/tcp."""


def holder(port: int) -> str | None:
    """The program listening on ``port`` (``sudosat serve (pid 1234)``), None when
    it cannot be told (another user's process, or no /proc)."""
    inodes = _listening(port)
    if not inodes:
        return None
    for pid in (entry for entry in os.listdir("/proc") if entry.isdigit()):
        try:
            sockets = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        except OSError:  # gone, or not ours to look into
            continue
        if any(f"socket:[{inode}]" in sockets for inode in inodes):
            return f"{_command(pid)} (pid {pid})"
    return None


def _listening(port: int) -> set[str]:
    """The inodes of the sockets listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if (
                len(fields) > 9
                and fields[3] == LISTEN
                and int(fields[1].rsplit(":")[-1], 16) == port
            ):
                found.add(fields[9])
    return found


def _port(address: str) -> int:
    """The port of a /proc/net/tcp address (``0100007F:11C1``)."""
    return int(address.rsplit(":", 1)[-1], 16)


def _command(pid: str) -> str:
    """A process's command as it was typed: its program by name, with its first
    two words (``sudosat serve --port``); a Python program by its script."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "a process"
    words = [os.path.basename(w.decode(errors="replace")) for w in raw[:1]]
    words += [w.decode(errors="replace") for w in raw[1:4] if w]
    if not words:
        return "a process"
    if words[0].startswith("python") and len(words) > 1:  # the script, or -m its module
        words = words[2:] if words[1] == "-m" else [os.path.basename(words[1]), *words[2:]]
    return " ".join(words[:4])
