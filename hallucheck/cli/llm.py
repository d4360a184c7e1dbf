"""``hallucheck llm-check``: try the configured LLM backend once and show what it answered.

Why: the first thing to find out when the judge misbehaves is whether the backend is reachable,
which model answers, how fast, and whether its JSON can be used. One small call, printed as JSON.
"""

from __future__ import annotations

from typing import Any

import typer

from hallucheck.cli.root import app

__all__ = ["llm_check", "llm_from_flags", "LLM_BACKEND_OPTION", "LLM_BASE_URL_OPTION", "LLM_MODEL_OPTION",
           "LLM_MAX_CALLS_OPTION"]

# Options for any command that checks with an LLM (detect, eval, serve): declared once here.
LLM_BACKEND_OPTION: Any = typer.Option(None, "--llm-backend", help="openai | anthropic | local (default: HALLUCHECK_LLM_BACKEND)")
LLM_BASE_URL_OPTION: Any = typer.Option(None, "--llm-base-url", help="API root, e.g. http://localhost:11434/v1")
LLM_MODEL_OPTION: Any = typer.Option(None, "--llm-model", help="model name (local: path of a .gguf file)")
LLM_MAX_CALLS_OPTION: Any = typer.Option(None, "--llm-max-calls", min=0, help="LLM call budget per case (default: unlimited)")


def llm_from_flags(backend: str | None, base_url: str | None, model: str | None, **settings: Any) -> Any:
    """The client the flags (over HALLUCHECK_LLM_* variables) configure, or None: then the LLM
    detectors are skipped and nothing is called."""
    from hallucheck.llm.config import build_client  # lazy: start-up: the CLI imports a command's code only when it runs

    return build_client(backend, base_url=base_url, model=model, **settings)

_PROMPT = 'Reply with exactly this JSON object and nothing else: {"hallucination_risk": 0.0, "claims": []}'


@app.command("llm-check")
def llm_check(
    llm_backend: str | None = LLM_BACKEND_OPTION,
    llm_base_url: str | None = LLM_BASE_URL_OPTION,
    llm_model: str | None = LLM_MODEL_OPTION,
    max_tokens: int = typer.Option(64, "--max-tokens", min=1, help="completion tokens for the test call"),
) -> None:
    """Send one small judge-shaped request to the configured LLM and report latency, tokens and
    whether the reply parses as the judge's JSON."""
    import json  # lazy: already loaded by the package; kept where it is used
    import time  # lazy: already loaded by the package; kept where it is used

    from hallucheck.cli.errors import EXIT_FAILED, fail  # lazy: already loaded by the package; kept where it is used
    from hallucheck.detectors.llm.schemas import JudgeOutput  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.llm.base import LLMError  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.llm.structured import parse_structured  # lazy: start-up: the CLI imports a command's code only when it runs

    client = llm_from_flags(llm_backend, llm_base_url, llm_model, cache="off")
    if client is None:
        raise InputError("no LLM configured: set HALLUCHECK_LLM_BASE_URL and HALLUCHECK_LLM_MODEL, "
                         "HALLUCHECK_LLM_BACKEND=local, or pass --llm-backend/--llm-base-url/--llm-model (see docs/llm.md)")
    t0 = time.perf_counter()
    try:
        out = client.complete(_PROMPT, max_tokens=max_tokens, temperature=0.0)
    except LLMError as exc:
        fail(f"the LLM backend failed: {exc}", EXIT_FAILED)
    parsed = parse_structured(out.text, JudgeOutput)
    report = {
        "backend": getattr(client, "backend", "?"),
        "model": out.model,
        "seconds": round(time.perf_counter() - t0, 3),
        "prompt_tokens": out.prompt_tokens,
        "completion_tokens": out.completion_tokens,
        "reply": out.text[:500],
        "json_usable": parsed.ok,
        "json_repaired": parsed.repaired,
        "json_error": parsed.error,
    }
    typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
