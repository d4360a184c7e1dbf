"""A scripted checker for repair and guard tests: the risk of an answer is decided by marker words in it, so every branch
of the repair loop can be reached deterministically."""

from __future__ import annotations

from hallucheck.types import Case, Report, Span

# word in the answer -> (risk score, risk level)
LEVELS = {"CRIT": (0.9, "high"), "HIGH": (0.7, "high"), "MOD": (0.45, "moderate")}


class ScriptedChecker:
    """Flags each marker word as a fabricated span; the worst marker sets the risk."""

    def __init__(self) -> None:
        self.checked: list[str] = []

    def check(self, case: Case) -> Report:
        answer = case.answer
        self.checked.append(answer)
        score, level = 0.1, "low"
        spans: list[Span] = []
        for word, (s, lvl) in LEVELS.items():
            start = answer.find(word)
            while start != -1:
                spans.append(Span(start=start, end=start + len(word), text=word, label="fabrication", score=s, detector="scripted"))
                if s > score:
                    score, level = s, lvl
                start = answer.find(word, start + 1)
        spans.sort(key=lambda s: s.start)
        return Report(
            hallucinated=level != "low",
            risk_score=score,
            risk_level=level,  # type: ignore[arg-type]
            decision={"low": "accept", "moderate": "review", "high": "reject"}[level],  # type: ignore[arg-type]
            spans=spans,
            language=case.language or "en",
        )
