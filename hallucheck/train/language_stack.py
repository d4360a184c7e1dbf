"""Fit the learned policy per language group (zh, de, fr) on labelled cases in that language.

The shipped stack is fitted on English RAGTruth; its English span tagger (the ``model``
detector) and its thresholds were never shown to work on Chinese, German or French answers. For
each group this module fits, on the calib part of the group's labelled cases (``hallucheck data
synth`` makes them from real text; folds grouped by source):

* a stage over the cheap detectors (rules and lexical), and
* a stage that adds the tagger's features,

and keeps the tagger only when its out-of-fold F1 beats the cheap stage by ``min_gain``: the
tagger weighs in only where calib shows it helps. The group's threshold is the best F1 on the
out-of-fold probabilities. Answers whose only error is a citation marker are left out of the fit
(the stack reads no marker evidence; the citation rules and their floor judge them). Dev parts are
scored for the report only, every answer included. Needs scikit-learn.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.calibration.stage_fit import FULL_EXTRA, fit_stage
from hallucheck.metrics import auroc, best_threshold, prf_of
from hallucheck.policies.default import DEFAULT_DETECTORS as CHEAP
from hallucheck.policies.learned import LearnedPolicy, Stage, case_features, stack_features
from hallucheck.train.stack_data import load_cache

__all__ = ["LANGUAGE_GROUPS", "fit_language_policies", "language_rows", "with_extra_cases"]

LANGUAGE_GROUPS: dict[str, tuple[str, ...]] = {"zh": ("zh-Hans", "zh-Hant"), "de": ("de",), "fr": ("fr",)}


def language_rows(
    cache: Path, detectors: Sequence[str], part: str, *, citation_errors: bool = True
) -> tuple[list[dict[str, Any]], list[dict[str, float]]]:
    """Gold rows and flat stack features of one cache's ``part`` (answers every detector ran on).

    ``citation_errors=False`` leaves out the answers whose only error is a citation marker
    (``citation_only`` in the gold row): the stack reads no marker evidence by design, so to it
    such an answer looks like a faithful one, and fitting on it would teach that a silent,
    faithful-looking answer is often hallucinated. The citation rules and their floor judge those.
    """
    gold = load_cache(cache, "gold")
    caches = {d: load_cache(cache, d) for d in detectors}
    rows, feats = [], []
    for key, g in gold.items():
        if g["part"] != part or not all(key in caches[d] for d in detectors):
            continue
        if not citation_errors and g.get("label") and g.get("citation_only"):
            continue
        summ = {d: caches[d][key] for d in detectors}
        rows.append(g)
        feats.append(stack_features(summ, case_features(g["task"], g["answer_chars"], g.get("sentences", 0), g.get("cross_lingual"))))
    return rows, feats


def with_extra_cases(cases: Path, extra: Sequence[Path], out: Path, parts: Sequence[str] = ("train", "calib")) -> Path:
    """``cases`` followed by the ``parts`` records of ``extra`` (default train and calib), as calib
    records, in ``out``. Leave ``train`` out when a tagger was trained on it: its features there
    are in-sample, and a fit on them would trust the tagger more than it deserves.

    The rule-made cases' faithful answers mostly copy their sources; cases written to reword
    them (``data/reworded``) show the fit what a faithful reworded answer looks like. The fit
    reads only calib records, so their train part joins it too; their dev part stays out, for
    the report. ``cases`` comes first and unchanged, so a detector cache keyed by line stays valid.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(cases.read_text(encoding="utf-8"))
        for path in extra:
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                record = json.loads(line)
                if record.get("part") in parts:
                    meta = {**(record.get("metadata") or {}), "extra_cases": True}
                    fh.write(json.dumps({**record, "part": "calib", "metadata": meta}, ensure_ascii=False) + "\n")
    return out


def _matrix(feats: Sequence[Mapping[str, float]], names: Sequence[str], fill: Sequence[float] | None = None) -> np.ndarray:
    x = np.zeros((len(feats), len(names)))
    for i, f in enumerate(feats):
        for j, n in enumerate(names):
            x[i, j] = f.get(n, fill[j] if fill is not None else 0.0)
    return x


