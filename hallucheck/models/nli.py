"""A user-supplied NLI cross-encoder (premise, hypothesis) -> entailment / neutral / contradiction.

No NLI model ships with hallucheck (the good ones are large and licensed separately). Users who
have one point ``model_path`` at a local directory holding either

- an ONNX export: ``model.onnx`` (or ``onnx/model.onnx``) + ``tokenizer.json`` + ``config.json``;
  runs with onnxruntime + tokenizers only, or
- a Hugging Face checkpoint (``config.json`` + weights + tokenizer files); runs with transformers
  and torch, only if those are installed.

The label order is read from ``config.json`` (``id2label``), because NLI checkpoints disagree on it
(MNLI-style models use contradiction/neutral/entailment, others entailment/neutral/contradiction,
two-class models entailment/not_entailment). Nothing is ever downloaded.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Literal

import numpy as np

from hallucheck.errors import InputError

__all__ = ["NLIModel", "NLIModelError", "get_nli_model", "read_label_order", "LABELS"]

LABELS: tuple[str, str, str] = ("entailment", "neutral", "contradiction")
_LOCK = threading.Lock()
_CACHE: dict[str, NLIModel] = {}


class NLIModelError(InputError):
    """The NLI model path is missing, incomplete, or its labels cannot be understood."""


def _canonical(label: str) -> str | None:
    low = label.strip().lower().replace("-", "_")
    if low.startswith("contra"):
        return "contradiction"
    if low.startswith("not_entail") or low.startswith("non_entail") or low == "not entailment":
        return "neutral"  # two-class models: "not entailed" counts as neutral
    if low.startswith("entail"):
        return "entailment"
    if low.startswith("neutral"):
        return "neutral"
    return None


def read_label_order(config_path: Path) -> list[str]:
    """Canonical label of each output index, from ``config.json``'s ``id2label``."""
    try:
        cfg = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise NLIModelError(f"cannot read {config_path}: {exc}") from exc
    id2label = cfg.get("id2label")
    if not isinstance(id2label, dict) or not id2label:
        raise NLIModelError(f"{config_path} has no id2label: cannot tell which output is contradiction")
    order: list[str] = []
    for i in range(len(id2label)):
        raw = id2label.get(str(i), id2label.get(i))
        canon = _canonical(str(raw)) if raw is not None else None
        if canon is None:
            raise NLIModelError(
                f"{config_path}: label {raw!r} (index {i}) is not an NLI label "
                "(expected entailment / neutral / contradiction)"
            )
        order.append(canon)
    if "entailment" not in order:
        raise NLIModelError(f"{config_path}: no entailment label in id2label {id2label}")
    return order


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


