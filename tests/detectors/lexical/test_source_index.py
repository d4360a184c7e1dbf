"""Source-side views shared by the lexical detectors: grouping, caching, offsets per source."""

from __future__ import annotations

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.detectors.lexical.source_index import locate_in_sources, memo, source_index


def test_locate_maps_joined_offsets_back_to_each_source() -> None:
    case = make_case(question="q", contexts=["First source.", "Second one here.", "Third."], answer="a")
    joined = case.source_text
    for src in case.contexts:
        start = joined.index(src.text)
        sid, a, b = locate_in_sources(case, start, start + len(src.text))
        assert sid == src.id and src.text[a:b] == src.text
    sid, _, _ = locate_in_sources(case, 0, joined.index("Second") + 3)
    assert sid is None  # straddles two sources


def test_index_is_built_once_per_source_and_keeps_sentences() -> None:
    a = CaseAnalysis(make_case(question="q", contexts=["Apple bought Beats. The deal closed quickly."], answer="x", language="en"))
    idx = source_index(a.source)
    assert idx is source_index(a.source)
    assert len(idx.sentences) == len(idx.words) == len(idx.content) == 2
    assert idx.content[1] == ("deal", "close", "quickly")
    assert "the" in idx.words[1] and "the" not in idx.content[1]
    assert idx.postings["deal"] == [1]
    calls: list[int] = []
    memo(a.source, "probe", lambda sa: calls.append(1) or 42)
    assert memo(a.source, "probe", lambda sa: calls.append(1) or 43) == 42 and calls == [1]
