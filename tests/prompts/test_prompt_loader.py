"""The prompt loader: language fallback, includes, strict variables."""

from __future__ import annotations

import jinja2
import pytest

from hallucheck.prompts import PromptNotFound, available_prompts, render, template_languages
from hallucheck.prompts.loader import candidates, resolve_language

SOURCES = [{"id": "1", "text": "Founded in 2010."}]


def test_language_fallback_chain() -> None:
    assert candidates("zh-Hant") == ["zh-Hant", "zh", "en"]
    assert resolve_language("judge/claims", "zh-Hant") == "zh-Hant"
    assert resolve_language("judge/claims", "zh-Hans") == "zh"
    assert resolve_language("judge/claims", "de") == "en"
    assert resolve_language("judge/claims", None) == "en"


@pytest.mark.parametrize("name", ["judge/claims", "judge/evaluation", "two_step/critique", "two_step/structure",
                                  "claims/extract", "self_consistency/sample", "self_consistency/presence",
                                  "knowledge/verify"])
def test_every_llm_prompt_has_english_and_chinese(name: str) -> None:
    langs = template_languages(name)
    assert "en" in langs and ("zh" in langs or "zh-Hant" in langs)
    assert name in available_prompts()


def test_render_fills_the_case() -> None:
    text = render("judge/claims", "en", question="When?", sources=SOURCES, answer="In 2011.")
    assert "[1] Founded in 2010." in text and "In 2011." in text and "When?" in text
    zh = render("judge/claims", "zh-Hans", question="", sources=SOURCES, answer="2011年。")
    assert "来源" in zh and "问题" not in zh  # the question block is left out when empty


def test_two_step_uses_expert_advice_and_candidate_answer() -> None:
    text = render("two_step/critique", "en", question="q", sources=SOURCES, answer="a")
    assert "EXPERT ADVICE" in text and "CANDIDATE ANSWER" in text


def test_missing_variable_and_unknown_template() -> None:
    with pytest.raises(jinja2.UndefinedError):
        render("judge/claims", "en", sources=SOURCES, answer="a")
    with pytest.raises(PromptNotFound):
        render("judge/nothing", "en")
    with pytest.raises(PromptNotFound):
        render("../secrets", "en")
