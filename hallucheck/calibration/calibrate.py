"""Refit a learned policy to a user's own labels: calibration, threshold, and (with enough data) the stack.

Why: the shipped policy is fitted on English RAGTruth. On other data it often still ranks
answers well while its threshold is off (a different base rate, shorter answers, another
language), so it flags too few or too many. Given labelled answers this module

* refits the Platt scaling of every stage on the stage's raw score (numpy only), so probabilities
  match the user's base rate: by default (``"shifted"``, :func:`fit_shift`) only its intercept
  moves, unless the labels show the slope is off too; with ``"expected"`` or ``"resampled"``
  both parameters are refitted;
* chooses the one decision threshold with the best F1 expected on new answers like these
  (:func:`choose_threshold`: by default the F1 the refitted probabilities themselves expect; or
  the labels' F1 curve averaged over resamples of the answers' source groups and over
  neighbouring thresholds; never the single best threshold of one noisy sample);
* with enough data (``MIN_STACK_ANSWERS`` answers, ``MIN_STACK_CLASS`` of each label) and
  scikit-learn (extra ``train``), refits the full stage's trees on the user's detector outputs.

Everything reported as "after" is out-of-fold: folds are grouped by source (answers written from
the same sources never straddle folds), each fold is predicted by a policy fitted on the others.
The policy written at the end is fitted on all the data.

Given the Checker's floor table (``floors``), "before" and "after" are counted as
``hallucheck eval`` counts them: "before" is the verdict of the Checker's own report when the
sample carries it (``Sample.reported``), and every refitted verdict goes through the same floors
and safeguards the Checker applies (:func:`hallucheck.policies.safeguards.final_verdict`), so the
two numbers compare the policy the user has with the one that would be written.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from hallucheck.analysis import CaseAnalysis
from hallucheck.calibration.stage_fit import fit_stage
from hallucheck.errors import InputError
from hallucheck.metrics import THRESHOLD_GRID, prf_of
from hallucheck.policies.base import Verdict, decision_for
from hallucheck.policies.floors import FloorTable
from hallucheck.policies.learned import (
    LearnedPolicy,
    Stage,
    _summaries,
    case_features,
    level_from_probability,
    stack_features,
)
from hallucheck.policies.safeguards import final_verdict, merge_coverage
from hallucheck.types import Finding
from hallucheck.verdict_facts import settle_facts

__all__ = [
    "MIN_ANSWERS",
    "MIN_STACK_ANSWERS",
    "MIN_STACK_CLASS",
    "Calibration",
    "Sample",
    "ThresholdMethod",
    "calibrate_policy",
    "choose_threshold",
    "expected_f1_curve",
    "fit_platt",
    "fit_shift",
    "grouped_folds",
    "source_group",
]

MIN_ANSWERS = 20  # below this, there is nothing to fit; docs say useful from about 100
MIN_CLASS = 5
MIN_STACK_ANSWERS = 1000
MIN_STACK_CLASS = 100
BOOTSTRAP_ROUNDS = 200  # resamples of the source groups behind the expected F1 curve
SMOOTH_WIDTH = 7  # neighbouring thresholds (0.01 apart) the expected F1 is averaged over
# Likelihood ratio above which the probabilities count as miscalibrated on the labels and the
# expected F1 reads them through a beta calibration (chi-square, 1 degree of freedom, 5%).
BETA_CHECK = 3.84

# How the threshold is chosen: "resampled" (the default) from the labels' F1 curve averaged over
# resamples; "expected" from the refitted probabilities themselves. Which one does better depends
# on the data (docs/policies.md, "Measured"): the expected F1 did better on RAGTruth train draws
# and at RAGTruth calib's own rate, worse on calib draws cut to 15% hallucinated.
ThresholdMethod = Literal["resampled", "expected", "shifted"]


@dataclass
class Sample:
    """One labelled answer with what the detectors found (``findings`` empty: nothing to check).

    ``reported``: the verdict of the Checker's report on it (what ``hallucheck eval`` counts), when
    the answer went through a Checker; None: "before" is the policy's own decision.
    """

    analysis: CaseAnalysis
    findings: list[Finding]
    label: bool
    group: str
    reported: bool | None = None


@dataclass
class Calibration:
    """The refitted spec and what it changed (``report``: before / after P, R, F1 and settings)."""

    spec: dict[str, Any]
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def improved(self) -> bool:
        """Whether the refitted policy's F1 ("after") beats the one it started from ("before")."""
        return bool(self.report["after"]["f1"] > self.report["before"]["f1"])


