"""Running a checker over a labelled data set and collecting metrics, timings and a sample.

A *predictor* turns one Case into one or more named *views* — each a Prediction (verdict, risk,
spans). The plain evaluation has one view, the report of a configured Checker. The benchmark
runs every detector once per case and derives many views from the same findings: each detector
alone (its own ``flagged`` verdict and spans) and each policy over all findings, so comparing
ten configurations costs one pass.

Predictors are small frozen recipes, built into real objects once per process, so the same run
can be spread over a local process pool (``workers > 1``).

Spans count for a view only when that view calls the answer hallucinated: an accepted answer
predicts no hallucinated characters, whatever weak signals its report lists.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hallucheck.batch import CheckerSpec, checker_for
from hallucheck.eval.datasets import Example
from hallucheck.metrics import MetricsAccumulator

__all__ = [
    "Prediction",
    "ReportPredictor",
    "ViewsPredictor",
    "EvalResult",
    "evaluate",
    "prediction_from_report",
]


@dataclass
class Prediction:
    """One view's answer for one case. ``spans`` are ``(start, end, label, reason)``."""

    hallucinated: bool
    risk: float
    spans: list[tuple[int, int, str, str]] = field(default_factory=list)
    seconds: float = 0.0
    risk_level: str = ""
    errors: list[str] = field(default_factory=list)
    language: str = ""


def _span_tuples(spans: Iterable[Any]) -> list[tuple[int, int, str, str]]:
    return [(s.start, s.end, s.label, s.reason) for s in spans]


def prediction_from_report(report: Any, seconds: float) -> Prediction:
    return Prediction(
        hallucinated=report.hallucinated,
        risk=report.risk_score,
        spans=_span_tuples(report.spans) if report.hallucinated else [],
        seconds=seconds,
        risk_level=report.risk_level,
        errors=[f"{f.detector}: {f.error}" for f in report.findings if f.error],
        language=report.language,
    )


@dataclass(frozen=True)
class ReportPredictor:
    """One view, ``name``: the report of the Checker built from ``spec``."""

    spec: CheckerSpec = CheckerSpec()
    name: str = "report"

    def views(self) -> list[str]:
        return [self.name]

    def predict(self, case: Any) -> dict[str, Prediction]:
        t0 = time.perf_counter()
        report = checker_for(self.spec).check(case)
        return {self.name: prediction_from_report(report, time.perf_counter() - t0)}


@dataclass(frozen=True)
class ViewsPredictor:
    """Every detector once per case; views ``detector:<name>`` and ``policy:<name>`` from its findings.

    A detector view is the detector alone: its ``Finding.flagged`` verdict, its risk and its
    spans, timed by its own latency. A policy view is the policy's verdict over all findings with
    the merged spans, timed as all detectors plus the decision.
    """

    detectors: tuple[str, ...]
    policies: tuple[str, ...]
    citations_expected: bool | None = None

    def views(self) -> list[str]:
        return [f"detector:{d}" for d in self.detectors] + [f"policy:{p}" for p in self.policies]

    def predict(self, case: Any) -> dict[str, Prediction]:
        from hallucheck.analysis import CaseAnalysis  # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs

        # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs
        from hallucheck.policies.floors import FloorTable, shipped_floors
        from hallucheck.policies.safeguards import final_verdict  # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs
        from hallucheck.spans import merge_spans, tidy_spans  # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs
        from hallucheck.verdict_facts import settle_facts  # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs

        # every detector on every case: a detector's view is scored over all answers
        checker = checker_for(replace(CheckerSpec.of(self.detectors, self.policies[0], self.citations_expected), settle=False))
        t0 = time.perf_counter()
        report = checker.check(case)
        elapsed = time.perf_counter() - t0
        out: dict[str, Prediction] = {}
        for f in report.findings:
            out[f"detector:{f.detector}"] = Prediction(
                hallucinated=f.flagged,
                risk=f.risk,
                spans=_span_tuples(f.spans) if f.flagged else [],
                seconds=f.latency_ms / 1000.0,
                errors=[f"{f.detector}: {f.error}"] if f.error else [],
            )
        out[f"policy:{self.policies[0]}"] = prediction_from_report(report, elapsed)
        if len(self.policies) > 1:
            union = [s for f in report.findings for s in f.spans]
            analysis = CaseAnalysis(case)
            settle_facts(analysis, report.findings)
            for name in self.policies[1:]:
                policy = _policy(name)
                t1 = time.perf_counter()
                # As the Checker does: floors, coverage and the nothing-checked rule on top.
                own = getattr(policy, "floors", None)
                verdict = final_verdict(policy, analysis, report.findings, own if isinstance(own, FloorTable) else shipped_floors(),
                                        coverage=report.coverage)
                decided = time.perf_counter() - t1
                # As the Checker does: the policy's own choice of spans when it makes one.
                chosen = verdict.spans if verdict.spans is not None else union
                spans = tidy_spans(merge_spans(list(chosen), case.answer), case.answer, analysis.tokens)
                out[f"policy:{name}"] = Prediction(
                    hallucinated=verdict.hallucinated,
                    risk=min(max(float(verdict.risk_score), 0.0), 1.0),
                    spans=_span_tuples(spans) if verdict.hallucinated else [],
                    seconds=elapsed + decided,
                    risk_level=verdict.risk_level,
                )
        return out


