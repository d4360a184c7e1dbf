"""The five answer prompts: sources under their real ids, in the markers the citation detector reads."""

from __future__ import annotations

import pytest

from hallucheck.prevent.prompt_strategies import (
    STRATEGIES,
    PromptStrategy,
    citation_marker,
    final_answer,
    parse_strategy,
    prompt_messages,
    render_prompt,
)
from hallucheck.text.citations import find_citations

SOURCES = [{"id": "FAQ-001", "text": "如何重設密碼？請點擊「忘記密碼」連結。"}, {"id": "FAQ-002", "text": "重設連結有效期為 24 小時。"}]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("language", ["en", "zh-Hant", "zh-Hans", "de", "fr"])
def test_every_strategy_renders_sources_with_citable_markers(strategy, language):
    prompt = render_prompt(strategy, "我忘記密碼了？", SOURCES, language)
    ids = {i for m in find_citations(prompt, {"FAQ-001", "FAQ-002"}) for i in m.ids}
    assert {"FAQ-001", "FAQ-002"} <= ids
    assert "24 小時" in prompt and "我忘記密碼了？" in prompt
    assert "{{" not in prompt and "{%" not in prompt


def test_chinese_templates_follow_the_seed_wording_and_english_is_english():
    zh = render_prompt("forced_citation", "我忘記密碼了？", SOURCES, "zh-Hant")
    assert "[來源 FAQ-001]" in zh and "每個陳述都必須標注來源" in zh and "知識庫中沒有這方面的資訊" in zh
    en = render_prompt("forced_citation", "How?", ["a", "b"], "en")
    assert "[1]\na" in en and "[2]\nb" in en and "cite" in en and "write it in" not in en
    assert "Write the answer in German." in render_prompt("forced_citation", "Wie?", ["a"], "de")
    assert "簡體中文" in render_prompt("basic", "怎么办?", ["a"], "zh-Hans")


def test_language_is_detected_when_not_given():
    assert "知識庫內容" in render_prompt("basic", "我忘記密碼了，該怎麼辦？", SOURCES)
    assert "Knowledge base" in render_prompt("basic", "How do I reset my password?", ["Click the link."])


def test_feedback_lists_the_statements_to_drop():
    prompt = render_prompt("forced_citation", "How?", ["a"], "en", feedback=["You get an SMS", " "])
    assert '- "You get an SMS"' in prompt and prompt.count("\n- ") == 1
    assert "Problems" not in render_prompt("forced_citation", "How?", ["a"], "en")


def test_markers():
    assert citation_marker("3") == "[3]"
    assert citation_marker("doc-7") == "[source:doc-7]"
    assert citation_marker("3", "zh-Hant") == "[來源 3]"


def test_parse_strategy_and_messages():
    assert parse_strategy("cot") is PromptStrategy.CHAIN_OF_THOUGHT
    assert parse_strategy("Forced-Citation") is PromptStrategy.FORCED_CITATION
    with pytest.raises(ValueError, match="known: basic"):
        parse_strategy("magic")
    (msg,) = prompt_messages("basic", "How?", ["a"], "en")
    assert msg.role == "user" and "How?" in msg.content
    with pytest.raises(ValueError, match="context 1"):
        render_prompt("basic", "How?", [42], "en")


def test_final_answer_extraction():
    cot = "### Step 1: Understand\nx\n### Step 4: Final answer\nClick the link [1]."
    assert final_answer("chain_of_thought", cot) == "Click the link [1]."
    zh = "### 第一步：初步回答\n甲\n### 第三步：修正與最終答案\n請點擊連結 [來源 1]。"
    assert final_answer("self_reflection", zh) == "請點擊連結 [來源 1]。"
    assert final_answer("chain_of_thought", "**Final answer:** Click it [1].") == "Click it [1]."
    assert final_answer("chain_of_thought", "No headings at all.") == "No headings at all."
    assert final_answer("structured", '```json\n{"answer": "A [1]"}\n```') == "A [1]"
    assert final_answer("structured", "not json") == "not json"
    assert final_answer("basic", "  plain  ") == "plain"
