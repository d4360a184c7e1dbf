"""The structured-output strategy's answer (RAG prompting guide) as a pydantic model, parsed tolerantly.

Models wrap JSON in prose or code fences, write ``"High"`` or ``"高"`` for the confidence, cite
``[1]`` or ``"來源 2"`` in ``sources_used`` and sometimes leave fields out. A strict parse would
throw most real answers away, so the model accepts those variants and normalises them; only an
output without a JSON object that has an ``answer`` is rejected.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from hallucheck.errors import HallucheckError

__all__ = ["StructuredAnswer", "StructuredAnswerError", "load_json", "parse_structured_answer"]

Confidence = Literal["high", "medium", "low"]

_CONFIDENCE = {
    "high": "high", "h": "high", "高": "high", "hoch": "high", "élevée": "high", "elevee": "high", "haute": "high",
    "medium": "medium", "med": "medium", "mid": "medium", "moderate": "medium", "m": "medium", "中": "medium",
    "中等": "medium", "mittel": "medium", "moyenne": "medium",
    "low": "low", "l": "low", "低": "low", "niedrig": "low", "faible": "low", "basse": "low",
}
_ID_PREFIX = re.compile(r"^\s*[\[【(（]?\s*(?:sources?|source:|doc(?:ument)?|來源|来源|文件|quelle)?\s*[:#：]?\s*", re.I)


class StructuredAnswerError(HallucheckError, ValueError):
    """The output held no usable structured answer."""


class StructuredAnswer(BaseModel):
    """What the structured prompt asks for; ``sources_used`` are source ids as strings."""

    model_config = ConfigDict(extra="ignore")

    answer: str
    confidence: Confidence = "medium"
    sources_used: list[str] = Field(default_factory=list)
    key_points: list[str] = Field(default_factory=list)
    follow_up_suggestions: list[str] = Field(default_factory=list)
    unable_to_answer: bool = False
    reason_if_unable: str = ""

    @field_validator("answer", "reason_if_unable", mode="before")
    @classmethod
    def _text(cls, v: Any) -> Any:
        if v is None:
            return ""
        if isinstance(v, list):
            return "\n".join(str(x) for x in v)
        return v if isinstance(v, str) else str(v)

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, v: Any) -> Any:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            score = float(v) / (100.0 if v > 1 else 1.0)
            return "high" if score >= 0.7 else "medium" if score >= 0.4 else "low"
        if isinstance(v, str):
            key = v.strip().lower().split("/")[0].split("|")[0].strip()
            return _CONFIDENCE.get(key, "medium")
        return "medium"

    @field_validator("sources_used", mode="before")
    @classmethod
    def _ids(cls, v: Any) -> Any:
        if v is None:
            return []
        if isinstance(v, (str, int)):
            v = re.split(r"[,;，、]", str(v)) if isinstance(v, str) else [v]
        out: list[str] = []
        for item in v if isinstance(v, list) else []:
            if isinstance(item, dict):
                item = item.get("id", "")
            s = _ID_PREFIX.sub("", str(item)).strip().rstrip("]】)）").strip()
            if s and s not in out:
                out.append(s)
        return out

    @field_validator("key_points", "follow_up_suggestions", mode="before")
    @classmethod
    def _strings(cls, v: Any) -> Any:
        if v is None:
            return []
        if isinstance(v, str):
            return [v] if v.strip() else []
        return [str(x) for x in v] if isinstance(v, list) else []

    @field_validator("unable_to_answer", mode="before")
    @classmethod
    def _flag(cls, v: Any) -> Any:
        if isinstance(v, str):
            return v.strip().lower() in {"true", "yes", "1", "是", "ja", "oui"}
        return bool(v)


def parse_structured_answer(text: str, *, strict: bool = False) -> StructuredAnswer | None:
    """The StructuredAnswer inside ``text`` (prose and code fences around it are fine).

    Returns None when there is none, or raises StructuredAnswerError when ``strict``.
    """
    data = load_json(text)
    problem = "no JSON object found"
    if isinstance(data, dict):
        if "answer" not in data:
            problem = "the JSON object has no 'answer' field"
        else:
            try:
                return StructuredAnswer.model_validate(data)
            except ValidationError as exc:
                problem = f"invalid structured answer: {exc.errors()[0].get('msg', 'invalid')}"
    if strict:
        raise StructuredAnswerError(problem)
    return None


def load_json(text: str) -> Any:
    """The first JSON value in a model reply, repaired where needed (None when there is none)."""
    from hallucheck.llm.structured import loads_lenient  # lazy: loaded only on this path

    try:
        return loads_lenient(text)[0]
    except ValueError:
        return None
