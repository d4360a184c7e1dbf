"""Very long sources are narrowed to the passages that matter (offsets kept, the rest reported),
and a check at the documented limits stays under a minute and 1 GB."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import hallucheck.source_window as sw
from hallucheck.checker import Checker, make_case
from hallucheck.eval.peak_memory import measure_command

FILLER = "The committee met on a weekday to discuss the agenda and the minutes of the previous meeting. "
NEEDLE = "The Zorblax bridge opened in 1987 and carries 42,000 vehicles a day across the Vantre river."


def _case(paragraphs: int = 60, where: int = 37) -> dict:
    paras = [FILLER * 8 for _ in range(paragraphs)]
    paras[where] = NEEDLE + " " + FILLER * 2
    return {"question": "When did the Zorblax bridge open?", "contexts": ["\n\n".join(paras[:30]), "\n\n".join(paras[30:])],
            "answer": "The Zorblax bridge opened in 1987 and carries 42,000 vehicles a day."}


def test_short_sources_are_left_alone() -> None:
    case = make_case(_case())
    same, window = sw.narrow_sources(case, max_chars=10**6)
    assert same is case and window is None


def test_long_sources_keep_the_relevant_passage_and_every_offset() -> None:
    case = make_case(_case())
    narrowed, window = sw.narrow_sources(case, max_chars=3000)
    assert window is not None and window.read_chars <= 3000 < window.source_chars
    for before, after in zip(case.contexts, narrowed.contexts):
        assert after.id == before.id and len(after.text) == len(before.text)
        assert [i for i, c in enumerate(after.text) if c == "\n"] == [i for i, c in enumerate(before.text) if c == "\n"]
    kept = narrowed.contexts[1].text
    at = case.contexts[1].text.index(NEEDLE)
    assert kept[at : at + len(NEEDLE)] == NEEDLE  # the passage about the answer is read, in place
    assert kept.count("committee") < case.contexts[1].text.count("committee") // 4  # most filler is not
    assert "not" in window.note and f"{window.source_chars:,}" in window.note


def test_the_report_says_what_was_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sw, "MAX_READ_CHARS", 3000)
    report = Checker(["numbers", "ngram"], policy="vote").check(_case())
    assert report.coverage is not None
    assert report.coverage.source_chars > 3000 and report.coverage.unread_source_chars > 0
    assert any("were not" in n for n in report.notes)
    assert not any(s.text in ("1987", "42,000") for s in report.spans)  # the figures were found in what was read


def test_evidence_is_chosen_only_for_the_windows_that_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from hallucheck.models import tagger_features
    from hallucheck.models.tagger import tagger_available

    if not tagger_available():
        pytest.skip("shipped tagger files missing")
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.detectors.model.model import ModelDetector

    calls = []
    real = tagger_features.select_units
    monkeypatch.setattr(tagger_features, "select_units", lambda *a, **k: calls.append(1) or real(*a, **k))
    answer = " ".join(f"Sentence number {i} says the bridge carries {i} thousand vehicles every day." for i in range(300))
    finding = ModelDetector(max_windows=3).detect(CaseAnalysis(make_case(question="q", contexts=[NEEDLE], answer=answer)))
    assert len(calls) == 3
    assert finding.coverage is not None and finding.coverage.unchecked


def _peak_run(args: list[str], tmp_path: Path) -> tuple[int, float, float]:
    """Exit code, seconds and the child's own peak memory (MB) of ``hallucheck *args`` (see
    :mod:`hallucheck.eval.peak_memory` for why the child's rusage is no measure)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    run = measure_command(args, env=env)
    assert run.peak_mb is not None, run.stderr[-500:]
    return run.returncode, run.seconds, run.peak_mb


@pytest.mark.slow
def test_a_check_at_the_limits_takes_under_a_minute_and_a_gigabyte(tmp_path: Path) -> None:
    """The default stack on a 199,000-character answer against 4.9 million characters of sources."""
    words = ["bridge", "river", "council", "traffic", "budget", "tunnel", "harbour", "station", "engineer", "report"]
    paras = [" ".join(f"The {words[(i + j) % 10]} {j} of district {i} was reviewed in {1900 + (i * j) % 120}." for j in range(12))
             for i in range(5_000)]
    sources = "\n\n".join(paras)
    sources = sources[: 4_900_000]
    answer = " ".join(paras[k % 5_000] for k in range(0, 5_000, 3))[:199_000]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"question": "What was reviewed?", "contexts": [sources], "answer": answer}), encoding="utf-8")
    code, seconds, peak_mb = _peak_run(["detect", str(path)], tmp_path)
    assert code == 0
    assert seconds < 60 and peak_mb < 1024, (seconds, peak_mb)
