"""Whether a judge's free-text notes say that some claim is unsupported, in the five languages.

An LLM judge may give a low risk number and still write "the date is not supported by the
sources"; the guideline treats notes that explicitly state unsupported claims as high risk. The
wording is matched here, once, so detectors can turn it into a typed feature for the policies.
"""

from __future__ import annotations

import re

__all__ = ["notes_state_unsupported"]

# Notes "explicitly state unsupported claims" (detection guideline): the words a judge uses for that, in the
# five languages, unless negated right before ("no unsupported claims", "keine erfundenen ...").
_UNSUPPORTED = re.compile(
    r"unsupported|not supported|lacks? (?:any )?support|no (?:supporting )?evidence for|hallucinat|fabricat|made[- ]up|invented"
    r"|未支持|不支持|沒有支持|没有支持|無依據|无依据|幻覺|幻觉|捏造|編造|编造"
    r"|nicht (?:belegt|gestützt|unterstützt)|unbelegt|erfunden|halluzin"
    r"|non (?:étayé|soutenu|fondé)|sans fondement|inventé|halluciné",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"(?:\bno\b|\bnot any\b|\bwithout\b|\bnone\b|\bzero\b|\bfree of\b|\bkeine?n?\b|\baucune?\b|\bpas d[e']|\bsans\b"
    r"|沒有|没有|無|无|未發現|未发现)"
    r"[\w\s'-]{0,20}$",
    re.IGNORECASE,
)


def notes_state_unsupported(notes: str) -> bool:
    """Whether a judge's notes say that some claim is unsupported (negated mentions do not count)."""
    for m in _UNSUPPORTED.finditer(notes or ""):
        before = notes[max(0, m.start() - 24) : m.start()]
        if not _NEGATION.search(before):
            return True
    return False
