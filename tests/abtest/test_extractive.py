"""The offline extractive backend reads our prompts back and answers in each strategy's format."""

from __future__ import annotations

import json

from hallucheck.abtest.extractive import ExtractiveLLM
from hallucheck.prevent.prompt_strategies import final_answer, prompt_messages
from hallucheck.prevent.structured_answer import parse_structured_answer

SOURCES = [{"id": "FAQ-2", "text": "The reset link is valid for 24 hours. Our office is in Berlin."}]
Q = "How long is the reset link valid?"


def ask(strategy: str, question: str = Q, language: str = "en") -> str:
    return ExtractiveLLM().complete(prompt_messages(strategy, question, SOURCES, language)).text


def test_picks_the_relevant_sentence_and_cites_when_asked():
    assert ask("basic").startswith("The reset link is valid for 24 hours.")
    assert "[source:FAQ-2]" in ask("forced_citation") and "[source:FAQ-2]" not in ask("basic")


def test_formats_per_strategy():
    assert final_answer("chain_of_thought", ask("chain_of_thought")).startswith("The reset link")
    assert final_answer("self_reflection", ask("self_reflection")).startswith("The reset link")
    parsed = parse_structured_answer(ask("structured"))
    assert parsed is not None and parsed.sources_used == ["FAQ-2"] and not parsed.unable_to_answer


def test_unrelated_question_gets_the_not_found_sentence():
    assert ask("basic", "Quelle est la couleur du ciel ?", "fr") == "Les sources ne le disent pas."
    data = json.loads(ask("structured", "Zebra migration?"))
    assert data["unable_to_answer"] is True


def test_usage_is_counted():
    c = ExtractiveLLM().complete(prompt_messages("basic", Q, SOURCES, "en"))
    assert c.prompt_tokens > 20 and c.completion_tokens > 3 and c.model == "extractive-demo"
