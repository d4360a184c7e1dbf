"""Fitting the learned policy end to end on a slice of RAGTruth (cheap detectors only)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hallucheck.metrics import prf_of
from hallucheck.policies.default import DEFAULT_DETECTORS as CHEAP
from hallucheck.train.stack import OOF_FILE, cascade_probabilities, fit_policy, stage_thresholds, write_tagger_thresholds

pytest.importorskip("sklearn")


@pytest.mark.slow
def test_fit_policy_writes_a_usable_calibrated_policy(ragtruth_path: Path, tmp_path: Path) -> None:
    from hallucheck.checker import Checker
    from hallucheck.policies.learned import LearnedPolicy

    out = tmp_path / "learned.json"
    assert fit_policy(str(ragtruth_path), str(out), str(tmp_path / "cache"), detectors=CHEAP, limit=150) == 0
    spec = json.loads(out.read_text())
    assert set(spec["stages"]) == {"cheap", "full"} and spec["detectors"] == list(CHEAP)
    assert 0.15 <= spec["threshold"] <= 0.85
    report = spec["calib_report"]
    assert report["dev"]["full"]["n"] > 0 and "model_answer_threshold" not in spec  # no model ran
    # the calib out-of-fold probabilities are kept for answer-by-answer comparisons of two fits:
    # rebuilt with the fit's own threshold and band they give the cascade F1 the report states
    oof = json.loads((tmp_path / "cache" / OOF_FILE).read_text())
    assert len(oof["keys"]) == len(oof["label"]) == len(oof["full"]) == len(oof["cheap"]) == len(oof["group"]) > 0
    full, cheap, y = (np.array(oof[k]) for k in ("full", "cheap", "label"))
    pred = cascade_probabilities(cheap, full, *oof["band"]) >= oof["threshold"]
    assert prf_of(pred, y.astype(bool))["f1"] == pytest.approx(report["calib_oof_cascade"]["f1"], abs=1e-4)
    policy = LearnedPolicy(spec=out)
    checker = Checker(detectors=policy.detectors, policy=policy)
    grounded = checker.check(question="When does it open?", contexts=["The shop opens at 9 am."], answer="It opens at 9 am.")
    invented = checker.check(
        question="When does it open?",
        contexts=["The shop opens at 9 am."],
        answer="It opens at 7 am, offers free parking for 300 cars and was founded by Maria Keller in 1881.",
    )
    assert 0.0 <= grounded.risk_score <= 1.0 and 0.0 <= invented.risk_score <= 1.0
    assert invented.risk_score > grounded.risk_score


@pytest.mark.slow
def test_a_refit_keeps_the_parts_other_commands_fitted_and_honours_the_escalation_cap(
    ragtruth_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "learned.json"
    kept = {"floors": {"rows": [1]}, "languages": {"zh": {"threshold": 0.4}}, "languages_report": {"zh": {}}}
    out.write_text(json.dumps({"threshold": 0.9, **kept}))
    assert fit_policy(str(ragtruth_path), str(out), str(tmp_path / "cache"), detectors=CHEAP, limit=150,
                      max_escalate=0.1) == 0
    spec = json.loads(out.read_text())
    assert {k: spec[k] for k in kept} == kept
    assert spec["threshold"] != 0.9  # the English stages themselves are new
    assert spec["calib_report"]["calib_oof_cascade"]["escalated"] <= 0.1


def test_tagger_thresholds_are_written_into_its_config(tmp_path: Path) -> None:
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"format": 1, "threshold": 0.5}))
    write_tagger_thresholds(cfg, {"token_threshold": 0.4, "model_answer_threshold": 0.33, "fitted": "2026-01-01"})
    saved = json.loads(cfg.read_text())
    assert saved["threshold"] == 0.4 and saved["answer_threshold"] == 0.33 and saved["format"] == 1
    assert "2026-01-01" in saved["thresholds_note"]
    assert "threshold_by_task" not in saved
    write_tagger_thresholds(cfg, {"token_threshold": 0.35, "token_threshold_by_task": {"qa": 0.2, "summary": 0.5},
                                  "model_answer_threshold": 0.33, "fitted": "2026-01-02"})
    assert json.loads(cfg.read_text())["threshold_by_task"] == {"qa": 0.2, "summary": 0.5}


def test_each_task_gets_the_token_threshold_that_serves_the_pooled_span_f1() -> None:
    """QA marks found only at a low threshold, Summary marks that spill over a longer stretch
    below 0.5: each task moves from the one threshold to its own; a task with too few answers
    keeps the one threshold."""
    from hallucheck.train.stack import _task_thresholds

    keys = [f"k{i}" for i in range(130)]
    tasks = ["qa"] * 60 + ["summary"] * 60 + ["data2txt"] * 10
    gold = [[(0, 10)] for _ in keys]

    def spans_at(key: str, t: float) -> list[tuple[int, int]]:
        task = tasks[keys.index(key)]
        if task == "qa":
            return [(0, 10)] if t <= 0.2 else []
        if task == "summary":
            return [(0, 10)] if t >= 0.5 else [(0, 40)]
        return [(0, 10)]

    assert _task_thresholds(keys, tasks, gold, spans_at, 0.35) == {"qa": 0.2, "summary": 0.5}


@pytest.mark.slow
def test_extra_cases_join_the_fit_and_are_reported_apart(ragtruth_path: Path, tmp_path: Path) -> None:
    cases = tmp_path / "extra.jsonl"
    with cases.open("w", encoding="utf-8") as fh:
        for i in range(30):
            hour = i % 11 + 1
            source = f"Shop {i} on Mill Street opens at {hour} am and closes at 5 pm every weekday."
            for answer, spans in ((f"Shop {i} opens at {hour} am.", []),
                                  (f"Shop {i} opens at {hour + 1} am.",
                                   [{"start": len(f"Shop {i} opens at "), "end": len(f"Shop {i} opens at {hour + 1}")}])):
                fh.write(json.dumps({"question": f"When does shop {i} open?", "contexts": [{"id": "1", "text": source}],
                                     "answer": answer, "label": bool(spans), "spans": spans, "part": "calib",
                                     "language": "en"}) + "\n")
        # an edit of a RAGTruth calib answer: it names the record's source key, and shares its fold
        from hallucheck.eval.split import source_key
        from hallucheck.train.data import read_records

        _, rec = next(iter(read_records(ragtruth_path, "calib", 150)))
        shared_key = source_key(rec)
        fh.write(json.dumps({"question": rec["query"], "contexts": [{"id": "1", "text": "a context as the edit wrote it"}],
                             "answer": "It is not what the record says.", "label": True,
                             "spans": [{"start": 6, "end": 9}], "part": "calib", "language": "en",
                             "metadata": {"source_key": shared_key, "edit": "negation"}}) + "\n")
    out = tmp_path / "learned.json"
    assert fit_policy(str(ragtruth_path), str(out), str(tmp_path / "cache"), detectors=CHEAP, limit=150,
                      extra_cases=(str(cases),), extra_weight=2.0) == 0
    spec = json.loads(out.read_text())
    report = spec["calib_report"]
    by_data = report["calib_oof_by_data"]
    assert by_data["extra"]["n"] == 61 and by_data["ragtruth"]["n"] > 0
    assert spec["extra_cases"] == [{"name": "extra", "answers": 61, "weight": 2.0}]
    assert spec["stages"]["full"]["n_train"] == by_data["ragtruth"]["n"] + 61
    oof = json.loads((tmp_path / "cache" / OOF_FILE).read_text())
    assert sum(k.startswith("extra:calib:") for k in oof["keys"]) == 61
    group = dict(zip(oof["keys"], oof["group"]))
    assert group["extra:calib:61"] == shared_key  # the file's last line
    assert any(g == shared_key for k, g in group.items() if not k.startswith("extra:"))
    # the extra rows are judged with the rest, but RAGTruth's dev report and span rule stay RAGTruth's
    assert report["dev"]["full"]["n"] > 0 and "calib_span_cheap" in report
    # per task: RAGTruth's rows only, every one of them once
    by_task = report["calib_oof_by_task"]
    assert set(by_task) <= {"qa", "summary", "data2txt"}
    assert sum(t["n"] for t in by_task.values()) == by_data["ragtruth"]["n"]


def test_extra_cases_are_checked_before_any_detector_runs(tmp_path: Path) -> None:
    from hallucheck.errors import InputError

    cache = tmp_path / "cache"
    with pytest.raises(InputError, match="no such file"):
        fit_policy(str(tmp_path / "none.jsonl.gz"), str(tmp_path / "out.json"), str(cache), extra_cases=(str(tmp_path / "x.jsonl"),))
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "en.jsonl").write_text("")
    with pytest.raises(InputError, match="two files named 'en'"):
        fit_policy(str(tmp_path / "none.jsonl.gz"), str(tmp_path / "out.json"), str(cache),
                   extra_cases=(str(tmp_path / "a" / "en.jsonl"), str(tmp_path / "b" / "en.jsonl")))
    assert not cache.exists()  # nothing was collected


def _fold_tagger(tmp_path: Path, k: int, n: int, threshold: float, name: str = "fold") -> Path:
    """A copy of the shipped English tagger whose config says it left out fold k of n; its span
    threshold tells its rows apart (0: spans on every answer, above 1: none)."""
    import shutil

    from hallucheck.models.tagger import TAGGER_DIR

    d = tmp_path / f"{name}{k}"
    shutil.copytree(TAGGER_DIR, d)
    config = json.loads((d / "config.json").read_text())
    config["train_config"] = {**config.get("train_config", {}), "skip_fold": [k, n]}
    config["threshold"], config["threshold_by_task"] = threshold, {}
    config["answer_threshold"] = 0.0  # not used: the rows take the shipped tagger's
    (d / "config.json").write_text(json.dumps(config))
    return d


def test_fold_taggers_are_checked_before_any_detector_runs(tmp_path: Path) -> None:
    from hallucheck.errors import InputError

    pytest.importorskip("onnxruntime")
    first, second = _fold_tagger(tmp_path, 0, 2, 0.5), _fold_tagger(tmp_path, 1, 2, 0.5)
    cache = tmp_path / "cache"
    for taggers, message in (((str(first),), "at least two"),
                             ((str(second), str(first)), r"must leave out fold 0 of 2 \(skip_fold: \[0, 2\]\)"),
                             ((str(first), str(second), str(first)), r"leave out fold 0 of 3 \(skip_fold: \[0, 3\]\)"),
                             ((str(first), str(tmp_path)), "no readable config.json")):
        with pytest.raises(InputError, match=message):
            fit_policy(str(tmp_path / "none.jsonl.gz"), str(tmp_path / "out.json"), str(cache), train_taggers=taggers)
    assert not cache.exists()


@pytest.mark.slow
def test_train_answers_read_by_the_tagger_of_their_fold_join_the_trees(ragtruth_path: Path, tmp_path: Path) -> None:
    from hallucheck.errors import InputError
    from hallucheck.eval.split import source_fold
    from hallucheck.models.tagger import TAGGER_DIR
    from hallucheck.train.stack_data import TRAIN_CACHE, load_cache

    pytest.importorskip("onnxruntime")
    taggers = (str(_fold_tagger(tmp_path, 0, 2, 0.0)), str(_fold_tagger(tmp_path, 1, 2, 1.01)))
    out, cache = tmp_path / "learned.json", tmp_path / "cache"
    full = (*CHEAP, "model")
    assert fit_policy(str(ragtruth_path), str(out), str(cache), detectors=full, limit=60, train_taggers=taggers) == 0
    spec = json.loads(out.read_text())
    rows = cache / TRAIN_CACHE
    gold, model = load_cache(rows, "gold"), load_cache(rows, "model")
    assert len(gold) == len(model) == 60 and all(g["part"] == "train" for g in gold.values())
    # every train answer was read by the tagger that left its fold out: fold 0's marks every one
    for key, g in gold.items():
        assert bool(model[key]["spans"]) == (source_fold(g["source"], 2) == 0)
    # the verdict, a feature too, is taken at the shipped tagger's answer threshold
    shipped = json.loads((TAGGER_DIR / "config.json").read_text())["answer_threshold"]
    assert all(r["flagged"] == (r["features"]["model_max"] >= shipped) for r in model.values())
    assert {source_fold(g["source"], 2) for g in gold.values()} == {0, 1}
    # the rows join the trees of both stages; scaling, threshold and report stay on calib
    assert spec["train_rows"] == {"answers": 60, "folds": 2, "taggers": [f"{tmp_path.name}/fold0", f"{tmp_path.name}/fold1"]}
    oof = json.loads((cache / "calib_oof.json").read_text())
    assert not any(k.startswith("train:") for k in oof["keys"])
    assert spec["stages"]["full"]["n_train"] == len(oof["keys"]) + 60 == spec["stages"]["cheap"]["n_train"]
    # a cache written by other taggers is refused rather than mixed
    with pytest.raises(InputError, match="other taggers"):
        others = tuple(str(_fold_tagger(tmp_path, k, 2, 0.5, "other")) for k in (0, 1))
        fit_policy(str(ragtruth_path), str(out), str(cache), detectors=full, limit=60, train_taggers=others)


def test_each_stage_is_reported_at_its_own_threshold() -> None:
    # the cheap stage ranks these answers perfectly around 0.3, the full stage around 0.7: the
    # cheap stage's figures must be read at its own threshold, not at the full stage's
    y = np.array([0, 0, 0, 1, 1, 1])
    p_full = np.array([0.2, 0.4, 0.6, 0.75, 0.8, 0.9])
    p_cheap = np.array([0.1, 0.2, 0.25, 0.35, 0.4, 0.5])
    thr, reports = stage_thresholds(p_full, p_cheap, y)
    assert thr == pytest.approx(0.61) and reports["calib_oof_full"]["f1"] == pytest.approx(1.0)
    cheap = reports["calib_oof_cheap"]
    assert cheap["threshold"] == pytest.approx(0.26)
    assert cheap == {"threshold": cheap["threshold"], **prf_of(p_cheap >= cheap["threshold"], y)}
    assert cheap["f1"] == pytest.approx(1.0)
