"""Does the verdict keep precise evidence? Per language, on labelled cases of one part (dev).

For the cases of the chosen edit kinds (``metadata.edit`` as written by ``hallucheck data
synth``: ``figure`` a changed figure, ``citation_invalid`` a citation id no source has, ``copy``
a faithful copy), the default Checker (or ``--detectors`` / ``--policy``) is run and counted:

- flagged: the report says hallucinated;
- with the span: some report span carries the expected label (``contradiction`` for a changed
  figure, ``invalid_citation`` for an invalid id) and overlaps the labelled span.

``--inject-citation`` adds a second measure on RAGTruth answers (or any ``--ragtruth`` file):
a citation id no source has (``[N+1]`` for N sources) is added after the answer's first
sentence, and the report must flag it with an ``invalid_citation`` span on the marker.

    python bench/precise_evidence.py --data en=cases.en.jsonl --data zh-Hans=cases.zh-Hans.jsonl ... \\
        --split dev [--inject-citation --ragtruth-limit 300]

Writes bench/results/precise_evidence_<split>.json. Dev numbers are reported, never tuned on.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result

from hallucheck.checker import Checker
from hallucheck.eval.datasets import load_dataset
from hallucheck.types import Case, Report

EXPECTED = {"figure": "contradiction", "citation_invalid": "invalid_citation", "copy": None}


def _has_span(report: Report, label: str, gold: tuple[tuple[int, int], ...]) -> bool:
    return any(s.label == label and any(s.start < e and a < s.end for a, e in gold) for s in report.spans)


def measure_synth(checker: Checker, path: str, split: str, kinds: set[str], limit: int | None) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for ex in load_dataset(path, "generic", split=split):
        kind = str(ex.case.metadata.get("edit", ""))
        if kind not in kinds or (limit is not None and out[kind]["cases"] >= limit):
            continue
        report = checker.check(ex.case)
        c = out[kind]
        c["cases"] += 1
        c["flagged"] += int(report.hallucinated)
        label = EXPECTED.get(kind)
        if label is not None:
            c["with_span"] += int(report.hallucinated and _has_span(report, label, ex.gold.spans))
    return out


def with_invalid_citation(case: Case) -> tuple[Case, tuple[tuple[int, int], ...]]:
    """``case`` with a citation id no source has (``[N+1]`` for N sources) after its answer's
    first sentence, and where the id stands (the gold span of the marker)."""
    answer = case.answer
    marker = f" [{len(case.contexts) + 1}]"
    cut = next((i + 1 for i, ch in enumerate(answer) if ch in ".!?。！？" and i > 20), len(answer.rstrip()))
    cut = cut - 1 if cut <= len(answer) and answer[cut - 1 : cut] in (".", "!", "?", "。", "！", "？") else cut
    injected = answer[:cut] + marker + answer[cut:]
    return case.model_copy(update={"answer": injected}), ((cut + 1, cut + len(marker)),)


def measure_injection(checker: Checker, path: str, split: str, limit: int | None) -> dict[str, int]:
    c: dict[str, int] = defaultdict(int)
    for ex in load_dataset(path, "ragtruth", split=split, limit=limit):
        injected, gold = with_invalid_citation(ex.case)
        report = checker.check(injected)
        c["cases"] += 1
        c["flagged"] += int(report.hallucinated)
        c["with_span"] += int(report.hallucinated and _has_span(report, "invalid_citation", gold))
    return c


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", default=[], metavar="LANG=PATH")
    ap.add_argument("--split", default="dev", choices=["dev", "calib", "train"])
    ap.add_argument("--kinds", default="figure,citation_invalid,copy")
    ap.add_argument("--limit", type=int, default=None, help="cases per kind and language")
    ap.add_argument("--detectors", default=None, help="comma-separated (default: the default stack)")
    ap.add_argument("--policy", default="default")
    ap.add_argument("--inject-citation", action="store_true")
    ap.add_argument("--ragtruth", default=str(RAGTRUTH))
    ap.add_argument("--ragtruth-limit", type=int, default=None)
    args = ap.parse_args()
    checker = Checker(args.detectors.split(",") if args.detectors else None, policy=args.policy)
    kinds = set(args.kinds.split(","))
    payload: dict[str, Any] = {"machine": machine(), "split": args.split, "detectors": checker.detector_names,
                               "policy": args.policy, "synth": {}}
    print(f"{'lang':8} {'edit':17} {'cases':>6} {'flagged':>8} {'with span':>10}")
    for item in args.data:
        lang, _, path = item.partition("=")
        res = measure_synth(checker, path, args.split, kinds, args.limit)
        payload["synth"][lang] = {k: dict(v) for k, v in res.items()}
        for kind in sorted(res):
            c = res[kind]
            span = _pct(c["with_span"], c["cases"]) if EXPECTED.get(kind) else "-"
            print(f"{lang:8} {kind:17} {c['cases']:>6} {_pct(c['flagged'], c['cases']):>8} {span:>10}", flush=True)
    if args.inject_citation:
        c = measure_injection(checker, args.ragtruth, args.split, args.ragtruth_limit)
        payload["ragtruth_injected_citation"] = dict(c)
        print(f"{'en':8} {'ragtruth +[N+1]':17} {c['cases']:>6} {_pct(c['flagged'], c['cases']):>8} "
              f"{_pct(c['with_span'], c['cases']):>10}")
    print(f"wrote {write_result(f'precise_evidence_{args.split}', payload)}")


if __name__ == "__main__":
    main()
