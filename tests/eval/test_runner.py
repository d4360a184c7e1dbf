"""The runner over a tiny data set with a fake detector whose output is known character by character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_fakes import TINY_RECORDS, write_jsonl

from hallucheck.batch import CheckerSpec
from hallucheck.eval.datasets import load_dataset
from hallucheck.eval.html import render_html
from hallucheck.eval.runner import ReportPredictor, ViewsPredictor, evaluate
from hallucheck.pages import page_template

RECORDS = TINY_RECORDS


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "tiny.jsonl", RECORDS)


def _check_numbers(result) -> None:  # type: ignore[no-untyped-def]
    s = result.view_summary(result.primary)
    r = s["overall"]["response"]
    assert (r["tp"], r["fp"], r["fn"], r["tn"]) == (1, 1, 1, 1)
    assert r["f1"] == pytest.approx(0.5)
    sp = s["overall"]["span"]
    assert (sp["overlap_chars"], sp["predicted_chars"], sp["gold_chars"]) == (5, 9, 10)
    assert sp["precision"] == pytest.approx(5 / 9)
    assert sp["recall"] == pytest.approx(0.5)
    assert s["per_task"]["qa"]["response"]["f1"] == pytest.approx(1.0)
    assert s["per_task"]["summary"]["response"]["f1"] == pytest.approx(0.0)


def test_report_predictor_counts_by_hand(data: Path) -> None:
    spec = CheckerSpec.of(["fake_words"], "fake_any")
    seen: list[int] = []
    result = evaluate(load_dataset(data, "generic"), ReportPredictor(spec), on_progress=seen.append, config={"x": 1})
    assert result.n == 4 and seen == [1, 2, 3, 4]
    _check_numbers(result)
    # mistakes first: the false positive, the missed hallucination, then the true positive
    assert [(x["id"], x["outcome"]) for x in result.samples] == [
        ("3", "false_positive"), ("4", "false_negative"), ("1", "true_positive")]
    assert result.samples[0]["predicted_spans"][0]["start"] == 0
    payload = result.to_dict()
    assert payload["config"] == {"x": 1} and payload["n"] == 4
    assert set(payload["metrics_by_language"]) == {"en"} and payload["metrics_by_language"]["en"]["n"] == 4
    curve = payload["curve"]
    assert curve[0]["threshold"] == 0.0 and curve[0]["recall"] == 1.0 and curve[-1]["threshold"] == 1.0
    json.dumps(payload)  # JSON-ready
    page = render_html(payload)
    assert page.startswith("<!doctype html>") and "<svg" in page and "Lyon" in page
    assert "http://" not in page and "https://" not in page  # self-contained
    for heading in ("False positives (1)", "False negatives (missed hallucinations) (1)", "True positives (1)",
                    "By language", "precision-recall curve", "<polyline"):
        assert heading in page, heading
    assert page.index("False positives") < page.index("False negatives") < page.index("True positives")


def test_the_page_escapes_what_it_shows(data: Path, tmp_path: Path) -> None:
    records = [{**RECORDS[0], "answer": "The sky is <script>alert(1)</script> green."}]
    path = write_jsonl(tmp_path / "x.jsonl", records)
    result = evaluate(load_dataset(path, "generic"), ReportPredictor(CheckerSpec.of(["fake_words"], "fake_any")))
    page = render_html(result.to_dict(), title="<b>t</b>")
    assert "<script>" not in page and "</script>" not in page and "&lt;/" in page and "&lt;b&gt;t&lt;/b&gt;" in page
    layout = page_template("hallucheck.eval", "layout.html.j2").render()
    assert page[: page.index("<title>")] == layout[: layout.index("<title>")]  # the frame shared with the A/B test report


def test_parallel_gives_the_same_numbers(data: Path) -> None:
    spec = CheckerSpec.of(["fake_words"], "fake_any")
    result = evaluate(load_dataset(data, "generic"), ReportPredictor(spec), workers=2)
    assert result.workers == 2
    _check_numbers(result)


def test_views_detector_alone_and_policy(data: Path) -> None:
    predictor = ViewsPredictor(detectors=("fake_crash", "fake_words"), policies=("fake_any", "fake_never", "fake_first_span"))
    result = evaluate(load_dataset(data, "generic"), predictor)
    assert set(result.views) == {
        "detector:fake_crash", "detector:fake_words", "policy:fake_any", "policy:fake_never", "policy:fake_first_span"
    }

    never = result.view_summary("policy:fake_never")["overall"]
    assert never["response"]["predicted_positive"] == 0 and never["span"]["predicted_chars"] == 0
    both = result.view_summary("policy:fake_any")["overall"]["response"]
    assert (both["tp"], both["fp"]) == (1, 1)
    words = result.view_summary("detector:fake_words")["overall"]["response"]
    assert (words["tp"], words["fp"], words["fn"], words["tn"]) == (1, 1, 1, 1)
    crash = result.view_summary("detector:fake_crash")["overall"]["response"]
    assert crash["predicted_positive"] == 0
    assert result.errors == {"fake_crash": 4}
    assert "views" in result.to_dict()


def test_policy_views_use_the_policys_own_spans(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    record = {"contexts": ["Paris is big."], "answer": "Lyon and Nice are big.", "label": True}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    predictor = ViewsPredictor(detectors=("fake_words",), policies=("fake_any", "fake_first_span"))
    result = evaluate(load_dataset(path, "generic"), predictor)
    union = result.view_summary("policy:fake_any")["overall"]["span"]["predicted_chars"]
    first = result.view_summary("policy:fake_first_span")["overall"]["span"]["predicted_chars"]
    # "and" and "are" alone are function-word fragments: report spans leave them out
    assert union == len("Lyon") + len("Nice")
    assert first == len("Lyon")
