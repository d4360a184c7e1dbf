"""Sentences of a text that arrives piece by piece, each given out once it can no longer change.

``split_sentences`` decides a sentence end by looking a little ahead: the run of end marks, the
closing quotes and brackets, citation markers that belong to the sentence (``done. [1] Next``) and
whether the next word starts in lower case (``e.g. this`` is no end). A generated answer arrives
token by token, so the last sentence of what has arrived may still grow, and even an end that
looks final (``done. [1``) may still take a citation marker. ``SentenceBuffer`` gives out a
sentence only when everything that decides its end has arrived, so the sentences it gives out
are exactly those ``split_sentences`` finds in the whole text, with offsets into the whole text.

Only the part after the last settled sentence is split again at each feed, so feeding a long
answer a few characters at a time stays linear in practice.
"""

from __future__ import annotations

from hallucheck.text.segments import Segment
from hallucheck.text.sentences import split_sentences

__all__ = ["SentenceBuffer"]

# A citation marker piece that may still join the sentence before it is ``[`` + 1..40 characters
# + ``]`` (see ``_CITATION_TAIL`` in sentences.py): with this many characters after a ``[`` in
# hand, whether it is one is decided.
_MARKER_LOOKAHEAD = 42


class SentenceBuffer:
    """Collects text with ``feed`` and returns the sentences it completed.

    ``feed(text)`` returns the sentences (Segments with offsets into everything fed so far) that
    the new text settled; ``close()`` ends the text and returns the rest. Together they return
    ``split_sentences`` of the whole text, in order, each sentence once.
    """

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._text = ""
        self._base = 0  # where the splitter restarts: the end of the last settled sentence
        self._closed = False

    @property
    def text(self) -> str:
        """Everything fed so far."""
        if self._parts:
            self._text += "".join(self._parts)
            self._parts.clear()
        return self._text

    @property
    def settled_end(self) -> int:
        """Offset up to which the sentences were given out."""
        return self._base

    def feed(self, text: str) -> list[Segment]:
        if self._closed:
            raise ValueError("the text was closed; no more can be fed")
        if not text:
            return []
        self._parts.append(text)
        return self._settle(final=False)

    def close(self) -> list[Segment]:
        """End the text: its last sentence is complete now."""
        if self._closed:
            return []
        out = self._settle(final=True)
        self._closed = True
        return out

    def _settle(self, final: bool) -> list[Segment]:
        whole = self.text
        base = self._base
        tail = whole[base:]
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
        self._base = out[-1].end
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
