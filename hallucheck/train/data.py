"""RAGTruth records -> tagger windows (word pieces, features, token labels), cached per run.

Every answer of the ``train`` part is used; every window holding an unsupported token is kept,
and a seeded fraction of the all-clean windows (``negative_keep``) — the compute budget of a
2-core machine does not allow all of them, and the token probabilities are recalibrated on the
``calib`` part by the learned policy anyway.
"""

from __future__ import annotations

import gzip
import json
import pickle
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.eval.split import part_of
from hallucheck.models.tagger_evidence import source_view
from hallucheck.models.tagger_features import EncoderSettings, encode_answer

__all__ = ["Example", "read_records", "record_windows", "build_examples", "load_or_build", "load_tokenizer"]


@dataclass
class Example:
    input_ids: np.ndarray  # int32 [L]
    type_ids: np.ndarray  # int8 [L]
    features: np.ndarray  # uint8 [L, F] (all features are 0/1)
    labels: np.ndarray  # int8 [n_target] for input positions 1..n_target
    record: int  # index of the answer in the data file


def read_records(path: str | Path, part: str | None = None, limit: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        n = 0
        for i, line in enumerate(fh):
            if not line.strip():
                continue
            rec = json.loads(line)
            if part is not None and part_of(rec) != part:
                continue
            yield i, rec
            n += 1
            if limit and n >= limit:
                return


def load_tokenizer(model_dir: str) -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def record_windows(rec: dict[str, Any], tokenizer: Any, settings: EncoderSettings, with_labels: bool = True) -> list[Any]:
    """Windows of one RAGTruth record (English; the context is a single text)."""
    context = rec["context"] if isinstance(rec["context"], str) else json.dumps(rec["context"])
    view = source_view((context,), "en", tokenizer)
    spans = [(int(lab["start"]), int(lab["end"])) for lab in rec.get("labels") or []] if with_labels else None
    return encode_answer(rec["output"], str(rec.get("query") or ""), view, tokenizer, "en", settings, spans=spans)


def _to_example(w: Any, idx: int) -> Example:
    return Example(
        np.asarray(w.input_ids, dtype=np.int32),
        np.asarray(w.type_ids, dtype=np.int8),
        np.asarray(w.features, dtype=np.uint8),
        np.asarray(w.labels, dtype=np.int8),
        idx,
    )


def build_examples(
    path: str | Path,
    part: str,
    tokenizer: Any,
    settings: EncoderSettings,
    negative_keep: float = 1.0,
    seed: int = 0,
    limit: int = 0,
    log: Any = None,
) -> list[Example]:
    rng = random.Random(seed)
    out: list[Example] = []
    n = 0
    for idx, rec in read_records(path, part, limit):
        for w in record_windows(rec, tokenizer, settings):
            if not any(w.labels) and rng.random() >= negative_keep:
                continue
            out.append(_to_example(w, idx))
        n += 1
        if log is not None and n % 1000 == 0:
            log(f"prepared {n} answers, {len(out)} windows")
    return out


def load_or_build(cache: Path, *args: Any, **kwargs: Any) -> list[Example]:
    """Examples from ``cache`` if present, else built and written there (atomically)."""
    if cache.exists():
        with open(cache, "rb") as fh:
            return pickle.load(fh)  # type: ignore[no-any-return]
    examples = build_examples(*args, **kwargs)
    tmp = cache.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        pickle.dump(examples, fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(cache)
    return examples
