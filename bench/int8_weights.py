"""Signed against unsigned int8 weights: time and agreement of each shipped int8 graph.

    python bench/int8_weights.py [--runs 20] [--batch 8] [--length 128]
    qemu-x86_64 -cpu Haswell .venv/bin/python bench/int8_weights.py --runs 1   # a processor without VNNI

For each shipped graph with int8 weights (the English and the multilingual tagger, the verifier,
the embedder's dynamic int8 graph), one session loads the weights signed and one unsigned
(``HALLUCHECK_INT8_WEIGHTS``); both run the same random batch. Printed: the seconds per run of
each, and the largest difference between their outputs (0 where signed products are exact, i.e.
with VNNI; see hallucheck/models/unsigned_weights.py). The first line says whether this
processor's flags show VNNI (under user-mode QEMU they are the host's, not the emulated ones).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine

GRAPHS = ("tagger/model.onnx", "tagger_multilingual/model.onnx", "verifier/model.onnx", "minilm/model_int8.onnx")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--length", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", help="write the results as JSON")
    args = ap.parse_args(argv)

    from hallucheck.models.runtime import inference_session  # lazy: --help stays fast
    from hallucheck.models.sample_inputs import random_feeds
    from hallucheck.models.shared_tensors import MODELS_DIR, load_shared
    from hallucheck.models.unsigned_weights import VARIABLE, signed_products_exact

    print(f"VNNI in this processor's flags: {signed_products_exact()}")
    rows = []
    for name in GRAPHS:
        path = MODELS_DIR / name
        config_path = path.parent / "config.json"
        config = json.loads(config_path.read_text(encoding="utf-8")) if config_path.is_file() else {}
        shared = load_shared(config)
        outputs, seconds = {}, {}
        for choice in ("signed", "unsigned"):
            os.environ[VARIABLE] = choice
            session = inference_session(path, threads=args.threads, initializers=shared)
            feeds = random_feeds(session, args.batch, args.length)
            outputs[choice] = session.run(None, feeds)
            t0 = time.perf_counter()
            for _ in range(args.runs):
                session.run(None, feeds)
            seconds[choice] = (time.perf_counter() - t0) / max(1, args.runs)
        diff = max(float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
                   for a, b in zip(outputs["signed"], outputs["unsigned"]))
        rows.append({"graph": name, "signed_s": round(seconds["signed"], 4), "unsigned_s": round(seconds["unsigned"], 4),
                     "max_diff": diff})
        print(f"{name:34s} signed {seconds['signed']:.4f} s  unsigned {seconds['unsigned']:.4f} s  "
              f"max |signed - unsigned| {diff:.6g}", flush=True)
    os.environ.pop(VARIABLE, None)
    if args.out:
        Path(args.out).write_text(json.dumps({"machine": machine(), "args": vars(args), "rows": rows}, indent=2) + "\n",
                                  encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
