"""Labelled data made by rules: cases from a folder of documents (``hallucheck data synth``).

Real text in, labelled QA- and summary-style cases out: faithful answers, and answers with one
labelled error each (changed figures, dates and units, swapped terms, negations, speculation,
foreign sentences, invalid or wrong citations, cross-lingual answers), split train / calib / dev
by source document. See docs/synth.md.
"""

from hallucheck.synth.cases import (
    EDIT_KINDS,
    FAITHFUL_KINDS,
    PARAPHRASE_EDIT_KINDS,
    SynthOptions,
    default_partner,
    make_cases,
)
from hallucheck.synth.corpus import LANGUAGES, Section, read_corpus
from hallucheck.synth.parts import assign_parts, part_of_key

__all__ = [
    "EDIT_KINDS",
    "FAITHFUL_KINDS",
    "LANGUAGES",
    "PARAPHRASE_EDIT_KINDS",
    "Section",
    "SynthOptions",
    "assign_parts",
    "default_partner",
    "make_cases",
    "part_of_key",
    "read_corpus",
]
