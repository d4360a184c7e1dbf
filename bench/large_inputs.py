"""Time and peak memory of one check at the documented input limits, in a fresh process each.

Cases (built from RAGTruth answers and sources, the shared train file; nothing is tuned on them):

- ``long_answer``: an answer of about 199,000 characters (the limit is 200,000) against two
  sources;
- ``long_source``: a normal answer against about 4.9 million characters of sources (the limit is
  5,000,000);
- ``both``: the long answer against the long sources.

Each case runs as ``python -m hallucheck detect CASE.json`` (the default stack unless
``--detectors``) in its own process; wall time and that process's own peak resident memory
(its ``VmHWM``, see :mod:`hallucheck.eval.peak_memory`: the child's rusage would count this
bench's size at fork) are printed and written to ``bench/results/large_inputs.json``.

    python bench/large_inputs.py                 # all three cases
    python bench/large_inputs.py --cases long_source --detectors citations,numbers
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = REPO.parent / "shared" / "data" / "ragtruth" / "train.jsonl.gz"
CASES = ("long_answer", "long_source", "both")


def _texts(path: Path, answer_chars: int, source_chars: int) -> tuple[str, str, list[str], str, str]:
    """A long answer, long sources, and a normal case (question, answer), from RAGTruth records."""
    answer, sources = [], []
    a_len = s_len = 0
    first: dict | None = None
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            first = first or rec
            ctx = rec["context"] if isinstance(rec["context"], str) else json.dumps(rec["context"], ensure_ascii=False)
            if a_len + len(rec["output"]) + 1 <= answer_chars:
                answer.append(rec["output"])
                a_len += len(rec["output"]) + 1
            if s_len + len(ctx) + 2 <= source_chars:
                sources.append(ctx)
                s_len += len(ctx) + 2
            if a_len > answer_chars - 2000 and s_len > source_chars - 20000:
                break
    assert first is not None
    return " ".join(answer), "\n\n".join(sources), sources[:2], first["query"], first["output"]


def build(folder: Path, answer_chars: int, source_chars: int) -> dict[str, Path]:
    long_answer, long_sources, two, question, answer = _texts(DATA, answer_chars, source_chars)
    cases = {
        "long_answer": {"question": question, "contexts": two, "answer": long_answer},
        "long_source": {"question": question, "contexts": [long_sources], "answer": answer},
        "both": {"question": question, "contexts": [long_sources], "answer": long_answer},
    }
    out = {}
    for name, case in cases.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
        out[name] = path
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES))
    p.add_argument("--detectors", default=None, help="detector names (default: the default stack)")
    p.add_argument("--answer-chars", type=int, default=199_000)
    p.add_argument("--source-chars", type=int, default=4_900_000)
    p.add_argument("--out", default=str(HERE / "results" / "large_inputs.json"))
    a = p.parse_args()
    names = [n.strip() for n in a.cases.split(",") if n.strip()]
    unknown = [n for n in names if n not in CASES]
    if unknown:
        p.error(f"unknown case {unknown[0]!r}")
    if not DATA.exists():
        p.error(f"needs the RAGTruth train file at {DATA}")
    results: dict[str, object] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                  "load": os.getloadavg()[0], "detectors": a.detectors or "default stack"}
    with tempfile.TemporaryDirectory() as tmp:
        paths = build(Path(tmp), a.answer_chars, a.source_chars)
        for name in names:
            results[name] = _run(paths[name], a.detectors)
            r = results[name]
            print(f"{name:12s} answer {r['answer_chars']:>9,} chars, sources {r['source_chars']:>9,} chars: "  # type: ignore[index]
                  f"{r['seconds']} s, peak {r['peak_mb']} MB, exit {r['exit']}")  # type: ignore[index]
    Path(a.out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"load average at the start {results['load']:.2f}; written to {a.out}")
    return 0


def _run(path: Path, detectors: str | None) -> dict[str, object]:
    sys.path.insert(0, str(REPO))
    from hallucheck.eval.peak_memory import measure_command

    args = ["detect", str(path)]
    if detectors:
        args += ["--detectors", detectors]
    run = measure_command(args, env={**os.environ, "PYTHONPATH": str(REPO)})
    report = json.loads(run.stdout) if run.returncode == 0 else {}
    case = json.loads(path.read_text(encoding="utf-8"))
    return {
        "answer_chars": len(case["answer"]),
        "source_chars": sum(len(c) for c in case["contexts"]),
        "exit": run.returncode,
        "seconds": round(run.seconds, 1),
        "peak_mb": round(run.peak_mb) if run.peak_mb is not None else None,
        "coverage": report.get("coverage"),
        "error": run.stderr.decode("utf-8", "replace")[-300:] if run.returncode else None,
    }


if __name__ == "__main__":
    raise SystemExit(main())
