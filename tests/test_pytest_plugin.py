"""The pytest plugin, run for real inside pytest (pytester), and its pytest11 registration."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
# Load the plugin by module name whether or not an installed entry point already loaded it.
LOAD = ("-p", "no:hallucheck", "-p", "hallucheck.pytest_plugin")

TESTS = '''
SOURCE = "The Eiffel Tower was completed in 1889 in Paris. It is 330 metres tall."

def test_grounded(assert_grounded):
    report = assert_grounded(question="q", contexts=[SOURCE], answer="It was completed in 1889 in Paris.")
    assert report.decision == "accept"

def test_made_up(assert_grounded):
    assert_grounded(question="q", contexts=[SOURCE], answer="It was completed in 1889. It is 450 metres tall [3].")

def test_checker_fixture(hallucheck_checker):
    assert hallucheck_checker.detector_names == ["numbers", "citations"]
    assert hallucheck_checker.policy.name == "vote"
'''

INI = """
[pytest]
hallucheck_detectors =
    numbers
    citations
hallucheck_policy = vote
"""


def test_fixtures_and_failure_output(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    pytester.makepyfile(test_rag=TESTS)
    result = pytester.runpytest(*LOAD)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*GroundednessError: answer is not grounded in its sources: the report says hallucinated",
        "*risk 1.000 (high), decision reject, policy vote, language en",
        "*[[]32:35] contradiction (score 0.80, numbers): '450'",
        "*reason: the sources give '330' where the answer says '450'",
        "*invalid_citation (score 1.00, citations): '[[]3]'",
        "*answer: It was completed in 1889. It is >>450<< metres tall >>[[]3]<<.",
    ])
    # the helper's own frames are hidden: the traceback ends in the user's test
    assert "check_grounded(" not in result.stdout.str()


def test_registered_as_a_pytest11_entry_point(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Install the entry point as pyproject declares it and let pytest find it on its own."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["pytest11"]
    assert declared == {"hallucheck": "hallucheck.pytest_plugin"}
    site = pytester.mkdir("site")
    info = site / "hallucheck_entry-0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hallucheck-entry\nVersion: 0.0\n")
    (info / "entry_points.txt").write_text(
        "[pytest11]\n" + "".join(f"{name} = {target}\n" for name, target in declared.items())
    )
    pytester.makeini(INI)
    pytester.makepyfile(test_rag=TESTS)
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    monkeypatch.setenv("PYTHONPATH", f"{site}:{ROOT}")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
