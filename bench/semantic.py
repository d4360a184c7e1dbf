"""Semantic layer on RAGTruth: semantic vs ROUGE-L overlap vs plain and paraphrase-aware n-gram.

Response-level F1 per task and overall on the dev part. Each method turns a case into one score
(higher = more likely hallucinated); its threshold per task is chosen on a sample of the *train*
part (never on dev), and the detectors' own built-in verdicts are reported beside it.

    nice python bench/semantic.py                         # fit on 600 train answers, report dev
    nice python bench/semantic.py --fit 900 --dev-limit 600

Scores: semantic = 1 - min sentence support (and variants, the best chosen on train); overlap =
1 - min sentence ROUGE-L precision; ngram = max sentence novelty; ngram_semantic = the same with
words supported by an aligned source sentence counted as grounded (token threshold chosen on
train). Writes bench/results/semantic.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result

from hallucheck.types import RAGTRUTH_TASKS as TASKS

TOKEN_GRID = (0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85)


def _examples(split: str, per_task: int | None) -> list[Any]:
    """Examples of one part ordered by source, at most ``per_task`` per task.

    Ordering by (a hash of) the source keeps the six answers written from one source together, so
    their source sentences are embedded once, and makes a per-task sample whole source groups.
    """
    from hallucheck.eval.datasets import load_dataset

    key = lambda ex: hashlib.sha1((ex.case.task + ex.case.source_text).encode()).hexdigest()  # noqa: E731
    counts: dict[str, int] = {}
    out = []
    for ex in sorted(load_dataset(RAGTRUTH, split=split), key=key):
        task = ex.case.task
        if per_task is not None and counts.get(task, 0) >= per_task:
            continue
        counts[task] = counts.get(task, 0) + 1
        out.append(ex)
    return out


def _shard_of(ex: Any, n: int) -> int:
    return int(hashlib.sha1((ex.case.task + ex.case.source_text).encode()).hexdigest()[:8], 16) % n


def _signals(examples: list[Any], progress: str, checkpoint: Any = None) -> list[dict[str, Any]]:
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.detectors.lexical.ngram import NgramDetector
    from hallucheck.detectors.lexical.overlap import OverlapDetector
    from hallucheck.detectors.semantic.ngram_semantic import ParaphraseNgramDetector
    from hallucheck.detectors.semantic.semantic import SemanticDetector

    plain = NgramDetector()
    overlap = OverlapDetector()
    semantic = SemanticDetector()
    rows = []
    t0 = time.time()
    sem_seconds = 0.0
    for n, ex in enumerate(examples, 1):
        case = ex.case
        # Lexical detectors first, on their own analysis: the plain n-gram detector would read the
        # semantic support from a shared analysis.
        a0 = CaseAnalysis(case)
        ng = plain.detect(a0)
        ov = overlap.detect(a0)
        a = CaseAnalysis(case)
        t1 = time.perf_counter()
        sem = semantic.detect(a)
        sem_seconds += time.perf_counter() - t1
        sentences = sem.details.get("sentences") or []
        token_scores = a.facts.token_scores
        ng_sem: dict[str, float] = {}
        for t in TOKEN_GRID:
            det = ParaphraseNgramDetector(token_threshold=t)
            scored = [s for s in det.score_sentences(a) if s.total]
            ng_sem[str(t)] = max((s.novelty for s in scored), default=0.0)
        plain_scored = [s for s in plain.score_sentences(a0) if s.total]
        rows.append(
            {
                "task": case.task,
                "gold": ex.gold.hallucinated,
                "semantic": {
                    "support": min((s["support"] for s in sentences), default=1.0),
                    "similarity": min((s["best_similarity"] for s in sentences), default=1.0),
                    "token_precision": min((s["token_precision"] or 0.0 for s in sentences), default=1.0),
                    "bertscore_precision": sem.features["bertscore_precision"],
                    "local_precision": min((s["local_precision"] or 0.0 for s in sentences), default=1.0),
                    "per_sentence": [
                        [s["best_similarity"], s["token_precision"] or 0.0, s["local_precision"] or 0.0] for s in sentences
                    ],
                    "flagged": sem.flagged,
                    "token_level": token_scores is not None,
                },
                "overlap": {
                    "min_precision": ov.features["min_sentence_precision"],
                    "rougeL_f": ov.features["rougeL_fmeasure"],
                    "flagged": ov.flagged,
                },
                "ngram": {"max_novelty": max((s.novelty for s in plain_scored), default=0.0), "flagged": ng.flagged},
                "ngram_semantic": ng_sem,
            }
        )
        if checkpoint is not None and n % 50 == 0:
            checkpoint(rows)
        if n % 50 == 0 or n == len(examples):
            print(f"{progress}: {n}/{len(examples)} ({time.time() - t0:.0f}s)", file=sys.stderr, flush=True)
    return rows


def _f1(pairs: list[tuple[float, bool]], thr: float) -> float:
    from hallucheck.metrics import prf

    tp = sum(1 for s, g in pairs if s > thr and g)
    return prf(tp, sum(1 for s, _ in pairs if s > thr), sum(1 for _, g in pairs if g))[2]


def _prf(flags: list[tuple[bool, bool]]) -> dict[str, float]:
    from hallucheck.metrics import prf_of

    return {**prf_of([f for f, _ in flags], [g for _, g in flags]), "n": len(flags)}


def _best_threshold(pairs: list[tuple[float, bool]]) -> tuple[float, float]:
    cands = sorted({round(s, 4) for s, _ in pairs})
    best = (0.0, -1e9)
    for c in cands:
        f = _f1(pairs, c - 1e-9)
        if f > best[0]:
            best = (f, c - 1e-9)
    return best[1], best[0]


# Each method: name -> function(row) -> score (higher = more hallucinated), per variant.
def _score_fns() -> dict[str, dict[str, Any]]:
    fns: dict[str, dict[str, Any]] = {
        "semantic": {
            "support": lambda r: 1 - r["semantic"]["support"],
            "similarity": lambda r: 1 - r["semantic"]["similarity"],
            "token_precision": lambda r: 1 - r["semantic"]["token_precision"],
            "bertscore_precision": lambda r: 1 - r["semantic"]["bertscore_precision"],
            "local_precision": lambda r: 1 - r["semantic"].get("local_precision", 1.0),
            "sim+local": lambda r: 1 - min((0.5 * (a + c) for a, _, c in r["semantic"].get("per_sentence", [])), default=1.0),
            "local+bertscore": lambda r: 1 - 0.5 * (r["semantic"].get("local_precision", 1.0) + r["semantic"]["bertscore_precision"]),
        },
        "overlap": {
            "min_precision": lambda r: 1 - r["overlap"]["min_precision"],
            "rougeL_f": lambda r: 1 - r["overlap"]["rougeL_f"],
        },
        "ngram": {"max_novelty": lambda r: r["ngram"]["max_novelty"]},
        "ngram_semantic": {f"token>={t}": (lambda r, t=t: r["ngram_semantic"][str(t)]) for t in TOKEN_GRID},
    }
    return fns


def fit(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per method: the variant and per-task thresholds with the best train F1 (summed over tasks)."""
    chosen: dict[str, Any] = {}
    for method, variants in _score_fns().items():
        best: tuple[float, str, dict[str, float]] | None = None
        for vname, fn in variants.items():
            total = 0.0
            thr: dict[str, float] = {}
            for task in TASKS:
                pairs = [(fn(r), r["gold"]) for r in rows if r["task"] == task]
                if not pairs:
                    continue
                thr[task], f = _best_threshold(pairs)
                total += f
            if best is None or total > best[0]:
                best = (total, vname, thr)
        assert best is not None
        chosen[method] = {"variant": best[1], "thresholds": best[2], "train_f1_sum": round(best[0], 4)}
    return chosen


