"""``detect`` writes a compact report by default; ``--verbose`` / ``--include`` add the internals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_fakes import CASE

from hallucheck.errors import InputError
from hallucheck.report_view import compact_report, parse_include, report_dict

FAKE = ("-d", "fake_words", "-p", "fake_any")


def test_default_json_leaves_out_detector_internals(invoke, case_file: Path) -> None:  # type: ignore[no-untyped-def]
    report = json.loads(invoke("detect", str(case_file), *FAKE).stdout)
    assert report["spans"] and report["spans"][0]["evidence"]  # the verdict's evidence stays
    [finding] = report["findings"]
    assert finding["details"] == {} and finding["features"] == {} and finding["spans"] == []
    assert finding["risk"] > 0 and finding["detector"] == "fake_words"


def test_verbose_and_include_bring_them_back(invoke, case_file: Path) -> None:  # type: ignore[no-untyped-def]
    full = json.loads(invoke("detect", str(case_file), *FAKE, "--verbose").stdout)
    [finding] = full["findings"]
    assert finding["features"] == {"novel": pytest.approx(finding["risk"])}
    assert set(finding["details"]["novel_words"]) == {"Jean", "Dupont", "by"}
    assert {s["text"] for s in finding["spans"]} == {"Jean", "Dupont", "by"}
    some = json.loads(invoke("detect", str(case_file), *FAKE, "--include", "details").stdout)
    assert some["findings"][0]["details"] and some["findings"][0]["spans"] == []


def test_batch_lines_are_compact_too(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "b.jsonl"
    path.write_text(json.dumps(CASE) + "\n", encoding="utf-8")
    small = invoke("detect", "--batch", str(path), *FAKE).stdout
    big = invoke("detect", "--batch", str(path), *FAKE, "-v").stdout
    assert json.loads(small)["findings"][0]["details"] == {}
    assert json.loads(big)["findings"][0]["details"]
    assert len(small) < len(big)


def test_unknown_include_part_is_an_input_error(invoke, case_file: Path) -> None:  # type: ignore[no-untyped-def]
    proc = invoke("detect", str(case_file), *FAKE, "--include", "tokens")
    assert proc.returncode == 2 and "unknown include part 'tokens'" in proc.stderr
    with pytest.raises(InputError):
        parse_include("details,bogus")
    assert parse_include("all") == parse_include(["details", "features", "finding_spans", "sentence_verdicts"])


def test_compacting_copies_and_keeps_the_report_shape() -> None:
    from hallucheck import Checker
    from hallucheck.types import Report

    report = Checker(["fake_words"], policy="fake_any").check(CASE)
    small = compact_report(report)
    assert report.findings[0].details and not small.findings[0].details  # the original is untouched
    assert Report.model_validate(report_dict(report)) == small  # still a valid Report


@pytest.mark.slow
def test_default_stack_report_is_a_few_kilobytes(invoke) -> None:  # type: ignore[no-untyped-def]
    from importlib import resources

    example = resources.files("hallucheck").joinpath("data/examples/01_en_citations.json")
    compact = invoke("detect", str(example)).stdout
    verbose = invoke("detect", str(example), "--verbose").stdout
    # seven default detectors and the verifier's pass: each finding's summary is about 500
    # characters of indented JSON, the notes and spans the rest
    assert len(compact) < 11000 < len(json.dumps(json.loads(verbose)))