def _fit(
    feats: list[dict[str, float]], y: np.ndarray, groups: np.ndarray, dets: Sequence[str], seed: int
) -> tuple[dict[str, Any], np.ndarray]:
    names = sorted({n for f in feats for n in f if n.startswith("case.") or n.split(".")[0] in dets})
    st, p = fit_stage(_matrix(feats, names), y, groups, names, seed)
    st["detectors"] = list(dets)
    return st, p


def _fit_group(
    rows: Sequence[Mapping[str, Any]], feats: list[dict[str, float]], *, cheap: Sequence[str], tagger_stage: Sequence[str],
    seed: int, min_gain: float, tagger_stage_drop: Sequence[str],
) -> tuple[dict[str, Any], np.ndarray]:
    """One fitted policy (stages, threshold, what counts) over ``rows``, with its calib OOF report,
    and the out-of-fold probabilities of the stage it uses."""
    y = np.array([int(g["label"]) for g in rows])
    groups = np.array([f"{g['language']}:{g['source']}" for g in rows])
    st_cheap, p_cheap = _fit(feats, y, groups, cheap, seed)
    st_full, p_full = _fit(feats, y, groups, tagger_stage, seed)
    t_cheap, f_cheap = best_threshold(p_cheap, y.astype(bool))
    t_full, f_full = best_threshold(p_full, y.astype(bool))
    use_model = f_full >= f_cheap + min_gain
    sub: dict[str, Any] = {
        "stages": {"cheap": st_cheap, **({"full": st_full} if use_model else {})},
        "threshold": t_full if use_model else t_cheap,
        "model_spans": use_model,
        "calib_oof": {"answers": len(rows), "hallucinated": int(y.sum()),
                      "cheap": {"threshold": t_cheap, "f1": round(f_cheap, 4)},
                      "with_tagger": {"threshold": t_full, "f1": round(f_full, 4)},
                      "tagger_used": use_model},
    }
    if not use_model:
        sub["escalate_low"], sub["escalate_high"] = 1.0, 0.0  # nothing later is weighed
    elif tagger_stage_drop:
        sub["escalate_low"], sub["escalate_high"] = 0.0, 1.0  # the tagger stage decides every answer
        sub["calib_oof"]["tagger_stage_drop"] = list(tagger_stage_drop)
    return sub, (p_full if use_model else p_cheap)


def _oof_line(sub: Mapping[str, Any]) -> str:
    oof = sub["calib_oof"]
    used = "used" if oof["tagger_used"] else "not used"
    return f"cheap {oof['cheap']['f1']:.3f}, with tagger {oof['with_tagger']['f1']:.3f}: tagger {used} ({oof['answers']} answers)"


def _cross_rows_f1(
    rows: Sequence[Mapping[str, Any]], own: Sequence[int], fits: tuple[Mapping[str, Any], Mapping[str, Any]],
    oof: tuple[np.ndarray, np.ndarray],
) -> dict[str, Any]:
    """F1 on the group's cross-lingual calib rows (out of fold): of the fit over every row, and of
    the cross-lingual fit over the rows ``own`` (those without extra cases, which every cross-lingual
    row is)."""
    pos_in_own = {i: k for k, i in enumerate(own)}
    idx = [i for i, g in enumerate(rows) if g.get("cross_lingual")]
    y = np.array([bool(rows[i]["label"]) for i in idx])
    hit_all = oof[0][idx] >= float(fits[0]["threshold"])
    hit_cross = oof[1][[pos_in_own[i] for i in idx]] >= float(fits[1]["threshold"])
    return {"answers": len(idx), "all_rows_fit": prf_of(hit_all, y)["f1"], "cross_lingual_fit": prf_of(hit_cross, y)["f1"]}


