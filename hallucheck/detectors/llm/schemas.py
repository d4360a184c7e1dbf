"""What the LLM detectors ask models to answer, as lenient pydantic models.

Lenient on purpose: models write ``"0.8"``, ``"80%"`` or ``80`` for a probability, ``"Supported"``
or ``"not supported"`` for a label, ``"analysis"`` instead of ``"claims"``. Everything that can be
read unambiguously is accepted; what cannot (no claims *and* no risk, an unknown label) fails
validation, so the caller gets a typed failure instead of a made-up verdict.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "ClaimLabel",
    "ClaimVerdict",
    "Dimensions",
    "JudgeOutput",
    "ExtractedClaim",
    "ClaimList",
    "PresenceList",
    "KnowledgeVerdict",
    "to_unit",
]

ClaimLabel = Literal["SUPPORTED", "HALLUCINATION", "CONTRADICTION", "EXTRAPOLATION"]

_LABELS: dict[str, str] = {}
for _label, _words in {
    "SUPPORTED": ("supported", "support", "grounded", "correct", "true", "ok", "faithful", "entailed", "entailment", "yes"),
    "HALLUCINATION": ("hallucination", "hallucinated", "unsupported", "not supported", "fabrication", "fabricated",
                      "baseless", "made up", "invented", "not in context", "no"),
    "CONTRADICTION": ("contradiction", "contradicted", "contradicts", "conflict", "conflicting", "distortion", "false"),
    "EXTRAPOLATION": ("extrapolation", "extrapolated", "over-extrapolation", "inference", "speculation",
                      "unverifiable", "partially supported", "partial"),
}.items():
    for _w in _words:
        _LABELS[_w] = _label
# Chinese labels
_LABELS.update({"支持": "SUPPORTED", "有依据": "SUPPORTED", "有根據": "SUPPORTED", "幻觉": "HALLUCINATION", "幻覺": "HALLUCINATION",
                "编造": "HALLUCINATION", "編造": "HALLUCINATION", "矛盾": "CONTRADICTION", "过度推断": "EXTRAPOLATION",
                "過度推斷": "EXTRAPOLATION"})

_DECISIONS = {"continue": "continue", "continue_search": "continue", "continue searching": "continue",
              "refine_search": "refine_search", "refine": "refine_search", "refine search": "refine_search",
              "synthesize": "synthesize", "synthesise": "synthesize", "accept": "synthesize"}
_TYPES = {"none": "none", "no": "none", "null": "none", "n/a": "none", "無": "none", "无": "none",
          "fabrication": "fabrication", "distortion": "distortion", "extrapolation": "extrapolation",
          "contradiction": "contradiction", "hallucination": "fabrication"}


def to_unit(v: Any) -> float | None:
    """A probability in 0..1 from 0.8, "0.8", "80%", 80 (percent) or 8 (of 10); None when absent."""
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, str):
        s = v.strip().rstrip("%").strip()
        pct = v.strip().endswith("%")
        try:
            x = float(s.split("/")[0]) / (float(s.split("/")[1]) if "/" in s else 1.0)
        except (ValueError, ZeroDivisionError):
            low = v.strip().lower()
            words = {"low": 0.2, "medium": 0.5, "moderate": 0.5, "high": 0.8, "none": 0.0, "very high": 0.95}
            if low in words:
                return words[low]
            raise ValueError(f"not a number: {v!r}") from None
        if pct:
            x /= 100.0
    elif isinstance(v, (int, float)):
        x = float(v)
    else:
        raise ValueError(f"not a number: {v!r}")
    if x != x:  # NaN
        raise ValueError("NaN is not a probability")
    if 1.0 < x <= 10.0:
        x /= 10.0
    elif 10.0 < x <= 100.0:
        x /= 100.0
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"{v!r} is not in 0..1")
    return x


def _text_list(v: Any) -> list[str]:
    if v is None:
        return []
    if isinstance(v, str):
        return [v] if v.strip() else []
    out = []
    for item in v if isinstance(v, list) else [v]:
        if isinstance(item, dict):
            item = item.get("text") or item.get("quote") or item.get("segment") or item.get("content") or ""
        if isinstance(item, str) and item.strip():
            out.append(item)
    return out


# A string field that accepts null (as "") and numbers (as their text).
Text = Annotated[str, BeforeValidator(lambda v: "" if v is None else str(v))]


def _wrap(v: Any, key: str) -> Any:
    """A bare JSON list as ``{key: list}`` (models often drop the wrapping object)."""
    return {key: v} if isinstance(v, list) else v


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class ClaimVerdict(_Lenient):
    """One claim of the answer: an exact quote from it and what the sources say about it."""

    quote: str = Field(validation_alias=AliasChoices("quote", "text", "claim", "statement", "segment", "span"))
    label: ClaimLabel = Field(validation_alias=AliasChoices("label", "verdict", "status", "classification", "type"))
    reason: str = Field("", validation_alias=AliasChoices("reason", "explanation", "why", "rationale"))
    source_id: str | None = Field(None, validation_alias=AliasChoices("source_id", "source", "source_ids", "citation"))
    evidence: str | None = Field(None, validation_alias=AliasChoices("evidence", "source_quote", "support"))

    @field_validator("label", mode="before")
    @classmethod
    def _label(cls, v: Any) -> Any:
        if isinstance(v, str):
            key = v.strip().strip("[]*_ ").lower().replace("_", " ")
            if key.upper() in ("SUPPORTED", "HALLUCINATION", "CONTRADICTION", "EXTRAPOLATION"):
                return key.upper()
            if key in _LABELS:
                return _LABELS[key]
        return v

    @field_validator("quote", "reason", mode="before")
    @classmethod
    def _text(cls, v: Any) -> Any:
        return "" if v is None else (str(v) if isinstance(v, (int, float)) else v)

    @field_validator("source_id", "evidence", mode="before")
    @classmethod
    def _opt_text(cls, v: Any) -> Any:
        if isinstance(v, list):
            v = ", ".join(str(x) for x in v)
        return None if v is None or v == "" else str(v)


class Dimensions(_Lenient):
    """The detection guideline's five evaluation dimensions, each 0..1 (``hallucination``: 1 = heavily hallucinated)."""

    completeness: float | None = None
    relevance: float | None = None
    answer_quality: float | None = None
    citation_quality: float | None = None
    hallucination: float | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _unit(cls, v: Any) -> Any:
        if isinstance(v, dict):
            v = v.get("score")
        try:
            return to_unit(v)
        except ValueError:
            return None  # a broken dimension is not worth failing the whole verdict


