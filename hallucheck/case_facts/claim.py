"""One checkable statement of an answer, with its offsets.

Below the detectors because the case's facts (:class:`~hallucheck.case_facts.CaseFacts`) keep the
answer's claims for every LLM detector that reads them; the rule splitter
(:mod:`hallucheck.detectors.llm.claim_split`) and the LLM claim extraction
(:mod:`hallucheck.detectors.llm.claims`) make them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Claim"]


@dataclass
class Claim:
    """One checkable statement: offsets into the answer, its text, and how it was found."""

    start: int
    end: int
    text: str
    origin: str = "rules"  # rules | llm
    statement: str = ""  # the standalone claim the LLM wrote (may differ from the answer text)
    match: str = "exact"  # how offsets were found (exact | casefold | whitespace | fuzzy | none)

    def as_dict(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "text": self.text, "origin": self.origin,
                "statement": self.statement or self.text, "match": self.match}