def evaluate(rows: list[dict[str, Any]], chosen: dict[str, Any]) -> dict[str, Any]:
    fns = _score_fns()
    out: dict[str, Any] = {}
    for method, spec in chosen.items():
        fn = fns[method][spec["variant"]]
        flags = [(fn(r) > spec["thresholds"].get(r["task"], 0.5), r["gold"], r["task"]) for r in rows]
        res = {task: _prf([(f, g) for f, g, t in flags if t == task]) for task in TASKS}
        res["overall"] = _prf([(f, g) for f, g, _ in flags])
        out[method] = res
    # The detectors' own verdicts at their built-in thresholds (semantic: today's defaults,
    # applied to the stored support, so the row does not go stale when the defaults change).
    from hallucheck.detectors.semantic.semantic import SemanticDetector

    sem = SemanticDetector()
    for method in ("semantic", "overlap", "ngram"):
        if method == "semantic":
            flags = [(r["semantic"]["support"] < sem.threshold_for(r["task"]), r["gold"], r["task"]) for r in rows]
        else:
            flags = [(r[method]["flagged"], r["gold"], r["task"]) for r in rows]
        res = {task: _prf([(f, g) for f, g, t in flags if t == task]) for task in TASKS}
        res["overall"] = _prf([(f, g) for f, g, _ in flags])
        out[f"{method} (built-in thresholds)"] = res
    flags = [(True, r["gold"], r["task"]) for r in rows]
    res = {task: _prf([(f, g) for f, g, t in flags if t == task]) for task in TASKS}
    res["overall"] = _prf([(f, g) for f, g, _ in flags])
    out["flag everything"] = res
    return out