class NLIModel:
    """A loaded cross-encoder. ``predict(pairs)`` -> probabilities in :data:`LABELS` order."""

    def __init__(
        self,
        model_path: str | Path,
        backend: Literal["auto", "onnx", "transformers"] = "auto",
        max_length: int = 256,
        threads: int | None = None,
    ) -> None:
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise NLIModelError(f"NLI model path {str(path)!r} is not a directory")
        cfg = path / "config.json"
        if not cfg.is_file():
            raise NLIModelError(f"NLI model path {str(path)!r} has no config.json")
        self.path = path
        self.order = read_label_order(cfg)
        self.max_length = max_length
        self.threads = threads or max(1, int(os.environ.get("HALLUCHECK_THREADS", "2") or 2))
        onnx = next((p for p in (path / "model.onnx", path / "onnx" / "model.onnx") if p.is_file()), None)
        if backend == "auto":
            backend = "onnx" if onnx is not None else "transformers"
        self.backend = backend
        if backend == "onnx":
            if onnx is None:
                raise NLIModelError(f"no model.onnx in {str(path)!r}")
            self._load_onnx(onnx)
        elif backend == "transformers":
            self._load_transformers()
        else:
            raise NLIModelError(f"unknown NLI backend {backend!r} (auto, onnx, transformers)")

    def _load_onnx(self, onnx: Path) -> None:
        from tokenizers import Tokenizer  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

        from hallucheck.models.runtime import inference_session  # lazy: loaded only on this path
        from hallucheck.models.shared_tensors import SharedTensorError, load_shared  # lazy: loaded only on this path

        tok = self.path / "tokenizer.json"
        if not tok.is_file():
            raise NLIModelError(f"no tokenizer.json in {str(self.path)!r} (needed with an ONNX model)")
        try:
            # weights stored once with another shipped model (the pair model's frozen lower layers)
            shared = load_shared(json.loads((self.path / "config.json").read_text(encoding="utf-8")))
        except SharedTensorError as exc:
            raise NLIModelError(f"NLI model {str(self.path)!r}: {exc}") from exc
        self._session = inference_session(onnx, threads=self.threads, optimize=False, initializers=shared)
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(tok))
        self._tokenizer.enable_truncation(self.max_length)
        pad = self._tokenizer.token_to_id("[PAD]")
        self._tokenizer.enable_padding(pad_id=pad if pad is not None else 0)

    def _load_transformers(self) -> None:
        try:
            import torch  # lazy: optional extra (train)
            from transformers import AutoModelForSequenceClassification, AutoTokenizer  # lazy: optional extra (train)
        except ImportError as exc:
            raise NLIModelError(
                f"{str(self.path)!r} is not an ONNX export and transformers/torch are not installed; "
                "export the model to ONNX (model.onnx + tokenizer.json) or install the train extra"
            ) from exc
        torch.set_num_threads(self.threads)
        self._torch = torch
        self._hf_tok = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
        self._hf_model = AutoModelForSequenceClassification.from_pretrained(str(self.path), local_files_only=True).eval()

    def _logits(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        if self.backend == "onnx":
            encs = self._tokenizer.encode_batch([(p, h) for p, h in pairs])
            feeds: dict[str, np.ndarray] = {}
            ids = np.array([e.ids for e in encs], dtype=np.int64)
            if "input_ids" in self._inputs:
                feeds["input_ids"] = ids
            if "attention_mask" in self._inputs:
                feeds["attention_mask"] = np.array([e.attention_mask for e in encs], dtype=np.int64)
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.array([e.type_ids for e in encs], dtype=np.int64)
            return np.asarray(self._session.run(None, feeds)[0], dtype=np.float32)
        torch = self._torch
        batch = self._hf_tok(
            [p for p, _ in pairs], [h for _, h in pairs], truncation=True, max_length=self.max_length,
            padding=True, return_tensors="pt",
        )
        with torch.no_grad():
            return self._hf_model(**batch).logits.float().numpy()  # type: ignore[no-any-return]

    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 16) -> np.ndarray:
        """(n, 3) probabilities of entailment, neutral, contradiction for (premise, hypothesis) pairs."""
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        for a in range(0, len(pairs), batch_size):
            chunk = pairs[a : a + batch_size]
            logits = self._logits(chunk)
            if logits.shape[-1] != len(self.order):
                raise NLIModelError(
                    f"model returns {logits.shape[-1]} scores but config.json names {len(self.order)} labels"
                )
            probs = _softmax(logits)
            for k, label in enumerate(self.order):
                out[a : a + len(chunk), LABELS.index(label)] += probs[:, k]
        return out


def get_nli_model(model_path: str | Path, backend: Literal["auto", "onnx", "transformers"] = "auto", max_length: int = 256) -> NLIModel:
    """One loaded model per (path, backend) per process."""
    key = f"{Path(model_path).expanduser().resolve()}|{backend}|{max_length}"
    m = _CACHE.get(key)
    if m is None:
        with _LOCK:
            m = _CACHE.get(key)
            if m is None:
                m = NLIModel(model_path, backend, max_length)
                _CACHE[key] = m
    return m
