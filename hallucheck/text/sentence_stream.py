"""Sentences of a text that arrives piece by piece, each given out once it can no longer change.

``split_sentences`` decides a sentence end by looking a little ahead: the run of end marks, the
closing quotes and brackets, citation markers that belong to the sentence (``done. [1] Next``) and
whether the next word starts in lower case (``e.g. this`` is no end). A generated answer arrives
token by token, so the last sentence of what has arrived may still grow, and even an end that
looks final (``done. [1``) may still take a citation marker. ``SentenceBuffer`` gives out a
sentence only when everything that decides its end has arrived, so the sentences it gives out
are exactly those ``split_sentences`` finds in the whole text, with offsets into the whole text.

Only the part after the last settled sentence is split again at each feed (see
``SentenceBuffer`` for long unsettled ends), so feeding a long answer a few characters at a time
stays close to linear.
"""

from __future__ import annotations

from hallucheck.text.segments import Segment
from hallucheck.text.sentences import split_sentences

__all__ = ["SentenceBuffer"]

# A citation marker piece that may still join the sentence before it is ``[`` + 1..40 characters
# + ``]`` (see ``_CITATION_TAIL`` in sentences.py): with this many characters after a ``[`` in
# hand, whether it is one is decided.
_MARKER_LOOKAHEAD = 42
# An unsettled end longer than this is split again only once it grew by 1/_GROWTH.
_LONG_TAIL = 2048
_GROWTH = 8


class SentenceBuffer:
    """Collects text with ``feed`` and returns the sentences it completed.

    ``feed(text)`` returns the sentences (Segments with offsets into everything fed so far) that
    the new text settled; ``close()`` ends the text and returns the rest. Together they return
    ``split_sentences`` of the whole text, in order, each sentence once.

    Cost: only the unsettled end of the text (usually the sentence being written) is split again,
    and while that end is long (a sentence of thousands of characters, or text without sentence
    ends) it is split again only after it grew by an eighth, so that feeding a long text a few
    characters at a time stays close to linear. Such a sentence may then come out a little later
    than the piece that completed it, never earlier, never different.
    """

    def __init__(self) -> None:
        self._done: list[str] = []  # the settled text, in pieces
        self._done_len = 0
        self._tail = ""  # the unsettled end, from the end of the last settled sentence
        self._fresh: list[str] = []  # fed since the last split
        self._fresh_len = 0
        self._closed = False

    def __len__(self) -> int:
        """Characters fed so far."""
        return self._done_len + len(self._tail) + self._fresh_len

    @property
    def text(self) -> str:
        """Everything fed so far (joined on demand: it costs the length of the text)."""
        return "".join(self._done) + self._tail + "".join(self._fresh)

    @property
    def settled_end(self) -> int:
        """Offset up to which the sentences were given out."""
        return self._done_len

    def feed(self, text: str) -> list[Segment]:
        if self._closed:
            raise ValueError("the text was closed; no more can be fed")
        if not text:
            return []
        self._fresh.append(text)
        self._fresh_len += len(text)
        tail = len(self._tail)
        if tail > _LONG_TAIL and self._fresh_len * _GROWTH < tail and "\n" not in text:
            return []  # a long unsettled end: wait until it grew enough to be worth splitting again
        return self._settle(final=False)

    def close(self) -> list[Segment]:
        """End the text: its last sentence is complete now."""
        if self._closed:
            return []
        out = self._settle(final=True)
        self._closed = True
        return out

    def _settle(self, final: bool) -> list[Segment]:
        if self._fresh:
            self._tail += "".join(self._fresh)
            self._fresh.clear()
            self._fresh_len = 0
        tail = self._tail
        base = self._done_len
        segs = split_sentences(tail)
        if final:
            ready = len(segs)
        else:
            ready = 0
            while ready + 1 < len(segs) and _settled(tail, segs[ready], segs[ready + 1]):
                ready += 1
            if ready + 1 == len(segs) and "\n" in tail[segs[-1].end :]:
                ready += 1  # the last sentence's line is complete
        if not ready:
            return []
        out = [Segment(base + s.start, base + s.end, s.text) for s in segs[:ready]]
        cut = segs[ready - 1].end
        self._done.append(tail[:cut])
        self._done_len += cut
        self._tail = tail[cut:]
        return out


def _settled(tail: str, seg: Segment, nxt: Segment) -> bool:
    """Whether no further text can change where ``seg`` ends (``nxt`` is the sentence after it)."""
    if "\n" in tail[seg.end : nxt.start]:
        return True  # a line break always ends a sentence, and the line is complete
    if tail[nxt.start] != "[":
        return True  # the look-ahead past the end (white space, one character) is all there
    # A "[" right after the end could still become a citation marker of this sentence.
    after = tail[nxt.start + 1 : nxt.start + 1 + _MARKER_LOOKAHEAD]
    return len(after) >= _MARKER_LOOKAHEAD or "\n" in after
