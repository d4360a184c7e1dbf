"""Quality and cost of the model layer: the tagger alone, the learned default stack, the cascade.

    python bench/model.py [--split dev] [--limit 300] [--every K] [--views model,default,cascade] [--cold]

``--every K`` keeps every K-th answer of the part before ``--limit``: the dev part is stored by
task (Data2txt first, the longest answers), so ``--every 5 --limit 300`` is a sample over all
three tasks while ``--limit 300`` alone is Data2txt only.

For each view, over the chosen part of the project's split (dev by default: reporting only), it
prints response-level precision / recall / F1 per task and overall, AUROC, character span F1
(micro, spans counted only when the view calls the answer hallucinated), responses per second
(wall clock, in this process, after a warm-up answer), and with ``--cold`` the cold start
(import + first check in a fresh process) and the peak RSS of a process that checked 50 answers
with the default stack. Writes ``bench/results/model_<split>.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import RAGTRUTH, machine, write_result
from hallucheck.metrics import prf
from hallucheck.types import RAGTRUTH_TASKS as TASKS


def _prf(tp: float, pred: float, act: float) -> dict[str, float]:
    p, r, f = prf(tp, pred, act)
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


def _summarise(rows: list[dict]) -> dict:
    from hallucheck.metrics import auroc, covered_chars, overlap_chars

    out: dict = {}
    for task in (None, *TASKS):
        sel = [r for r in rows if task is None or r["task"] == task]
        if not sel:
            continue
        tp = sum(r["pred"] and r["gold"] for r in sel)
        res = _prf(tp, sum(r["pred"] for r in sel), sum(r["gold"] for r in sel))
        sp = [r["spans"] if r["pred"] else [] for r in sel]
        stp = sum(overlap_chars(p, r["gold_spans"]) for p, r in zip(sp, sel))
        res["span"] = _prf(stp, sum(covered_chars(p) for p in sp), sum(covered_chars(r["gold_spans"]) for r in sel))
        a = auroc([r["score"] for r in sel], [r["gold"] for r in sel])
        res["auroc"] = round(a, 4) if a is not None else None
        res["n"] = len(sel)
        out[task or "overall"] = res
    return out


def _checker(view: str):  # type: ignore[no-untyped-def]
    from hallucheck.checker import Checker

    if view == "model":
        return Checker(["model"], policy="weighted")
    if view == "cascade":
        return Checker(policy="default", cascade=True)
    return Checker(policy="default")


def run_view(view: str, examples: list) -> dict:
    checker = _checker(view)
    checker.check(examples[0].case)  # warm-up: session creation is cold start, not throughput
    rows = []
    escalated = 0
    t0 = time.perf_counter()
    for ex in examples:
        r = checker.check(ex.case)
        if view == "model":
            f = next(f for f in r.findings if f.detector == "model")
            pred, score, spans = f.flagged, f.risk, [(s.start, s.end) for s in f.spans]
        else:
            pred, score, spans = r.hallucinated, r.risk_score, [(s.start, s.end) for s in r.spans]
        escalated += any(f.detector == "model" for f in r.findings)
        rows.append({"task": ex.case.task, "gold": ex.gold.hallucinated, "gold_spans": list(ex.gold.spans),
                     "pred": bool(pred), "score": float(score), "spans": spans})
    secs = time.perf_counter() - t0
    out = _summarise(rows)
    out["responses_per_s"] = round(len(examples) / secs, 2)
    out["model_layer_ran"] = round(escalated / len(examples), 3)
    return out


_COLD = """
import time, resource, json, sys
t0 = time.perf_counter()
import hallucheck
r = hallucheck.check(question="When did the bridge open?", contexts=["The bridge opened in 1937."],
                     answer="The bridge opened in 1937 and cost 90 billion dollars.")
cold = time.perf_counter() - t0
from hallucheck.eval.datasets import load_dataset
from hallucheck.checker import Checker
c = Checker()
for ex in load_dataset(sys.argv[1], "ragtruth", split="dev", limit=50):
    c.check(ex.case)
print(json.dumps({"cold_start_s": round(cold, 3), "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                  "detectors": c.detector_names, "policy": c.policy.name}))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(RAGTRUTH))
    ap.add_argument("--split", default="dev")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--views", default="model,default,cascade")
    ap.add_argument("--every", type=int, default=1, help="keep every K-th answer (a sample over all tasks)")
    ap.add_argument("--cold", action="store_true")
    a = ap.parse_args()
    from hallucheck.eval.datasets import load_dataset

    examples = [ex for i, ex in enumerate(load_dataset(a.data, "ragtruth", split=a.split)) if i % max(a.every, 1) == 0]
    if a.limit:
        examples = examples[: a.limit]
    tasks = {t: sum(1 for ex in examples if ex.case.task == t) for t in TASKS}
    result: dict = {"machine": machine(), "split": a.split, "n": len(examples), "every": a.every, "tasks": tasks, "views": {}}
    print(f"{len(examples)} {a.split} answers: " + ", ".join(f"{t} {n}" for t, n in tasks.items()), flush=True)
    for view in a.views.split(","):
        result["views"][view] = run_view(view, examples)
        print(view, json.dumps(result["views"][view]), flush=True)
    if a.cold:
        out = subprocess.run([sys.executable, "-c", _COLD, a.data], capture_output=True, text=True, check=True)
        result["cold"] = json.loads(out.stdout.strip().splitlines()[-1])
        print("cold", json.dumps(result["cold"]))
    path = write_result(f"model_{a.split}", result)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
