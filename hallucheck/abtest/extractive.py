"""An offline stand-in for an LLM that answers by copying source sentences (no language model).

Used by ``hallucheck abtest`` and ``hallucheck guard`` only when no LLM is configured and the
local model (extra ``local``) is not installed, so that the commands still run end to end from
a fresh clone. It reads the sources and the question back out of our own prompt templates, picks
the source sentences that share the most words with the question, and formats them the way
each strategy asks (citations, steps, JSON). Its answers are grounded by construction, so
comparing strategies with it measures the prompts' formats, not a model's behaviour: reports
name it as what it is.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from hallucheck.llm.base import Completion, Message
from hallucheck.prevent.abstention import not_found_message

__all__ = ["ExtractiveLLM", "EXTRACTIVE_NOTE"]

EXTRACTIVE_NOTE = (
    "offline extractive demo backend: no language model; it copies the source sentences that share "
    "the most words with the question, formatted as each strategy asks"
)

_KB = re.compile(r"^## (?:Knowledge base|Sources|知識庫內容)\s*$", re.M)
_Q = re.compile(r"^## (?:Question|使用者問題)\s*$", re.M)
_MARKER = re.compile(r"^(\[(?:來源 |source:)?([^\]\n]+)\])(?: [^\n]*)?$")


class ExtractiveLLM:
    """Speaks the LLMClient protocol; deterministic, instant, offline."""

    model = "extractive-demo"

    def __init__(self, sentences: int = 2) -> None:
        self.sentences = sentences

    def complete(self, messages: Sequence[Message | Mapping[str, Any]] | str, **settings: Any) -> Completion:
        t0 = time.perf_counter()
        prompt = messages if isinstance(messages, str) else "\n".join(
            m.content if isinstance(m, Message) else str(m.get("content", "")) for m in messages
        )
        text = self._answer(prompt)
        return Completion(
            text=text,
            model=self.model,
            prompt_tokens=_count(prompt),
            completion_tokens=_count(text),
            latency_ms=(time.perf_counter() - t0) * 1000.0,
        )

    async def acomplete(self, messages: Sequence[Message | Mapping[str, Any]] | str, **settings: Any) -> Completion:
        return self.complete(messages, **settings)

    # ---- reading our own prompts back --------------------------------------------------

    def _answer(self, prompt: str) -> str:
        chinese = "知識庫內容" in prompt or "使用者問題" in prompt
        if '{"questions"' in prompt:  # decomposition: keep the question whole
            return json.dumps({"questions": [_question(prompt)]}, ensure_ascii=False)
        if "⟦1⟧" in prompt:  # span rewrite: delete the unsupported passages
            return "{}"
        picked = self._pick(_sources(prompt), _question(prompt), "zh-Hant" if chinese else "en")
        cite = any(k in prompt for k in ("cite every statement", "請務必標注來源", "cite sources", "並標注來源", '"sources_used"'))
        lang = "zh-Hant" if chinese else _reply_language(prompt)
        if picked:
            sep = "" if chinese else " "
            body = sep.join(_with_marker(s, m, cite) for m, _, s in picked)
        else:
            body = not_found_message(lang)
        if '"sources_used"' in prompt:
            return json.dumps(
                {
                    "answer": body,
                    "confidence": "high" if picked else "low",
                    "sources_used": list(dict.fromkeys(i for _, i, _ in picked)),
                    "key_points": [s for _, _, s in picked],
                    "follow_up_suggestions": [],
                    "unable_to_answer": not picked,
                    "reason_if_unable": "" if picked else body,
                },
                ensure_ascii=False,
                indent=2,
            )
        if "Step 4: Final answer" in prompt or "步驟 4：最終回答" in prompt:
            head = "### 步驟 4：最終回答" if chinese else "### Step 4: Final answer"
            return f"{_steps(picked, chinese)}\n\n{head}\n{body}"
        if "Step 3: Corrected final answer" in prompt or "第三步：修正與最終答案" in prompt:
            head = "### 第三步：修正與最終答案" if chinese else "### Step 3: Corrected final answer"
            return f"{_steps(picked, chinese)}\n\n{head}\n{body}"
        return body

    def _pick(self, sources: list[tuple[str, str, str]], question: str, language: str) -> list[tuple[str, str, str]]:
        from hallucheck.text import split_sentences  # lazy: already loaded by this module's imports; kept where it is used

        wanted = _units(question, language)
        scored: list[tuple[float, int, tuple[str, str, str]]] = []
        order = 0
        for marker, sid, text in sources:
            for seg in split_sentences(text, language):
                words = _units(seg.text, language)
                overlap = len(words & wanted)
                if overlap:
                    scored.append((overlap / (len(words) ** 0.5 or 1.0), order, (marker, sid, seg.text.strip())))
                order += 1
        best = sorted(scored, key=lambda x: -x[0])[: self.sentences]
        return [item for _, _, item in sorted(best, key=lambda x: x[1])]


def _units(text: str, language: str) -> set[str]:
    """What overlap is counted in: CJK character bigrams for Chinese, content lemmas otherwise."""
    if language.startswith("zh"):
        chars = [ch for ch in text if "\u4e00" <= ch <= "\u9fff"]
        return {a + b for a, b in zip(chars, chars[1:])}
    from hallucheck.text import content_tokens, tokenize  # lazy: already loaded by this module's imports; kept where it is used

    return {t.norm for t in content_tokens(tokenize(text, language))}


def _sources(prompt: str) -> list[tuple[str, str, str]]:
    kb, q = _KB.search(prompt), _Q.search(prompt)
    if not kb:
        return []
    block = prompt[kb.end() : q.start() if q and q.start() > kb.end() else len(prompt)]
    out: list[tuple[str, str, str]] = []
    marker: tuple[str, str] | None = None
    lines: list[str] = []
    for line in block.splitlines() + [""]:
        m = _MARKER.match(line.strip())
        if m and marker is None:
            marker, lines = (m.group(1), m.group(2)), []
        elif marker is not None and not line.strip():
            if lines:
                out.append((marker[0], marker[1], " ".join(lines)))
                marker = None
        elif marker is not None:
            lines.append(line.strip())
    return out


def _question(prompt: str) -> str:
    q = _Q.search(prompt)
    if not q:
        return ""
    rest = prompt[q.end() :]
    end = rest.find("\n## ")
    return (rest if end == -1 else rest[:end]).strip()


def _reply_language(prompt: str) -> str:
    for name, code in (("German", "de"), ("French", "fr")):
        if f"in {name}" in prompt:
            return code
    return "en"


def _with_marker(sentence: str, marker: str, cite: bool) -> str:
    if not cite:
        return sentence
    m = re.search(r"[.!?。！？]+$", sentence)
    return f"{sentence[: m.start()]} {marker}{m.group()}" if m else f"{sentence} {marker}"


def _steps(picked: list[tuple[str, str, str]], chinese: bool) -> str:
    facts = "\n".join(f"- {s} {m}" for m, _, s in picked) or ("- （無）" if chinese else "- (none)")
    if chinese:
        return f"### 步驟 1：理解問題\n使用者想知道問題的答案。\n\n### 步驟 2：檢索相關資訊\n{facts}"
    return f"### Step 1: Understand the question\nThe user wants the answer to the question.\n\n### Step 2: Relevant information\n{facts}"


def _count(text: str) -> int:
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return len(text.split()) + cjk
