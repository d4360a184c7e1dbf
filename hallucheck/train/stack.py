"""Fit the learned policy on the calib part: boosted trees over detector scores, Platt scaling,
one global threshold, the cascade's uncertain band and the span-fusion rule; write learned.json.

Everything is chosen on ``calib`` with out-of-fold predictions (5 folds grouped by source, so the
six answers of one source never straddle folds); ``dev`` numbers are printed for the report only
and choose nothing. Needs scikit-learn (extra ``train``); the result is plain JSON evaluated by
:mod:`hallucheck.policies.learned` in numpy.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.calibration.stage_fit import FULL_EXTRA, fit_stage
from hallucheck.errors import InputError
from hallucheck.eval.datasets import load_dataset
from hallucheck.metrics import auroc, best_threshold, prf_of, span_prf
from hallucheck.policies.default import DEFAULT_DETECTORS
from hallucheck.policies.learned import case_features, choose_spans, stack_features
from hallucheck.policies.learned_spec import write_spec
from hallucheck.text import split_sentences, tokenize
from hallucheck.train.language_stack import language_rows
from hallucheck.train.stack_data import collect, collect_out_of_fold, fold_taggers, load_cache

__all__ = ["cascade_probabilities", "fit_policy", "fit_stage", "stage_thresholds", "write_tagger_thresholds", "FULL_EXTRA", "OOF_FILE"]

# Written into the cache directory by fit_policy: the calib part's out-of-fold probabilities.
OOF_FILE = "calib_oof.json"
# parts of learned.json that other commands fit, kept when the English stages are refitted
_KEPT_ON_REFIT = ("floors", "languages", "languages_report")
SPAN_CANDIDATES: tuple[str, ...] = ("numbers", "lexicon", "citations", "consistency", "ngram", "overlap")


def _rows(cache: Path, detectors: list[str], gold: dict[str, dict[str, Any]]) -> tuple[list[str], list[dict[str, float]]]:
    caches = {d: load_cache(cache, d) for d in detectors}
    keys = [k for k in gold if all(k in caches[d] for d in detectors)]
    feats = []
    for k in keys:
        g = gold[k]
        summ = {d: caches[d][k] for d in detectors}
        feats.append(stack_features(summ, case_features(g["task"], g["answer_chars"], g.get("sentences", 0), g.get("cross_lingual"))))
    return keys, feats


def _matrix(feats: list[dict[str, float]], names: list[str]) -> np.ndarray:
    x = np.zeros((len(feats), len(names)))
    for i, f in enumerate(feats):
        for j, n in enumerate(names):
            x[i, j] = f.get(n, 0.0)
    return x


# The stack's threshold search: 0.15 .. 0.84, the lowest of equally good thresholds.
_STACK_GRID = np.arange(0.15, 0.85, 0.01)


def _best_threshold(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    return best_threshold(p, y == 1, grid=_STACK_GRID, ties="first")


def stage_thresholds(p_full: np.ndarray, p_cheap: np.ndarray, y: np.ndarray) -> tuple[float, dict[str, dict[str, Any]]]:
    """The global threshold (the full stage's best on calib) and each stage's calib figures, each
    at its own best threshold: what the cheap stage alone would reach, beside the full one."""
    thr, _ = _best_threshold(p_full, y)
    thr_c, _ = _best_threshold(p_cheap, y)
    return thr, {
        "calib_oof_full": {"threshold": thr, **prf_of(p_full >= thr, y)},
        "calib_oof_cheap": {"threshold": thr_c, **prf_of(p_cheap >= thr_c, y)},
    }


def cascade_probabilities(p_cheap: np.ndarray, p_full: np.ndarray, low: float, high: float) -> np.ndarray:
    """The cascade's probability per answer: the full stage's where the cheap one falls in the
    escalation band ``[low, high]`` (the answers the cascade sends to the model), else the cheap one's."""
    out: np.ndarray = np.where((p_cheap >= low) & (p_cheap <= high), p_full, p_cheap)
    return out


def _model_spans(row: dict[str, Any], answer: str, tokens: Any, thr: float) -> list[tuple[int, int]]:
    from hallucheck.models.tagger_spans import probs_to_spans  # lazy: loaded only on this path

    tp = row.get("token_probs") or {}
    offs = [tuple(o) for o in tp.get("offsets", [])]
    probs = np.asarray(tp.get("probs", []), dtype=np.float32)
    return [(s.start, s.end) for s in probs_to_spans(answer, offs, probs, thr, tokens)]


def fit_policy(
    data: str,
    out: str,
    cache: str | None = None,
    seed: int = 13,
    max_escalate: float = 0.3,
    collect_missing: bool = True,
    detectors: tuple[str, ...] | None = None,
    tagger_config: str | None = None,
    limit: int | None = None,
    extra_cases: tuple[str, ...] = (),
    extra_weight: float = 1.0,
    train_taggers: tuple[str, ...] = (),
) -> int:
    """Fit the learned policy (see the module docstring); ``limit`` caps the answers per part (tests).

    ``extra_cases``: generic-format labelled files (``hallucheck data synth``) whose calib part joins
    the stages' fits, the threshold and the cascade band, with tree weight ``extra_weight``. Why:
    fitted on RAGTruth alone, the English policy's threshold is RAGTruth's, and English answers of
    other kinds are judged at a point chosen for news, QA passages and Yelp records. The span rule
    and every dev number stay RAGTruth's; the report gives the out-of-fold numbers per data set.

    ``train_taggers``: one tagger export per fold of the train part (``skip_fold: [k, n]``, see
    :func:`hallucheck.train.stack_data.collect_out_of_fold`); the train part's answers, read by
    the tagger that never saw their sources, join every stage's trees (not its scaling, threshold
    or reported numbers, which stay on calib).
    """
    cache_dir = Path(cache or "runs/stack")
    cheap = list(DEFAULT_DETECTORS)
    full = list(detectors) if detectors else cheap + list(FULL_EXTRA)
    extra_dirs = _extra_dirs(cache_dir, extra_cases)
    if train_taggers:
        fold_taggers(train_taggers)  # checked before the long collection, not after it
    if collect_missing:
        collect(data, cache_dir, sorted(set(full) | set(SPAN_CANDIDATES)), limit=limit)
        for f, d in zip(extra_cases, extra_dirs.values(), strict=True):
            collect(f, d, list(full), parts=("calib",), limit=limit, data_format="generic")
    gold = load_cache(cache_dir, "gold")
    train_dir = (collect_out_of_fold(data, cache_dir, train_taggers, sorted(set(full)), limit=limit, run=collect_missing)
                 if train_taggers else None)
    train_gold = load_cache(train_dir, "gold") if train_dir else {}
    answers = _answers(data)

    for k, g in gold.items():
        g["sentences"] = len(split_sentences(answers[k], "en")) if k in answers else 0
    report: dict[str, Any] = {}
    spec: dict[str, Any] = {"format": 1, "detectors": full, "stages": {}, "fitted": time.strftime("%Y-%m-%d"), "seed": seed}
    oof: dict[str, dict[str, float]] = {}
    stage_models: dict[str, Any] = {}
    # every fitted row's label, source group and data set (RAGTruth's and the extra cases' calib rows)
    label = {k: int(g["label"]) for k, g in gold.items()}
    group = {k: str(g["source"]) for k, g in gold.items()}
    data_of = {k: "ragtruth" for k in gold}
    for stage, dets in (("cheap", cheap), ("full", full)):
        keys, feats = _rows(cache_dir, dets, gold)
        extra_keys, extra_feats = _extra_rows(extra_dirs, dets, label, group, data_of)
        train_keys, train_feats = _rows(train_dir, dets, train_gold) if train_dir else ([], [])
        names = sorted({n for f in feats + extra_feats + train_feats for n in f})
        calib = [i for i, k in enumerate(keys) if gold[k]["part"] == "calib"]
        x = _matrix(feats, names)
        always = (_matrix(train_feats, names), np.array([int(train_gold[k]["label"]) for k in train_keys])) if train_keys else None
        if train_taggers:
            report.setdefault("train_rows", {})[stage] = len(train_keys)
        fit_keys = [keys[i] for i in calib] + extra_keys
        x_fit = np.vstack([x[calib], _matrix(extra_feats, names)]) if extra_keys else x[calib]
        y_fit = np.array([label[k] for k in fit_keys])
        weights = np.array([1.0 if data_of[k] == "ragtruth" else extra_weight for k in fit_keys]) if extra_keys else None
        st, p_oof = fit_stage(x_fit, y_fit, np.array([group[k] for k in fit_keys]), names, seed, weights, always)
        st["detectors"] = dets
        spec["stages"][stage] = st
        oof[stage] = {k: float(p) for k, p in zip(fit_keys, p_oof)}
        from hallucheck.policies.learned import Stage  # lazy: already loaded by this module's imports; kept where it is used

        stage_models[stage] = (Stage(st), {k: x[i] for i, k in enumerate(keys)})
    # one global threshold on the full stage's out-of-fold probabilities
    ck = sorted(oof["full"])
    y_c = np.array([label[k] for k in ck])
    p_full = np.array([oof["full"][k] for k in ck])
    p_cheap = np.array([oof["cheap"].get(k, 0.5) for k in ck])
    thr, stage_reports = stage_thresholds(p_full, p_cheap, y_c)
    spec["threshold"] = thr
    report.update(stage_reports)
    # cascade band: escalate when the cheap probability is in [lo, hi]
    best_band = (0.0, 1.0, -1.0, 1.0)
    qs = np.quantile(p_cheap, np.linspace(0, 1, 41))
    for i, lo in enumerate(qs):
        for hi in qs[i:]:
            frac = float(((p_cheap >= lo) & (p_cheap <= hi)).mean())
            if frac > max_escalate:
                continue
            pf = prf_of(cascade_probabilities(p_cheap, p_full, lo, hi) >= thr, y_c)["f1"]
            if pf > best_band[2] + 1e-9 or (abs(pf - best_band[2]) <= 1e-9 and frac < best_band[3]):
                best_band = (float(lo), float(hi), pf, frac)
    spec["escalate_low"], spec["escalate_high"] = round(best_band[0], 4), round(best_band[1], 4)
    report["calib_oof_cascade"] = {"f1": best_band[2], "escalated": round(best_band[3], 3),
                                   "band": [spec["escalate_low"], spec["escalate_high"]]}
    cascade = cascade_probabilities(p_cheap, p_full, best_band[0], best_band[1])
    # per RAGTruth task, at the one global threshold: a fit that helps one task may cost another
    report["calib_oof_by_task"] = {
        task: {"n": int(sum(sel)), "full": prf_of(p_full[sel] >= thr, y_c[sel]), "cascade": prf_of(cascade[sel] >= thr, y_c[sel])}
        for task in sorted({str(gold[k].get("task", "")) for k in ck if k in gold} - {""})
        for sel in [np.array([k in gold and gold[k].get("task") == task for k in ck])]
    }
    if extra_dirs:
        report["calib_oof_by_data"] = {
            name: {"n": int(sum(sel)), "full": prf_of(p_full[sel] >= thr, y_c[sel]), "cascade": prf_of(cascade[sel] >= thr, y_c[sel])}
            for name in ["ragtruth", *extra_dirs]
            for sel in [np.array([data_of[k] == name for k in ck])]
        }
        spec["extra_cases"] = [{"name": name, "answers": report["calib_oof_by_data"][name]["n"], "weight": extra_weight}
                               for name in extra_dirs]
    if train_taggers:
        spec["train_rows"] = {"answers": report["train_rows"]["full"], "folds": len(train_taggers),
                              "taggers": ["/".join(Path(t).resolve().parts[-2:]) for t in train_taggers]}
    # the per-answer out-of-fold probabilities, so that two fits can be compared answer by answer
    # (bench/policy_compare.py: a paired bootstrap over source groups)
    (cache_dir / OOF_FILE).write_text(json.dumps({
        "keys": ck, "label": y_c.tolist(), "group": [group[k] for k in ck],
        "full": [float(v) for v in p_full], "cheap": [float(v) for v in p_cheap],
        "threshold": thr, "band": [best_band[0], best_band[1]],
    }), encoding="utf-8")
    model_rows = load_cache(cache_dir, "model")
    if model_rows:
        # the model detector's own verdict (max token probability), for users who run it alone
        mk = [k for k in ck if k in model_rows]
        m_thr, m_f1 = _best_threshold(np.array([model_rows[k]["features"]["model_max"] for k in mk]),
                                      np.array([int(gold[k]["label"]) for k in mk]))
        spec["model_answer_threshold"] = round(float(m_thr), 4)
        report["calib_model_alone"] = {"answer_threshold": spec["model_answer_threshold"], "f1": round(float(m_f1), 4)}
    # span fusion on calib: token threshold for the model, then cheap detectors added greedily
    # the span rule is fitted on RAGTruth's labelled spans only
    ragtruth_oof = {stage: {k: v for k, v in p.items() if data_of[k] == "ragtruth"} for stage, p in oof.items()}
    spec.update(_fit_spans(cache_dir, gold, answers, ragtruth_oof["full"], ragtruth_oof["cheap"], thr, report, cheap, full))
    report["dev"] = _dev_report(cache_dir, gold, answers, stage_models, spec)
    spec["calib_report"] = report
    # The floor table is measured apart (bench/floors.py) and the language groups are fitted apart
    # (train-language-policies): a refit of the English stages keeps what the file already holds.
    if Path(out).is_file():
        previous = json.loads(Path(out).read_text(encoding="utf-8"))
        spec.update({k: previous[k] for k in _KEPT_ON_REFIT if k in previous})
    write_spec(spec, out)
    if tagger_config and "model_answer_threshold" in spec:
        write_tagger_thresholds(Path(tagger_config), spec)
    print(json.dumps(report, indent=1), file=sys.stderr)
    return 0


def _extra_dirs(cache_dir: Path, extra_cases: tuple[str, ...]) -> dict[str, Path]:
    """Each extra case file's name (its file name without ``.jsonl``) and its cache folder, checked
    before any detector runs: a missing file or two files of one name are input errors, found
    before the long collection over RAGTruth rather than after it."""
    dirs: dict[str, Path] = {}
    for f in extra_cases:
        name = Path(f).name.removesuffix(".jsonl")
        if not Path(f).is_file():
            raise InputError(f"--extra-cases {f}: no such file")
        if name in dirs:
            raise InputError(f"--extra-cases: two files named {name!r}; their rows and caches would mix")
        dirs[name] = cache_dir / f"extra-{name}"
    return dirs


def _extra_rows(
    dirs: dict[str, Path], detectors: list[str], label: dict[str, int], group: dict[str, str], data_of: dict[str, str]
) -> tuple[list[str], list[dict[str, float]]]:
    """The calib rows of the extra case files (keys ``NAME:calib:LINE``), recording each row's
    label, source group (shared with any row written from the same sources, whatever its file)
    and data set in the given maps. Answers whose only error is a citation
    marker are left out, as in the per-language fits (the stack reads no marker evidence)."""
    keys: list[str] = []
    feats: list[dict[str, float]] = []
    for name, d in dirs.items():
        rows, fs = language_rows(d, detectors, "calib", citation_errors=False)
        for g, f in zip(rows, fs, strict=True):
            k = f"{name}:{g['key']}"
            # the source key alone: an edit of a RAGTruth answer shares its sources, and so its
            # fold, with the answer it was made from (no fold may see the same sources twice)
            label[k], group[k], data_of[k] = int(g["label"]), g["source"], name
            keys.append(k)
            feats.append(f)
    return keys, feats


def write_tagger_thresholds(path: Path, spec: dict[str, Any]) -> None:
    """Put the calib-chosen thresholds into the tagger's config, so the ``model`` detector alone
    (outside the learned policy) marks spans and answers the way the fit found best."""
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["threshold"] = spec.get("token_threshold", cfg.get("threshold", 0.5))
    if spec.get("token_threshold_by_task"):
        cfg["threshold_by_task"] = spec["token_threshold_by_task"]
    else:
        cfg.pop("threshold_by_task", None)
    cfg["answer_threshold"] = spec["model_answer_threshold"]
    cfg["thresholds_note"] = (
        "token threshold (and one per task): best calib character span F1 inside the learned policy; answer threshold: "
        f"best calib response F1 of model_max alone (hallucheck train-policy, {spec['fitted']})"
    )
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")


def _answers(data: str) -> dict[str, str]:
    out = {}
    for part in ("calib", "dev"):
        for ex in load_dataset(data, "ragtruth", split=part):
            out[f"{part}:{ex.line}"] = ex.case.answer
    return out


def _greedy_spans(
    cache: Path,
    keys: list[str],
    flagged: dict[str, bool],
    gold_spans: list[Any],
    base: list[list[tuple[int, int]]],
    current: float,
    allowed: list[str],
) -> tuple[list[str], float, list[list[tuple[int, int]]]]:
    """Detectors whose spans, added one at a time, raise span F1; with that F1 and the fused spans."""
    chosen: list[str] = []
    for det in [d for d in SPAN_CANDIDATES if d in allowed]:
        trial = _with_detector_spans(cache, keys, flagged, base, [det])
        f = span_prf(trial, gold_spans)["f1"]
        if f > current + 0.002:
            chosen.append(det)
            base, current = trial, f
    return chosen, current, base


def _fit_spans(
    cache: Path,
    gold: dict[str, Any],
    answers: dict[str, str],
    p_oof: dict[str, float],
    p_cheap: dict[str, float],
    thr: float,
    report: dict[str, Any],
    cheap: list[str],
    full: list[str],
) -> dict[str, Any]:
    ck = sorted(p_cheap)
    cheap_chosen, cheap_f, _ = _greedy_spans(
        cache, ck, {k: p_cheap[k] >= thr for k in ck}, [[tuple(s) for s in gold[k]["spans"]] for k in ck], [[] for _ in ck], 0.0, cheap
    )
    report["calib_span_cheap"] = {"span_detectors": cheap_chosen, "f1": round(cheap_f, 4)}
    model = load_cache(cache, "model")
    if not model:
        return {"cheap_span_detectors": cheap_chosen, "span_detectors": cheap_chosen}
    keys = [k for k in sorted(p_oof) if k in model]
    flagged = {k: p_oof[k] >= thr for k in keys}
    gold_spans = [[tuple(s) for s in gold[k]["spans"]] for k in keys]
    toks = {k: tokenize(answers[k], "en") for k in keys}
    tasks = [str(gold[k].get("task", "")) for k in keys]
    # the tagger's spans of one answer at one threshold, computed once for the one-threshold
    # search, the per-task search and the spans they end with
    marked: dict[tuple[str, float], list[tuple[int, int]]] = {}

    def spans_at(k: str, t: float) -> list[tuple[int, int]]:
        if (k, t) not in marked:
            marked[(k, t)] = _model_spans(model[k], answers[k], toks[k], t) if flagged[k] else []
        return marked[(k, t)]

    best_t, best_f = 0.5, -1.0
    for t in (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7):
        f = span_prf([spans_at(k, t) for k in keys], gold_spans)["f1"]
        if f > best_f:
            best_t, best_f = t, f
    by_task = _task_thresholds(keys, tasks, gold_spans, spans_at, best_t)
    base = [spans_at(k, by_task.get(task, best_t)) for k, task in zip(keys, tasks, strict=True)]
    best_f = span_prf(base, gold_spans)["f1"]
    chosen, current, fused = _greedy_spans(cache, keys, flagged, gold_spans, base, best_f, full)
    # Fallback for flagged answers on which the tagger marked nothing: only detectors whose spans
    # are at least as precise as the tagger's on calib, so the verdict comes with its reasons
    # without filling reports with the low-precision lexical spans.
    model_precision = span_prf(base, gold_spans)["precision"]
    fallback_dets = [
        d for d in cheap
        if span_prf(_with_detector_spans(cache, keys, flagged, [[] for _ in keys], [d]), gold_spans)["precision"] >= model_precision
    ]
    fallback = _with_fallback(cache, keys, flagged, fused, fallback_dets)
    report["calib_span"] = {
        "token_threshold": best_t, "token_threshold_by_task": by_task, "model_only_f1": round(best_f, 4),
        "span_detectors": chosen, "fused_f1": round(current, 4),
        "fallback_span_detectors": fallback_dets, "with_fallback": span_prf(fallback, gold_spans),
    }
    return {"token_threshold": best_t, "token_threshold_by_task": by_task, "span_detectors": chosen,
            "cheap_span_detectors": cheap_chosen, "fallback_span_detectors": fallback_dets}


TOKEN_THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7)


