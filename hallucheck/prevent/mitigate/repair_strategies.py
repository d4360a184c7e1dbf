"""The production pipeline guide's mitigation strategies that regenerate or replace the whole answer.

Factual correction, which edits only the flagged spans, lives in ``correction.py``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from hallucheck.llm.base import Message
from hallucheck.prevent.abstention import abstain_message, is_abstention, not_found_message
from hallucheck.prevent.mitigate.base import MitigationStrategy, Repair, RepairState, feedback_for
from hallucheck.prevent.mitigate.steps import Steps, Usage, ask
from hallucheck.prevent.prompt_strategies import PromptStrategy, final_answer, prompt_messages, reply_language, template_language

__all__ = ["PassThrough", "Abstain", "SourceReinforcement", "TemperatureAdjustment", "DecomposeRetry"]


class PassThrough(MitigationStrategy):
    """Keep the answer as it is (low risk, or moderate risk that reinforcement did not improve)."""

    name: ClassVar[str] = "pass_through"
    terminal: ClassVar[bool] = True

    def steps(self, state: RepairState, usage: Usage) -> Steps[Repair]:
        return Repair(state.answer, note="answer kept as it is")
        yield  # pragma: no cover


class Abstain(MitigationStrategy):
    """Say clearly, in the case's language, that the sources do not answer the question."""

    name: ClassVar[str] = "abstain"
    terminal: ClassVar[bool] = True

    def steps(self, state: RepairState, usage: Usage) -> Steps[Repair]:
        return Repair(abstain_message(state.language), note="answer replaced by an abstention")
        yield  # pragma: no cover


class SourceReinforcement(MitigationStrategy):
    """Regenerate with the forced-citation template, telling the model which statements to drop."""

    name: ClassVar[str] = "source_reinforcement"
    uses_llm: ClassVar[bool] = True

    def steps(self, state: RepairState, usage: Usage) -> Steps[Repair]:
        feedback = feedback_for(state.report)
        messages = prompt_messages(
            PromptStrategy.FORCED_CITATION, state.question, state.sources, state.language, feedback=feedback
        )
        text = yield from ask(messages, usage, temperature=state.temperature, **state.settings)
        note = f"regenerated with forced citations; {len(feedback)} flagged statement(s) named"
        return Repair(final_answer(PromptStrategy.FORCED_CITATION, text), state.temperature, note)


class TemperatureAdjustment(MitigationStrategy):
    """Regenerate with the original prompt at a lower temperature (less invention, the production pipeline guide)."""

    name: ClassVar[str] = "temperature_adjustment"
    uses_llm: ClassVar[bool] = True

    def __init__(self, step: float = 0.3, floor: float = 0.0) -> None:
        self.step = step
        self.floor = floor

    def skip_reason(self, state: RepairState, has_llm: bool) -> str | None:
        if state.temperature <= self.floor:
            return f"temperature already at {state.temperature:g}"
        return super().skip_reason(state, has_llm)

    def steps(self, state: RepairState, usage: Usage) -> Steps[Repair]:
        temperature = round(max(self.floor, state.temperature - self.step), 3)
        messages = prompt_messages(state.prompt_strategy, state.question, state.sources, state.language)
        text = yield from ask(messages, usage, temperature=temperature, **state.settings)
        note = f"regenerated at temperature {temperature:g} (was {state.temperature:g})"
        return Repair(final_answer(state.prompt_strategy, text), temperature, note)


class DecomposeRetry(MitigationStrategy):
    """Split the question into simpler sub-questions, answer each from the sources, and join them.

    A question that mixes several asks invites the model to fill gaps; answered one at a time
    with forced citations, each part either has a source or says the sources do not say.
    """

    name: ClassVar[str] = "decompose_retry"
    uses_llm: ClassVar[bool] = True

    def __init__(self, max_questions: int = 3) -> None:
        self.max_questions = max_questions

    def steps(self, state: RepairState, usage: Usage) -> Steps[Repair]:
        from hallucheck.prevent.structured_answer import load_json  # lazy: loaded only on this path
        from hallucheck.prompts.loader import render  # lazy: loaded only on this path

        prompt = render(
            "mitigate/decompose", template_language(state.language), question=state.question,
            max_questions=self.max_questions, reply_language=reply_language(state.language),
        )
        text = yield from ask([Message("user", prompt)], usage, temperature=0.0, **state.settings)
        questions = _sub_questions(load_json(text), self.max_questions) or [state.question]
        parts: list[str] = []
        for sub in questions:
            messages = prompt_messages(PromptStrategy.FORCED_CITATION, sub, state.sources, state.language)
            raw = yield from ask(messages, usage, temperature=0.0, **state.settings)
            part = final_answer(PromptStrategy.FORCED_CITATION, raw)
            if part and not is_abstention(part) and part not in parts:
                parts.append(part)
        if not parts:
            return Repair(not_found_message(state.language), 0.0, f"none of {len(questions)} sub-question(s) answered")
        joiner = "" if state.language.startswith("zh") else " "
        answer = joiner.join(p if re.search(r"[.!?。！？\]]\s*$", p) else p + ("。" if joiner == "" else ".") for p in parts)
        return Repair(answer, 0.0, f"answered {len(questions)} sub-question(s) separately")


def _sub_questions(data: object, limit: int) -> list[str]:
    """The sub-questions in a parsed reply ({"questions": [...]} or a bare list); [] if none."""
    if isinstance(data, dict):
        data = data.get("questions") or data.get("sub_questions") or next(iter(data.values()), None)
    if not isinstance(data, list):
        return []
    out = [q.strip() for q in data if isinstance(q, str) and q.strip()]
    return list(dict.fromkeys(out))[:limit]
