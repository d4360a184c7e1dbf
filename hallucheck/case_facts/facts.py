"""The facts of one case that one part of a check computes and others read, as typed fields.

A check computes some things once and lets later detectors, the verdict and the LLM sessions read
them: the semantic layer's alignment (evidence for the model and LLM layers, paraphrase support for
the n-gram layer), the answer's claims, its figures, its polarity sentences, the LLM call budget.
Each has a field here, None until it is known, so that a reader names what it reads and its type
is checked. A fact computed on first use is computed by the function that owns it (for instance
:func:`hallucheck.detectors.rules.answer_figures.answer_figures`), which fills the field; callers
ask that function, not the field.
"""

from __future__ import annotations

from dataclasses import dataclass

from hallucheck.case_facts.alignment import AlignedUnit, Alignment
from hallucheck.case_facts.claim import Claim
from hallucheck.case_facts.figures import AnswerFigures
from hallucheck.case_facts.polarity import PolaritySources
from hallucheck.text.durations import Duration
from hallucheck.text.opposites import Symbol
from hallucheck.text.weekdays import WeekdaySpan

__all__ = ["CaseFacts"]


@dataclass
class CaseFacts:
    """What is known about one case beyond its text, shared by the detectors, the verdict and the
    LLM sessions of one check (None: not known, or not computed)."""

    # -- the LLM budget: set by the Checker, spent by every LLM session of the check ---------------
    llm_calls_left: int | None = None  # None: unlimited
    llm_deadline: float | None = None  # time.monotonic() instant by which LLM calls must end

    # -- the semantic layer (hallucheck.detectors.semantic.semantic_align.align) ------------------
    alignment: Alignment | None = None
    alignment_settings: tuple[str, int, int] | None = None  # (backend, top_k, window_words) of ``alignment``
    # Per answer sentence (analysis.sentences order), its best source units, best first.
    sentence_alignment: list[list[AlignedUnit]] | None = None
    # Per answer token (analysis.tokens): matched by a word piece of an aligned unit at or above the
    # token threshold (None when word-level matching was not possible), and the scores behind it.
    support: list[bool] | None = None
    token_scores: list[float] | None = None

    # -- the LLM layer (hallucheck.detectors.llm.claims.answer_claims) ----------------------------
    claims: list[Claim] | None = None

    # -- the rules (hallucheck.detectors.rules.polarity_sentences, answer_figures, weekday_ranges) ----
    polarity_sources: PolaritySources | None = None
    polarity_symbols: list[list[Symbol]] | None = None  # per answer sentence
    answer_figures: AnswerFigures | None = None
    figures_in_other_forms: list[tuple[int, int]] | None = None  # offsets
    converted_durations: list[Duration] | None = None
    answer_weekdays: list[WeekdaySpan] | None = None

    # -- the verdict (hallucheck.verdict_facts) --------------------------------------------------
    # Whether every answer sentence restates one source sentence: computed after the detectors and
    # before the verdict, for the safeguards; None when no rule could use it.
    every_sentence_restated: bool | None = None
