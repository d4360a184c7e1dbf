"""The facts of one case that detectors, the verdict and the LLM sessions share
(:class:`CaseFacts`), and the shapes of those facts.

Kept below the detectors (floor 0), so that every part of a check that writes or reads a fact
imports it downward: the LLM sessions (floor 1), the detectors (floor 2), the Checker and the
policies (floor 3).
"""

from hallucheck.case_facts.alignment import AlignedUnit, Alignment, Unit
from hallucheck.case_facts.claim import Claim
from hallucheck.case_facts.facts import CaseFacts
from hallucheck.case_facts.figures import AnswerFigures
from hallucheck.case_facts.polarity import PolaritySources, SourceSentence

__all__ = ["AlignedUnit", "Alignment", "AnswerFigures", "CaseFacts", "Claim", "PolaritySources", "SourceSentence", "Unit"]
