"""Quality, speed and peak memory of the default checker per language, each in a fresh process.

    nice python bench/languages.py --synth-dir DIR [--langs zh-Hans,de] [--limit 200] [--split dev]

For each language the child runs ``hallucheck eval DIR/debref.<lang>.jsonl --format generic
--split dev`` (the cases ``hallucheck data synth`` writes; dev part: reporting only) and reports
response and character-span F1, responses per second as the eval measured them, and the child's
own peak resident memory (``hallucheck.eval.peak_memory``): a process that checks Chinese, German
or French answers loads the multilingual tagger, one that checks English the English one.
Writes bench/results/languages_<split>.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

from hallucheck.eval.peak_memory import measure_command

LANGS = ("en", "de", "fr", "zh-Hans", "zh-Hant")


def one(path: Path, split: str, limit: int | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "eval.json"
        args = ["eval", str(path), "--format", "generic", "--split", split, "--out", str(out)]
        if limit:
            args += ["--limit", str(limit)]
        run = measure_command(args)
        if run.returncode != 0 or not out.is_file():
            return {"error": f"exit {run.returncode}: {run.stderr[-500:].decode(errors='replace')}"}
        report = json.loads(out.read_text(encoding="utf-8"))
    overall = report["metrics"]["overall"]
    return {
        "n": overall["n"],
        "response_f1": round(overall["response"]["f1"], 4),
        "auroc": round(overall["response"].get("auroc") or 0.0, 4),
        "span_f1": round(overall["span"]["f1"], 4),
        "responses_per_s": round(report["throughput"]["responses_per_second"], 1),
        "wall_s": round(run.seconds, 1),
        "peak_mb": round(run.peak_mb, 0),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--synth-dir", type=Path, required=True, help="folder of debref.<lang>.jsonl files")
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--split", default="dev", choices=("dev", "calib", "train", "all"))
    ap.add_argument("--limit", type=int, default=None, help="at most this many answers per language")
    ap.add_argument("--name", default=None, help="result name (default: languages_<split>)")
    args = ap.parse_args()
    results: dict[str, Any] = {}
    for lang in filter(None, args.langs.split(",")):
        path = args.synth_dir / f"debref.{lang}.jsonl"
        if not path.is_file():
            sys.exit(f"no such file: {path}")
        results[lang] = one(path, args.split, args.limit)
        print(lang, json.dumps(results[lang]), flush=True)
    out = write_result(args.name or f"languages_{args.split}", {"machine": machine(), "split": args.split, "limit": args.limit,
                                                    "results": results})
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
