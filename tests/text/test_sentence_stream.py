"""SentenceBuffer gives out exactly the sentences split_sentences finds, each once it is final."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hallucheck.text import split_sentences
from hallucheck.text.segments import Segment
from hallucheck.text.sentence_stream import SentenceBuffer


def _stream(pieces: list[str]) -> tuple[list[Segment], list[int]]:
    """All sentences given out, and for each the number of pieces fed when it came out."""
    buf = SentenceBuffer()
    out: list[Segment] = []
    when: list[int] = []
    for i, piece in enumerate(pieces, start=1):
        got = buf.feed(piece)
        out += got
        when += [i] * len(got)
    rest = buf.close()
    out += rest
    when += [len(pieces) + 1] * len(rest)
    return out, when


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


@pytest.mark.parametrize(
    "text",
    [
        "It is done. [1] Next [2]? And then e.g. this one. Dr. Smith paid $3.5 million.",
        "苹果公司收购了B公司。价值12亿元！[1] 好吗？「是的。」最后一句",
        "Die Firma wurde z.B. 2010 gegründet. Sie hat 12 Mitarbeiter [1]. Ende",
        "L'usine a ouvert en 2011. M. Dupont l'a dit ! Vraiment ? Oui.",
        "Steps:\n1. Open it.\n2. Close it.\nDone",
        "He said \"stop.\" [Source 2] [3] Then he left... And came back!?",
    ],
)
@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_same_sentences_as_the_whole_text(text: str, size: int) -> None:
    got, _ = _stream(_chunks(text, size))
    assert got == split_sentences(text)
    for seg in got:
        assert text[seg.start : seg.end] == seg.text


def test_a_sentence_comes_out_as_soon_as_the_next_one_starts() -> None:
    buf = SentenceBuffer()
    assert buf.feed("The plant opened in 2011.") == []  # may still take "[1]" or a lower-case word
    assert buf.feed(" ") == []
    [seg] = buf.feed("It")
    assert seg == Segment(0, 25, "The plant opened in 2011.")
    assert buf.feed(" has 40 staff。") == []
    [seg] = buf.feed("下")
    assert seg.text == "It has 40 staff。" and seg.start == 26
    assert [s.text for s in buf.close()] == ["下"]


def test_a_citation_after_the_end_is_waited_for() -> None:
    buf = SentenceBuffer()
    assert buf.feed("It opened in 2011. [1") == []  # "[1]" would still belong to the first sentence
    [seg] = buf.feed("] Then")
    assert seg.text == "It opened in 2011. [1]"
    assert buf.feed(" it grew.") == []
    [seg] = buf.feed("\n")  # a line break ends a sentence for good
    assert seg.text == "Then it grew."


def test_a_bracket_that_cannot_be_a_marker_any_more_settles() -> None:
    text = "It opened in 2011. [" + "x" * 50
    buf = SentenceBuffer()
    [seg] = buf.feed(text)
    assert seg.text == "It opened in 2011."


def test_close_ends_the_text() -> None:
    buf = SentenceBuffer()
    buf.feed("One. Two")
    assert [s.text for s in buf.close()] == ["Two"]
    assert buf.close() == []
    with pytest.raises(ValueError):
        buf.feed("more")


_ALPHABET = st.sampled_from(list("ab A.1.!?[]]\n 。！？」”'\"…xe.g") + ["e.g. ", "Dr. ", "[1]", " [2] ", "U.S. ", "3.5"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=60), st.lists(st.integers(1, 6), min_size=1, max_size=20))
def test_any_text_in_any_pieces(parts: list[str], sizes: list[int]) -> None:
    text = "".join(parts)
    pieces, pos, i = [], 0, 0
    while pos < len(text):
        n = sizes[i % len(sizes)]
        pieces.append(text[pos : pos + n])
        pos += n
        i += 1
    got, _ = _stream(pieces)
    assert got == split_sentences(text)


@pytest.mark.parametrize(
    "text",
    [
        "1.5 " * 1500 + "e.g. more. Then an end. And more",  # a 6,000-character sentence, then short ones
        ("It opened in 2011. " * 3 + "x" * 3000 + ". Next one [1]. " + "y " * 1500 + "\n") * 2,
        "这是一个很长的句子" * 400 + "。下一句！",
    ],
)
@pytest.mark.parametrize("size", [1, 3, 50])
def test_long_unsettled_ends_give_the_same_sentences(text: str, size: int) -> None:
    got, _ = _stream(_chunks(text, size))
    assert got == split_sentences(text)


def test_feeding_a_long_text_in_small_pieces_stays_fast() -> None:
    import time

    buf = SentenceBuffer()
    text = "1.5 " * 25_000  # 100,000 characters, one sentence full of candidate ends
    t0 = time.perf_counter()
    for i in range(0, len(text), 4):
        assert buf.feed(text[i : i + 4]) == []
    assert len(buf) == len(text)
    assert [s.text for s in buf.close()] == [text.strip()]
    assert time.perf_counter() - t0 < 15  # splitting the whole end again at every piece took minutes