def _task_thresholds(keys: list[str], tasks: list[str], gold_spans: list[list[tuple[int, int]]],
                     spans_at: Any, start: float) -> dict[str, float]:
    """A token threshold per RAGTruth task, chosen for the pooled character span F1 (each task's
    threshold in turn, the others held, twice over), starting from the one threshold ``start``.

    Why: QA answers mark their hallucinations best at a low threshold and Summary answers at a
    high one (RAGTruth calib: QA 0.2, Summary 0.5, Data2txt 0.4 against 0.35 for all;
    chosen on half of the calib sources and scored on the other half, 20 splits, the per-task
    thresholds won 19 times, span F1 0.445 -> 0.453 on average). A task with fewer than 50 answers
    keeps ``start``. ``spans_at(key, threshold)`` is asked many times for the same pair: keep it
    cheap (the fit memoizes it)."""
    counts = Counter(tasks)
    names = sorted(t for t, n in counts.items() if t and n >= 50)
    chosen = {t: start for t in names}

    def f1(thr: dict[str, float]) -> float:
        pred = [spans_at(k, thr.get(task, start)) for k, task in zip(keys, tasks, strict=True)]
        return float(span_prf(pred, gold_spans)["f1"])

    def score(task: str, t: float) -> tuple[float, float]:
        # ties go to the threshold nearest the one threshold
        return f1({**chosen, task: t}), -abs(t - start)

    for _ in range(2):
        for task in names:
            chosen[task] = max(TOKEN_THRESHOLDS, key=lambda t: score(task, t))
    return chosen


