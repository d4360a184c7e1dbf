"""The span tagger at run time: ONNX Runtime + tokenizers, no torch.

The model files ship in ``hallucheck/models/tagger/`` (``model.onnx``, ``tokenizer.json``,
``config.json``, ``MODEL_CARD.md``); ``hallucheck train ... --export`` rebuilds them. A second
tagger, trained on more languages, ships in ``hallucheck/models/tagger_multilingual/``; its
config lists the languages it reads (``languages``), and :func:`tagger_dir_for` sends an answer in
one of them to it: each language group's policy was fitted on the features of the tagger that
language gets. The session
is created lazily, once per process and model directory, with two intra-op threads (or
``HALLUCHECK_THREADS``). Inputs are built by :mod:`hallucheck.models.tagger_features`, the same
code that built the training data, so the model sees at run time exactly what it learned from.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.errors import HallucheckError
from hallucheck.models.tagger_evidence import SourceView, source_view
from hallucheck.models.tagger_features import EncoderSettings, Window, encode_answer_windows
from hallucheck.text import Segment
from hallucheck.text.language import same_language
from hallucheck.text.tokens import Token

__all__ = [
    "MULTILINGUAL_TAGGER_DIR", "TAGGER_DIR", "TaggerUnavailable", "Tagger", "TaggedAnswer", "get_tagger",
    "tagger_available", "tagger_dir_for",
]

TAGGER_DIR = Path(__file__).resolve().parent / "tagger"
MULTILINGUAL_TAGGER_DIR = Path(__file__).resolve().parent / "tagger_multilingual"
_LOCK = threading.Lock()
_CACHE: dict[str, Tagger] = {}
# Windows run between two looks at the deadline: a few seconds of work at most on a loaded
# 2-core machine, so a check stops soon after its time is up.
_STOP_BATCH = 4


class TaggerUnavailable(HallucheckError, RuntimeError):
    """The tagger's model files are missing or unreadable."""


@dataclass
class TaggedAnswer:
    """Token probabilities of one answer, merged over windows.

    ``offsets[i]`` are answer character offsets of word piece i, ``sentences[i]`` its answer
    sentence index, ``probs[i]`` P(unsupported). ``windows`` are the model inputs (for evidence).
    ``conflict[i]`` is, for a typed tagger, the share of piece i's unsupported probability that is
    conflict (P(conflict) / P(unsupported)); ``None`` for a binary tagger.
    """

    offsets: list[tuple[int, int]]
    sentences: list[int]
    probs: np.ndarray
    windows: list[Window]
    window_probs: list[np.ndarray]
    view: SourceView
    conflict: np.ndarray | None = None
    stopped: bool = False  # the check's deadline passed before every window was read


def tagger_available(model_dir: str | Path | None = None) -> bool:
    d = Path(model_dir) if model_dir else TAGGER_DIR
    return (d / "model.onnx").is_file() and (d / "tokenizer.json").is_file() and (d / "config.json").is_file()


@functools.lru_cache(maxsize=8)
def _languages_of(model_dir: Path) -> frozenset[str]:
    if not tagger_available(model_dir):
        return frozenset()
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    return frozenset(config.get("languages", ()))


def tagger_dir_for(language: str, source_language: str | None = None) -> Path:
    """The shipped tagger an answer in ``language`` over sources in ``source_language`` is read
    by: the multilingual one when either language is one its config lists, else the
    English-trained default.

    An English answer over Chinese, German or French sources goes to the multilingual tagger too:
    the English one reads most Chinese source text as ``[UNK]``, and on the calib part of the
    rule-made English answers over such sources it flagged 31 of 38 faithful ones, against 13 of
    38 with the multilingual tagger, which found about as many of the unfaithful ones (22 of 34,
    26 with the English tagger). No RAGTruth answer is over sources in another language, so the
    English stack's fit is unaffected."""
    readable = _languages_of(MULTILINGUAL_TAGGER_DIR)
    if language in readable or (source_language in readable and not same_language(source_language or "", language)):
        return MULTILINGUAL_TAGGER_DIR
    return TAGGER_DIR