def source_group(analysis: CaseAnalysis) -> str:
    """A key shared by answers written from the same sources (folds never split such a group)."""
    blob = "\x1f".join(s.text for s in analysis.case.contexts)
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


def _sig(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))
    return out


def _logistic(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 100) -> np.ndarray:
    """Weights of ``P(y=1) = sigmoid(x @ w)`` by Newton's method on the log loss plus a small ridge."""
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = _sig(x @ w)
        grad = x.T @ (p - y) + l2 * w
        hess = x.T @ (x * (p * (1.0 - p))[:, None]) + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    return w


def fit_platt(raw: np.ndarray, y: np.ndarray, l2: float = 1e-3, iterations: int = 100) -> tuple[float, float]:
    """``(a, b)`` of ``P(y=1) = sigmoid(a * raw + b)`` by Newton's method on the log loss.

    A small ridge keeps it finite on separable data; the slope is kept positive (a higher raw
    score never means a lower probability), falling back to the base rate otherwise.
    """
    w = _logistic(np.column_stack([raw, np.ones_like(raw)]), y, l2, iterations)
    a, b = float(w[0]), float(w[1])
    if not np.isfinite([a, b]).all() or a <= 0.0:
        rate = float(np.clip(y.mean(), 1e-3, 1 - 1e-3))
        return 0.0, float(np.log(rate / (1.0 - rate)))
    return a, b


def fit_shift(raw: np.ndarray, y: np.ndarray, prior: tuple[float, float], iterations: int = 100) -> tuple[float, float]:
    """``(a, b)``: the shipped Platt scaling ``prior`` moved by an intercept shift only, or the
    full two-parameter fit when the labels ask for it.

    Why: when answers differ from the fitting data mainly in how many are hallucinated, the
    score's ranking and spread stay and only the intercept moves; one parameter is estimated far
    more steadily from 60 hallucinated answers than two. The slope is refitted only when the
    two-parameter fit explains the labels better than chance would give one extra parameter
    (likelihood ratio above ``BETA_CHECK``).
    """
    a0, b = float(prior[0]), float(prior[1])
    if a0 <= 0.0:
        return fit_platt(raw, y)
    for _ in range(iterations):
        p = _sig(a0 * raw + b)
        grad = float(np.sum(p - y))
        hess = float(np.sum(p * (1.0 - p))) + 1e-9
        step = grad / hess
        b -= step
        if abs(step) < 1e-9:
            break
    a2, b2 = fit_platt(raw, y)
    shifted, full = _sig(a0 * raw + b), _sig(a2 * raw + b2)
    if np.isfinite(b) and 2.0 * (_log_likelihood(full, y) - _log_likelihood(shifted, y)) <= BETA_CHECK:
        return a0, float(b)
    return a2, b2


def _log_likelihood(q: np.ndarray, y: np.ndarray) -> float:
    q = np.clip(q, 1e-12, 1.0 - 1e-12)
    return float(np.sum(y * np.log(q) + (1.0 - y) * np.log(1.0 - q)))


