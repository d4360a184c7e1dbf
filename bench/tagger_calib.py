"""Span-tagger checkpoints compared on the calib part of every kind of data they may meet.

The training run judges its steps on RAGTruth calib answers only (comparable across runs). A run
trained on a mix also has to be judged where the mix should help: each language of the
multilingual cases and each kind of contradiction edit. For each checkpoint (torch weights of a
run, or a shipped ``model.onnx`` read back) and each group this prints token AUROC, token F1 at
0.5, answer AUROC (max token probability against "has an unsupported span"), and for labelled
answers the share whose edit is found (some token of the gold span at P(unsupported) >= 0.5).

    python bench/tagger_calib.py --run /work/runs/tagger/v4-mix --checkpoints eval-1000.pt,final.pt \
        --onnx hallucheck/models/tagger/model.onnx --synth-dir /work/runs/synth --edits EDITS.jsonl

Calib part only (``--part`` to change): this is what a checkpoint may be chosen on.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

LANGS = ("en", "de", "fr", "zh-Hans", "zh-Hant")


def groups_of(args: argparse.Namespace, tokenizer: Any, settings: Any) -> dict[str, list[Any]]:
    """Windows per group name; each window's ``record`` indexes its answer within the group."""
    from hallucheck.train.data import build_examples, generic_windows, to_example
    from hallucheck.train.mix import tagger_records

    rng = np.random.default_rng(args.seed)
    groups: dict[str, list[Any]] = {}
    groups["ragtruth"] = build_examples(args.data, args.part, tokenizer, settings, 1.0, args.seed, args.limit)

    def add(name: str, recs: list[dict[str, Any]]) -> None:
        if len(recs) > args.limit:
            recs = [recs[i] for i in sorted(rng.choice(len(recs), args.limit, replace=False))]
        groups[name] = [to_example(w, j) for j, rec in enumerate(recs) for w in generic_windows(rec, tokenizer, settings)]

    if args.synth_dir:
        for lang in LANGS:
            p = Path(args.synth_dir) / f"debref.{lang}.jsonl"
            if p.is_file():
                add(f"synth {lang}", tagger_records(p, args.part))
    if args.edits:
        by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for rec in tagger_records(args.edits, args.part):
            by_kind[str((rec.get("metadata") or {}).get("edit") or "original")].append(rec)
        for kind in sorted(by_kind):
            add(f"edits {kind}", by_kind[kind])
    return groups


def found_rate(examples: list[Any], probs: list[np.ndarray], thr: float = 0.5) -> float | None:
    """Share of labelled answers with a gold token at P(unsupported) >= thr."""
    labelled: dict[int, bool] = {}
    for e, p in zip(examples, probs):
        gold = e.labels > 0
        if gold.any():
            labelled[e.record] = labelled.get(e.record, False) or bool((p[gold] >= thr).any())
    return float(np.mean(list(labelled.values()))) if labelled else None


def flagged_rate(examples: list[Any], probs: list[np.ndarray], thr: float = 0.5) -> float:
    """Share of answers with any token at P(unsupported) >= thr."""
    per: dict[int, bool] = {}
    for e, p in zip(examples, probs):
        per[e.record] = per.get(e.record, False) or bool(len(p) and p.max() >= thr)
    return float(np.mean(list(per.values()))) if per else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", default=None, help="training run directory (its config and base model)")
    ap.add_argument("--checkpoints", default="", help="comma-separated checkpoint files in --run")
    ap.add_argument("--onnx", default=None, help="also a shipped tagger model.onnx (read back into torch)")
    ap.add_argument("--onnx-config", default=None, help="training config of --onnx (default: its config.json)")
    ap.add_argument("--data", default="../shared/data/ragtruth/train.jsonl.gz")
    ap.add_argument("--synth-dir", default=None)
    ap.add_argument("--edits", default=None)
    ap.add_argument("--part", default="calib")
    ap.add_argument("--limit", type=int, default=150, help="answers per group")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--name", default="tagger_calib")
    args = ap.parse_args()

    import torch

    from hallucheck.train.config import TrainConfig
    from hallucheck.train.data import load_tokenizer
    from hallucheck.train.loop import build_model, initial_weights, metrics_of, predict_type_probs
    from hallucheck.train.vocab import run_model_dir

    torch.set_num_threads(2)
    models: list[tuple[str, TrainConfig, str, str]] = []  # (name, config, model dir, weights)
    if args.onnx:
        cfg_path = Path(args.onnx_config) if args.onnx_config else Path(args.onnx).with_name("config.json")
        cfg = TrainConfig.from_saved(json.loads(cfg_path.read_text(encoding="utf-8"))["train_config"])
        # an extended vocabulary is rebuilt (deterministically) in a scratch folder; its rows are then
        # overwritten by the ONNX file's own
        scratch = tempfile.mkdtemp(prefix="tagger-calib-")
        model_dir = run_model_dir(cfg.base_model, cfg.vocab_extension, scratch)
        models.append(("onnx " + str(args.onnx), cfg, model_dir, str(args.onnx)))
    for ck in filter(None, args.checkpoints.split(",")):
        state = torch.load(Path(args.run) / ck, map_location="cpu", weights_only=False)
        cfg = TrainConfig.from_saved(state["config"])
        models.append((ck, cfg, run_model_dir(cfg.base_model, cfg.vocab_extension, args.run), str(Path(args.run) / ck)))

    results: dict[str, dict[str, dict[str, float | None]]] = {}
    cached: dict[tuple[str, str], dict[str, list[Any]]] = {}
    for name, cfg, model_dir, weights in models:
        key = (model_dir, json.dumps(cfg.encoder_settings().__dict__, sort_keys=True, default=str))
        if key not in cached:
            cached[key] = groups_of(args, load_tokenizer(model_dir), cfg.encoder_settings())
        groups = cached[key]
        model = build_model(cfg, model_dir)
        if weights.endswith(".onnx"):
            model.load_state_dict(initial_weights(weights, model))
        else:
            model.load_state_dict(torch.load(weights, map_location="cpu", weights_only=False)["model"])
        model.eval()
        results[name] = {}
        for g, examples in groups.items():
            tprobs = predict_type_probs(model, examples)
            probs = [1.0 - t[:, 0] for t in tprobs]
            m: dict[str, float | None] = {k: round(v, 4) for k, v in metrics_of(examples, tprobs).items()}
            fr = found_rate(examples, probs)
            m["found"] = round(fr, 4) if fr is not None else None
            m["flagged"] = round(flagged_rate(examples, probs), 4)
            results[name][g] = m
            print(f"{name:40s} {g:18s} " + " ".join(f"{k} {v}" for k, v in m.items()), flush=True)
    write_result(args.name, {"machine": machine(), "part": args.part, "limit": args.limit, "results": results})


if __name__ == "__main__":
    main()