class JudgeOutput(_Lenient):
    """The judge's verdict: per-claim labels (RAG detection guide), the evaluation fields and five dimensions
    (detection guideline), and the detector summary (RAG prompting guide)."""

    claims: list[ClaimVerdict] = Field(default_factory=list,
                                       validation_alias=AliasChoices("claims", "analysis", "statements", "items"))
    score: float | None = None
    reasoning: str = ""
    confidence: float | None = None
    decision: Literal["continue", "refine_search", "synthesize"] | None = None
    hallucination_risk: float | None = Field(None, validation_alias=AliasChoices("hallucination_risk", "risk", "risk_score"))
    hallucination_notes: str = ""
    dimensions: Dimensions = Field(default_factory=Dimensions)
    type: Literal["none", "fabrication", "distortion", "extrapolation", "contradiction"] | None = Field(
        None, validation_alias=AliasChoices("type", "hallucination_type"))
    problematic_segments: list[str] = Field(default_factory=list)
    grounded_segments: list[str] = Field(default_factory=list)
    explanation: str = ""
    verdict: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, v: Any) -> Any:
        v = _wrap(v, "claims")
        if isinstance(v, dict) and len(v) == 1:
            inner = next(iter(v.values()))
            if isinstance(inner, dict) and ("claims" in inner or "hallucination_risk" in inner):
                return inner  # {"evaluation": {...}}
        return v

    @field_validator("score", "confidence", "hallucination_risk", mode="before")
    @classmethod
    def _unit(cls, v: Any) -> Any:
        return to_unit(v)

    @field_validator("decision", mode="before")
    @classmethod
    def _decision(cls, v: Any) -> Any:
        if v is None or v == "":
            return None
        return _DECISIONS.get(str(v).strip().lower(), v)

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, v: Any) -> Any:
        if v is None or v == "":
            return None
        if isinstance(v, list):
            v = v[0] if v else "none"
        return _TYPES.get(str(v).strip().lower(), v)

    @field_validator("reasoning", "hallucination_notes", "explanation", mode="before")
    @classmethod
    def _str(cls, v: Any) -> Any:
        if v is None:
            return ""
        if isinstance(v, list):
            return "\n".join(str(x) for x in v)
        return v if isinstance(v, str) else str(v)

    @field_validator("problematic_segments", "grounded_segments", mode="before")
    @classmethod
    def _segments(cls, v: Any) -> Any:
        return _text_list(v)

    @field_validator("dimensions", mode="before")
    @classmethod
    def _dims(cls, v: Any) -> Any:
        return v if isinstance(v, dict) else {}

    @field_validator("claims", mode="before")
    @classmethod
    def _claims(cls, v: Any) -> Any:
        if v is None:
            return []
        if isinstance(v, dict):  # {"quote": "label", ...}
            return [{"quote": k, "label": val} for k, val in v.items()]
        return v

    @model_validator(mode="after")
    def _says_something(self) -> JudgeOutput:
        if not self.claims and self.hallucination_risk is None:
            raise ValueError("the verdict has neither claims nor a hallucination_risk")
        return self


