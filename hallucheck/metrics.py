"""Evaluation metrics: response-level classification and character-level span overlap.

Definitions (docs/evaluation.md repeats them):

- **Response level**: the prediction is ``Report.hallucinated``; the gold label is "the answer has
  at least one labelled span". Precision, recall, F1 and accuracy count answers; AUROC ranks
  answers by ``risk_score`` and is only defined when both classes occur.
- **Span level, micro** (the headline number): over the whole data set, precision = characters in
  both a predicted and a gold span / characters in predicted spans, recall = the same overlap /
  characters in gold spans. Overlapping spans inside one answer are unioned first, so no character
  counts twice. Long answers weigh more, which is what a reader of many answers experiences.
- **Span level, per-answer mean** (``answer_mean_*``, RAGTruth-style): precision is averaged over
  answers that have predicted spans, recall over answers that have gold spans; F1 is the harmonic
  mean of those two averages. Every answer weighs the same.

All accumulators are plain counters that can be added together, so parallel workers can each
count their share and the parent merges them.

This is the one place these formulas live: evaluation, training (tagger and policy stack),
calibration, the A/B tests and the bench scripts all import them from here. The array helpers
(``prf_of``, ``f1_at``, ``best_threshold``, ``span_prf``) serve the fitting code, which scores
thousands of thresholds on numpy arrays. Nothing here imports from the rest of the package.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

__all__ = [
    "Interval",
    "union_intervals",
    "overlap_chars",
    "covered_chars",
    "prf",
    "prf_of",
    "f1_at",
    "auroc",
    "THRESHOLD_GRID",
    "best_threshold",
    "span_prf",
    "ResponseCounts",
    "SpanCounts",
    "TaskMetrics",
    "MetricsAccumulator",
]

Interval = tuple[int, int]


def union_intervals(spans: Iterable[Interval]) -> list[Interval]:
    """Sorted, non-overlapping union of ``[start, end)`` intervals; empty intervals are dropped."""
    ordered = sorted((int(a), int(b)) for a, b in spans if b > a)
    out: list[Interval] = []
    for a, b in ordered:
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def covered_chars(spans: Iterable[Interval]) -> int:
    """Number of characters covered by the union of ``spans``."""
    return sum(b - a for a, b in union_intervals(spans))


def overlap_chars(predicted: Iterable[Interval], gold: Iterable[Interval]) -> int:
    """Characters covered both by the union of ``predicted`` and the union of ``gold``."""
    p = union_intervals(predicted)
    g = union_intervals(gold)
    i = j = total = 0
    while i < len(p) and j < len(g):
        lo = max(p[i][0], g[j][0])
        hi = min(p[i][1], g[j][1])
        if hi > lo:
            total += hi - lo
        if p[i][1] <= g[j][1]:
            i += 1
        else:
            j += 1
    return total


def prf(tp: float, predicted: float, actual: float) -> tuple[float, float, float]:
    """Precision, recall, F1 from true positives and the predicted / actual totals (0 when undefined)."""
    precision = tp / predicted if predicted else 0.0
    recall = tp / actual if actual else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def prf_of(predicted: Any, gold: Any, digits: int = 4) -> dict[str, float]:
    """Precision, recall and F1 of boolean predictions against boolean labels (arrays or lists),
    rounded to ``digits``; 0 where a ratio is undefined."""
    pred = np.asarray(predicted, dtype=bool)
    y = np.asarray(gold, dtype=bool)
    p, r, f = prf(float((pred & y).sum()), float(pred.sum()), float(y.sum()))
    return {"precision": round(p, digits), "recall": round(r, digits), "f1": round(f, digits)}


def f1_at(scores: Any, gold: Any, threshold: float) -> float:
    """F1 of ``scores >= threshold`` against boolean labels (unrounded)."""
    pred = np.asarray(scores) >= threshold
    y = np.asarray(gold, dtype=bool)
    return prf(float((pred & y).sum()), float(pred.sum()), float(y.sum()))[2]


def auroc(scores: Sequence[float] | np.ndarray, labels: Sequence[bool] | np.ndarray) -> float | None:
    """Area under the ROC curve (probability a positive outranks a negative; ties count half).

    None when only one class is present, where the area is undefined. Vectorised (tied scores
    share their mean rank), so it serves a few hundred answers and millions of tokens alike.
    """
    s = np.asarray(scores, dtype=np.float64).ravel()
    y = np.asarray(labels).ravel().astype(bool)
    if len(s) != len(y):
        raise ValueError("scores and labels differ in length")
    pos = int(y.sum())
    neg = len(y) - pos
    if pos == 0 or neg == 0:
        return None
    order = np.argsort(s, kind="mergesort")
    sorted_s = s[order]
    # 1-based ranks; each run of equal scores gets the mean of its ranks
    starts = np.flatnonzero(np.r_[True, sorted_s[1:] != sorted_s[:-1]])
    ends = np.r_[starts[1:], len(s)]
    mean_rank = (starts + ends + 1) / 2.0
    ranks = np.empty(len(s))
    ranks[order] = np.repeat(mean_rank, ends - starts)
    return float((ranks[y].sum() - pos * (pos + 1) / 2.0) / (pos * neg))


# Thresholds searched by default: 0.02 .. 0.98 in steps of 0.01.
THRESHOLD_GRID: np.ndarray = np.round(np.arange(0.02, 0.985, 0.01), 2)


def best_threshold(
    scores: Any, gold: Any, grid: Sequence[float] | np.ndarray | None = None, ties: Literal["middle", "first"] = "middle"
) -> tuple[float, float]:
    """The threshold of ``grid`` (default :data:`THRESHOLD_GRID`) with the best F1 of
    ``scores >= t``, and that F1.

    F1 values equal to four decimals count as ties: ``ties="middle"`` takes the middle of the run
    of best thresholds, so a flat optimum does not sit on its edge; ``"first"`` the lowest.
    Choose thresholds on training or calibration data only.
    """
    ts = THRESHOLD_GRID if grid is None else np.round(np.asarray(grid, dtype=np.float64), 4)
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(gold, dtype=bool)
    f1 = np.array([round(f1_at(s, y, float(t)), 4) for t in ts])
    best = float(f1.max())
    run = np.flatnonzero(f1 >= best)
    pick = run[len(run) // 2] if ties == "middle" else run[0]
    return float(ts[pick]), best


def span_prf(predicted: Sequence[Iterable[Interval]], gold: Sequence[Iterable[Interval]], digits: int = 4) -> dict[str, float]:
    """Micro character-level precision / recall / F1 over answers (spans unioned within an
    answer), rounded to ``digits``."""
    tp = pc = gc = 0
    for p, g in zip(predicted, gold):
        pu, gu = union_intervals(p), union_intervals(g)
        tp += overlap_chars(pu, gu)
        pc += sum(b - a for a, b in pu)
        gc += sum(b - a for a, b in gu)
    pr, rc, f = prf(tp, pc, gc)
    return {"precision": round(pr, digits), "recall": round(rc, digits), "f1": round(f, digits)}


@dataclass
class ResponseCounts:
    """Confusion counts of answer-level verdicts."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, predicted: bool, gold: bool) -> None:
        if predicted and gold:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif gold:
            self.fn += 1
        else:
            self.tn += 1

    def merge(self, other: ResponseCounts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.tn += other.tn

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    def summary(self) -> dict[str, float | int]:
        p, r, f = prf(self.tp, self.tp + self.fp, self.tp + self.fn)
        return {
            "precision": p,
            "recall": r,
            "f1": f,
            "accuracy": (self.tp + self.tn) / self.total if self.total else 0.0,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "positives": self.tp + self.fn,
            "predicted_positive": self.tp + self.fp,
            "n": self.total,
        }


@dataclass
class SpanCounts:
    """Character counts for span overlap, micro-summed and per-answer averaged."""

    overlap: int = 0
    predicted: int = 0
    gold: int = 0
    precision_sum: float = 0.0
    precision_n: int = 0
    recall_sum: float = 0.0
    recall_n: int = 0

    def add(self, predicted: Iterable[Interval], gold: Iterable[Interval]) -> None:
        pred_u = union_intervals(predicted)
        gold_u = union_intervals(gold)
        ov = overlap_chars(pred_u, gold_u)
        pc = sum(b - a for a, b in pred_u)
        gc = sum(b - a for a, b in gold_u)
        self.overlap += ov
        self.predicted += pc
        self.gold += gc
        if pc:
            self.precision_sum += ov / pc
            self.precision_n += 1
        if gc:
            self.recall_sum += ov / gc
            self.recall_n += 1

    def merge(self, other: SpanCounts) -> None:
        self.overlap += other.overlap
        self.predicted += other.predicted
        self.gold += other.gold
        self.precision_sum += other.precision_sum
        self.precision_n += other.precision_n
        self.recall_sum += other.recall_sum
        self.recall_n += other.recall_n

    def summary(self) -> dict[str, float | int | None]:
        """Micro and per-answer P / R / F1; all None when no answer has a gold span (data
        without span labels, or none hallucinated), where span scores are not defined."""
        if not self.gold:
            none: dict[str, float | int | None] = dict.fromkeys(
                ("precision", "recall", "f1", "answer_mean_precision", "answer_mean_recall", "answer_mean_f1"))
            return {**none, "overlap_chars": self.overlap, "predicted_chars": self.predicted, "gold_chars": 0}
        p, r, f = prf(self.overlap, self.predicted, self.gold)
        mp = self.precision_sum / self.precision_n if self.precision_n else 0.0
        mr = self.recall_sum / self.recall_n if self.recall_n else 0.0
        mf = 2 * mp * mr / (mp + mr) if mp + mr else 0.0
        return {
            "precision": p,
            "recall": r,
            "f1": f,
            "overlap_chars": self.overlap,
            "predicted_chars": self.predicted,
            "gold_chars": self.gold,
            "answer_mean_precision": mp,
            "answer_mean_recall": mr,
            "answer_mean_f1": mf,
        }


@dataclass
class TaskMetrics:
    """Everything counted for one group of answers (one task, or all of them)."""

    response: ResponseCounts = field(default_factory=ResponseCounts)
    span: SpanCounts = field(default_factory=SpanCounts)
    scores: list[float] = field(default_factory=list)
    labels: list[bool] = field(default_factory=list)
    seconds: float = 0.0

    def add(
        self,
        *,
        gold: bool,
        gold_spans: Iterable[Interval],
        predicted: bool,
        risk: float,
        predicted_spans: Iterable[Interval],
        seconds: float = 0.0,
    ) -> None:
        self.response.add(predicted, gold)
        self.span.add(predicted_spans, gold_spans)
        self.scores.append(float(risk))
        self.labels.append(bool(gold))
        self.seconds += seconds

    def merge(self, other: TaskMetrics) -> None:
        self.response.merge(other.response)
        self.span.merge(other.span)
        self.scores.extend(other.scores)
        self.labels.extend(other.labels)
        self.seconds += other.seconds

    def summary(self) -> dict[str, Any]:
        n = self.response.total
        return {
            "n": n,
            "response": {**self.response.summary(), "auroc": auroc(self.scores, self.labels)},
            "span": self.span.summary(),
            "mean_latency_ms": 1000.0 * self.seconds / n if n else 0.0,
        }


@dataclass
class MetricsAccumulator:
    """Metrics overall and per task, fed one answer at a time."""

    overall: TaskMetrics = field(default_factory=TaskMetrics)
    tasks: dict[str, TaskMetrics] = field(default_factory=dict)

    def add(
        self,
        task: str,
        *,
        gold: bool,
        gold_spans: Sequence[Interval],
        predicted: bool,
        risk: float,
        predicted_spans: Sequence[Interval],
        seconds: float = 0.0,
    ) -> None:
        for group in (self.overall, self.tasks.setdefault(task, TaskMetrics())):
            group.add(
                gold=gold,
                gold_spans=gold_spans,
                predicted=predicted,
                risk=risk,
                predicted_spans=predicted_spans,
                seconds=seconds,
            )

    def merge(self, other: MetricsAccumulator) -> None:
        self.overall.merge(other.overall)
        for task, m in other.tasks.items():
            self.tasks.setdefault(task, TaskMetrics()).merge(m)

    def summary(self) -> dict[str, Any]:
        return {
            "overall": self.overall.summary(),
            "per_task": {t: self.tasks[t].summary() for t in sorted(self.tasks)},
        }
