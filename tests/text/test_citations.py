import pytest

from hallucheck.text.citations import find_citations, mask_citations, strip_citations


def _ids(text: str, known: tuple[str, ...] = ()) -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for mk in find_citations(text, known):
        assert text[mk.start : mk.end] == mk.text
        out.append((mk.text, mk.ids))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Done [1].", [("[1]", ("1",))]),
        ("Done [1, 2].", [("[1, 2]", ("1", "2"))]),
        ("Done [1][2].", [("[1]", ("1",)), ("[2]", ("2",))]),
        ("Done [Source 1].", [("[Source 1]", ("1",))]),
        ("Done [source:doc_7].", [("[source:doc_7]", ("doc_7",))]),
        ("完成 [來源 1]。", [("[來源 1]", ("1",))]),
        ("完成 [来源 2]。", [("[来源 2]", ("2",))]),
        ("完成 [文件 3]。", [("[文件 3]", ("3",))]),
        ("Done [Doc 1].", [("[Doc 1]", ("1",))]),
        ("完成 [上下文 1]。", [("[上下文 1]", ("1",))]),
        ("Fertig [Quelle 2].", [("[Quelle 2]", ("2",))]),
        ("完成【1】和［2］。", [("【1】", ("1",)), ("［2］", ("2",))]),
        ("Done (Source 3).", [("(Source 3)", ("3",))]),
        ("Done [Sources 1 and 2].", [("[Sources 1 and 2]", ("1", "2"))]),
        ("Done [1-3].", [("[1-3]", ("1", "2", "3"))]),
        ("Done [Source 1, Source 2].", [("[Source 1, Source 2]", ("1", "2"))]),
        ("Done [doc_7].", [("[doc_7]", ("doc_7",))]),
        ("Done [1、2]。", [("[1、2]", ("1", "2"))]),
        ("Done ^[1]^.", [("^[1]^", ("1",))]),
        ("Done [FAQ-001].", [("[FAQ-001]", ("FAQ-001",))]),
        ("Done [source:doc-a].", [("[source:doc-a]", ("doc-a",))]),
        ("完成[來源 POL-1]。", [("[來源 POL-1]", ("POL-1",))]),
        ("Done [^2].", [("[^2]", ("2",))]),
    ],
)
def test_marker_formats(text: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert _ids(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "See [the docs](https://example.org).",  # markdown link
        "He said [sic] it.",
        "- [ ] open task\n- [x] done task\n- [X] done",
        "In [2020] it rained.",  # a bracketed year is no citation
        "A [Note] about [abc] and [citation needed].",
        "Values ['a', 'b'] and [2-3 days].",
        "(see page 3) and (Id est) are prose.",
        "[1]: https://example.org",  # markdown link definition
    ],
)
def test_not_citations(text: str) -> None:
    assert _ids(text) == []


def test_bare_word_counts_when_it_is_a_known_id() -> None:
    assert _ids("As said [intro].", ("intro",)) == [("[intro]", ("intro",))]
    assert _ids("As said [intro].") == []


def test_offsets_and_strip() -> None:
    text = "Paris is big [1]. It is old [2, 3]."
    marks = find_citations(text)
    assert [(m.start, m.end) for m in marks] == [(13, 16), (28, 34)]
    assert strip_citations(text, marks) == "Paris is big . It is old ."
    # stripping a slice that starts at an offset
    assert strip_citations(text[18:], marks, 18) == "It is old ."


def test_letter_ids_count_only_where_sources_use_letters() -> None:
    assert _ids("As said [a] and [d].", ("a", "b")) == [("[a]", ("a",)), ("[d]", ("d",))]
    assert _ids("As said [a] and [d].", ("1", "2")) == []
    assert _ids("- [x] done", ("a",)) == []  # a check box stays a check box


def test_mask_keeps_length_and_offsets() -> None:
    text = "Paris is big [1]. 退款【2】。"
    masked = mask_citations(text, find_citations(text))
    assert masked == "Paris is big    . 退款   。"
    assert len(masked) == len(text)
    assert mask_citations(text, []) is text
