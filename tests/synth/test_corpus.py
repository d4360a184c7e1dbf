"""Reading documents into sections: HTML, Markdown, text, file naming and the paragraph filter."""

from __future__ import annotations

from pathlib import Path

import pytest

from hallucheck.errors import InputError
from hallucheck.synth.cleaning import clean_text
from hallucheck.synth.corpus import file_language, keep_paragraph, read_corpus
from hallucheck.synth.html_text import html_sections
from hallucheck.synth.plain_text import markdown_sections, text_sections


def test_html_sections_keep_prose_under_their_anchor() -> None:
    html = (
        '<div class="toc"><p>Contents: one two three four five six</p></div>'
        '<h2><a id="_a"/>1. First</h2><p>Use <code class="literal">apt</code> to\n install it.</p>'
        '<pre>$ apt install x</pre><table><tr><td>67672</td></tr></table>'
        '<h3 id="_b">2. Second</h3><p>Line<br/>break and &amp; entity.</p>'
    )
    secs = html_sections(html)
    assert [(s.anchor, s.title) for s in secs] == [("_a", "1. First"), ("_b", "2. Second")]
    assert secs[0].paragraphs == ["Use apt to install it."] and secs[0].terms == ["apt"]
    assert secs[1].paragraphs == ["Line break and & entity."]


def test_chinese_line_wrap_joins_without_a_space() -> None:
    assert clean_text("基本系统的下载\n大小为 80 MB。") == "基本系统的下载大小为 80 MB。"
    assert clean_text("Debian\n社群契约") == "Debian 社群契约"
    assert clean_text("  a \n\t b  ") == "a b"


def test_markdown_and_text_sections() -> None:
    md = "# Intro\n\nSome `tool` text with a [link](http://x) and **bold**.\n\n```\ncode here\n```\n\n## Next\n\n- item one\n- item two\n"
    secs = markdown_sections(md)
    assert [s.title for s in secs] == ["Intro", "Next"]
    assert secs[0].paragraphs == ["Some tool text with a link and bold."] and secs[0].terms == ["tool"]
    assert secs[1].paragraphs == ["item one", "item two"]
    txt = "Heading one\n\nA paragraph that ends.\nStill the same one.\n\nSecond heading\n\nMore text here."
    assert [(s.title, s.paragraphs) for s in text_sections(txt)] == [
        ("Heading one", ["A paragraph that ends. Still the same one."]),
        ("Second heading", ["More text here."]),
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ch02.zh-cn.html", ("ch02", "zh-Hans")),
        ("ch02.zh-tw.html", ("ch02", "zh-Hant")),
        ("ch02.en.html", ("ch02", "en")),
        ("guide.de.md", ("guide", "de")),
        ("notes.txt", ("notes", None)),
        ("v1.2.txt", ("v1.2", None)),
    ],
)
def test_file_language(name: str, expected: tuple[str, str | None]) -> None:
    assert file_language(Path(name)) == expected


def test_keep_paragraph_filters_language_and_length() -> None:
    assert keep_paragraph("The system keeps the logs for thirty days by default.", "en")
    assert not keep_paragraph("Das System speichert die Protokolle standardmäßig dreißig Tage lang.", "en")
    assert keep_paragraph("Das System speichert die Protokolle standardmäßig dreißig Tage lang.", "de")
    assert not keep_paragraph("Too short.", "en")
    assert keep_paragraph("日志默认保留三十天，磁盘满时删除旧条目。", "zh-Hans")
    assert not keep_paragraph("apt-get install -y foo bar baz", "zh-Hans")


def test_read_corpus_by_language(corpus: Path) -> None:
    en = read_corpus(corpus, "en")
    zh = read_corpus(corpus, "zh-Hans")
    assert [s.key for s in en] == [s.key for s in zh] == ["guide#_install", "guide#_upgrade", "guide#_network", "guide#_logs"]
    assert all(s.language == "en" for s in en) and en[0].terms == ("apt", "dpkg")
    assert all("12345" not in p for s in en for p in s.paragraphs)  # code blocks are not prose
    assert zh[0].paragraphs[1] == "完整安装需要大约 250 MB 的磁盘空间。基本系统的下载大小为 80 MB。"
    assert read_corpus(corpus, "zh-Hant") == []


def test_read_corpus_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such folder"):
        read_corpus(tmp_path / "missing", "en")
    (tmp_path / "f.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="not a folder"):
        read_corpus(tmp_path / "f.txt", "en")
    with pytest.raises(InputError, match="unknown language"):
        read_corpus(tmp_path, "klingon")
