"""Merging spans from several detectors into one non-overlapping list for the report.

Where spans overlap, the merged span covers their union, keeps the highest score, takes the
label of the strongest span (contradiction outranks baseless on ties), and keeps every
detector's evidence, so nothing a detector said is lost.
"""

from __future__ import annotations

from hallucheck.types import Span

__all__ = ["merge_spans", "LABEL_PRIORITY"]

LABEL_PRIORITY = {
    "contradiction": 7,
    "invalid_citation": 6,
    "fabrication": 5,
    "distortion": 4,
    "baseless": 3,
    "extrapolation": 2,
    "speculation": 1,
    "uncited": 0,
}


def merge_spans(spans: list[Span], text: str) -> list[Span]:
    """Union of overlapping spans, sorted by offset; ``text`` is the answer the offsets index."""
    if not spans:
        return []
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    groups: list[list[Span]] = [[ordered[0]]]
    end = ordered[0].end
    for s in ordered[1:]:
        if s.start < end:
            groups[-1].append(s)
            end = max(end, s.end)
        else:
            groups.append([s])
            end = s.end
    out: list[Span] = []
    for g in groups:
        if len(g) == 1:
            out.append(g[0])
            continue
        start = min(s.start for s in g)
        stop = max(s.end for s in g)
        best = max(g, key=lambda s: (s.score, LABEL_PRIORITY.get(s.label, 0)))
        detectors = sorted({s.detector for s in g})
        reasons = [s.reason for s in sorted(g, key=lambda s: -s.score) if s.reason]
        evidence = [e for s in g for e in s.evidence]
        out.append(
            Span(
                start=start,
                end=stop,
                text=text[start:stop],
                label=best.label,
                score=best.score,
                detector="+".join(detectors),
                reason="; ".join(dict.fromkeys(reasons)),
                evidence=evidence,
            )
        )
    return out
