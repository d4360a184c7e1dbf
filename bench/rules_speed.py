"""Speed of the rule detectors (citations, lexicon, numbers) on RAGTruth train-part answers.

Answers are taken source by source (six answers per source, as a RAG log repeats retrieved
passages), so the source-side work cached on the SourceAnalysis (parsed figures, sentence
lemmas, name forms, phrase look-ups) is paid once per source and shared, as in real use.
Tokenising is done before the clock starts: it belongs to the text layer, shared by every
detector, and is reported on its own. Times are CPU time of this process (``process_time``),
so a busy machine inflates them less than wall-clock time. Prints milliseconds per answer for
each detector: cold (first answer of a source: builds the source views), warm (the others),
and the mean.

    python bench/rules_speed.py --sources 100
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine
from lexical_train import DATA, case_of, records

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sources", type=int, default=100)
    ap.add_argument("--detectors", default="citations,lexicon,numbers")
    args = ap.parse_args()
    rows = records(DATA, "train", 0, 0)  # sorted by source
    groups = [list(g) for _, g in itertools.groupby(rows, key=lambda r: (r["task_type"], r["query"], r["context"]))]
    rows = [r for g in groups[: args.sources] for r in g]
    t0 = time.process_time()
    cases = []
    for r in rows:
        a = CaseAnalysis(case_of(r))
        a.tokens_by_sentence, a.source.tokens, a.source.sentences  # noqa: B018 - compute now
        cases.append(a)
    shared = time.process_time() - t0
    firsts = {0} | {i for i in range(1, len(rows)) if rows[i]["context"] != rows[i - 1]["context"]}
    out: dict[str, object] = {
        "machine": machine(),
        "answers": len(rows),
        "sources": len(firsts),
        "shared_analysis_ms": round(1000 * shared / len(rows), 3),
    }
    total = 0.0
    for name in args.detectors.split(","):
        det = get_detector(name)
        cold = warm = 0.0
        for i, a in enumerate(cases):
            t = time.process_time()
            det.detect(a)
            dt = time.process_time() - t
            if i in firsts:
                cold += dt
            else:
                warm += dt
        n_warm = len(rows) - len(firsts)
        total += cold + warm
        out[name] = {
            "cold_ms": round(1000 * cold / len(firsts), 3),
            "warm_ms": round(1000 * warm / max(n_warm, 1), 3),
            "mean_ms": round(1000 * (cold + warm) / len(rows), 3),
        }
    out["rules_answers_per_cpu_second"] = round(len(rows) / total, 1) if total else None
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
