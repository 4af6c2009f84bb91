"""The tests' fast tier on every Python of this machine that ``requires-python``
admits, besides the one of ``.venv`` (whose whole suite ``make test`` runs), and
on the oldest mypy and the README's examples as pasted: what ``make pythons``
(part of ``make test``) does.

    scripts/pythons.py           # each in .venvs/X.Y, its results in build/pythons.json
    scripts/pythons.py --list    # the Pythons found, one a line: version and path

A Python is found as ``pythonX.Y`` on PATH or under pyenv's versions (PYENV_ROOT,
else ~/.pyenv), and counts when it runs. tests/stories/test_pythons.py holds the
results to the Pythons found: each supported one ran, and passed.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "build" / "pythons.json"
VENVS = ROOT / ".venvs"
NEWEST_MINOR = 20
"""Looked for up to Python 3.20."""


def oldest_supported() -> tuple[int, int]:
    """The oldest Python ``requires-python`` admits (its ``>=X.Y``)."""
    text = (ROOT / "pyproject.toml").read_text()
    found = re.search(r'^requires-python\s*=\s*">=\s*(\d+)\.(\d+)"', text, re.M)
    if found is None:
        raise SystemExit("pythons: pyproject.toml has no requires-python >=X.Y")
    return int(found[1]), int(found[2])


def version_of(python: str) -> tuple[int, int, int] | None:
    """The version a Python program says it is; None when it does not run."""
    try:
        said = subprocess.run(
            [python, "-c", "import sys; print(*sys.version_info[:3])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = said.stdout.split()
    if said.returncode != 0 or len(parts) != 3:
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def found() -> dict[tuple[int, int], tuple[str, tuple[int, int, int]]]:
    """Each supported minor version found on this machine: its program and version."""
    oldest = oldest_supported()
    pyenv = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))
    pythons: dict[tuple[int, int], tuple[str, tuple[int, int, int]]] = {}
    for minor in range(oldest[1], NEWEST_MINOR + 1):
        name = f"python3.{minor}"
        candidates = [shutil.which(name), *sorted(glob.glob(f"{pyenv}/versions/*/bin/{name}"))]
        for candidate in filter(None, candidates):
            version = version_of(candidate)
            if version is not None and version[:2] == (3, minor):
                pythons[(3, minor)] = (str(Path(candidate).resolve()), version)
                break
    return pythons


def main_python() -> tuple[int, int] | None:
    """The minor version of ``.venv``'s Python (its whole suite runs in ``make test``)."""
    version = version_of(str(ROOT / ".venv" / "bin" / "python"))
    return None if version is None else version[:2]


def venv_for(minor: tuple[int, int], python: str) -> Path:
    """``.venvs/X.Y`` with sudosat and its test tools, made or brought up to date
    (made again when pyproject.toml changes)."""
    folder = VENVS / f"{minor[0]}.{minor[1]}"
    stamp = folder / ".installed"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    uv = Path(sys.executable).with_name("uv")  # .venv's (the dev extra): 5x pip's speed
    if uv.exists():
        subprocess.run([str(uv), "venv", "-q", "-p", python, str(folder)], check=True)
        python_of = ["-p", str(folder / "bin" / "python")]
        install = [str(uv), "pip", "install", "-q", "--compile-bytecode", *python_of]
    else:
        subprocess.run([python, "-m", "venv", str(folder)], check=True)
        install = [str(folder / "bin" / "python"), "-m", "pip", "install", "-q"]
        install.append("--disable-pip-version-check")
    subprocess.run([*install, "-e", ".[test]"], cwd=ROOT, check=True)
    stamp.write_text(wanted)
    return folder


def ran(command: list[str]) -> tuple[str, float]:
    """``passed`` or ``failed``, and the seconds it took; its output goes on."""
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT)
    return ("passed" if done.returncode == 0 else "failed"), round(time.monotonic() - start, 1)


def run_all() -> int:
    pythons = found()
    main = main_python()
    others = {minor: entry for minor, entry in pythons.items() if minor != main}
    oldest = min(pythons) if pythons else None
    results = []
    for minor, (python, version) in sorted(others.items()):
        said = ".".join(map(str, version))
        print(f"pythons: {said} ({python}): the fast tier", flush=True)
        folder = venv_for(minor, python)
        bin_ = folder / "bin"
        # sudosat's own byte-code for this Python (an editable install has none, and
        # PYTHONDONTWRITEBYTECODE keeps a start from writing it): see make bytecode
        subprocess.run([str(bin_ / "python"), "-m", "compileall", "-q", "sudosat"], cwd=ROOT)
        entry: dict[str, object] = {"python": said, "path": python}
        tests = [str(bin_ / "python"), "-m", "pytest", "-n", "auto", "-q", "-p", "no:cacheprovider"]
        if minor == oldest:  # mypy for it, and the README's examples run as pasted
            entry["mypy"], _ = ran([str(bin_ / "mypy"), "sudosat"])
            readme = [*tests, "tests/stories/test_docs.py", "-k", "README"]
            entry["readme"], _ = ran(readme)
        entry["tests"], entry["seconds"] = ran([*tests, "-m", "not slow"])
        results.append(entry)
    RESULTS.parent.mkdir(exist_ok=True)
    main_said = None if main is None else f"{main[0]}.{main[1]}"
    RESULTS.write_text(json.dumps({"main": main_said, "others": results}, indent=2) + "\n")
    for entry in results:
        more = "".join(f", {c} {entry[c]}" for c in ("mypy", "readme") if c in entry)
        print(f"pythons: {entry['python']}: fast tier {entry['tests']}{more}")
    checks = ("tests", "mypy", "readme")
    failed = [e for e in results if any(e.get(c, "passed") != "passed" for c in checks)]
    return 1 if failed else 0


def main() -> int:
    if sys.argv[1:] == ["--list"]:
        for _, (python, version) in sorted(found().items()):
            print(".".join(map(str, version)), python)
        return 0
    if sys.argv[1:]:
        raise SystemExit("usage: scripts/pythons.py [--list]")
    return run_all()


if __name__ == "__main__":
    sys.exit(main())
