"""What streaming checks cost and how early they speak, on RAGTruth answers fed a few characters at a time.

    python bench/stream.py [--limit 120] [--split dev] [--piece 4]

For each answer of the split (reported only; nothing is chosen from these numbers):

- ``check``: one ``Checker.check`` of the whole answer (the cost without streaming);
- ``stream``: the answer fed in pieces of ``--piece`` characters through ``Checker.stream``, all
  sentence checks plus ``close()``; its report must equal ``check``'s (timings aside), and the
  run counts any answer where it does not;
- ``first verdict``: wall time from the first piece to the first sentence's verdict;
- ``early``: among answers whose final report says hallucinated, the share where a sentence was
  rejected before the answer ended, and how much of the answer had been fed by then;
- against the RAGTruth labels: how often "a sentence was rejected" agrees with the gold verdict,
  next to the final report's agreement.

Default detectors and policy, one process. Writes bench/results/stream_<split>.json.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result

from hallucheck import Checker
from hallucheck.eval.datasets import load_dataset


def _same(a: Any, b: Any) -> bool:
    da, db = a.model_dump(), b.model_dump()
    for d in (da, db):
        d.pop("timings_ms")
        for f in d["findings"]:
            f.pop("latency_ms")
    return bool(da == db)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=120)
    ap.add_argument("--split", default="dev", choices=["train", "calib", "dev"])
    ap.add_argument("--piece", type=int, default=4)
    args = ap.parse_args()

    examples = list(load_dataset(RAGTRUTH, "ragtruth", split=args.split, limit=args.limit))
    checker = Checker()
    for ex in examples[:3]:  # warm-up: models and word lists load once
        checker.check(ex.case)

    check_ms, stream_ms, first_ms, sentences = [], [], [], []
    mismatches, early_fraction = 0, []
    hallucinated_reports = early = 0
    agree_sentence = agree_report = 0
    for ex in examples:
        case = ex.case
        t0 = time.perf_counter()
        whole = checker.check(case)
        check_ms.append((time.perf_counter() - t0) * 1000.0)

        stream = checker.stream(case.model_copy(update={"answer": ""}))
        answer = case.answer
        first: float | None = None
        rejected_at: int | None = None
        t0 = time.perf_counter()
        for i in range(0, len(answer), args.piece):
            for result in stream.feed(answer[i : i + args.piece]):
                if first is None:
                    first = (time.perf_counter() - t0) * 1000.0
                if rejected_at is None and result.decision == "reject":
                    rejected_at = min(len(answer), i + args.piece)
        for result in stream.flush():
            if first is None:
                first = (time.perf_counter() - t0) * 1000.0
            if rejected_at is None and result.decision == "reject":
                rejected_at = len(answer)
        report = stream.close()
        stream_ms.append((time.perf_counter() - t0) * 1000.0)
        if first is not None:
            first_ms.append(first)
        sentences.append(len(stream.sentences))
        if not _same(report, whole):
            mismatches += 1
        if report.hallucinated:
            hallucinated_reports += 1
            if rejected_at is not None and rejected_at < len(answer):
                early += 1
                early_fraction.append(rejected_at / max(1, len(answer)))
        agree_sentence += (rejected_at is not None) == ex.gold.hallucinated
        agree_report += report.hallucinated == ex.gold.hallucinated

    n = len(examples)
    result = {
        "machine": machine(),
        "split": args.split,
        "answers": n,
        "piece_chars": args.piece,
        "sentences_per_answer": round(statistics.mean(sentences), 2) if sentences else 0,
        "check_ms_median": round(statistics.median(check_ms), 1),
        "stream_ms_median": round(statistics.median(stream_ms), 1),
        "stream_over_check": round(sum(stream_ms) / max(1e-9, sum(check_ms)), 2),
        "first_verdict_ms_median": round(statistics.median(first_ms), 1) if first_ms else None,
        "first_verdict_ms_p90": round(_pct(first_ms, 0.9), 1) if first_ms else None,
        "reports_differing_from_check": mismatches,
        "hallucinated_reports": hallucinated_reports,
        "rejected_before_the_end": early,
        "answer_fed_when_rejected_median": round(statistics.median(early_fraction), 2) if early_fraction else None,
        "gold_agreement_any_sentence_rejected": round(agree_sentence / max(1, n), 3),
        "gold_agreement_final_report": round(agree_report / max(1, n), 3),
    }
    path = write_result(f"stream_{args.split}", result)
    for k, v in result.items():
        if k != "machine":
            print(f"{k:40s} {v}")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
