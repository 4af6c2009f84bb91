"""Pictures checked by looking at them: each rule drawn on a small grid, rendered
to PNG and compared with a reference image in tests/references (a few KB each),
so that a drawing regression fails the suite. ``SUDOSAT_REFERENCES=write``
writes the references anew (look at them before committing them).

The tolerance is a share of the pixels that may differ clearly; each reference
must differ from the plain grid by more than it, so that a rule that stops
drawing is caught."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from sudosat import parse
from sudosat.rules import BY_WORD
from tests.conftest import ROOT

pytest.importorskip("cairosvg")
from PIL import Image, ImageChops

from sudosat.showing.pictures import Caption, picture, png

REFERENCES = ROOT / "tests" / "references"
SCALE = 0.5
"""Picture units to pixels: 20 pixels a cell, enough to see each mark."""
TOLERANCE = 0.0005
"""The share of pixels that may differ by more than CLEAR (anti-aliasing, a font's hinting)."""
CLEAR = 24

SAMPLES: dict[str, str] = {
    "anti-knight": "anti-knight",
    "anti-king": "anti-king",
    "anti-taxicab": "anti-taxicab",
    "diagonals": "diagonals",
    "diagonal+": "diagonal+",
    "diagonal-": "diagonal-",
    "disjoint-groups": "disjoint-groups",
    "nonconsecutive": "nonconsecutive",
    "negative": "negative: xv",
    "cage": "cage 7: r1c1 r1c2 r2c1",
    "rellik": "rellik 3: r3c3 r3c4",
    "extra-region": "extra-region: r1c3 r2c3 r2c4 r1c4",
    "little-killer": "little-killer 5: r0c1 dr\nlittle-killer 6: r5c4 ul",
    "odd": "odd: r2c2",
    "marks": "marks 13: r2c2",
    "even": "even: r3c3",
    "minimum": "minimum: r2c2",
    "maximum": "maximum: r3c3",
    "quadruple": "quadruple 1 2: r2c2 r2c3 r3c2 r3c3",
    "clone": "clone: r1c1 r1c2 = r4c3 r4c4",
    "difference": "difference: r1c1 r1c2",
    "ratio": "ratio: r2c1 r3c1",
    "x": "x: r4c1 r4c2\nv: r3c4 r4c4",
    "thermo": "thermo: r4c1 r3c1 r3c2",
    "slow-thermo": "slow-thermo: r1c4 r2c4 r3c4",
    "arrow": "arrow: r2c2 > r2c3 r3c3",
    "double-arrow": "double-arrow: r1c1 r2c2 r3c3 r4c4",
    "palindrome": "palindrome: r1c1 r1c2 r1c3",
    "renban": "renban: r2c1 r2c2 r2c3",
    "whispers": "whispers: r3c1 r3c2 r4c3",
    "between": "between: r1c1 r2c2 r1c3",
    "region-sum": "region-sum: r2c2 r2c3 r3c3",
    "zipper": "zipper: r4c1 r4c2 r4c3",
    "lockout": "lockout: r1c2 r2c3 r3c4",
    "modular": "modular: r3c1 r3c2 r3c3",
    "sandwich": "sandwich 3: r0c2\nsandwich 0: r3c5",
    "x-sum": "x-sum 6: r0c1",
    "skyscraper": "skyscraper 2: r5c3",
    "row-indexer": "row-indexer: r1c1",
    "column-indexer": "column-indexer: r2c2",
    "box-indexer": "box-indexer: r3c3",
    "entropic": "size 9\nentropic: r1c1 r1c2 r1c3 r2c3",
}
PLAIN = "size 4"


def drawn(statements: str) -> Image.Image:
    """The picture of an empty grid (4x4 unless a size says) with ``statements``
    and one given, as pixels."""
    given = "size 9" not in statements
    grid = "1" + "." * 15 if given else "." * 81
    puzzle = parse(f"{statements}\n{grid}\n", source="<sample>")
    data = png(picture(puzzle, title=Caption()), SCALE)
    return Image.open(io.BytesIO(data)).convert("RGB")


def differing(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ clearly; 1 when the sizes differ."""
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a, b).convert("L")
    clear = sum(diff.histogram()[CLEAR:])
    return clear / (a.size[0] * a.size[1])


def test_every_rule_has_a_sample() -> None:
    ours = {kind.words[0] for kind in BY_WORD.values() if kind.__module__.startswith("sudosat.")}
    assert ours == {BY_WORD[word].words[0] for word in SAMPLES}


@pytest.mark.parametrize("word", sorted(SAMPLES))
def test_each_rule_draws_as_its_reference(word: str) -> None:
    image = drawn(SAMPLES[word])
    reference = REFERENCES / f"{word.replace('+', 'plus').replace('-', '_')}.png"
    if os.environ.get("SUDOSAT_REFERENCES") == "write":
        REFERENCES.mkdir(exist_ok=True)
        image.save(reference, optimize=True)
    assert reference.exists(), f"no {reference}: run with SUDOSAT_REFERENCES=write and look"
    expected = Image.open(reference).convert("RGB")
    plain = drawn(PLAIN) if "size 9" not in SAMPLES[word] else drawn("size 9")
    assert differing(expected, plain) > 2 * TOLERANCE  # the rule shows: the test can fail
    assert differing(image, expected) <= TOLERANCE


def test_references_stay_small() -> None:
    sizes = [path.stat().st_size for path in Path(REFERENCES).glob("*.png")]
    assert sizes and max(sizes) < 12_000 and sum(sizes) < 250_000
