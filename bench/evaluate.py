"""Quality of every detector alone and every policy on the dev part of RAGTruth train, in one pass.

    python bench/evaluate.py [--split dev] [--limit N] [--workers 2] [--detectors a,b] [--policies p,q]

Each detector runs once per response; the views are derived from the same findings:
``detector:<name>`` is the detector alone (its own ``Finding.flagged`` verdict and its spans),
``policy:<name>`` the policy's verdict over all findings with the merged spans, and
``baseline:flag-all`` flags every answer in full (the floor any method must beat). Prints one
table and writes bench/results/evaluate_<split>.json. Report dev numbers as dev numbers: nothing
is tuned on them.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, available_policies_here, cheap_detectors, machine, write_result

from hallucheck.eval.datasets import count_examples, load_dataset
from hallucheck.eval.runner import Prediction, ViewsPredictor, evaluate
from hallucheck.types import RAGTRUTH_TASKS as TASKS


@dataclass(frozen=True)
class WithBaseline(ViewsPredictor):
    """The detector and policy views plus ``baseline:flag-all``."""

    def views(self) -> list[str]:
        return [*super().views(), "baseline:flag-all"]

    def predict(self, case: Any) -> dict[str, Prediction]:
        out = super().predict(case)
        out["baseline:flag-all"] = Prediction(
            hallucinated=True, risk=1.0, spans=[(0, len(case.answer), "baseless", "")], seconds=0.0
        )
        return out


def _f(x: float | None) -> str:
    return "  —  " if x is None else f"{x:.3f}"


def print_table(result: Any) -> None:
    head = (
        f"{'view':<22} {'resp P':>6} {'resp R':>6} {'resp F1':>7} {'AUROC':>6} "
        f"{'span P':>6} {'span R':>6} {'span F1':>7} " + " ".join(f"{'F1 ' + t:>11}" for t in TASKS) + f" {'resp/s':>8}"
    )
    print(head)
    print("-" * len(head))
    for view in result.views:
        s = result.view_summary(view)
        r, sp = s["overall"]["response"], s["overall"]["span"]
        per_task = " ".join(
            f"{_f(s['per_task'][t]['response']['f1']) if t in s['per_task'] else '  —  ':>11}" for t in TASKS
        )
        rate = s["responses_per_second_one_core"]
        rate_text = f"{rate:>8.0f}" if rate else f"{'':>8}"
        print(
            f"{view:<22} {_f(r['precision']):>6} {_f(r['recall']):>6} {_f(r['f1']):>7} {_f(r['auroc']):>6} "
            f"{_f(sp['precision']):>6} {_f(sp['recall']):>6} {_f(sp['f1']):>7} {per_task} {rate_text}"
        )


def markdown_table(result: Any) -> str:
    """The same table in Markdown, for docs/evaluation.md."""
    lines = [
        "| view | resp P | resp R | resp F1 | AUROC | span P | span R | span F1 | F1 QA | F1 Summary | F1 Data2txt | resp/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for view in result.views:
        s = result.view_summary(view)
        r, sp = s["overall"]["response"], s["overall"]["span"]
        per_task = [_f(s["per_task"][t]["response"]["f1"]) if t in s["per_task"] else "—" for t in TASKS]
        rate = s["responses_per_second_one_core"]
        cells = [view, _f(r["precision"]), _f(r["recall"]), f"**{_f(r['f1'])}**", _f(r["auroc"]),
                 _f(sp["precision"]), _f(sp["recall"]), _f(sp["f1"]), *per_task, f"{rate:.0f}" if rate else ""]
        lines.append("| " + " | ".join(c.strip() for c in cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(RAGTRUTH), help="RAGTruth train file (jsonl or jsonl.gz)")
    ap.add_argument("--split", default="dev", choices=["dev", "calib", "train", "all"])
    ap.add_argument("--limit", type=int, default=None, help="only the first N responses of the split")
    ap.add_argument("--workers", type=int, default=1, help="local processes")
    ap.add_argument("--detectors", default=None, help="comma-separated (default: every installed rules/lexical detector)")
    ap.add_argument("--policies", default=None, help="comma-separated (default: tiered, vote, weighted, learned if shipped)")
    ap.add_argument("--name", default=None, help="result file name (default evaluate_<split>)")
    ap.add_argument("--markdown", action="store_true", help="also print the table in Markdown")
    args = ap.parse_args(argv)

    detectors = [d for d in (args.detectors.split(",") if args.detectors else cheap_detectors()) if d]
    policies = [p for p in (args.policies.split(",") if args.policies else available_policies_here()) if p]
    if not policies:
        print("no policy is installed yet (tiered/vote/weighted); nothing to compare", file=sys.stderr)
        return 2
    if "learned" in policies:
        from hallucheck.policies.default import default_detectors

        detectors += [d for d in default_detectors() if d not in detectors]
    total = count_examples(args.data, "ragtruth", split=args.split, limit=args.limit)
    print(f"{total} responses ({args.split}) · detectors {', '.join(detectors)} · policies {', '.join(policies)}", file=sys.stderr)
    predictor = WithBaseline(detectors=tuple(detectors), policies=tuple(policies))
    t0 = time.perf_counter()

    def tick(n: int) -> None:
        if n % 200 == 0 or n == total:
            print(f"  {n}/{total} ({n / (time.perf_counter() - t0):.0f}/s)", file=sys.stderr)

    examples = load_dataset(args.data, "ragtruth", split=args.split, limit=args.limit)
    result = evaluate(examples, predictor, workers=args.workers, on_progress=tick, sample_size=0)
    print_table(result)
    print(
        f"\n{result.n} responses in {result.wall_seconds:.1f}s wall ({result.responses_per_second:.0f}/s, "
        f"{args.workers} worker(s)); resp/s = responses per busy second of one core for that view."
    )
    if result.errors:
        print(f"detector errors: {result.errors}")
    if args.markdown:
        print()
        print(markdown_table(result))
    payload = {"machine": machine(), "split": args.split, "detectors": detectors, "policies": policies, **result.to_dict()}
    payload.pop("samples", None)
    path = write_result(args.name or f"evaluate_{args.split}", payload)
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
