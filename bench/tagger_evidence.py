"""How much of the sources the span tagger reads, per task, at several window lengths (no model run).

The tagger can only judge a word against the evidence packed into its window. This measures, on
RAGTruth answers of one part of the project's split, for each window length (``max_len`` word
pieces):

- ``units_read``: the share of source units (sentences / record lines) shown in at least one window;
- ``support_recall``: of the content words of the answer outside labelled hallucinations, the
  share whose lemma occurs in the evidence of their own window (a supported word whose support
  the model never sees looks unsupported to it);
- ``halluc_in_evidence``: the same share for content words inside labelled hallucinations (a
  lower value means the evidence does not make hallucinated words look supported);
- ``pieces_per_answer``: word pieces fed to the encoder per answer (its cost grows with this).

Usage::

    python bench/tagger_evidence.py --part calib --every 3 --max-len 160 224 288
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hallucheck.models.tagger_evidence import source_view
from hallucheck.models.tagger_features import EncoderSettings, encode_answer
from hallucheck.text import tokenize
from hallucheck.train.data import load_tokenizer, read_records

DATA = "../shared/data/ragtruth/train.jsonl.gz"


def measure(records: list[dict], tokenizer: object, settings: EncoderSettings) -> dict[str, dict[str, float]]:
    acc: dict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    for rec in records:
        task = rec["task_type"]
        context = rec["context"] if isinstance(rec["context"], str) else json.dumps(rec["context"])
        view = source_view((context,), "en", tokenizer)
        answer = rec["output"]
        windows = encode_answer(answer, str(rec.get("query") or ""), view, tokenizer, "en", settings)
        spans = [(int(lab["start"]), int(lab["end"])) for lab in rec.get("labels") or []]
        toks = [t for t in tokenize(answer, "en") if not t.is_punct and not t.is_stop]
        read = {u for w in windows for u in w.units}
        for key in (task, "all"):
            a = acc[key]
            a["answers"] += 1
            a["units_read"] += len(read) / max(len(view.units), 1)
            a["pieces"] += sum(len(w.input_ids) for w in windows)
        for w in windows:
            ev = set().union(*(view.units[u].norms for u in w.units)) if w.units else set()
            lo = min((s for s, _ in w.target_offsets), default=0)
            hi = max((e for _, e in w.target_offsets), default=0)
            for t in toks:
                if not (lo <= t.start < hi):
                    continue
                bad = any(s < t.end and t.start < e for s, e in spans)
                for key in (task, "all"):
                    a = acc[key]
                    a["halluc_words" if bad else "ok_words"] += 1
                    if t.norm in ev:
                        a["halluc_seen" if bad else "ok_seen"] += 1
    out: dict[str, dict[str, float]] = {}
    for key, a in acc.items():
        out[key] = {
            "answers": int(a["answers"]),
            "units_read": round(a["units_read"] / max(a["answers"], 1), 4),
            "support_recall": round(a["ok_seen"] / max(a["ok_words"], 1), 4),
            "halluc_in_evidence": round(a["halluc_seen"] / max(a["halluc_words"], 1), 4),
            "pieces_per_answer": round(a["pieces"] / max(a["answers"], 1), 1),
        }
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default=DATA)
    p.add_argument("--part", default="calib", choices=["train", "calib"])
    p.add_argument("--every", type=int, default=3, help="every n-th answer of the part (all tasks, in file order)")
    p.add_argument("--max-len", type=int, nargs="+", default=[160, 224, 288])
    p.add_argument("--out", default=None, help="write the results as JSON here")
    a = p.parse_args()
    from hallucheck.train.config import base_model_dir

    tokenizer = load_tokenizer(base_model_dir())
    records = [r for i, (_, r) in enumerate(read_records(a.data, a.part)) if i % a.every == 0]
    results = {}
    for n in a.max_len:
        settings = EncoderSettings(max_len=n, max_target=56, target_stride=40, max_question=20, max_prev=24,
                                   max_unit_tokens=64)
        results[n] = measure(records, tokenizer, settings)
        for task, m in sorted(results[n].items()):
            print(f"max_len {n:4d} {task:9s} " + " ".join(f"{k} {v}" for k, v in m.items()), flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