def _with_cross_lingual_fit(
    group: str, kept: Mapping[str, Any] | None, rows: Sequence[Mapping[str, Any]], feats: list[dict[str, float]],
    fit: Any, log: Any,
) -> dict[str, Any]:
    """The group's fit ``kept`` as it is, with a (new) second fit for answers over sources in
    another language, made from the rows without extra cases."""
    if not kept:
        raise ValueError(f"{group}: the policy has no fit of this group to keep; fit the group first")
    own = [i for i, g in enumerate(rows) if not g.get("extra")]
    cross_rows = [k for k, i in enumerate(own) if rows[i].get("cross_lingual")]
    if not cross_rows:
        raise ValueError(f"{group}: no calib answer over sources in another language to fit on")
    cross, cross_oof = fit([rows[i] for i in own], [feats[i] for i in own])
    y = np.array([bool(rows[own[k]]["label"]) for k in cross_rows])
    f1 = prf_of(cross_oof[cross_rows] >= float(cross["threshold"]), y)["f1"]
    cross["fitted"] = time.strftime("%Y-%m-%d")
    sub = {k: v for k, v in kept.items() if k != "cross_lingual"}
    sub["cross_lingual"] = cross
    sub["calib_oof"] = {**sub.get("calib_oof", {}),
                        "cross_lingual_rows": {"answers": len(cross_rows), "cross_lingual_fit": f1}}
    log(f"{group}: fit kept; cross-lingual answers: calib OOF F1 {_oof_line(cross)}; on the {len(cross_rows)} "
        f"cross-lingual rows {f1:.3f}")
    return sub


