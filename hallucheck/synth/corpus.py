"""Read a folder of documents into sections of clean paragraphs in one language.

Any folder of ``.html``/``.htm``, ``.md``/``.markdown`` and ``.txt`` files works. Files named
``NAME.LANG.EXT`` (``ch02.zh-cn.html``, ``guide.de.md``: the Debian Reference's naming and that
of most translated documentation) are translations of ``NAME``: a file in another language is
skipped, and the sections of the translations share one key (``NAME#anchor``), which lines them
up for cross-lingual cases and keeps them in the same split part. Files without a language in
their name are read whatever the language asked for; their paragraphs are kept only when they
are written in it (translated documentation leaves some paragraphs untranslated).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import regex

from hallucheck.errors import InputError
from hallucheck.synth.html_text import HtmlSection, html_sections
from hallucheck.synth.plain_text import markdown_sections, text_sections
from hallucheck.text.language import detect_language, is_chinese, normalize_language

__all__ = ["LANGUAGES", "Section", "corpus_files", "file_language", "keep_paragraph", "read_corpus"]

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "zh-Hans", "zh-Hant")

_EXTENSIONS = {".html": "html", ".htm": "html", ".xhtml": "html", ".md": "md", ".markdown": "md", ".txt": "txt"}
_LANG_SUFFIX = regex.compile(r"^(?:en|de|fr|zh|zh[-_](?:cn|tw|hk|sg|mo|hans|hant))$", regex.IGNORECASE)
_CJK = regex.compile(r"\p{Han}")
_LETTER = regex.compile(r"\p{L}")
_WORD = regex.compile(r"\p{L}+")


@dataclass(frozen=True)
class Section:
    """The kept paragraphs under one heading of one file, in one language.

    ``key`` names the section independently of the language (``NAME#anchor`` or ``NAME#s3``);
    ``terms`` are the inline code names found in it (commands, files, packages); ``positions``
    are the places of the kept paragraphs among all paragraphs of the section, which is how a
    paragraph finds its translation.
    """

    key: str
    language: str
    title: str
    paragraphs: tuple[str, ...]
    terms: tuple[str, ...]
    path: str
    positions: tuple[int, ...] = ()


def file_language(path: Path) -> tuple[str, str | None]:
    """``(NAME, language)`` of a file: ``ch02.zh-cn.html`` -> ``("ch02", "zh-Hans")``; no language -> None."""
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    if "." in stem:
        name, _, tail = stem.rpartition(".")
        if _LANG_SUFFIX.match(tail):
            return name, normalize_language(tail)
    return stem, None


def corpus_files(source_dir: str | Path) -> list[Path]:
    """The readable files under ``source_dir`` (recursively), in a stable order."""
    root = Path(source_dir)
    if not root.exists():
        raise InputError(f"{source_dir}: no such folder")
    if not root.is_dir():
        raise InputError(f"{source_dir}: not a folder")
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in _EXTENSIONS)


def _sections_of(path: Path) -> list[HtmlSection]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    kind = _EXTENSIONS[path.suffix.lower()]
    if kind == "html":
        return html_sections(text)
    if kind == "md":
        return markdown_sections(text)
    return text_sections(text)


def keep_paragraph(text: str, language: str) -> bool:
    """Whether a paragraph is prose in ``language`` of a length worth an answer.

    Chinese: at least 12 Chinese characters, and they make at least 30% of the letters. Other
    languages: at least 6 words and 30 characters, few digits or symbols (not a command line),
    and the language identifier agrees, which drops paragraphs a translation left in English.
    """
    if len(text) > 1500:
        return False
    letters = len(_LETTER.findall(text))
    if is_chinese(language):
        cjk = len(_CJK.findall(text))
        return cjk >= 12 and cjk >= 0.3 * max(letters, 1)
    if len(text) < 30 or len(_WORD.findall(text)) < 6 or letters < 0.6 * len(text.replace(" ", "")):
        return False
    if _CJK.search(text):
        return False
    return detect_language(text, default=language) == language


def read_corpus(source_dir: str | Path, language: str) -> list[Section]:
    """The sections of every file under ``source_dir`` in ``language`` (at least one kept paragraph each)."""
    lang = normalize_language(language)
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    root = Path(source_dir)
    out: list[Section] = []
    for path in corpus_files(root):
        name, file_lang = file_language(path)
        if file_lang is not None and file_lang != lang:
            continue
        rel = path.parent.relative_to(root) / name
        for index, sec in enumerate(_sections_of(path)):
            seen: set[str] = set()
            kept: list[str] = []
            positions: list[int] = []
            for pos, para in enumerate(sec.paragraphs):
                if para not in seen and keep_paragraph(para, lang):
                    kept.append(para)
                    positions.append(pos)
                seen.add(para)
            if not kept:
                continue
            anchor = sec.anchor or f"s{index}"
            out.append(
                Section(
                    key=f"{rel.as_posix()}#{anchor}",
                    language=lang,
                    title=sec.title,
                    paragraphs=tuple(kept),
                    terms=tuple(dict.fromkeys(t for t in sec.terms if 1 < len(t) <= 40)),
                    path=str(path),
                    positions=tuple(positions),
                )
            )
    return out


