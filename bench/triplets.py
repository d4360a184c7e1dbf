"""Quality and cost of the ``triplets`` detector on RAGTruth and on generated edits.

RAGTruth (one part of the project's split, every n-th answer): the share of clean and of
hallucinated answers it flags, and of its spans the share that overlap a labelled hallucination
(any type) and a labelled conflict; ms per answer.

Generic-format files (``--generic``, e.g. the multilingual set or the contradiction edits, whose
records carry ``metadata.edit``): per language and edit type, the share of edited answers with a
triplets span overlapping the edit, and the share of faithful answers (no gold span) flagged.

Usage::

    python bench/triplets.py --part calib --every 4 [--generic /work/runs/synth/debref.en.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.eval.datasets import load_dataset


def _overlaps(span: tuple[int, int], gold: list[tuple[int, int]]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in gold)


def ragtruth(det: object, path: str, part: str, every: int) -> dict[str, float]:
    import gzip

    n = {"clean": 0, "halluc": 0, "clean_flagged": 0, "halluc_flagged": 0, "spans": 0, "spans_on_label": 0,
         "spans_on_conflict": 0}
    t_total = 0.0
    from hallucheck.eval.split import part_of
    from hallucheck.types import Case

    with gzip.open(path, "rt", encoding="utf-8") as fh:
        k = 0
        for line in fh:
            rec = json.loads(line)
            if part_of(rec) != part:
                continue
            k += 1
            if (k - 1) % every:
                continue
            ctx = rec["context"] if isinstance(rec["context"], str) else json.dumps(rec["context"])
            case = Case(question=str(rec.get("query") or ""), contexts=[ctx], answer=rec["output"], language="en")
            t0 = time.perf_counter()
            f = det.detect(CaseAnalysis(case))  # type: ignore[attr-defined]
            t_total += time.perf_counter() - t0
            gold = [(int(x["start"]), int(x["end"])) for x in rec["labels"]]
            conflict = [(int(x["start"]), int(x["end"])) for x in rec["labels"] if "Conflict" in x["label_type"]]
            kind = "halluc" if gold else "clean"
            n[kind] += 1
            n[kind + "_flagged"] += bool(f.spans)
            for s in f.spans:
                n["spans"] += 1
                n["spans_on_label"] += _overlaps((s.start, s.end), gold)
                n["spans_on_conflict"] += _overlaps((s.start, s.end), conflict)
    answers = n["clean"] + n["halluc"]
    return {
        "answers": answers,
        "clean_flagged": round(n["clean_flagged"] / max(n["clean"], 1), 4),
        "halluc_flagged": round(n["halluc_flagged"] / max(n["halluc"], 1), 4),
        "spans": n["spans"],
        "span_precision_any_label": round(n["spans_on_label"] / max(n["spans"], 1), 4),
        "span_precision_conflict": round(n["spans_on_conflict"] / max(n["spans"], 1), 4),
        "ms_per_answer": round(1000 * t_total / max(answers, 1), 2),
    }


def generic(det: object, path: str, part: str) -> dict[str, dict[str, float]]:
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for ex in load_dataset(path, "generic", split=part):
        f = det.detect(CaseAnalysis(ex.case))  # type: ignore[attr-defined]
        lang = ex.case.language or "?"
        edit = str((getattr(ex.case, "metadata", None) or {}).get("edit", "?"))
        if not ex.gold.spans:
            key = f"{lang}/faithful"
            acc[key][0] += 1
            acc[key][1] += bool(f.spans)
        else:
            key = f"{lang}/{edit}"
            acc[key][0] += 1
            acc[key][1] += any(_overlaps((s.start, s.end), list(ex.gold.spans)) for s in f.spans)
    return {k: {"cases": v[0], "flagged_on_edit_or_flagged": round(v[1] / max(v[0], 1), 4)} for k, v in sorted(acc.items())}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default="../shared/data/ragtruth/train.jsonl.gz")
    p.add_argument("--part", default="calib", choices=["train", "calib", "dev"])
    p.add_argument("--every", type=int, default=4)
    p.add_argument("--parser", default="auto")
    p.add_argument("--generic", nargs="*", default=[])
    p.add_argument("--out", default=None)
    a = p.parse_args()
    det = get_detector("triplets", parser=a.parser)
    out: dict[str, object] = {"ragtruth": ragtruth(det, a.data, a.part, a.every)}
    print("ragtruth", json.dumps(out["ragtruth"]), flush=True)
    for g in a.generic:
        out[g] = generic(det, g, a.part)
        for k, v in out[g].items():  # type: ignore[union-attr]
            print(Path(g).name, k, json.dumps(v), flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
