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


def test_ascii_lines_split_as_with_the_unicode_patterns() -> None:
    import regex

    from hallucheck.text import sentences as s

    assert "".join(c for c in map(chr, range(128)) if regex.fullmatch(r"\s", c)) == "\t\n\x0b\x0c\r "
    for text in ("Done. [1] Next one!\x1c[2] Then? [a b]\x1fx. y", "See Dr. Smith. e.g. U.S. ... ok!? Fine.\t[3]"):
        for pos in range(len(text)):
            pairs = ((s._CITATION_TAIL, s._CITATION_TAIL_ASCII), (s._LATIN_END, s._LATIN_END_ASCII), (s._CANDIDATE, s._CANDIDATE_ASCII))
            for plain, fast in pairs:
                a, b = plain.match(text, pos), fast.match(text, pos)
                assert (a and a.span()) == (b and b.span())


def test_marker_glued_to_a_stop_stays_with_its_sentence() -> None:
    for marker in ("[1]", "【1】", "［1］", "^[1]^"):
        text = f"The shop opens at nine.{marker} It closes at six."
        assert [s.text for s in split_sentences(text)] == [f"The shop opens at nine.{marker}", "It closes at six."]
