"""A pair (NLI) model's contradictions on real answers: are they where the labels are?

    python bench/nli_natural.py [--model DIR] [--split calib] [--limit N] [--name nli_natural]

Rule-made edits and hand-written pairs (``bench/pair_probe.py``) ask whether a model reads a
negation or an opposite word. They cannot ask what it does with the sentences real generators
write, whose negations ("not too thin", "can't wait", "if it is not available") are true to their
sources. This command runs the ``nli`` detector (``--model``: a pair model directory; default the
shipped one) over RAGTruth answers of one part of the project's split (``calib`` by default: the
shipped pair model never trained on it; dev is for reporting) and reads each answer sentence's
P(contradiction). For each threshold it gives:

- the answers with a sentence at or above it, and the share of them labelled hallucinated
  (against the part's base rate: a detector no better than chance sits at the base rate);
- the clean-labelled answers with such a sentence (the ones a contradiction span would wrongly
  mark);
- the share of such sentences that overlap a labelled span.

Writes bench/results/<name>.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result

THRESHOLDS = (0.5, 0.8, 0.9, 0.95)


def _scan(model: str | None, split: str, limit: int | None) -> list[dict[str, Any]]:
    """Per answer: its label, gold spans and each checked sentence's (start, end, P(contradiction))."""
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.detectors.model.nli import NLIDetector
    from hallucheck.eval.datasets import load_dataset

    detector = NLIDetector(model_path=model)
    out: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for ex in load_dataset(RAGTRUTH, format="ragtruth", split=split, limit=limit):
        finding = detector.detect(CaseAnalysis(ex.case))
        sentences = [(s["start"], s["end"], s["contradiction"]) for s in finding.details.get("sentences", [])]
        out.append({"label": bool(ex.gold.hallucinated), "gold": list(ex.gold.spans), "sentences": sentences})
        if len(out) % 200 == 0:
            print(f"  {len(out)} answers ({len(out) / (time.perf_counter() - t0):.1f}/s)", file=sys.stderr)
    return out


def _at(rows: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    marked = [r for r in rows if any(p >= threshold for _, _, p in r["sentences"])]
    hits = [(r, s, e) for r in rows for s, e, p in r["sentences"] if p >= threshold]
    on_gold = sum(any(s < ge and gs < e for gs, ge in r["gold"]) for r, s, e in hits)
    return {
        "answers": len(marked),
        "hallucinated_share": round(sum(r["label"] for r in marked) / len(marked), 4) if marked else None,
        "clean_answers_marked": sum(not r["label"] for r in marked),
        "sentences": len(hits),
        "sentences_on_gold": round(on_gold / len(hits), 4) if hits else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=None, help="a pair model directory (default: the shipped one)")
    ap.add_argument("--split", default="calib", choices=("calib", "dev", "train"))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--name", default="nli_natural")
    args = ap.parse_args()

    rows = _scan(args.model, args.split, args.limit)
    clean = sum(not r["label"] for r in rows)
    base = (len(rows) - clean) / len(rows) if rows else 0.0
    table = {str(t): _at(rows, t) for t in THRESHOLDS}
    print(f"RAGTruth {args.split}: {len(rows)} answers, {clean} labelled clean, base rate {base:.3f}")
    print(f"{'P(contradiction) >=':>20} {'answers':>8} {'labelled halluc.':>17} {'clean marked':>13} {'sentences':>10} {'on a label':>11}")
    for t, c in table.items():
        share = "—" if c["hallucinated_share"] is None else f"{c['hallucinated_share']:.3f}"
        gold = "—" if c["sentences_on_gold"] is None else f"{c['sentences_on_gold']:.3f}"
        print(f"{t:>20} {c['answers']:>8} {share:>17} {c['clean_answers_marked']:>13} {c['sentences']:>10} {gold:>11}")
    payload = {"machine": machine(), "model": args.model or "shipped", "split": args.split, "answers": len(rows),
               "clean": clean, "base_rate": round(base, 4), "table": table}
    print(f"wrote {write_result(args.name, payload)}")


if __name__ == "__main__":
    main()
