"""Metrics against hand-computed examples."""

from __future__ import annotations

import pytest

from hallucheck.metrics import (
    MetricsAccumulator,
    ResponseCounts,
    SpanCounts,
    auroc,
    covered_chars,
    overlap_chars,
    prf,
    union_intervals,
)


def test_union_merges_overlapping_and_touching_and_drops_empty() -> None:
    assert union_intervals([(5, 8), (0, 3), (2, 4), (8, 9), (10, 10)]) == [(0, 4), (5, 9)]
    assert covered_chars([(0, 3), (2, 4), (10, 12)]) == 6


def test_overlap_counts_each_character_once() -> None:
    # predicted [0,10) and [8,12) -> union [0,12); gold [5,7) and [11,20) -> overlap 2 + 1 = 3
    assert overlap_chars([(0, 10), (8, 12)], [(5, 7), (11, 20)]) == 3
    assert overlap_chars([(0, 5)], [(5, 9)]) == 0
    assert overlap_chars([], [(0, 3)]) == 0


def test_prf_by_hand() -> None:
    p, r, f = prf(3, 4, 6)
    assert p == pytest.approx(0.75)
    assert r == pytest.approx(0.5)
    assert f == pytest.approx(2 * 0.75 * 0.5 / 1.25)
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)


def test_response_counts_by_hand() -> None:
    c = ResponseCounts()
    # predictions vs gold: TP, TP, FP, FN, TN, TN
    for pred, gold in [(True, True), (True, True), (True, False), (False, True), (False, False), (False, False)]:
        c.add(pred, gold)
    s = c.summary()
    assert (s["tp"], s["fp"], s["fn"], s["tn"]) == (2, 1, 1, 2)
    assert s["precision"] == pytest.approx(2 / 3)
    assert s["recall"] == pytest.approx(2 / 3)
    assert s["f1"] == pytest.approx(2 / 3)
    assert s["accuracy"] == pytest.approx(4 / 6)


def test_auroc_by_hand_with_ties() -> None:
    # positives 0.9, 0.4; negatives 0.4, 0.1. Pairs: (0.9>0.4)=1, (0.9>0.1)=1, (0.4=0.4)=0.5, (0.4>0.1)=1
    assert auroc([0.9, 0.4, 0.4, 0.1], [True, True, False, False]) == pytest.approx(3.5 / 4)
    assert auroc([0.1, 0.9], [True, False]) == pytest.approx(0.0)
    assert auroc([0.5, 0.6], [True, True]) is None


def test_span_counts_micro_and_answer_mean() -> None:
    s = SpanCounts()
    s.add([(0, 10)], [(5, 15)])  # overlap 5, predicted 10, gold 10 -> P 0.5, R 0.5
    s.add([(0, 2)], [])  # predicted 2, no gold -> P 0 for this answer
    s.add([], [(0, 20)])  # gold 20 missed -> R 0 for this answer
    out = s.summary()
    assert out["overlap_chars"] == 5
    assert out["predicted_chars"] == 12
    assert out["gold_chars"] == 30
    assert out["precision"] == pytest.approx(5 / 12)
    assert out["recall"] == pytest.approx(5 / 30)
    assert out["answer_mean_precision"] == pytest.approx((0.5 + 0.0) / 2)
    assert out["answer_mean_recall"] == pytest.approx((0.5 + 0.0) / 2)
    assert out["answer_mean_f1"] == pytest.approx(0.25)


def test_accumulator_per_task_and_merge() -> None:
    a, b = MetricsAccumulator(), MetricsAccumulator()
    a.add("qa", gold=True, gold_spans=[(0, 4)], predicted=True, risk=0.8, predicted_spans=[(2, 6)], seconds=0.5)
    b.add("summary", gold=False, gold_spans=[], predicted=True, risk=0.6, predicted_spans=[(0, 3)], seconds=0.5)
    b.add("qa", gold=False, gold_spans=[], predicted=False, risk=0.1, predicted_spans=[], seconds=1.0)
    a.merge(b)
    out = a.summary()
    assert out["overall"]["n"] == 3
    assert out["overall"]["response"]["precision"] == pytest.approx(0.5)
    assert out["overall"]["response"]["recall"] == pytest.approx(1.0)
    assert out["overall"]["response"]["auroc"] == pytest.approx(1.0)
    assert out["overall"]["span"]["precision"] == pytest.approx(2 / 7)
    assert out["overall"]["mean_latency_ms"] == pytest.approx(2000 / 3)
    assert set(out["per_task"]) == {"qa", "summary"}
    assert out["per_task"]["qa"]["n"] == 2
    assert out["per_task"]["summary"]["response"]["auroc"] is None  # one class only
    assert out["per_task"]["qa"]["span"]["recall"] == pytest.approx(0.5)


def test_best_threshold_takes_the_middle_of_a_flat_optimum_or_its_start() -> None:
    import numpy as np

    from hallucheck.metrics import best_threshold, prf_of

    p = np.array([0.1, 0.2, 0.6, 0.7, 0.9])
    y = np.array([False, False, True, True, True])
    t, f1 = best_threshold(p, y)
    assert 0.2 < t <= 0.6 and f1 == 1.0
    assert t == 0.41  # the middle of the 40 thresholds 0.21 .. 0.60
    assert best_threshold(p, y, ties="first") == (0.21, 1.0)
    assert best_threshold(p, y, grid=[0.15, 0.5, 0.65])[0] == 0.5
    assert prf_of(np.array([True, False]), np.array([False, False])) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert prf_of([True, True, False], [True, False, True]) == {"precision": 0.5, "recall": 0.5, "f1": 0.5}


def test_array_auroc_matches_the_pairwise_definition() -> None:
    import itertools
    import random

    rng = random.Random(5)
    for _ in range(50):
        n = rng.randint(2, 30)
        scores = [rng.choice([0.1, 0.2, 0.5, 0.9]) for _ in range(n)]  # many ties
        labels = [rng.random() < 0.4 for _ in range(n)]
        pairs = [(a, b) for a, b in itertools.product(range(n), repeat=2) if labels[a] and not labels[b]]
        expected = (sum(1.0 if scores[a] > scores[b] else 0.5 if scores[a] == scores[b] else 0.0 for a, b in pairs) / len(pairs)
                    if pairs else None)
        got = auroc(scores, labels)
        assert (got is None and expected is None) or got == pytest.approx(expected)


def test_span_prf_unions_within_an_answer() -> None:
    from hallucheck.metrics import span_prf

    got = span_prf([[(0, 4), (2, 6)], []], [[(4, 8)], [(0, 2)]])
    # answer 1: predicted 0..6 (6 chars), gold 4..8, overlap 2; answer 2: gold 2 chars, none predicted
    assert got == {"precision": round(2 / 6, 4), "recall": round(2 / 6, 4), "f1": round(2 / 6, 4)}
