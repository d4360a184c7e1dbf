"""Command-line entry of training (argparse, so it works without the CLI extras)."""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["main", "run_training"]


def run_training(
    config: str | None = None,
    run_dir: str = "runs/tagger",
    resume: bool = True,
    max_steps: int | None = None,
    limit: int | None = None,
    export: bool = False,
    export_dir: str | None = None,
) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        from hallucheck.train.config import load_config  # lazy: loaded only on this path
        from hallucheck.train.loop import train  # lazy: heavy: pulls in numpy, regex; loaded only when this path runs
    except ImportError as exc:  # torch / transformers missing
        print(f"error: training needs the train extra (pip install 'hallucheck[train]'): {exc}", file=sys.stderr)
        return 2
    cfg = load_config(config, max_steps=max_steps, limit=limit)
    summary = train(cfg, run_dir, resume=resume)
    if export and summary["step"] >= summary["total"]:
        from hallucheck.train.export import export_run  # lazy: heavy: pulls in numpy, regex; loaded only when this path runs

        export_run(run_dir, export_dir)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="hallucheck train", description="Train the span tagger on RAGTruth.")
    p.add_argument("--config", help="JSON or YAML config file (see hallucheck/train/config.py)")
    p.add_argument("--run-dir", default="runs/tagger", help="checkpoints, logs and the prepared data go here")
    p.add_argument("--resume", action=argparse.BooleanOptionalAction, default=True, help="resume from the run dir")
    p.add_argument("--max-steps", type=int, default=None)
    p.add_argument("--limit", type=int, default=None, help="use only the first N training answers")
    p.add_argument("--export", action="store_true", help="export to ONNX when training finished")
    p.add_argument("--export-dir", default=None, help="where to write the ONNX model (default: <run-dir>/export)")
    a = p.parse_args(argv)
    return run_training(a.config, a.run_dir, a.resume, a.max_steps, a.limit, a.export, a.export_dir)