def aurocs(rows: list[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Threshold-free view: AUROC of every score variant per task (and over all tasks)."""
    from hallucheck.metrics import auroc

    out: dict[str, dict[str, float | None]] = {}
    for method, variants in _score_fns().items():
        for vname, fn in variants.items():
            res: dict[str, float | None] = {}
            for task in (*TASKS, "overall"):
                sel = [r for r in rows if task == "overall" or r["task"] == task]
                value = auroc([fn(r) for r in sel], [r["gold"] for r in sel]) if sel else None
                res[task] = None if value is None else round(value, 4)
            out[f"{method}: {vname}"] = res
    return out


def _table(results: dict[str, Any]) -> str:
    lines = [f"{'method':38s} " + " ".join(f"{t:>9s}" for t in (*TASKS, "overall"))]
    for method, res in results.items():
        lines.append(f"{method:38s} " + " ".join(f"{res[t]['f1']:9.3f}" for t in (*TASKS, "overall")))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fit", type=int, default=200, help="train answers per task used to choose thresholds")
    ap.add_argument("--dev-limit", type=int, default=None, help="dev answers per task (default: all)")
    ap.add_argument("--rows", type=Path, default=None, help="keep the per-answer signals here and reuse them")
    ap.add_argument("--also", type=Path, action="append", default=[], help="more row files (other shards) to merge")
    ap.add_argument("--shard", default="0/1", help="k/n: compute only the dev sources of shard k (by source hash)")
    args = ap.parse_args(argv)
    t0 = time.time()
    stored: dict[str, Any] = {}
    if args.rows and args.rows.exists():
        stored = json.loads(args.rows.read_text(encoding="utf-8"))
    k, n = (int(x) for x in args.shard.split("/"))
    key_train, key_dev = f"train:{args.fit}:{k}/{n}", f"dev:{args.dev_limit}:{k}/{n}"
    if key_train not in stored:
        train_examples = [ex for ex in _examples("train", args.fit) if _shard_of(ex, n) == k]
        stored[key_train] = _signals(train_examples, f"train {k}/{n}")
        if args.rows:
            args.rows.write_text(json.dumps(stored), encoding="utf-8")
    train_rows = list(stored[key_train])
    for other in args.also:
        more = json.loads(other.read_text(encoding="utf-8"))
        for key, rows in more.items():
            if key.startswith(f"train:{args.fit}:") and key != key_train:
                train_rows.extend(rows)
    chosen = fit(train_rows)
    if key_dev not in stored:

        def checkpoint(rows: list[dict[str, Any]]) -> None:
            if args.rows:
                partial = {**stored, key_dev + ":partial": rows}
                args.rows.write_text(json.dumps(partial), encoding="utf-8")

        dev_examples = [ex for ex in _examples("dev", args.dev_limit) if _shard_of(ex, n) == k]
        stored[key_dev] = _signals(dev_examples, f"dev {k}/{n}", checkpoint)
        if args.rows:
            args.rows.write_text(json.dumps(stored), encoding="utf-8")
    dev_rows = list(stored[key_dev])
    for other in args.also:
        more = json.loads(other.read_text(encoding="utf-8"))
        for key, rows in more.items():
            if key.startswith(f"dev:{args.dev_limit}:") and not key.endswith("partial") and key != key_dev:
                dev_rows.extend(rows)
    results = evaluate(dev_rows, chosen)
    print("response-level F1 on dev")
    print(_table(results))
    dev_auroc = aurocs(dev_rows)
    print("\nAUROC on dev")
    for name, res in dev_auroc.items():
        print(f"{name:38s} " + " ".join(f"{(v or 0.0):9.3f}" for v in res.values()))
    payload = {
        "machine": machine(),
        "train_answers": len(train_rows),
        "dev_answers": len(dev_rows),
        "dev_limit_per_task": args.dev_limit,
        "chosen_on_train": chosen,
        "dev": results,
        "dev_auroc": dev_auroc,
        "seconds": round(time.time() - t0, 1),
    }
    path = write_result("semantic", payload)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
