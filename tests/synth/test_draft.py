"""Labelled spans follow the text through edits."""

from __future__ import annotations

from hallucheck.synth.draft import Draft, LabelledSpan


def test_replace_shifts_and_stretches_spans() -> None:
    d = Draft("costs 99 euros in 2021")
    d.replace(6, 8, "189", "contradiction")
    assert d.text == "costs 189 euros in 2021" and d.text[6:9] == "189"
    d.replace(19, 23, "2019", "contradiction")
    d.replace(0, 5, "is")  # before both spans: they move left
    assert d.text == "is 189 euros in 2019"
    assert [d.text[s.start : s.end] for s in d.sorted_spans()] == ["189", "2019"]
    d.replace(4, 5, "X")  # inside the first span: it keeps covering the changed characters
    assert [d.text[s.start : s.end] for s in d.sorted_spans()] == ["1X9", "2019"]


def test_insert_at_a_span_end_does_not_grow_it() -> None:
    d = Draft("value 42.")
    d.label(6, 8, "contradiction")
    d.insert(8, " [1]")
    assert d.text == "value 42 [1]." and d.spans == [LabelledSpan(6, 8, "contradiction")]
    d.insert(0, "The ")
    assert d.text[d.spans[0].start : d.spans[0].end] == "42"