class ExtractedClaim(_Lenient):
    text: Text = Field(validation_alias=AliasChoices("text", "claim", "statement"))
    quote: Text = Field("", validation_alias=AliasChoices("quote", "span", "source_text", "excerpt"))


class ClaimList(_Lenient):
    """Atomic claims extracted from an answer, each with an exact quote of where it comes from."""

    claims: list[ExtractedClaim]

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, v: Any) -> Any:
        v = _wrap(v, "claims")
        if isinstance(v, dict) and isinstance(v.get("claims"), list):
            v = dict(v)
            v["claims"] = [{"text": c} if isinstance(c, str) else c for c in v["claims"]]
        return v


class PresenceList(_Lenient):
    """Per numbered claim: is it stated or implied by the sampled text?"""

    present: list[bool]

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, v: Any) -> Any:
        v = _wrap(v, "present")
        if isinstance(v, dict):
            items = v.get("present", v.get("answers", v.get("results")))
            if isinstance(items, dict):  # {"1": "YES", ...}
                items = [items[k] for k in sorted(items, key=lambda k: int(k) if str(k).isdigit() else 0)]
            if isinstance(items, list):
                v = {"present": [_yes(x) for x in items]}
        return v


def _yes(x: Any) -> Any:
    if isinstance(x, dict):
        x = x.get("present", x.get("answer", x.get("value")))
    if isinstance(x, str):
        s = x.strip().lower()
        if s in ("yes", "y", "true", "present", "是", "1"):
            return True
        if s in ("no", "n", "false", "absent", "否", "0"):
            return False
    return x


class KnowledgeVerdict(_Lenient):
    """Whether passages from a knowledge source support a claim."""

    supported: bool
    confidence: float | None = None
    evidence: Text = ""

    @field_validator("supported", mode="before")
    @classmethod
    def _b(cls, v: Any) -> Any:
        return _yes(v)

    @field_validator("confidence", mode="before")
    @classmethod
    def _c(cls, v: Any) -> Any:
        return to_unit(v)