def _with_detector_spans(
    cache: Path, keys: list[str], flagged: dict[str, bool], base: list[list[tuple[int, int]]], dets: list[str]
) -> list[list[tuple[int, int]]]:
    """``base`` plus the spans of ``dets`` on the flagged answers."""
    out = [list(b) for b in base]
    for det in dets:
        rows = load_cache(cache, det)
        for i, k in enumerate(keys):
            if flagged[k] and k in rows:
                out[i] += [tuple(s[:2]) for s in rows[k]["spans"]]
    return out


def _with_fallback(
    cache: Path, keys: list[str], flagged: dict[str, bool], fused: list[list[tuple[int, int]]], dets: list[str]
) -> list[list[tuple[int, int]]]:
    """As the policy shows them: a flagged answer with no fused span gets the spans of ``dets``."""
    extra = _with_detector_spans(cache, keys, flagged, [[] for _ in keys], dets)
    return [f if f or not flagged[k] else e for f, e, k in zip(fused, extra, keys)]


def _dev_report(
    cache: Path, gold: dict[str, Any], answers: dict[str, str], stage_models: dict[str, Any], spec: dict[str, Any]
) -> dict[str, Any]:
    """Dev numbers of the fitted stages, through the numpy evaluator (for the record; chooses nothing)."""
    out: dict[str, Any] = {}
    thr = spec["threshold"]
    model = load_cache(cache, "model")
    span_rows = {
        d: load_cache(cache, d)
        for key in ("span_detectors", "cheap_span_detectors", "fallback_span_detectors")
        for d in spec.get(key, [])
    }

    def detector_spans(key: str) -> list[tuple[str, list[tuple[int, int]]]]:
        return [(d, [tuple(s[:2]) for s in rows[key]["spans"]]) for d, rows in span_rows.items() if key in rows]

    for stage, (st, xs) in stage_models.items():
        keys = sorted(k for k in xs if gold[k]["part"] == "dev")
        p = np.array([st.probability(xs[k]) for k in keys])
        y = np.array([int(gold[k]["label"]) for k in keys])
        res: dict[str, Any] = {"n": len(keys), "auroc": round(float(auroc(list(p), list(y == 1)) or 0.0), 4), **prf_of(p >= thr, y)}
        for task in ("qa", "summary", "data2txt"):
            idx = [i for i, k in enumerate(keys) if gold[k]["task"] == task]
            res[task] = prf_of(p[idx] >= thr, y[idx])
        preds = []
        for k, pk in zip(keys, p):
            spans: list[tuple[int, int]] = []
            if pk >= thr:
                found = detector_spans(k)
                if stage == "full" and k in model:
                    tokens = tokenize(answers[k], "en")
                    found.insert(0, ("model", _model_spans(model[k], answers[k], tokens, spec.get("token_threshold", 0.5))))
                spans = choose_spans(
                    found,
                    with_model=stage == "full",
                    span_detectors=spec.get("span_detectors", []),
                    cheap_span_detectors=spec.get("cheap_span_detectors", []),
                    fallback_span_detectors=spec.get("fallback_span_detectors", []),
                )
            preds.append(spans)
        res["span"] = span_prf(preds, [[tuple(s) for s in gold[k]["spans"]] for k in keys])
        out[stage] = res
    if model and "model_answer_threshold" in spec:
        out["model_alone"] = _model_alone(model, gold, answers, spec)
    return out


