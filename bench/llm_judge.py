"""Measure an LLM judge (llm_judge or two_step) on a sample of the dev part of RAGTruth.

The model comes from the environment (HALLUCHECK_LLM_BACKEND / BASE_URL / MODEL / API_KEY, see
docs/llm.md); with none configured the command says so and exits 0 without calling anything.
Prints response-level precision / recall / F1 (the judge's own verdict, ``Finding.flagged``),
AUROC of its risk, character span F1, LLM calls and tokens per case, failures (replies that could
not be used) and seconds per case. Writes bench/results/llm_judge_<model>.json.

    HALLUCHECK_LLM_BASE_URL=http://localhost:11434/v1 HALLUCHECK_LLM_MODEL=qwen2.5:7b \\
        python bench/llm_judge.py --limit 50
    HALLUCHECK_LLM_BACKEND=local python bench/llm_judge.py --limit 10 --max-tokens 512
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.eval.datasets import load_dataset
from hallucheck.llm.config import LLMConfig
from hallucheck.metrics import MetricsAccumulator


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(RAGTRUTH))
    ap.add_argument("--split", default="dev", choices=["dev", "calib", "train"])
    ap.add_argument("--limit", type=int, default=50, help="cases sampled from the split (default 50)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--detector", default="llm_judge", choices=["llm_judge", "two_step"])
    ap.add_argument("--style", default="claims", choices=["claims", "evaluation"], help="llm_judge prompt style")
    ap.add_argument("--max-tokens", type=int, default=None, help="max completion tokens per call")
    ap.add_argument("--max-calls", type=int, default=None, help="LLM call budget per case")
    ap.add_argument("--tasks", default=None, help="comma-separated: qa,summary,data2txt")
    args = ap.parse_args(argv)

    cfg = LLMConfig.from_env()
    if not cfg.configured:
        print("no LLM backend configured (set HALLUCHECK_LLM_BASE_URL and HALLUCHECK_LLM_MODEL, or "
              "HALLUCHECK_LLM_BACKEND=local); nothing to measure")
        return 0
    llm = cfg.build()
    options: dict[str, object] = {"llm": llm}
    if args.max_tokens:
        options["max_tokens"] = args.max_tokens
    if args.detector == "llm_judge":
        options["style"] = args.style
    detector = get_detector(args.detector, **options)

    tasks = set(args.tasks.split(",")) if args.tasks else None
    examples = list(load_dataset(args.data, "ragtruth", split=args.split, tasks=tasks))
    sample = random.Random(args.seed).sample(examples, min(args.limit, len(examples)))
    acc = MetricsAccumulator()
    calls = prompt_tokens = completion_tokens = cached = failures = 0
    stages: dict[str, int] = {}
    t_all = time.perf_counter()
    for i, ex in enumerate(sample, start=1):
        analysis = CaseAnalysis(ex.case)
        analysis.facts.llm_calls_left = args.max_calls
        t0 = time.perf_counter()
        finding = detector.detect(analysis)
        seconds = time.perf_counter() - t0
        if finding.error:
            failures += 1
            stage = finding.error.split(":", 1)[0]
            stages[stage] = stages.get(stage, 0) + 1
        calls += finding.cost.llm_calls
        cached += finding.cost.cached_calls
        prompt_tokens += finding.cost.prompt_tokens
        completion_tokens += finding.cost.completion_tokens
        flagged = finding.flagged
        acc.add(ex.case.task, gold=ex.gold.hallucinated, gold_spans=list(ex.gold.spans), predicted=flagged,
                risk=finding.risk, predicted_spans=[(s.start, s.end) for s in finding.spans] if flagged else [],
                seconds=seconds)
        print(f"\r{i}/{len(sample)} cases, {failures} unusable replies", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    n = max(1, len(sample))
    summary = acc.summary()
    overall = summary["overall"]
    resp, span = overall["response"], overall["span"]
    model = getattr(llm, "model", "?")
    print(f"model {model} ({cfg.resolved_backend()}), detector {args.detector}, {len(sample)} {args.split} cases")
    print(f"response  P {resp['precision']:.3f}  R {resp['recall']:.3f}  F1 {resp['f1']:.3f}  "
          f"AUROC {resp['auroc'] if resp['auroc'] is None else round(resp['auroc'], 3)}")
    print(f"span      P {span['precision']:.3f}  R {span['recall']:.3f}  F1 {span['f1']:.3f}")
    print(f"per case  {calls / n:.2f} calls ({cached / n:.2f} cached), {prompt_tokens / n:.0f} prompt + "
          f"{completion_tokens / n:.0f} completion tokens, {(time.perf_counter() - t_all) / n:.1f} s")
    print(f"unusable  {failures} of {len(sample)} ({', '.join(f'{k} {v}' for k, v in sorted(stages.items())) or 'none'})")
    for task, m in summary["per_task"].items():
        print(f"  {task:9s} n={m['n']:3d}  response F1 {m['response']['f1']:.3f}  span F1 {m['span']['f1']:.3f}")
    name = "llm_judge_" + re.sub(r"[^A-Za-z0-9_.-]+", "_", str(model))[:60]
    path = write_result(name, {"machine": machine(), "model": model, "backend": cfg.resolved_backend(),
                               "detector": args.detector, "split": args.split, "cases": len(sample), "seed": args.seed,
                               "calls_per_case": calls / n, "prompt_tokens_per_case": prompt_tokens / n,
                               "completion_tokens_per_case": completion_tokens / n, "unusable": failures,
                               "unusable_by_stage": stages, "metrics": summary})
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
