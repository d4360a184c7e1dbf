"""The typed vocabulary of hallucheck: what goes in (Case), and what comes out (Span, Finding, Report).

Every result is a pydantic model so that reports serialize to JSON with stable field names and
bad input is rejected with a precise message instead of failing deep inside a detector.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "TASKS",
    "RAGTRUTH_TASKS",
    "LABELS",
    "Task",
    "Label",
    "RiskLevel",
    "Decision",
    "Role",
    "ROLES",
    "PreciseKind",
    "PRECISE_KINDS",
    "Source",
    "Case",
    "Evidence",
    "Span",
    "Cost",
    "Coverage",
    "SentenceVerdict",
    "Finding",
    "CitationSummary",
    "Report",
]

Task = Literal["qa", "summary", "data2txt", "dialogue", "generic"]
TASKS: tuple[str, ...] = ("qa", "summary", "data2txt", "dialogue", "generic")
# The tasks RAGTruth labels: the learned policy's task features and the per-task scores.
RAGTRUTH_TASKS: tuple[str, ...] = ("qa", "summary", "data2txt")

Label = Literal[
    "fabrication",
    "baseless",
    "contradiction",
    "extrapolation",
    "distortion",
    "invalid_citation",
    "uncited",
    "speculation",
]
LABELS: tuple[str, ...] = (
    "fabrication",
    "baseless",
    "contradiction",
    "extrapolation",
    "distortion",
    "invalid_citation",
    "uncited",
    "speculation",
)
RiskLevel = Literal["low", "moderate", "high"]

# What kind of evidence a finding is. Policies choose findings by role, never by detector name:
# citations (citation ids and coverage), phrases (speculation / fabrication wording), facts
# (figures and names against the sources), lexical (word overlap and novelty), semantic
# (embedding similarity), tagger (the trained span tagger), entailment (NLI), consistency
# (answer against itself), llm_judge (an LLM's verdict), claims (claim extraction and support),
# sampling (self-consistency over samples), knowledge (an external knowledge source).
Role = Literal[
    "citations",
    "phrases",
    "facts",
    "lexical",
    "semantic",
    "tagger",
    "entailment",
    "consistency",
    "llm_judge",
    "claims",
    "sampling",
    "knowledge",
    "other",
]
ROLES: tuple[str, ...] = (
    "citations",
    "phrases",
    "facts",
    "lexical",
    "semantic",
    "tagger",
    "entailment",
    "consistency",
    "llm_judge",
    "claims",
    "sampling",
    "knowledge",
    "other",
)

# Precise evidence: span kinds whose precision is measured per language and that can put a floor
# under the verdict (see hallucheck.policies.floors).
PreciseKind = Literal[
    "invalid_citation", "contradicted_figure", "unsupported_figure", "unknown_name", "flipped_negation",
    "opposite_word", "contradicted_field", "swapped_roles", "misattributed_citation", "replaced_name",
]
PRECISE_KINDS: tuple[str, ...] = get_args(PreciseKind)
Decision = Literal["accept", "review", "reject"]

_TASK_ALIASES = {
    "qa": "qa",
    "question_answering": "qa",
    "summary": "summary",
    "summarization": "summary",
    "data2txt": "data2txt",
    "data2text": "data2txt",
    "dialogue": "dialogue",
    "dialog": "dialogue",
    "chat": "dialogue",
    "generic": "generic",
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class Source(_Model):
    """One retrieved passage; its `id` is what citations in the answer refer to."""

    id: str = Field(min_length=1, max_length=256)
    text: str
    title: str | None = None
    parent_id: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id_to_str(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v


class Case(_Model):
    """One thing to check: the question, the retrieved sources, and the answer written from them.

    Contexts may be given as plain strings; they then get ids "1", "2", ... in order, which is
    how numbered citations such as ``[1]`` are resolved.
    """

    question: str = ""
    contexts: list[Source]
    answer: str
    task: Task = "generic"
    language: str | None = None
    citations_expected: bool | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("contexts", mode="before")
    @classmethod
    def _coerce_contexts(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list):
            raise ValueError("contexts must be a list of strings or {id, text} objects")
        out: list[Any] = []
        for i, item in enumerate(v, start=1):
            if isinstance(item, str):
                out.append({"id": str(i), "text": item})
            elif isinstance(item, dict) and "id" not in item and "text" in item:
                out.append({**item, "id": str(i)})
            else:
                out.append(item)
        return out

    @field_validator("task", mode="before")
    @classmethod
    def _coerce_task(cls, v: Any) -> Any:
        if v is None:
            return "generic"
        if isinstance(v, str):
            key = v.strip().lower()
            if key in _TASK_ALIASES:
                return _TASK_ALIASES[key]
        return v

    @model_validator(mode="after")
    def _unique_ids(self) -> Case:
        seen: set[str] = set()
        for src in self.contexts:
            if src.id in seen:
                raise ValueError(f"duplicate context id {src.id!r}")
            seen.add(src.id)
        return self

    @property
    def source_text(self) -> str:
        """All sources joined, the text the answer is checked against."""
        return "\n\n".join(s.text for s in self.contexts)


class Evidence(_Model):
    """The source text a span was compared with, and how it relates to the span."""

    source_id: str | None = None
    text: str
    relation: Literal["supports", "contradicts", "nearest", "missing"] = "nearest"
    score: float | None = None
    start: int | None = None
    end: int | None = None


class Span(_Model):
    """A flagged region of the answer: character offsets ``[start, end)`` into ``Case.answer``."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    label: Label
    score: float = Field(ge=0.0, le=1.0)
    detector: str
    reason: str = ""
    evidence: list[Evidence] = Field(default_factory=list)
    # Set on precise evidence only (an invalid citation id, a contradicted figure, ...).
    kind: PreciseKind | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            raise ValueError("span end before start")
        return self