_POLICY_CACHE: dict[str, Any] = {}


def _policy(name: str) -> Any:
    if name not in _POLICY_CACHE:
        from hallucheck.policies import get_policy  # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs

        _POLICY_CACHE[name] = get_policy(name)
    return _POLICY_CACHE[name]


def _predict(case: Any, predictor: Any) -> dict[str, Prediction]:
    return predictor.predict(case)  # type: ignore[no-any-return]


@dataclass
class EvalResult:
    """Metrics per view, wall time, detector errors and a sample of flagged answers."""

    views: dict[str, MetricsAccumulator]
    n: int
    wall_seconds: float
    workers: int
    samples: list[dict[str, Any]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    # The primary view by language, and its (risk, gold) pairs for the precision-recall curve.
    by_language: MetricsAccumulator = field(default_factory=MetricsAccumulator)
    scores: list[tuple[float, bool]] = field(default_factory=list)

    @property
    def primary(self) -> str:
        return next(iter(self.views))

    @property
    def responses_per_second(self) -> float:
        return self.n / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def view_summary(self, view: str) -> dict[str, Any]:
        acc = self.views[view]
        summary = acc.summary()
        busy = acc.overall.seconds
        summary["responses_per_second_one_core"] = self.n / busy if busy > 0 else 0.0
        return summary

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "config": self.config,
            "n": self.n,
            "throughput": {
                "wall_seconds": self.wall_seconds,
                "workers": self.workers,
                "responses_per_second": self.responses_per_second,
            },
            "metrics": self.view_summary(self.primary),
        }
        if len(self.views) > 1:
            out["views"] = {v: self.view_summary(v) for v in self.views}
        out["metrics_by_language"] = self.by_language.summary()["per_task"]
        out["curve"] = threshold_curve(self.scores)
        out["detector_errors"] = self.errors
        out["samples"] = self.samples
        return out


def threshold_curve(scores: list[tuple[float, bool]], points: int = 101) -> list[dict[str, float]]:
    """Precision, recall and F1 of "risk >= threshold" at ``points`` thresholds from 0 to 1.

    Why: the policy's decision is one point; this shows what any other cut-off would give, so a
    user can pick one for their own precision/recall trade-off (on the data it was measured on).
    """
    positives = sum(1 for _, g in scores if g)
    ordered = sorted(scores, key=lambda x: -x[0])
    out: list[dict[str, float]] = []
    k = tp = fp = 0
    for step in range(points - 1, -1, -1):
        t = step / (points - 1)
        while k < len(ordered) and ordered[k][0] >= t - 1e-12:
            tp += ordered[k][1]
            fp += not ordered[k][1]
            k += 1
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / positives if positives else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out.append({"threshold": round(t, 4), "precision": round(precision, 6), "recall": round(recall, 6),
                    "f1": round(f1, 6), "flagged": tp + fp})
    return out[::-1]


_OUTCOME_ORDER = {"false_positive": 0, "false_negative": 1, "true_positive": 2}


def _outcome(predicted: bool, gold: bool) -> str | None:
    if predicted and gold:
        return "true_positive"
    if predicted:
        return "false_positive"
    return "false_negative" if gold else None