def _checked(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``p``, or ``p`` read through a beta calibration when the labels say ``p`` is miscalibrated.

    Beta calibration, ``sigmoid(a ln p - b ln(1 - p) + c)``, holds ``p`` itself (a = b = 1,
    c = 0) and the sigmoid shapes a logistic fit on the raw score cannot take (too low in the
    middle, too high at the top). It replaces ``p`` only when it fits the labels better than ``p``
    by more than chance would give one extra parameter (likelihood ratio above ``BETA_CHECK``).
    """
    pc = np.clip(p, 1e-6, 1.0 - 1e-6)
    x = np.column_stack([np.log(pc), -np.log(1.0 - pc), np.ones_like(pc)])
    w = _logistic(x, y, 1e-3)
    q = _sig(x @ w)
    if not np.isfinite(q).all() or 2.0 * (_log_likelihood(q, y) - _log_likelihood(p, y)) <= BETA_CHECK:
        return p
    return q


def expected_f1_curve(probabilities: Sequence[float] | np.ndarray, labels: Sequence[bool] | np.ndarray,
                      grid: np.ndarray | None = None) -> np.ndarray:
    """F1 at each threshold of ``grid`` expected from calibrated probabilities.

    With ``q_i`` the probability that answer i is hallucinated (``probabilities``, or a beta
    recalibration of them when the labels show they are off, see :func:`_checked`), flagging the
    answers at or above ``t`` expects ``TP = sum q_i``, ``FP = sum (1 - q_i)`` over the flagged
    ones and ``FN = sum q_i`` over the others; the curve is ``2 TP / (2 TP + FP + FN)``. The
    labels enter only through the two or three parameters of the fit, so the curve does not jump
    when one hallucinated answer crosses a threshold, as the labels' own F1 does.
    """
    ts = THRESHOLD_GRID if grid is None else np.asarray(grid, dtype=np.float64)
    p = np.asarray(probabilities, dtype=np.float64)
    q = _checked(p, np.asarray(labels, dtype=bool).astype(np.float64))
    flagged = p[:, None] >= ts[None, :]
    tp = (flagged * q[:, None]).sum(axis=0)
    fp = (flagged * (1.0 - q[:, None])).sum(axis=0)
    fn = (~flagged * q[:, None]).sum(axis=0)
    denom = 2.0 * tp + fp + fn
    out: np.ndarray = np.where(denom > 0, 2.0 * tp / np.where(denom > 0, denom, 1.0), 0.0)
    return out


def _f1_curves(flagged: np.ndarray, positive: np.ndarray, pos: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """F1 at every threshold for every weighting of the groups.

    ``flagged`` / ``positive``: per group (rows) and threshold (columns), the answers flagged and
    the hallucinated answers flagged; ``pos``: hallucinated answers per group; ``weights``: how
    often each group is drawn (rows: draws). Counts are whole numbers, so the sums are exact.
    """
    tp = weights @ positive
    denom = weights @ flagged + (weights @ pos)[:, None]
    out: np.ndarray = np.where(denom > 0, 2.0 * tp / np.where(denom > 0, denom, 1.0), 0.0)
    return out


def choose_threshold(probabilities: Sequence[float] | np.ndarray, labels: Sequence[bool] | np.ndarray,
                     groups: Sequence[str], *, method: ThresholdMethod = "resampled", seed: int = 13,
                     rounds: int = BOOTSTRAP_ROUNDS, width: int = SMOOTH_WIDTH, grid: np.ndarray | None = None) -> float:
    """The threshold with the best F1 expected on new answers drawn like these.

    The threshold with the best F1 on the calibration answers themselves is a noisy pick when
    hallucinated answers are few (400 answers with 60 hallucinated ones): F1 jumps with every
    positive answer crossing the threshold, and the best one of this sample is often not the best
    on the next.

    ``method="resampled"`` (the default) averages the labels' F1 curve over ``rounds`` bootstrap
    resamples of whole source groups (answers written from the same sources stay together, as in
    the folds) and then over ``width`` neighbouring thresholds, and takes the best of that
    smoother curve; ``rounds=0`` and ``width=1`` give the plain best threshold.

    ``method="expected"`` takes the best of :func:`expected_f1_curve`, the F1 the refitted
    probabilities themselves expect: every label counts through the fit, so the choice varies far
    less from sample to sample, but it is only as good as the probabilities' calibration where
    the threshold falls (measured in docs/policies.md: better on some data, worse on other).
    ``method="shifted"`` chooses the same way; it differs from ``"expected"`` in how
    :func:`calibrate_policy` refits the probabilities first (:func:`fit_shift`), which is what
    steadies them at 60 hallucinated answers.

    Either way the middle of a run of equal values (to four decimals) is taken, as
    :func:`hallucheck.metrics.best_threshold` does.
    """
    ts = THRESHOLD_GRID if grid is None else np.asarray(grid, dtype=np.float64)
    if method in ("expected", "shifted"):
        curve = expected_f1_curve(probabilities, labels, ts)
    elif method == "resampled":
        curve = _resampled_f1_curve(probabilities, labels, groups, ts, seed, rounds, width)
    else:
        raise ValueError(f"unknown threshold method {method!r} (resampled, expected or shifted)")
    curve = np.round(curve, 4)
    run = np.flatnonzero(curve >= curve.max())
    return float(ts[run[len(run) // 2]])


def _resampled_f1_curve(probabilities: Sequence[float] | np.ndarray, labels: Sequence[bool] | np.ndarray,
                        groups: Sequence[str], ts: np.ndarray, seed: int, rounds: int, width: int) -> np.ndarray:
    """The labels' F1 curve averaged over resamples of the source groups and neighbouring thresholds."""
    p = np.asarray(probabilities, dtype=np.float64)
    y = np.asarray(labels, dtype=bool).astype(np.float64)
    uniq, inverse = np.unique(np.asarray(groups), return_inverse=True)
    flagged_answers = (p[:, None] >= ts[None, :]).astype(np.float64)
    flagged = np.zeros((len(uniq), len(ts)))
    np.add.at(flagged, inverse, flagged_answers)
    positive = np.zeros((len(uniq), len(ts)))
    np.add.at(positive, inverse, flagged_answers * y[:, None])
    pos = np.bincount(inverse, weights=y, minlength=len(uniq))
    if rounds > 0:
        rng = np.random.default_rng(seed)
        draws = rng.integers(0, len(uniq), size=(rounds, len(uniq)))
        weights = np.stack([np.bincount(d, minlength=len(uniq)) for d in draws]).astype(np.float64)
    else:
        weights = np.ones((1, len(uniq)))
    curve: np.ndarray = _f1_curves(flagged, positive, pos, weights).mean(axis=0)
    if width > 1:
        half = width // 2
        curve = np.convolve(np.pad(curve, half, mode="edge"), np.ones(width) / width, mode="valid")
    return curve


def grouped_folds(groups: Sequence[str], k: int, seed: int) -> list[np.ndarray]:
    """Indices of ``k`` folds with whole groups in each, shuffled by ``seed``."""
    uniq = sorted(set(groups))
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(uniq))
    fold_of = {uniq[j]: i % k for i, j in enumerate(order)}
    idx = np.array([fold_of[g] for g in groups])
    return [np.flatnonzero(idx == f) for f in range(k) if (idx == f).any()]


