"""What the semantic layer computes for one case: the source units, the alignment of each answer
sentence with them, and the word-level match scores.

The shapes live below the detectors because the case's facts (:class:`~hallucheck.case_facts.CaseFacts`)
hold them and every layer reads them; :mod:`hallucheck.detectors.semantic.semantic_align` computes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["AlignedUnit", "Alignment", "Unit"]

# One aligned source unit of an answer sentence: (source id, unit text, start, end, score), with
# start:end the unit's offsets into that source's text.
AlignedUnit = tuple[str, str, int, int, float]


@dataclass(frozen=True)
class Unit:
    """A source sentence (or a window of a long one) with offsets into its source's text."""

    source_id: str
    source_index: int
    start: int
    end: int
    text: str


@dataclass
class Alignment:
    """Everything the semantic layer computed for one case (see :mod:`hallucheck.detectors.semantic.semantic_align`)."""

    backend: str
    units: list[Unit]
    sentence_ids: list[int]  # indices into analysis.sentences that were embedded (have a word)
    sim: np.ndarray  # (len(sentence_ids), len(units)) cosine
    top: list[list[tuple[int, float]]]  # per analysed sentence: (unit index, score), best first
    cross_lingual: bool = False
    token_level: bool = False
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    sentence_precision: list[float] = field(default_factory=list)  # per analysed sentence, vs all sources
    local_precision: list[float] = field(default_factory=list)  # per analysed sentence, vs its aligned units
    token_scores: list[float] | None = None  # per analysis.tokens
    notes: list[str] = field(default_factory=list)

    def best(self, i: int) -> float:
        """Best unit similarity of analysed sentence ``i`` (0 when there are no units)."""
        return self.top[i][0][1] if self.top[i] else 0.0
