"""Speed of the lexical detectors (ngram, overlap) on RAGTruth train-part answers.

Answers are taken source by source (RAGTruth has six answers per source, as a RAG log repeats
retrieved passages), so the source-side work cached on the SourceAnalysis (content n-grams,
sentence lemmas, packed LCS vectors) is paid once per source and shared, as in real use.
Tokenising is done before the clock starts: it belongs to the text layer, shared by every
detector. Prints milliseconds per answer for each detector, cold (first answer of a source:
builds the source views) and warm (the other answers).

    python bench/lexical_speed.py --sources 200
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lexical_train import DATA, analyses, records

from hallucheck.detectors import get_detector


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sources", type=int, default=200)
    args = ap.parse_args()
    rows = records(DATA, "train", 0, 0)  # sorted by source
    groups = [list(g) for _, g in itertools.groupby(rows, key=lambda r: (r["task_type"], r["query"], r["context"]))]
    rows = [r for g in groups[: args.sources] for r in g]
    cases = analyses(rows)
    firsts = {0} | {i for i in range(1, len(rows)) if rows[i]["context"] != rows[i - 1]["context"]}
    out = {"answers": len(rows), "sources": len(firsts)}
    for name in ("ngram", "overlap"):
        det = get_detector(name)
        cold = warm = 0.0
        for i, a in enumerate(cases):
            t0 = time.perf_counter()
            det.detect(a)
            dt = time.perf_counter() - t0
            if i in firsts:
                cold += dt
            else:
                warm += dt
        n_warm = len(rows) - len(firsts)
        out[name] = {
            "cold_ms": round(1000 * cold / len(firsts), 3),
            "warm_ms": round(1000 * warm / max(n_warm, 1), 3),
            "mean_ms": round(1000 * (cold + warm) / len(rows), 3),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
