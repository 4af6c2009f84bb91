"""Writing a named output: whole or not at all, and never over the wrong thing.

* A regular file (or a new one) is written to an unnamed temporary file in
  its directory (Linux ``O_TMPFILE``), linked in under a temporary name and
  renamed over the target at the end: a reader never sees half a file, and a
  kill before the end leaves nothing behind. Where ``O_TMPFILE`` is missing
  the temporary file has a name from the start. Either way the name is
  ``.sudosat-PID-*.tmp``, and a later run removes those of processes that
  have ended.
* A symlink: its target is replaced that way; the link stays.
* A FIFO, a device or anything else that is not a regular file is written
  through, as a shell's ``>`` would (``--out /dev/null`` stays a device).
* An input of the same command is refused: writing it would destroy it.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import stat
from collections.abc import Callable, Iterable
from typing import IO

from sudosat.system.signals import held

WriteFn = Callable[[IO[str]], None]
TEMP_PREFIX = ".sudosat-"
TEMP_SUFFIX = ".tmp"
AT_FDCWD = -100
AT_SYMLINK_FOLLOW = 0x400


class OutputRefused(ValueError):
    """An output path that must not be written (an input, a directory, nothing)."""


def write_out(path: str, write: WriteFn, inputs: Iterable[str] = ()) -> None:
    """Write ``path`` through ``write(handle)``, as the module says. Raises
    OutputRefused for a path that must not be written, OSError when writing fails
    (the target then is as it was)."""
    target = _target(path, inputs)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "w", encoding="utf-8") as handle:  # a FIFO or a device: through
            write(handle)
        return
    directory = os.path.dirname(target)
    remove_stale_temporaries(directory)
    _write_replacing(target, directory, write, mode)


def _target(path: str, inputs: Iterable[str]) -> str:
    """The file ``path`` names, symlinks followed, checked."""
    if not path:
        raise OutputRefused("the output path is empty")
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise OutputRefused(f"{path} is a directory")
    directory = os.path.dirname(target)
    if not os.path.isdir(directory):
        raise OutputRefused(f"cannot write {path}: no directory {directory}")
    for name in inputs:
        with contextlib.suppress(OSError):
            if name != "-" and os.path.samefile(name, target):
                raise OutputRefused(f"{path} is also an input: writing it would destroy it")
    return target


def _write_replacing(target: str, directory: str, write: WriteFn, old_mode: int | None) -> None:
    permissions = stat.S_IMODE(old_mode) if old_mode is not None else 0o666 & ~_umask()
    fd, name = _temporary(directory, permissions)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
            with held():  # named and renamed in one go: no signal between
                if name is None:
                    name = _link_unnamed(handle.fileno(), directory)
                os.replace(name, target)
                name = None
    finally:
        if name is not None:
            with contextlib.suppress(OSError):
                os.unlink(name)


def _temporary(directory: str, permissions: int) -> tuple[int, str | None]:
    """An open file for writing in ``directory``: unnamed where the system allows
    (name None), else named."""
    name: str | None = None
    try:
        fd = os.open(directory, os.O_TMPFILE | os.O_WRONLY, 0o600)
    except (OSError, AttributeError):  # not Linux, or a file system without it
        name = _temp_name(directory)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.fchmod(fd, permissions)  # as asked, whatever the umask
    return fd, name


def _link_unnamed(fd: int, directory: str) -> str:
    """A name in ``directory`` for the unnamed file open as ``fd`` (linkat with
    AT_SYMLINK_FOLLOW on /proc/self/fd, which os.link does not use); where that
    fails, a named copy."""
    while True:
        name = _temp_name(directory)
        try:
            _linkat(f"/proc/self/fd/{fd}", name)
            return name
        except FileExistsError:
            continue
        except OSError:
            break
    copy = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(copy, stat.S_IMODE(os.fstat(fd).st_mode))
        size, offset = os.fstat(fd).st_size, 0
        while offset < size:
            offset += os.sendfile(copy, fd, offset, size - offset)
        os.fsync(copy)
    finally:
        os.close(copy)
    return name


def _linkat(source: str, name: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.linkat(AT_FDCWD, os.fsencode(source), AT_FDCWD, os.fsencode(name), AT_SYMLINK_FOLLOW):
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), name)


def _temp_name(directory: str) -> str:
    return os.path.join(directory, f"{TEMP_PREFIX}{os.getpid()}-{os.urandom(4).hex()}{TEMP_SUFFIX}")


def remove_stale_temporaries(directory: str) -> None:
    """Remove ``.sudosat-PID-*.tmp`` files left in ``directory`` by runs that were
    killed (their process is gone)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)):
            continue
        pid = name[len(TEMP_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and pid.isascii() and not _running(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(directory, name))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError as err:
        return err.errno == errno.EPERM
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
