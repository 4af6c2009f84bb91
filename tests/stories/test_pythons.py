"""Every Python that ``requires-python`` admits runs the tests: ``make test`` runs
the fast tier on each other one found on the machine (scripts/pythons.py, beside
this suite: scripts/test-all), and this test, run after them, holds their results
to the Pythons found."""

from __future__ import annotations

import json
import os
import re
import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import pythons  # (scripts/ is no package)


def test_requires_python_is_what_the_readme_and_the_docs_promise() -> None:
    major, minor = pythons.oldest_supported()
    said = f"Python {major}.{minor} or later"
    assert said in (ROOT / "README.md").read_text()
    assert said in (ROOT / "docs" / "start.md").read_text()
    assert sys.version_info[:2] >= (major, minor)


@pytest.mark.slow  # (scripts/test-all runs it once the other Pythons end: not in their fast tier)
def test_every_supported_python_found_ran_the_fast_tier_and_passed() -> None:
    found = pythons.found()
    if not pythons.RESULTS.exists():
        if os.environ.get("CI"):
            pytest.fail("build/pythons.json is missing: make test runs scripts/pythons.py first")
        pytest.skip("scripts/pythons.py has not run here (make test runs it)")
    results = json.loads(pythons.RESULTS.read_text())
    ran = {re.sub(r"^(\d+\.\d+).*", r"\1", e["python"]): e for e in results["others"]}
    listed = ", ".join(f"{e['python']}: {e['tests']}" for e in results["others"])
    print(
        f"the fast tier ran on {listed or 'no other Python'}; the whole suite on {results['main']}"
    )
    for minor in found:
        name = f"{minor[0]}.{minor[1]}"
        if name == results["main"]:
            continue
        assert name in ran, f"Python {name} is on this machine but ran no tests ({listed})"
        assert ran[name]["tests"] == "passed", f"Python {name}: {ran[name]}"
    oldest = min(found) if found else None
    if oldest is not None and f"{oldest[0]}.{oldest[1]}" != results["main"]:
        on_the_oldest = ran[f"{oldest[0]}.{oldest[1]}"]  # mypy, and the README as pasted
        assert on_the_oldest.get("mypy") == on_the_oldest.get("readme") == "passed", on_the_oldest
