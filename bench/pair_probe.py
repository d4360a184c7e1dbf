"""Hand-written sentence pairs against a pair (NLI) model: does it read negation, opposites and
swapped roles, or only the forms its training data used?

    python bench/pair_probe.py --model DIR [--threshold 0.5] [--name pair_probe]

``bench/data/pair_probe.jsonl`` holds 25 premises written by hand in English, German, French and
both Chinese scripts, each with four hypotheses: the copy, a paraphrase (both entailed), and two
contradictions (a negation in the form people write it — "did not", "nie", "n'a jamais", 没有,
從未 — and an opposite word or swapped roles). No rule made them, so a model that learned the
edit files' marks rather than the comparison is caught here. For each language and kind the
table gives the mean P(contradiction) and the share at or above ``--threshold`` (default: the
model's ``config.json`` threshold, else 0.5); "ranked" is the share of contradictions that score
above both entailed hypotheses of their premise. Writes bench/results/<name>.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

from hallucheck.detectors.model.nli import model_defaults
from hallucheck.models.nli import LABELS, NLIModel

DATA = Path(__file__).resolve().parent / "data" / "pair_probe.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a pair model directory (model.onnx, tokenizer.json, config.json)")
    ap.add_argument("--threshold", type=float, default=None)
    ap.add_argument("--name", default="pair_probe")
    args = ap.parse_args()

    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    model = NLIModel(args.model)
    threshold = args.threshold if args.threshold is not None else float(model_defaults(Path(args.model)).get("threshold", 0.5))
    probs = model.predict([(r["premise"], r["hypothesis"]) for r in rows])
    contra = probs[:, LABELS.index("contradiction")]
    by_premise: dict[str, list[tuple[dict[str, Any], float]]] = defaultdict(list)
    for r, p in zip(rows, contra):
        by_premise[r["premise"]].append((r, float(p)))
    cells: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    for items in by_premise.values():
        entailed = max(p for r, p in items if r["label"] == "entailment")
        for r, p in items:
            ranked = r["label"] == "contradiction" and p > entailed
            for lang in (r["language"], "all"):
                cells[(lang, r["kind"])].append((p, ranked))
    langs = ["en", "de", "fr", "zh-Hans", "zh-Hant", "all"]
    kinds = ["copy", "paraphrase", "negation", "antonym", "role"]
    table: dict[str, dict[str, Any]] = {}
    print(f"P(contradiction): mean, share >= {threshold}; contradictions also: ranked above both entailed")
    print(f"{'':8}" + "".join(f"{k:>26}" for k in kinds))
    for lang in langs:
        line = f"{lang:8}"
        for kind in kinds:
            vals = cells.get((lang, kind), [])
            if not vals:
                line += f"{'—':>26}"
                continue
            mean = sum(p for p, _ in vals) / len(vals)
            above = sum(p >= threshold for p, _ in vals) / len(vals)
            ranked = sum(r for _, r in vals) / len(vals)
            table.setdefault(lang, {})[kind] = {"n": len(vals), "mean": round(mean, 3), "above": round(above, 3),
                                                "ranked": round(ranked, 3)}
            text = f"{mean:.2f} {above:.0%}" + (f" r{ranked:.0%}" if kind not in ("copy", "paraphrase") else "")
            line += f"{text:>26}"
        print(line)
    payload = {"machine": machine(), "model": str(args.model), "threshold": threshold, "pairs": len(rows), "table": table}
    print(f"wrote {write_result(args.name, payload)}")


if __name__ == "__main__":
    main()