def fit_language_policies(
    spec: Mapping[str, Any],
    caches: Mapping[str, Path],
    *,
    dev_caches: Mapping[str, Path] | None = None,
    seed: int = 13,
    min_gain: float = 0.01,
    tagger_stage_drop: Sequence[str] = (),
    only_groups: Sequence[str] | None = None,
    cross_lingual_only: bool = False,
    log: Any = print,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(languages, report)``: the ``languages`` section of a learned spec, and dev numbers.

    ``caches`` maps a language code (``zh-Hans``, ``de``...) to the detector-output cache of its
    labelled cases (``hallucheck.train.stack_data.collect`` with ``data_format="generic"``);
    ``dev_caches`` those of the dev answers, when kept apart (default: the same caches).

    ``tagger_stage_drop`` names detectors the stage with the tagger leaves out (``ngram``,
    ``overlap``): the rule-made cases mostly copy their sources, so there lexical novelty alone
    separates faithful from unfaithful, and a fit that leans on it rejects every answer that
    rewords its sources. Such a stage, when used, decides every answer of its group (the cascade
    always escalates to it), since the cheap stage would otherwise reject on novelty before the
    tagger is asked. ``min_gain`` may then be negative: the calib F1 it may cost.

    ``only_groups`` fits only those language groups (default: every group with cases); the other
    groups keep their fit and calib report from ``spec``.

    ``cross_lingual_only`` keeps each group's fit from ``spec`` and (re)fits only its second fit,
    for answers over sources in another language, on the rows without extra cases.
    """
    cheap = list(CHEAP)
    full = cheap + list(FULL_EXTRA)
    tagger_stage = [d for d in full if d not in set(tagger_stage_drop)]
    languages: dict[str, Any] = {}
    report: dict[str, Any] = {}
    for group, langs in LANGUAGE_GROUPS.items():
        if only_groups is not None and group not in only_groups:
            continue
        present = [lang for lang in langs if lang in caches]
        if not present:
            continue
        rows: list[dict[str, Any]] = []
        feats: list[dict[str, float]] = []
        for lang in present:
            r, f = language_rows(caches[lang], full, "calib", citation_errors=False)
            rows += r
            feats += f
        if len(rows) < 200:
            log(f"{group}: only {len(rows)} calib answers; not fitted")
            continue
        fit = functools.partial(_fit_group, cheap=cheap, tagger_stage=tagger_stage, seed=seed, min_gain=min_gain,
                                tagger_stage_drop=tagger_stage_drop)
        if cross_lingual_only:
            languages[group] = _with_cross_lingual_fit(group, (spec.get("languages") or {}).get(group), rows, feats, fit, log)
            languages[group]["cross_lingual"]["fitted_on"] = {lang: str(caches[lang]) for lang in present}
            report[group] = languages[group]["calib_oof"]
            continue
        sub, oof = fit(rows, feats)
        sub["fitted"] = time.strftime("%Y-%m-%d")
        sub["fitted_on"] = {lang: str(caches[lang]) for lang in present}
        log(f"{group}: calib OOF F1 {_oof_line(sub)}")
        own = [i for i, g in enumerate(rows) if not g.get("extra")]
        if len(own) < len(rows) and any(rows[i].get("cross_lingual") for i in own):
            # The extra cases are written same-language rewordings; answers over sources in another
            # language keep a fit that did not learn from them (see LearnedPolicy.for_case).
            cross, cross_oof = fit([rows[i] for i in own], [feats[i] for i in own])
            sub["cross_lingual"] = cross
            sub["calib_oof"]["cross_lingual_rows"] = _cross_rows_f1(rows, own, (sub, cross), (oof, cross_oof))
            log(f"{group} (cross-lingual answers, fit without the extra cases): calib OOF F1 {_oof_line(cross)}; "
                f"on the cross-lingual rows {sub['calib_oof']['cross_lingual_rows']}")
        languages[group] = sub
        report[group] = sub["calib_oof"]
    report["dev"] = _dev(spec, languages, dev_caches or caches, full)
    if only_groups is not None:
        kept = {g: v for g, v in (spec.get("languages") or {}).items() if g not in only_groups}
        old_report = spec.get("languages_report") or {}
        # The dev numbers of the languages whose group was not refitted stay those of their fit.
        refitted = {lang for g in languages for lang in LANGUAGE_GROUPS[g]}
        old_dev = old_report.get("dev") or {}
        dev = {lang: res for lang, res in old_dev.items() if lang not in refitted}
        report["dev"] = {**dev, **{lang: res for lang, res in report["dev"].items() if lang not in dev}}
        return {**kept, **languages}, {**{g: old_report[g] for g in kept if g in old_report}, **report}
    return languages, report


def _dev(spec: Mapping[str, Any], languages: Mapping[str, Any], caches: Mapping[str, Path], full: Sequence[str]) -> dict[str, Any]:
    """Per language, on its dev part: the English-fitted policy against the group's own."""
    base = {k: v for k, v in spec.items() if k != "languages"}
    out: dict[str, Any] = {}
    for lang, cache in caches.items():
        rows, feats = language_rows(cache, full, "dev")
        if not rows:
            continue
        y = np.array([bool(g["label"]) for g in rows])
        group = next((g for g, ls in LANGUAGE_GROUPS.items() if lang in ls), None)
        res: dict[str, Any] = {"answers": len(rows), "hallucinated": int(y.sum())}
        for name, s in (("english_policy", base), ("language_policy", {**base, **languages.get(group or "", {})})):
            if name == "language_policy" and group not in languages:
                continue
            pol = LearnedPolicy(spec=s)
            p, hits = [], []
            for g, f in zip(rows, feats):
                judge = pol.cross_lingual if pol.cross_lingual is not None and g.get("cross_lingual") else pol
                stage: Stage = judge.stages.get("full") or judge.stages["cheap"]
                p.append(stage.probability(stage.filled_vector(f)[0]))
                hits.append(p[-1] >= judge.threshold)
            res[name] = {"threshold": pol.threshold, **prf_of(hits, y),
                         "auroc": round(float(auroc(p, list(y)) or 0.0), 4)}
            by_edit: dict[str, list[bool]] = {}
            for g, hit in zip(rows, hits):
                by_edit.setdefault(g.get("edit") or "?", []).append(bool(hit))
            res[name]["flagged_by_edit"] = {e: round(float(np.mean(v)), 3) for e, v in sorted(by_edit.items())}
        out[lang] = res
    return out