def _stage_inputs(policy: LearnedPolicy, sample: Sample) -> tuple[dict[str, float], str]:
    """The flat stack features of one sample and the stage the policy uses for it."""
    summaries = _summaries(sample.findings)
    a = sample.analysis
    feats = stack_features(summaries, case_features(a.case.task, a.answer_chars, len(a.sentences), a.cross_lingual))
    stage = policy._stage_for(set(summaries))
    return feats, ("full" if stage is policy.stages.get("full") else "cheap")


def _recalibrated(spec: Mapping[str, Any], platt: Mapping[str, tuple[float, float]], threshold: float,
                  stages: Mapping[str, Any] | None = None) -> dict[str, Any]:
    out = dict(spec)
    out["stages"] = {}
    for name, st in spec["stages"].items():
        new = dict((stages or {}).get(name, st))
        if name in platt:
            new["platt"] = [platt[name][0], platt[name][1]]
        out["stages"][name] = new
    out["threshold"] = threshold
    return out


@dataclass
class _Given:
    """A policy whose verdict is already made (the refitted stack's out-of-fold probability), so
    that it goes through the Checker's safeguards as any policy's verdict does."""

    verdict: Verdict
    name: str = "learned"

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        return self.verdict

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        return False


def _judged(policy: Any, sample: Sample, floors: FloorTable | None) -> bool:
    """The verdict on ``sample``: the policy's decision alone (``floors`` None) or, as the Checker
    makes it, with the floors and safeguards on top."""
    if floors is None:
        return bool(policy.decide(sample.analysis, sample.findings).hallucinated) if sample.findings else False
    coverage = merge_coverage(sample.findings, len(sample.analysis.case.answer))
    settle_facts(sample.analysis, sample.findings)
    return final_verdict(policy, sample.analysis, sample.findings, floors, coverage=coverage).hallucinated


