"""Typed token labels: which word pieces of an answer are conflict, baseless or supported."""

from __future__ import annotations

from hallucheck.models.tagger_evidence import source_view
from hallucheck.models.tagger_features import (
    TOKEN_TYPES,
    EncoderSettings,
    encode_answer,
)

CONFLICT = TOKEN_TYPES.index("conflict")
BASELESS = TOKEN_TYPES.index("baseless")


def _labels_by_word(answer: str, spans, tokenizer) -> dict[str, set[int]]:  # type: ignore[no-untyped-def]
    view = source_view(("Acme bought Beta in 2010. Beta makes bolts.",), "en", tokenizer)
    out: dict[str, set[int]] = {}
    for w in encode_answer(answer, "Who bought Beta?", view, tokenizer, "en", EncoderSettings(max_len=96), spans=spans):
        for (s, e), lab in zip(w.target_offsets, w.labels):
            out.setdefault(answer[s:e], set()).add(lab)
    return out


def test_typed_spans_label_their_pieces_and_the_rest_is_supported(tokenizer) -> None:  # type: ignore[no-untyped-def]
    answer = "Acme bought Beta in 2012. Beta also makes nails."
    y0 = answer.index("2012")
    n0 = answer.index("nails")
    labels = _labels_by_word(answer, [(y0, y0 + 4, CONFLICT), (n0, n0 + 5, BASELESS)], tokenizer)
    assert labels["2012"] == {CONFLICT}
    assert labels["nails"] == {BASELESS}
    assert labels["bought"] == {0} and labels["makes"] == {0}


def test_untyped_spans_are_baseless_and_conflict_wins_an_overlap(tokenizer) -> None:  # type: ignore[no-untyped-def]
    answer = "Acme bought Beta in 2012."
    y0 = answer.index("2012")
    assert _labels_by_word(answer, [(y0, y0 + 4)], tokenizer)["2012"] == {BASELESS}
    both = [(y0 - 3, y0 + 4, BASELESS), (y0, y0 + 4, CONFLICT)]
    labels = _labels_by_word(answer, both, tokenizer)
    assert labels["2012"] == {CONFLICT} and labels["in"] == {BASELESS}
