"""Token offsets always index the text exactly, whatever the characters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hallucheck.text.tokens import _WORD, tokenize

TRICKY = [
    "Prix\u00a0: 99\u202f€ — l’offre\u2003expire.",
    "cafe\u0301 nai\u0308ve \u0301lone mark",
    "tabs\tand\nnew\r\nlines  [1][2]",
    "emoji 👍🏽 and ZWJ 👩‍💻 ok",
    "3.5% 1,200 12:30 5km state-of-the-art don't",
    "",
    "   ",
]


def _check(text: str, language: str = "en") -> None:
    tokens = tokenize(text, language)
    pos = 0
    for t in tokens:
        assert text[t.start : t.end] == t.text
        assert t.start >= pos and not text[pos : t.start].strip()  # only white space between tokens
        pos = t.end
    assert not text[pos:].strip()


@pytest.mark.parametrize("text", TRICKY)
def test_offsets_on_tricky_text(text: str) -> None:
    _check(text)
    assert [t.text for t in tokenize(text)] == _WORD.findall(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_offsets_on_any_text(text: str) -> None:
    _check(text)


def test_ascii_pattern_classes_agree_with_the_unicode_ones() -> None:
    import regex

    from hallucheck.text.tokens import _WORD_ASCII

    ascii_chars = [chr(i) for i in range(128)]
    letters = "".join(c for c in ascii_chars if regex.fullmatch(r"\p{L}", c))
    digits = "".join(c for c in ascii_chars if regex.fullmatch(r"\p{N}", c))
    spaces = "".join(c for c in ascii_chars if regex.fullmatch(r"\s", c))
    assert letters == "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    assert digits == "0123456789"
    assert spaces == "\t\n\x0b\x0c\r "
    assert not any(regex.fullmatch(r"\p{M}", c) for c in ascii_chars)
    every = "".join(ascii_chars)
    for text in (every, every[::-1], "a1 b2.3,4 x'y z-w 5km 20% \x1c\x1fend", " ".join(ascii_chars)):
        assert _WORD_ASCII.findall(text) == _WORD.findall(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=80))
def test_ascii_text_tokenises_as_with_the_unicode_pattern(text: str) -> None:
    assert [t.text for t in tokenize(text)] == _WORD.findall(text)


@pytest.mark.parametrize("language", ["en", "de", "zh-Hant"])
@pytest.mark.parametrize("text", [*TRICKY, "您好！可以在 30 天內申請全額退款。", "The 3 cats [1] don't sleep."])
def test_columns_are_the_tokens_as_lists(text: str, language: str) -> None:
    from hallucheck.text.tokens import token_columns

    tokens = tokenize(text, language)
    cols = token_columns(text, language)
    assert list(cols.starts) == [t.start for t in tokens]
    assert list(cols.ends) == [t.end for t in tokens]
    assert list(cols.norms) == [t.norm for t in tokens]
    # The masks are bytes of 0 and 1 (compared as lists: 1 == True)
    assert list(cols.words) == [not t.is_punct for t in tokens]
    assert list(cols.content) == [not t.is_punct and not t.is_stop for t in tokens]
    assert list(cols.facts) == [not t.is_punct and not t.is_stop and not t.is_number for t in tokens]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_columns_match_tokens_on_any_text(text: str) -> None:
    from hallucheck.text.tokens import token_columns

    cols = token_columns(text)
    assert list(zip(cols.starts, cols.ends, cols.norms)) == [(t.start, t.end, t.norm) for t in tokenize(text)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1,.%'-\t\n\x0b\x0c\r \x1c\x1f[]"), max_size=60))
def test_ascii_columns_match_tokens_around_white_space(text: str) -> None:
    """The ASCII path sums match lengths (white space included) instead of searching each token."""
    from hallucheck.text.tokens import token_columns

    tokens = tokenize(text)
    cols = token_columns(text)
    assert list(zip(cols.starts, cols.ends, cols.norms)) == [(t.start, t.end, t.norm) for t in tokens]
    assert list(cols.content) == [not t.is_punct and not t.is_stop for t in tokens]


def test_chinese_connectives_and_modal_verbs_carry_no_content() -> None:
    """A faithful rewording swaps one connective or modal verb for another: the content words stay."""
    from hallucheck.text.tokens import content_tokens

    source = "但是你可以通过这个命令安装软件包。"
    reworded = "不过你能够通过这个命令安装软件包。"
    assert [t.norm for t in content_tokens(tokenize(reworded, "zh-Hans"))] == [
        t.norm for t in content_tokens(tokenize(source, "zh-Hans"))
    ]
    # a negation is not a connective: it stays content
    negated = "但是你不能通过这个命令安装软件包。"
    assert [t.norm for t in content_tokens(tokenize(negated, "zh-Hans"))] != [
        t.norm for t in content_tokens(tokenize(source, "zh-Hans"))
    ]


def test_word_tables_are_bounded_over_all_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words of every language together stay under the bound (plus one text's new words):
    a bound per language let a process reading several languages keep that much for each."""
    from hallucheck.text import tokens

    monkeypatch.setattr(tokens, "_WORD_TABLES", {})
    monkeypatch.setattr(tokens, "_WORD_TABLE_SIZE", 500)
    for i in range(40):
        for lang in ("en", "de", "fr"):
            text = " ".join(f"w{lang}{i}x{k}" for k in range(30))
            tokens.token_columns(text, lang)
            assert sum(map(len, tokens._WORD_TABLES.values())) <= 500 + 30
    # what is kept still gives the same tokens
    assert [t.norm for t in tokenize("Houses were built", "en")] == ["house", "be", "build"]