def _verdicts(spec: Mapping[str, Any], samples: Sequence[Sample], idx: Sequence[int],
              floors: FloorTable | None = None) -> np.ndarray:
    policy = LearnedPolicy(spec=spec)
    return np.array([_judged(policy, samples[i], floors) for i in idx], dtype=bool)


def _stack_verdict(p: float, threshold: float) -> Verdict:
    level = level_from_probability(p, threshold)
    return Verdict(hallucinated=p >= threshold, risk_score=p, risk_level=level, decision=decision_for(level))


def calibrate_policy(
    spec: Mapping[str, Any],
    samples: Sequence[Sample],
    *,
    folds: int = 5,
    seed: int = 13,
    refit_stack: bool | None = None,
    threshold_method: ThresholdMethod = "shifted",
    threshold_rounds: int = BOOTSTRAP_ROUNDS,
    threshold_width: int = SMOOTH_WIDTH,
    floors: FloorTable | None = None,
    log: Callable[[str], None] = lambda _: None,
) -> Calibration:
    """Refit ``spec`` (a learned-policy spec) on ``samples``; see the module docstring.

    ``refit_stack``: None refits the full stage's trees when there is enough data and
    scikit-learn is installed; True requires it; False never does. ``threshold_method``,
    ``threshold_rounds`` and ``threshold_width``: see :func:`choose_threshold` (``"resampled"``
    with 0 and 1: the plain best threshold). ``floors``: the floor table of the Checker the
    verdicts are measured as (None: the policy's decision alone).
    """
    spec, group_note = _language_spec(spec, samples)
    usable = [i for i, s in enumerate(samples) if s.findings]
    y_all = np.array([s.label for s in samples], dtype=bool)
    y = y_all[usable]
    pos, neg = int(y.sum()), int((~y).sum())
    if len(usable) < MIN_ANSWERS or min(pos, neg) < MIN_CLASS:
        raise InputError(
            f"calibration needs at least {MIN_ANSWERS} labelled answers with {MIN_CLASS} of each label "
            f"(got {len(usable)}: {pos} hallucinated, {neg} not); it is useful from about 100"
        )
    base = LearnedPolicy(spec=spec)
    inputs = [_stage_inputs(base, samples[i]) for i in usable]
    raw = {name: np.array([st.raw(st.filled_vector(f)[0]) for f, _ in inputs]) for name, st in base.stages.items()}
    used = np.array([u for _, u in inputs])
    groups = [samples[i].group for i in usable]
    k = max(2, min(folds, len(set(groups))))
    parts = grouped_folds(groups, k, seed)

    def fit(train: np.ndarray) -> tuple[dict[str, tuple[float, float]], float]:
        if threshold_method == "shifted":
            platt = {name: fit_shift(r[train], y[train].astype(float), base.stages[name].platt) for name, r in raw.items()}
        else:
            platt = {name: fit_platt(r[train], y[train].astype(float)) for name, r in raw.items()}
        p = np.array([float(_sig(np.array(platt[u][0] * raw[u][i] + platt[u][1]))) for i, u in zip(train, used[train])])
        return platt, choose_threshold(p, y[train], [groups[i] for i in train], method=threshold_method, seed=seed,
                                       rounds=threshold_rounds, width=threshold_width)

    before = np.array([s.reported if s.reported is not None else _judged(base, s, floors) for s in samples], dtype=bool)
    oof = np.zeros(len(usable), dtype=bool)
    for test in parts:
        train = np.setdiff1d(np.arange(len(usable)), test)
        platt, thr = fit(train)
        oof[test] = _verdicts(_recalibrated(spec, platt, thr), [samples[usable[i]] for i in test], range(len(test)), floors)
    after = before.copy()
    after[usable] = oof
    platt, thr = fit(np.arange(len(usable)))
    out = _recalibrated(spec, platt, thr)
    report: dict[str, Any] = {
        "answers": len(samples),
        "hallucinated": int(y_all.sum()),
        "folds": len(parts),
        "before": {"threshold": float(spec["threshold"]), **prf_of(before, y_all)},
        "after": {"threshold": thr, **prf_of(after, y_all)},
        "threshold_method": threshold_method,
        "platt": {name: [round(a, 6), round(b, 6)] for name, (a, b) in platt.items()},
        "stack_refit": False,
    }
    if group_note:
        report["language"] = group_note
    if _want_stack(refit_stack, len(usable), pos, neg):
        log("refitting the full stage's trees on these labels (scikit-learn)")
        stack = _refit_stack(base, inputs, y, groups, seed)
        if stack is not None:
            stage_spec, p_oof = stack
            thr_s = choose_threshold(p_oof, y, groups, method=threshold_method, seed=seed, rounds=threshold_rounds,
                                     width=threshold_width)
            after_s = before.copy()
            stacked = [_judged(_Given(_stack_verdict(float(p_oof[j]), thr_s)), samples[i], floors) if floors is not None
                       else bool(p_oof[j] >= thr_s) for j, i in enumerate(usable)]
            after_s[usable] = np.where(used == "full", stacked, oof)
            report["stack"] = {"threshold": thr_s, **prf_of(after_s, y_all)}
            if report["stack"]["f1"] > report["after"]["f1"]:
                out = _recalibrated(spec, {n: v for n, v in platt.items() if n != "full"}, thr_s, {"full": stage_spec})
                report["after"] = report["stack"]
                report["stack_refit"] = True
    out["calibration"] = {
        "fitted": time.strftime("%Y-%m-%d"),
        "seed": seed,
        **{k2: v for k2, v in report.items() if k2 != "stack"},
    }
    return Calibration(out, report)


