"""Labelled records -> tagger windows (word pieces, features, typed token labels), cached per run.

Every answer of the ``train`` part is used; every window holding an unsupported token is kept,
and a seeded fraction of the all-clean windows (``negative_keep``) — the compute budget of a
2-core machine does not allow all of them, and the token probabilities are recalibrated on the
``calib`` part by the learned policy anyway.

Token labels are type indices (``TOKEN_TYPES``: supported / conflict / baseless). RAGTruth's
"Evident/Subtle Conflict" become conflict and "Evident/Subtle Baseless Info" baseless. Extra
data files (``TrainConfig.extra_data``) are in the generic evaluation format (``question,
contexts, answer, spans`` with ``label`` per span, ``language``, ``part``): the multilingual
labelled set and the contradiction edits; only their ``train`` part is read.
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

from hallucheck.eval.split import part_of, source_fold, source_key
from hallucheck.models.tagger_evidence import source_view
from hallucheck.models.tagger_features import TOKEN_TYPES, EncoderSettings, LabelSpan, encode_answer

__all__ = [
    "Example",
    "read_records",
    "record_windows",
    "generic_windows",
    "to_example",
    "label_type_index",
    "build_examples",
    "load_or_build",
    "load_tokenizer",
]

# RAGTruth label types and the span labels of the generic format, by token type
_CONFLICT_NAMES = {"evident conflict", "subtle conflict", "conflict", "contradiction"}


def label_type_index(name: str | None) -> int:
    """Token type index of a span label: conflicts and contradictions -> conflict, anything else -> baseless."""
    if name and name.strip().lower() in _CONFLICT_NAMES:
        return TOKEN_TYPES.index("conflict")
    return TOKEN_TYPES.index("baseless")


@dataclass
class Example:
    input_ids: np.ndarray  # int32 [L]
    type_ids: np.ndarray  # int8 [L]
    features: np.ndarray  # uint8 [L, F] (all features are 0/1)
    labels: np.ndarray  # int8 [n_target] for input positions 1..n_target
    record: int  # index of the answer in the data file


def _in_fold(key: str | None, skip_fold: tuple[int, int] | None) -> bool:
    """Whether a record of source ``key`` is left out by ``skip_fold`` ([k, n]: fold k of n)."""
    if skip_fold is None or key is None:
        return False
    return source_fold(key, skip_fold[1]) == skip_fold[0]


def read_records(
    path: str | Path, part: str | None = None, limit: int = 0, skip_fold: tuple[int, int] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        n = 0
        for i, line in enumerate(fh):
            if not line.strip():
                continue
            rec = json.loads(line)
            if part is not None and part_of(rec) != part:
                continue
            if skip_fold is not None and _in_fold(source_key(rec), skip_fold):
                continue
            yield i, rec
            n += 1
            if limit and n >= limit:
                return


def load_tokenizer(model_dir: str) -> Any:
    from tokenizers import Tokenizer  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

    tok = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def record_windows(rec: dict[str, Any], tokenizer: Any, settings: EncoderSettings, with_labels: bool = True) -> list[Any]:
    """Windows of one RAGTruth record (English; the context is a single text)."""
    context = rec["context"] if isinstance(rec["context"], str) else json.dumps(rec["context"])
    view = source_view((context,), "en", tokenizer)
    spans: list[LabelSpan] | None = None
    if with_labels:
        spans = [
            (int(lab["start"]), int(lab["end"]), label_type_index(lab.get("label_type")))
            for lab in rec.get("labels") or []
        ]
    return encode_answer(rec["output"], str(rec.get("query") or ""), view, tokenizer, "en", settings, spans=spans)


def generic_windows(rec: dict[str, Any], tokenizer: Any, settings: EncoderSettings) -> list[Any]:
    """Windows of one generic-format record (any language; contexts are strings or ``{id, text}``)."""
    contexts = tuple(c["text"] if isinstance(c, dict) else str(c) for c in rec.get("contexts") or [])
    language = str(rec.get("language") or "en")
    view = source_view(contexts, language, tokenizer)
    spans: list[LabelSpan] = [
        (int(sp["start"]), int(sp["end"]), label_type_index(sp.get("label")))
        for sp in rec.get("spans") or []
    ]
    return encode_answer(rec["answer"], str(rec.get("question") or ""), view, tokenizer, language, settings, spans=spans)


def _read_generic(
    path: str | Path, part: str, limit: int = 0, skip_fold: tuple[int, int] | None = None
) -> Iterator[dict[str, Any]]:
    opener = gzip.open if str(path).endswith(".gz") else open
    n = 0
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec.get("part", "train") != part:
                continue
            # an edit of a RAGTruth answer names its source: it is left out with that source
            if _in_fold((rec.get("metadata") or {}).get("source_key"), skip_fold):
                continue
            yield rec
            n += 1
            if limit and n >= limit:
                return


def to_example(w: Any, idx: int) -> Example:
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
    extra: tuple[str, ...] = (),
    skip_fold: tuple[int, int] | None = None,
) -> list[Example]:
    """Windows of the ``part`` answers of ``path`` (RAGTruth) and of each ``extra`` file (generic).

    Records of extra files get indices from 10**7 * (file number) on, so per-answer metrics
    never mix an extra record with a RAGTruth one. ``skip_fold`` ``(k, n)`` leaves out the
    sources in fold k of n (:func:`hallucheck.eval.split.source_fold`).
    """
    rng = random.Random(seed)
    out: list[Example] = []
    n = 0
    for idx, rec in read_records(path, part, limit, skip_fold):
        for w in record_windows(rec, tokenizer, settings):
            if not any(w.labels) and rng.random() >= negative_keep:
                continue
            out.append(to_example(w, idx))
        n += 1
        if log is not None and n % 1000 == 0:
            log(f"prepared {n} answers, {len(out)} windows")
    for k, extra_path in enumerate(extra, start=1):
        for j, rec in enumerate(_read_generic(extra_path, part, limit, skip_fold)):
            for w in generic_windows(rec, tokenizer, settings):
                if not any(w.labels) and rng.random() >= negative_keep:
                    continue
                out.append(to_example(w, k * 10**7 + j))
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
