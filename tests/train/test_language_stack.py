"""Rows of the per-language policy fit: answers whose only error is a citation marker stay out."""

from __future__ import annotations

import json
from pathlib import Path

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.policies.features import DETECTOR_FEATURES
from hallucheck.train.language_stack import language_rows
from hallucheck.train.stack_data import _citation_only

SOURCES = [{"id": "a", "text": "Das Paket kostet 30 Euro."}, {"id": "b", "text": "Die Lieferung dauert zwei Tage."}]


def _analysis(answer: str) -> CaseAnalysis:
    return CaseAnalysis(make_case(question="Wie lange?", contexts=SOURCES, answer=answer))


def test_a_span_on_a_marker_is_a_citation_error_and_a_span_on_words_is_not() -> None:
    answer = "Die Lieferung dauert zwei Tage [a]."
    start = answer.index("[a]")
    assert _citation_only([(start, start + 3)], _analysis(answer))
    words = answer.index("zwei Tage")
    assert not _citation_only([(words, words + 9)], _analysis(answer))
    assert not _citation_only([(start, start + 3), (words, words + 9)], _analysis(answer))
    assert not _citation_only([], _analysis(answer))  # a faithful answer has no error at all


def _write(cache: Path, name: str, rows: list[dict]) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    (cache / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_citation_only_positives_are_left_out_of_the_fit_rows_only_when_asked(tmp_path: Path) -> None:
    gold = [
        {"key": "calib:1", "part": "calib", "task": "qa", "label": False, "answer_chars": 30, "citation_only": False},
        {"key": "calib:2", "part": "calib", "task": "qa", "label": True, "answer_chars": 30, "citation_only": True},
        {"key": "calib:3", "part": "calib", "task": "qa", "label": True, "answer_chars": 30, "citation_only": False},
        {"key": "dev:4", "part": "dev", "task": "qa", "label": True, "answer_chars": 30, "citation_only": True},
    ]
    _write(tmp_path, "gold", gold)
    _write(tmp_path, "ngram", [{"key": g["key"], "risk": 0.1, "flagged": False, "features": {}} for g in gold])
    kept, _ = language_rows(tmp_path, ["ngram"], "calib", citation_errors=False)
    assert [g["key"] for g in kept] == ["calib:1", "calib:3"]
    everything, feats = language_rows(tmp_path, ["ngram"], "calib")
    assert [g["key"] for g in everything] == ["calib:1", "calib:2", "calib:3"]
    assert all(f["ngram.risk"] == 0.1 for f in feats)


def _fit_cache(cache: Path, n: int = 240, extra: int = 0) -> None:
    """A group's calib cache where ``ngram`` separates the labels and ``model`` only partly does;
    every fifth row is cross-lingual, and the last ``extra`` rows come from extra cases."""
    import random

    rng = random.Random(3)
    gold, dets = [], {d: [] for d in ("citations", "lexicon", "numbers", "ngram", "overlap", "model")}
    for i in range(n):
        label = i % 2 == 1
        key = f"calib:{i}"
        gold.append({"key": key, "part": "calib", "task": "qa", "label": label, "answer_chars": 80,
                     "language": "de", "source": f"s{i // 4}", "citation_only": False,
                     "cross_lingual": i % 5 == 0 and i < n - extra, "extra": i >= n - extra})
        for d in dets:
            value = float(label) if d == "ngram" else (0.3 * label + 0.7 * rng.random()) if d == "model" else rng.random()
            dets[d].append({"key": key, "risk": value, "flagged": value > 0.5, "features": {min(DETECTOR_FEATURES[d]): value}})
    _write(cache, "gold", gold)
    for d, rows in dets.items():
        _write(cache, d, rows)


def test_the_tagger_stage_can_leave_lexical_novelty_out_and_then_decides_every_answer(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("sklearn")
    from hallucheck.train.language_stack import fit_language_policies

    _fit_cache(tmp_path / "de")
    caches = {"de": tmp_path / "de"}
    plain, _ = fit_language_policies({}, caches, dev_caches={}, log=lambda *_: None)
    assert "full" not in plain["de"]["stages"]  # ngram alone is perfect on these rows: the tagger adds nothing
    assert plain["de"]["escalate_low"] == 1.0

    dropped, report = fit_language_policies({}, caches, dev_caches={}, min_gain=-1.0,
                                            tagger_stage_drop=("ngram", "overlap"), log=lambda *_: None)
    full = dropped["de"]["stages"]["full"]
    assert "ngram" not in full["detectors"] and "overlap" not in full["detectors"] and "model" in full["detectors"]
    assert not any(f.startswith(("ngram.", "overlap.")) for f in full["features"])
    assert (dropped["de"]["escalate_low"], dropped["de"]["escalate_high"]) == (0.0, 1.0)
    assert report["de"]["tagger_stage_drop"] == ["ngram", "overlap"]
    assert report["de"]["with_tagger"]["f1"] < report["de"]["cheap"]["f1"]  # what leaving novelty out costs here


def test_extra_cases_follow_the_cases_unchanged_and_join_the_fit_as_calib(tmp_path: Path) -> None:
    from hallucheck.train.language_stack import with_extra_cases

    cases = tmp_path / "debref.de.jsonl"
    cases.write_text('{"id": "a", "part": "train"}\n{"id": "b", "part": "calib"}\n', encoding="utf-8")
    extra = tmp_path / "de.jsonl"
    extra.write_text(
        "".join(json.dumps({"id": i, "part": p, "answer": "Gebühr"}, ensure_ascii=False) + "\n"
                for i, p in (("x", "train"), ("y", "dev"), ("z", "calib"))),
        encoding="utf-8",
    )
    out = with_extra_cases(cases, [extra], tmp_path / "out" / "cases.de.jsonl")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == cases.read_text(encoding="utf-8").splitlines()  # line keys of a cache stay valid
    added = [json.loads(line) for line in lines[2:]]
    assert [(r["id"], r["part"]) for r in added] == [("x", "calib"), ("z", "calib")]  # the dev part stays out
    assert added[0]["answer"] == "Gebühr"
    assert all(r["metadata"]["extra_cases"] is True for r in added)  # the fit knows them apart
    calib_only = with_extra_cases(cases, [extra], tmp_path / "out2" / "cases.de.jsonl", parts=("calib",))
    assert [json.loads(line)["id"] for line in calib_only.read_text(encoding="utf-8").splitlines()[2:]] == ["z"]


def test_only_the_named_groups_are_fitted(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("sklearn")
    from hallucheck.train.language_stack import fit_language_policies

    _fit_cache(tmp_path / "de")
    _fit_cache(tmp_path / "fr")
    caches = {"de": tmp_path / "de", "fr": tmp_path / "fr"}
    both, _ = fit_language_policies({}, caches, dev_caches={}, log=lambda *_: None)
    assert sorted(both) == ["de", "fr"]
    one, report = fit_language_policies({}, caches, dev_caches={}, only_groups=["fr"], log=lambda *_: None)
    assert list(one) == ["fr"] and "de" not in report


def test_a_group_with_extra_cases_gets_a_cross_lingual_fit_without_them(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("sklearn")
    from hallucheck.policies.learned import LearnedPolicy
    from hallucheck.train.language_stack import fit_language_policies

    _fit_cache(tmp_path / "plain")
    _fit_cache(tmp_path / "de", n=320, extra=80)
    plain, _ = fit_language_policies({}, {"de": tmp_path / "plain"}, dev_caches={}, log=lambda *_: None)
    assert "cross_lingual" not in plain["de"]  # nothing extra: one fit for every answer
    fitted, report = fit_language_policies({}, {"de": tmp_path / "de"}, dev_caches={}, log=lambda *_: None)
    assert report["de"]["answers"] == 320
    cross = fitted["de"]["cross_lingual"]
    assert cross["calib_oof"]["answers"] == 240  # the rows without the extra cases
    assert report["de"]["cross_lingual_rows"]["answers"] == 48
    assert "case.cross_lingual" in fitted["de"]["stages"]["cheap"]["features"]
    assert not any(k.startswith("_") for part in (fitted["de"], cross) for k in part)
    json.dumps(fitted)  # the spec stays plain JSON
    pol = LearnedPolicy(spec={"stages": fitted["de"]["stages"], "threshold": 0.5, "languages": fitted})
    assert pol.languages["de"].cross_lingual is not None


def test_a_groups_cross_lingual_fit_alone_keeps_its_fit_and_the_other_groups_dev_numbers(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("sklearn")
    from hallucheck.train.language_stack import fit_language_policies

    _fit_cache(tmp_path / "de")
    _fit_cache(tmp_path / "fr")
    caches = {"de": tmp_path / "de", "fr": tmp_path / "fr"}
    fitted, report = fit_language_policies({}, caches, log=lambda *_: None)
    assert "cross_lingual" not in fitted["de"]  # no extra cases: one fit
    spec = {"languages": fitted, "languages_report": {**report, "dev": {**report["dev"], "fr": {"kept": True}}}}
    out, out_report = fit_language_policies(spec, caches, only_groups=["de"], cross_lingual_only=True, log=lambda *_: None)
    assert {k: v for k, v in out["de"].items() if k not in ("cross_lingual", "calib_oof")} == \
        {k: v for k, v in fitted["de"].items() if k != "calib_oof"}
    assert out["de"]["cross_lingual"]["calib_oof"]["answers"] == 240
    assert out_report["de"]["cross_lingual_rows"]["answers"] == 48
    assert out["fr"] == fitted["fr"] and out_report["dev"]["fr"] == {"kept": True}
    with pytest.raises(ValueError, match="no fit of this group"):
        fit_language_policies({}, caches, only_groups=["de"], cross_lingual_only=True, log=lambda *_: None)