def _language_spec(spec: Mapping[str, Any], samples: Sequence[Sample]) -> tuple[Mapping[str, Any], str | None]:
    """The spec that speaks for most of the samples' language: a policy fitted per language
    group is refitted as that group's policy alone (the written file then serves that language)."""
    if not spec.get("languages"):
        return spec, None

    base = LearnedPolicy(spec=spec)
    counts = Counter(base.for_language(s.analysis.language).group or "default" for s in samples)
    group, n = counts.most_common(1)[0]
    chosen = base.for_language(samples[0].analysis.language) if group != "default" else base
    for s in samples:
        p = base.for_language(s.analysis.language)
        if (p.group or "default") == group:
            chosen = p
            break
    # The user's labels judge every answer of the refit, those over sources in another language too.
    out = {k: v for k, v in chosen.spec.items() if k not in ("languages", "cross_lingual", "regime")}
    return out, f"{group} ({n} of {len(samples)} answers)"


def _want_stack(refit: bool | None, n: int, pos: int, neg: int) -> bool:
    enough = n >= MIN_STACK_ANSWERS and min(pos, neg) >= MIN_STACK_CLASS
    if refit is False:
        return False
    try:
        import sklearn  # noqa: F401  # lazy: whether the optional extra `train` is installed
    except ImportError:
        if refit:
            raise InputError("refitting the stack needs scikit-learn: pip install 'hallucheck[train]'") from None
        return False
    if refit and not enough:
        raise InputError(f"refitting the stack needs at least {MIN_STACK_ANSWERS} answers with {MIN_STACK_CLASS} of each label")
    return enough


def _refit_stack(base: LearnedPolicy, inputs: Sequence[tuple[dict[str, float], str]], y: np.ndarray,
                 groups: Sequence[str], seed: int) -> tuple[dict[str, Any], np.ndarray] | None:
    """New trees for the full stage on the samples that used it, with out-of-fold probabilities
    (for those samples; others keep the recalibrated verdict)."""
    full: Stage | None = base.stages.get("full")
    rows = [i for i, (_, u) in enumerate(inputs) if u == "full"]
    if full is None or len(rows) < MIN_STACK_ANSWERS:
        return None
    names = list(full.features)
    x = np.array([[inputs[i][0].get(n, float(full.fill[j])) for j, n in enumerate(names)] for i in rows])
    stage_spec, p = fit_stage(x, y[rows].astype(int), np.array([groups[i] for i in rows]), names, seed)
    stage_spec["detectors"] = list(full.detectors)
    p_all = np.zeros(len(inputs))
    p_all[rows] = p
    return stage_spec, p_all
