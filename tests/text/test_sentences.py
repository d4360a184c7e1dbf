from hallucheck.text import split_sentences


def _texts(text: str) -> list[str]:
    segs = split_sentences(text)
    for s in segs:
        assert text[s.start : s.end] == s.text
    return [s.text for s in segs]


def test_abbreviations_and_decimals_do_not_split() -> None:
    assert _texts("Dr. Smith paid $3.5 million. It was in the U.S. Army.") == [
        "Dr. Smith paid $3.5 million.",
        "It was in the U.S. Army.",
    ]


def test_cjk_ends_and_citations_stay_with_sentence() -> None:
    assert _texts("苹果公司收购了B公司。价值12亿元！[1] 好吗？") == ["苹果公司收购了B公司。", "价值12亿元！[1]", "好吗？"]
    assert _texts("It is done. [1] Next [2]?") == ["It is done. [1]", "Next [2]?"]


def test_lists_and_newlines() -> None:
    assert _texts("Steps:\n1. Open it.\n2. Close it.") == ["Steps:", "1. Open it.", "2. Close it."]


def test_empty() -> None:
    assert split_sentences("") == []
    assert split_sentences("   \n ") == []
