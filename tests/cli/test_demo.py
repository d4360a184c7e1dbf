"""``hallucheck demo`` with the default checker: each bundled example flags the error it describes.

Each example's ``metadata.expect`` names the decision and, for every error its note describes, the
passage of the answer that holds it (``text``) and the part a span must cover (``flag``). The test
runs the demo itself and checks, per example: the decision; a span on each described error; and no
span outside the described passages (nothing grounded is marked).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from hallucheck.cli.demo import example_cases

pytestmark = pytest.mark.slow

EXAMPLES = example_cases()


def _regions(answer: str, errors: list[dict[str, str]]) -> list[tuple[int, int, int, int]]:
    """(passage start, end, flag start, end) of each described error, located in the answer."""
    out = []
    for err in errors:
        assert answer.count(err["text"]) == 1, f"the passage {err['text']!r} must occur once in the answer"
        start = answer.index(err["text"])
        flag = start + err["text"].index(err["flag"])
        out.append((start, start + len(err["text"]), flag, flag + len(err["flag"])))
    return out


@pytest.fixture(scope="module")
def demo_reports() -> dict[str, dict[str, Any]]:
    """The demo's own JSON output (``hallucheck demo --format json``), by example."""
    proc = subprocess.run([sys.executable, "-m", "hallucheck", "demo", "--format", "json"], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    return {row["example"]: row for row in map(json.loads, proc.stdout.splitlines())}


def test_every_language_has_an_example(demo_reports: dict[str, dict[str, Any]]) -> None:
    assert {r["language"] for r in demo_reports.values()} >= {"en", "de", "fr", "zh-Hans", "zh-Hant"}
    assert set(demo_reports) == set(EXAMPLES)


def test_every_language_has_a_grounded_example_that_is_accepted(demo_reports: dict[str, dict[str, Any]]) -> None:
    grounded = [name for name, case in EXAMPLES.items() if case["metadata"]["expect"]["decision"] == "accept"]
    assert {demo_reports[name]["language"] for name in grounded} >= {"en", "de", "fr", "zh-Hans", "zh-Hant"}
    for name in grounded:
        report = demo_reports[name]
        assert (report["decision"], report["spans"]) == ("accept", []), (name, report["risk_score"], report["spans"])


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_flags_exactly_what_it_describes(name: str, demo_reports: dict[str, dict[str, Any]]) -> None:
    case = EXAMPLES[name]
    expect = case["metadata"]["expect"]
    report = demo_reports[name]
    spans = [(s["start"], s["end"], s["text"]) for s in report["spans"]]
    assert report["decision"] == expect["decision"], (report["decision"], spans)
    regions = _regions(case["answer"], expect["errors"])
    for (_, _, f0, f1), err in zip(regions, expect["errors"]):
        assert any(a <= f0 and f1 <= b for a, b, _ in spans), f"{err['flag']!r} is not inside a span: {spans}"
    for a, b, text in spans:
        assert any(a < r1 and r0 < b for r0, r1, _, _ in regions), f"span {text!r} marks text the note calls right"