def _model_alone(model: dict[str, Any], gold: dict[str, Any], answers: dict[str, str], spec: dict[str, Any]) -> dict[str, Any]:
    """The tagger by itself on dev: flagged when its max token probability reaches the calib-chosen
    answer threshold, spans at the calib-chosen token threshold (per task too, for the model card)."""
    keys = sorted(k for k in model if k in gold and gold[k]["part"] == "dev")
    thr = spec["model_answer_threshold"]
    res: dict[str, Any] = {"answer_threshold": thr, "token_threshold": spec.get("token_threshold", 0.5)}
    for task in (None, "qa", "summary", "data2txt"):
        sel = [k for k in keys if task is None or gold[k]["task"] == task]
        p = np.array([model[k]["features"]["model_max"] for k in sel])
        y = np.array([int(gold[k]["label"]) for k in sel])
        row: dict[str, Any] = {"n": len(sel), **prf_of(p >= thr, y), "auroc": round(float(auroc(list(p), list(y == 1)) or 0.0), 4)}
        preds = [
            _model_spans(model[k], answers[k], tokenize(answers[k], "en"), res["token_threshold"]) if pk >= thr else []
            for k, pk in zip(sel, p)
        ]
        row["span"] = span_prf(preds, [[tuple(s) for s in gold[k]["spans"]] for k in sel])
        res[task or "all"] = row
    return res
