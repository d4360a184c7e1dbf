"""The verifier's pass over a verdict: which verdicts it may change, which sentences it reads, and
reading them a few at a time.

Why a module of its own: the Checker runs the pass after the first verdict and again decides on
what it found; what the pass reads and when it stops are choices of their own (measured in
docs/model.md, "The verifier"), kept apart from the Checker's order of layers.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.policies.base import Verdict
from hallucheck.policies.entailment import ENGLISH_VERIFY_BELOW, KEPT_ON_ENTAILED, OVERRULED_NAMES, entailed_sentences, overrules_names
from hallucheck.policies.safeguards import case_thresholds, english_over_long_sources
from hallucheck.text.language import base_language
from hallucheck.types import Finding

__all__ = ["suspect_sentences", "verify_until_unsupported", "worth_verifying"]


def worth_verifying(analysis: CaseAnalysis, verdict: Verdict) -> bool:
    """Whether the verifier may change this verdict: an accept only where it is doubted (below); an
    English answer over long English sources only below :data:`hallucheck.policies.entailment.ENGLISH_VERIFY_BELOW`
    (over a source the verifier reads whole, at any risk: :func:`hallucheck.policies.entailment.source_read_whole`)."""
    if verdict.decision == "accept":
        return _doubt_accepts(analysis)
    if not _doubt_accepts(analysis):
        return verdict.risk_score < ENGLISH_VERIFY_BELOW or not english_over_long_sources(analysis)
    return True


def _doubt_accepts(analysis: CaseAnalysis) -> bool:
    """Whether an accepted answer is read by the verifier too: where the word-level evidence says
    little (not English, or over sources in another language; :func:`hallucheck.policies.entailment.doubt_accepted`)."""
    return analysis.cross_lingual or base_language(analysis.language or "en") != "en"


def suspect_sentences(analysis: CaseAnalysis, verdict: Verdict, findings: Sequence[Finding]) -> list[int]:
    """The sentences a non-accepting verdict rests on: those its word-level spans touch (precise
    findings need no second opinion, but for the name marks it may overrule in Chinese and
    cross-lingual answers, :data:`hallucheck.policies.entailment.OVERRULED_NAMES`), or every
    sentence when it shows no span at all (or accepts)."""
    if verdict.decision == "accept":
        return list(range(len(analysis.sentences)))
    shown = verdict.spans if verdict.spans is not None else [s for f in findings if f.usable for s in f.spans]
    if not shown:
        return list(range(len(analysis.sentences)))
    overrulable = overrules_names(analysis.language, analysis.cross_lingual)
    soft = [s for s in shown if (s.kind is None or (overrulable and s.kind in OVERRULED_NAMES)) and s.label not in KEPT_ON_ENTAILED]
    return [i for i, seg in enumerate(analysis.sentences) if any(s.start < seg.end and s.end > seg.start for s in soft)]


def verify_until_unsupported(verifier: Any, analysis: CaseAnalysis, rows: Sequence[int], first: int = 2, step: int = 4,
                              *, early: bool = True) -> Finding:
    """The verifier's finding over ``rows``, read a few sentences at a time until one is not entailed.

    Why: one sentence the verifier does not find entailed is enough to keep the verdict (and to
    give it a span to show), so the rest of a long flagged answer need not be read; a faithful
    answer is read whole (``early=False``: always whole, as an accepted answer is read for doubt).
    The finding holds the sentences read, and says how many were left."""
    done: list[Finding] = []
    thresholds = case_thresholds(analysis)
    pos = 0
    while pos < len(rows):
        size = first if pos == 0 else step
        part = _safe_verify(verifier, analysis, rows[pos : pos + size])
        done.append(part)
        pos += size
        if not part.usable or part.sentence_verdicts is None:
            break
        if early and len(entailed_sentences(part.sentence_verdicts, *thresholds)) < len(part.sentence_verdicts):
            break
    if len(done) == 1 and pos >= len(rows):
        return done[0]
    if any(not f.usable or f.sentence_verdicts is None for f in done):
        return next(f for f in done if not f.usable or f.sentence_verdicts is None)
    verdicts = [v for f in done for v in f.sentence_verdicts or []]
    notes = [n for f in done for n in f.notes]
    if pos < len(rows):
        notes.append(f"read {len(verdicts)} of the {len(rows)} sentences the verdict rests on: one not entailed was enough")
    import numpy as np  # lazy: loaded only on this path

    from hallucheck.detectors.model.nli import pair_features  # lazy: detector found by name, imported when used

    probs = np.array([[v.entailment, v.neutral, v.contradiction] for v in verdicts])
    return Finding(detector=done[0].detector, role=done[0].role, risk=max(f.risk for f in done),
                   flagged=any(f.flagged for f in done), spans=[sp for f in done for sp in f.spans], notes=notes,
                   features=pair_features(probs, verifier.threshold), sentence_verdicts=verdicts,
                   latency_ms=sum(f.latency_ms for f in done))


def _safe_verify(verifier: Any, analysis: CaseAnalysis, rows: Sequence[int]) -> Finding:
    """The verifier's finding over ``rows``, timed; a failure becomes an error finding, as a detector's does."""
    t0 = time.perf_counter()
    try:
        finding: Finding = verifier.verify(analysis, rows)
    except Exception as exc:  # noqa: BLE001 - one failing part degrades with a note, like a detector
        return Finding(detector=verifier.name, role="entailment", risk=0.0, ran=False, error=f"{type(exc).__name__}: {exc}",
                       latency_ms=(time.perf_counter() - t0) * 1000.0)
    finding.latency_ms = (time.perf_counter() - t0) * 1000.0
    return finding
