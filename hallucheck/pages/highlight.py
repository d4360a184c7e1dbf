"""An answer cut where flagged (and gold) spans start or end, ready for the ``marks`` macro.

Both report pages colour an answer's spans the same way, so a label has one colour everywhere.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LABEL_COLORS", "highlight_segments"]

LABEL_COLORS: dict[str, str] = {
    "contradiction": "#f4a3a3",
    "fabrication": "#ffc680",
    "baseless": "#fde58a",
    "distortion": "#e3c4f5",
    "extrapolation": "#f6efa6",
    "invalid_citation": "#f2a6e0",
    "uncited": "#b9e6f2",
    "speculation": "#c9ddf7",
}


def highlight_segments(answer: str, predicted: list[dict[str, Any]], gold: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``answer`` cut where any span starts or ends: each piece with its predicted label (and
    colour, reason) if inside a predicted span, and whether it is inside a gold span."""
    cuts = {0, len(answer)}
    for s in [*predicted, *gold]:
        cuts.update((max(0, min(int(s["start"]), len(answer))), max(0, min(int(s["end"]), len(answer)))))
    points = sorted(cuts)
    out: list[dict[str, Any]] = []
    for a, b in zip(points, points[1:]):
        if a >= b:
            continue
        hit = next((s for s in predicted if s["start"] <= a and b <= s["end"]), None)
        label = hit.get("label", "") if hit is not None else ""
        out.append({
            "text": answer[a:b],
            "label": label,
            "color": LABEL_COLORS.get(label, "#ddd") if hit is not None else "",
            "reason": hit.get("reason", "") if hit is not None else "",
            "gold": any(s["start"] <= a and b <= s["end"] for s in gold),
        })
    return out