def _threads() -> int:
    try:
        return max(1, int(os.environ.get("HALLUCHECK_THREADS", "2")))
    except ValueError:
        return 2


class Tagger:
    """One loaded tagger (session, tokenizer, settings); thread-safe for inference."""

    def __init__(self, model_dir: str | Path | None = None, threads: int | None = None) -> None:
        d = Path(model_dir) if model_dir else TAGGER_DIR
        if not tagger_available(d):
            raise TaggerUnavailable(
                f"span tagger files missing in {d} (model.onnx, tokenizer.json, config.json); "
                "train and export one with: hallucheck train --export"
            )
        from tokenizers import Tokenizer  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

        from hallucheck.models.runtime import inference_session  # lazy: loaded only on this path
        from hallucheck.models.shared_tensors import SharedTensorError, load_shared  # lazy: loaded only on this path

        self.model_dir = d
        self.config: dict[str, Any] = json.loads((d / "config.json").read_text(encoding="utf-8"))
        names = tuple(self.config.get("feature_names", ()))
        try:  # EncoderSettings refuses names this version does not compute
            if not names:
                raise ValueError("its config names no features")
            self.settings = EncoderSettings(**self.config["encoder"], features=names)
        except ValueError as exc:
            raise TaggerUnavailable(f"tagger in {d} was trained with other features than this version computes: {exc}") from exc
        self.threshold = float(self.config.get("threshold", 0.5))
        # one per task where the fit chose them (QA marks best lower, Summary higher)
        self.threshold_by_task: dict[str, float] = {
            str(k): float(v) for k, v in (self.config.get("threshold_by_task") or {}).items()}
        self.token_types: tuple[str, ...] = tuple(self.config.get("token_types", ("supported", "unsupported")))
        try:
            shared = load_shared(self.config)
        except SharedTensorError as exc:
            raise TaggerUnavailable(f"span tagger in {d}: {exc}") from exc
        self.session = inference_session(d / "model.onnx", threads=threads or _threads(), initializers=shared)
        self.typed = "conflict" in self.token_types and any(o.name == "type_probs" for o in self.session.get_outputs())
        self.tokenizer = Tokenizer.from_file(str(d / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()

    def view(self, contexts: tuple[str, ...], language: str) -> SourceView:
        return source_view(contexts, language, self.tokenizer)

    def run(self, windows: list[Window], batch_size: int = 16) -> list[np.ndarray]:
        """P(unsupported) of the answer word pieces of each window (batched, padded per batch)."""
        return self.run_typed(windows, batch_size)[0]

    def run_typed(
        self, windows: list[Window], batch_size: int = 16
    ) -> tuple[list[np.ndarray], list[np.ndarray] | None]:
        """P(unsupported) per answer word piece and, for a typed tagger, the conflict share of it."""
        out: list[np.ndarray] = [np.zeros(0, dtype=np.float32)] * len(windows)
        conflict: list[np.ndarray] | None = [np.zeros(0, dtype=np.float32)] * len(windows) if self.typed else None
        k_conflict = self.token_types.index("conflict") if self.typed else 0
        outputs = ["probs", "type_probs"] if self.typed else ["probs"]
        order = sorted(range(len(windows)), key=lambda i: len(windows[i].input_ids))
        n_feat = len(self.settings.features)
        for a in range(0, len(order), batch_size):
            idx = order[a : a + batch_size]
            length = max(len(windows[i].input_ids) for i in idx)
            ids = np.zeros((len(idx), length), dtype=np.int64)
            mask = np.zeros_like(ids)
            types = np.zeros_like(ids)
            feats = np.zeros((len(idx), length, n_feat), dtype=np.float32)
            for r, i in enumerate(idx):
                w = windows[i]
                k = len(w.input_ids)
                ids[r, :k] = w.input_ids
                mask[r, :k] = 1
                types[r, :k] = w.type_ids
                feats[r, :k] = w.features
            res = self.session.run(
                outputs, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types, "features": feats}
            )
            probs = res[0]
            for r, i in enumerate(idx):
                n = len(windows[i].target_offsets)
                out[i] = np.asarray(probs[r, 1 : 1 + n], dtype=np.float32)
                if conflict is not None:
                    unsup = np.maximum(out[i], 1e-6)
                    conflict[i] = np.clip(np.asarray(res[1][r, 1 : 1 + n, k_conflict], dtype=np.float32) / unsup, 0.0, 1.0)
        return out, conflict

    def threshold_for(self, task: str | None) -> float:
        """The token threshold of the report's spans for an answer of ``task``: the fit's choice for
        that task when it made one, else the one threshold."""
        return self.threshold_by_task.get(task or "", self.threshold)

    def tag(
        self,
        answer: str,
        question: str,
        contexts: tuple[str, ...],
        language: str,
        sentences: list[Segment] | None = None,
        tokens: list[Token] | None = None,
        max_windows: int | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> tuple[TaggedAnswer, int]:
        """Token probabilities for ``answer``; returns (result, windows not read: beyond
        ``max_windows``, or left when ``stop`` said the time was up).

        With ``stop`` the windows run in answer order, a few at a time, and ``stop`` is asked
        before each few: what was read is then a prefix of the answer (``TaggedAnswer.stopped``
        says the time ran out).
        """
        view = self.view(contexts, language)
        windows, skipped = encode_answer_windows(answer, question, view, self.tokenizer, language, self.settings,
                                                 sentences, tokens, max_windows=max_windows, stop=stop)
        stopped = stop is not None and stop()
        if stop is None:
            wprobs, wconflict = self.run_typed(windows)
        else:
            wprobs, wconflict = [], [] if self.typed else None
            for a in range(0, len(windows), _STOP_BATCH):
                if stop():
                    stopped = True
                    break
                probs, conflict = self.run_typed(windows[a : a + _STOP_BATCH], _STOP_BATCH)
                wprobs.extend(probs)
                if wconflict is not None and conflict is not None:
                    wconflict.extend(conflict)
            skipped += len(windows) - len(wprobs)
            windows = windows[: len(wprobs)]
        merged: dict[tuple[int, int], tuple[float, int, float]] = {}
        for k, (w, p) in enumerate(zip(windows, wprobs)):
            c = wconflict[k] if wconflict is not None else np.zeros(len(p), dtype=np.float32)
            for off, s, pr, cr in zip(w.target_offsets, w.sentences, p, c):
                old = merged.get(off)
                # a piece seen by two overlapping windows keeps the larger probability (and its type)
                if old is None or pr > old[0]:
                    merged[off] = (float(pr), s, float(cr))
        keys = sorted(merged)
        return (
            TaggedAnswer(
                keys,
                [merged[k][1] for k in keys],
                np.array([merged[k][0] for k in keys], dtype=np.float32),
                windows,
                wprobs,
                view,
                np.array([merged[k][2] for k in keys], dtype=np.float32) if wconflict is not None else None,
                stopped,
            ),
            skipped,
        )


def get_tagger(model_dir: str | Path | None = None, threads: int | None = None) -> Tagger:
    """The process-wide tagger for ``model_dir`` (default: the shipped one), loaded on first use."""
    d = Path(model_dir) if model_dir else TAGGER_DIR
    onnx = d / "model.onnx"
    stat = onnx.stat() if onnx.is_file() else None
    key = f"{d.resolve()}|{threads}|{stat.st_mtime_ns if stat else 0}"
    t = _CACHE.get(key)
    if t is None:
        with _LOCK:
            t = _CACHE.get(key)
            if t is None:
                t = Tagger(d, threads)
                _CACHE[key] = t
    return t