class Cost(_Model):
    """What a check spent on LLMs; zero when no LLM was configured."""

    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_calls: int = 0
    usd: float = 0.0

    def add(self, other: Cost) -> Cost:
        return Cost(
            llm_calls=self.llm_calls + other.llm_calls,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_calls=self.cached_calls + other.cached_calls,
            usd=self.usd + other.usd,
        )


class Coverage(_Model):
    """How much of the answer a detector actually looked at (long texts are checked in windows).

    ``source_chars`` / ``unread_source_chars``: when the sources were longer than the checker
    reads (see :mod:`hallucheck.source_window`), how long they were and how much was not read.
    """

    answer_chars: int = 0
    checked_chars: int = 0
    unchecked: list[tuple[int, int]] = Field(default_factory=list)
    note: str = ""
    source_chars: int = 0
    unread_source_chars: int = 0

    @property
    def complete(self) -> bool:
        return not self.unchecked


class CitationSummary(_Model):
    """The citation rules' view of the answer (the detection guideline)."""

    expected: bool
    applied: bool
    found: list[str] = Field(default_factory=list)
    valid: list[str] = Field(default_factory=list)
    invalid: list[str] = Field(default_factory=list)
    claims: int = 0
    ratio: float = 0.0
    risk: float = 0.0
    uncited_sentences: list[str] = Field(default_factory=list)
    uncited_count: int = 0
    level: RiskLevel = "low"


class SentenceVerdict(_Model):
    """A sentence-pair verifier's reading of one answer sentence against its best evidence.

    ``[start, end)`` indexes the answer; the three probabilities sum to one. A policy reads these
    to tell a sentence said in other words (entailed) from one that adds or changes a fact, without
    calling the verifier itself."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    entailment: float = Field(ge=0.0, le=1.0)
    neutral: float = Field(ge=0.0, le=1.0)
    contradiction: float = Field(ge=0.0, le=1.0)
    evidence: list[Evidence] = Field(default_factory=list)


class Finding(_Model):
    """What one detector says about one case.

    The typed fields are the contract with policies: ``role`` says what kind of evidence the
    finding is, ``flagged`` is the detector's own verdict at its own threshold, ``features`` the
    numbers a learned policy stacks, ``citations`` the citation rules' summary. Policies read
    these, never ``details`` (free-form data for people and benchmarks) and never the detector's
    name, so a renamed or user-written detector of a known role is treated the same way.
    ``flagged`` defaults to ``risk > 0.5`` when the detector does not give it.
    """

    detector: str
    role: Role = "other"
    risk: float = Field(ge=0.0, le=1.0)
    flagged: bool = False
    features: dict[str, float] = Field(default_factory=dict)
    citations: CitationSummary | None = None
    ran: bool = True
    spans: list[Span] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)
    latency_ms: float = 0.0
    cost: Cost = Field(default_factory=Cost)
    coverage: Coverage | None = None
    error: str | None = None
    # Set by a sentence-pair verifier (role ``entailment``): one verdict per sentence it read.
    sentence_verdicts: list[SentenceVerdict] | None = None

    @model_validator(mode="after")
    def _default_flagged(self) -> Finding:
        if "flagged" not in self.model_fields_set:
            self.flagged = self.risk > 0.5
        return self

    @property
    def usable(self) -> bool:
        """Whether the finding is evidence at all: the detector ran without error."""
        return self.error is None and self.ran


class Report(_Model):
    """The verdict for one case."""

    hallucinated: bool
    risk_score: float = Field(ge=0.0, le=1.0)
    risk_level: RiskLevel
    decision: Decision
    spans: list[Span] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    citations: CitationSummary | None = None
    timings_ms: dict[str, float] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    cost: Cost = Field(default_factory=Cost)
    coverage: Coverage | None = None
    policy: str = ""
    language: str = ""
    task: str = "generic"

    def finding(self, detector: str) -> Finding | None:
        """The finding of one detector, or None when it did not run."""
        for f in self.findings:
            if f.detector == detector:
                return f
        return None

    def to_json(self, indent: int | None = 2) -> str:
        return self.model_dump_json(indent=indent)