class _Samples:
    """The most telling answers of each outcome, ``size`` of each, in bounded memory.

    False positives with the highest risk (the most confident mistakes), false negatives with the
    lowest risk (the hallucinations the checker was surest about missing), true positives with the
    highest risk; a heap per outcome keeps only the best ``size`` while the data streams by.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.heaps: dict[str, list[tuple[float, int, dict[str, Any]]]] = {k: [] for k in _OUTCOME_ORDER}

    def offer(self, n: int, example: Example, pred: Prediction) -> None:
        kind = _outcome(pred.hallucinated, example.gold.hallucinated)
        if kind is None or self.size <= 0:
            return
        key = -pred.risk if kind == "false_negative" else pred.risk
        heap = self.heaps[kind]
        item: tuple[float, int, dict[str, Any]] = (key, -n, {})
        if len(heap) < self.size:
            heapq.heappush(heap, (key, -n, {**_sample(example, pred), "outcome": kind}))
        elif item[:2] > heap[0][:2]:
            heapq.heapreplace(heap, (key, -n, {**_sample(example, pred), "outcome": kind}))

    def ordered(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for kind in _OUTCOME_ORDER:
            out.extend(x for _, _, x in sorted(self.heaps[kind], key=lambda r: (-r[0], -r[1])))
        return out


def _sample(example: Example, pred: Prediction) -> dict[str, Any]:
    case = example.case
    return {
        "id": example.gold.id,
        "line": example.line,
        "task": case.task,
        "language": pred.language or case.language or "",
        "answer": case.answer,
        "hallucinated": pred.hallucinated,
        "risk": pred.risk,
        "risk_level": pred.risk_level,
        "gold_hallucinated": example.gold.hallucinated,
        "predicted_spans": [{"start": a, "end": b, "label": lab, "reason": why} for a, b, lab, why in pred.spans],
        "gold_spans": [{"start": a, "end": b} for a, b in example.gold.spans],
    }


def evaluate(
    examples: Iterable[Example],
    predictor: ReportPredictor | ViewsPredictor,
    *,
    workers: int = 1,
    sample_size: int = 12,
    on_progress: Callable[[int], None] | None = None,
    config: dict[str, Any] | None = None,
    ray_address: str | None = None,
) -> EvalResult:
    """Run ``predictor`` over ``examples`` and count every view's metrics, overall and per task.

    ``ray_address`` runs the same per-case function as Ray tasks (see ``hallucheck.distributed``).
    """
    from hallucheck.distributed import map_records  # lazy: loaded only on this path

    views = {v: MetricsAccumulator() for v in predictor.views()}
    primary = next(iter(views))
    picked = _Samples(sample_size)
    by_language = MetricsAccumulator()
    scores: list[tuple[float, bool]] = []
    errors: dict[str, int] = {}
    pending: deque[Example] = deque()

    def cases() -> Iterator[Any]:
        for ex in examples:
            pending.append(ex)
            yield ex.case

    n = 0
    t0 = time.perf_counter()
    fn = partial(_predict, predictor=predictor)
    for preds in map_records(fn, cases(), workers=workers, ray_address=ray_address, chunk_size=4):
        example = pending.popleft()
        gold = example.gold
        failed: set[str] = set()
        for view, pred in preds.items():
            acc = views.get(view)
            if acc is None:
                acc = views[view] = MetricsAccumulator()
            acc.add(
                example.case.task,
                gold=gold.hallucinated,
                gold_spans=gold.spans,
                predicted=pred.hallucinated,
                risk=pred.risk,
                predicted_spans=[(a, b) for a, b, _, _ in pred.spans],
                seconds=pred.seconds,
            )
            failed.update(err.split(":", 1)[0] for err in pred.errors)
        for name in failed:
            errors[name] = errors.get(name, 0) + 1
        first = preds.get(primary)
        if first is not None:
            picked.offer(n, example, first)
            scores.append((first.risk, gold.hallucinated))
            by_language.add(
                first.language or example.case.language or "?",
                gold=gold.hallucinated,
                gold_spans=gold.spans,
                predicted=first.hallucinated,
                risk=first.risk,
                predicted_spans=[(a, b) for a, b, _, _ in first.spans],
                seconds=first.seconds,
            )
        n += 1
        if on_progress is not None:
            on_progress(n)
    wall = time.perf_counter() - t0
    return EvalResult(
        views=views, n=n, wall_seconds=wall, workers=workers, samples=picked.ordered(), errors=errors,
        config=dict(config or {}), by_language=by_language, scores=scores,
    )

