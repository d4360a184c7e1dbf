"""What to say when the sources do not answer the question, in each supported language.

One wording is shared by the answer prompts ("if the knowledge base does not contain the
answer, say ...") and by the abstain repair, so a model that follows the prompt and a guard that
gives up produce the same sentence, and callers can recognise an abstention by its text.
"""

from __future__ import annotations

from hallucheck.text.language import normalize_language

__all__ = ["NOT_FOUND", "ABSTAIN", "not_found_message", "abstain_message", "is_abstention"]

# The short sentence a prompt asks the model to use when the sources do not answer.
NOT_FOUND: dict[str, str] = {
    "en": "The sources do not say.",
    "de": "Die Quellen sagen dazu nichts.",
    "fr": "Les sources ne le disent pas.",
    "zh-Hans": "知识库中没有这方面的资讯。",
    "zh-Hant": "知識庫中沒有這方面的資訊。",
}

# The full answer a guard gives when it could not produce a grounded one.
ABSTAIN: dict[str, str] = {
    "en": "The sources do not say, so I cannot answer this reliably. Please check the original documents or ask a person.",
    "de": (
        "Die Quellen sagen dazu nichts, daher kann ich diese Frage nicht verlässlich beantworten. "
        "Bitte prüfen Sie die Originaldokumente oder wenden Sie sich an eine Ansprechperson."
    ),
    "fr": (
        "Les sources ne le disent pas, je ne peux donc pas répondre de façon fiable. "
        "Veuillez consulter les documents d'origine ou vous adresser à une personne."
    ),
    "zh-Hans": "知识库中没有这方面的资讯，因此我无法可靠地回答这个问题。请查阅原始文件或联系客服人员。",
    "zh-Hant": "知識庫中沒有這方面的資訊，因此我無法可靠地回答這個問題。請查閱原始文件或聯繫客服人員。",
}


def _lang(language: str | None) -> str:
    code = normalize_language(language or "en")
    return code if code in NOT_FOUND else "en"


def not_found_message(language: str | None) -> str:
    """The prompt's "the sources do not say" sentence for ``language`` (English for others)."""
    return NOT_FOUND[_lang(language)]


def abstain_message(language: str | None) -> str:
    """The guard's abstention answer for ``language`` (English for languages without one)."""
    return ABSTAIN[_lang(language)]


def is_abstention(text: str) -> bool:
    """Whether ``text`` is (or starts with) one of the known "the sources do not say" sentences."""
    s = text.strip()
    return any(s.startswith(m.rstrip(".。")) for m in (*NOT_FOUND.values(), *ABSTAIN.values()))
