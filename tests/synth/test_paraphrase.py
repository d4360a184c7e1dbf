"""Rule paraphrases: they change the wording, keep every figure and name, and keep grammar where
the rules know it can break (subjects inside a sentence, words inside longer Chinese words)."""

from __future__ import annotations

import random

import regex

from hallucheck.synth.edits import EditContext
from hallucheck.synth.paraphrase import paraphrase
from hallucheck.synth.paraphrase_lexicon import PARAPHRASE, REGISTER


def _para(sentence: str, lang: str, seed: int = 0) -> str | None:
    draft = paraphrase(sentence, EditContext(lang, sentence, (), random.Random(seed)))
    return None if draft is None else draft.text


def test_a_paraphrase_changes_the_words_and_keeps_figures_and_names() -> None:
    cases = {
        "en": "To install the Debian package, you can use the following command because it is simple and needs 512 MB.",
        "de": "Sie können mehrere Programme verwenden, wenn Sie 512 MB haben und Debian verwenden.",
        "fr": "Pour installer le paquet Debian, vous pouvez utiliser plusieurs commandes avec 512 Mo.",
        "zh-Hans": "如果您需要安装 Debian 软件包，可以使用下面的命令删除 512 MB 的目录。",
        "zh-Hant": "如果您需要安裝 Debian 軟體包，可以使用下面的命令刪除 512 MB 的目錄。",
    }
    for lang, sentence in cases.items():
        out = _para(sentence, lang)
        assert out is not None and out != sentence, lang
        assert "512" in out and "Debian" in out, (lang, out)


def test_nothing_to_change_gives_none() -> None:
    assert _para("Debian 12 bookworm.", "en") is None
    assert _para("Debian 12。", "zh-Hans") is None


def test_a_moved_phrase_never_lands_inside_another_clause() -> None:
    out = _para("To install the package, you can use the command because it is simple.", "en")
    assert out is not None
    # "...because it is simple to install the package" would change what the sentence says.
    assert not out.rstrip(".").endswith("to install the package"), out
    assert _para("In Debian, the kernel is built with several modules.", "en") == (
        "The kernel is built with a number of modules in Debian."
    )


def test_a_subject_inside_a_sentence_is_lower_cased() -> None:
    out = _para("Ext4 ist der Standard und Sie sollten dies verwenden.", "de")
    assert out is not None and "und man sollte" in out and "Man" not in out, out


def test_chinese_words_inside_longer_words_stay() -> None:
    for seed in range(5):
        out = _para("使用者可以自动化执行命令行工具，因为显示器很多。", "zh-Hans", seed)
        assert out is not None
        for longer in ("使用者", "自动化", "显示器", "命令行"):
            assert longer in out, (longer, out)
    assert _para("若干个用户可以使用这个命令。", "zh-Hans") is not None
    assert "前提是" not in (_para("若干个用户可以使用这个命令，因为它很简单。", "zh-Hans") or "")


def test_no_pair_undoes_another() -> None:
    for lang, pairs in PARAPHRASE.items():
        both = set(pairs + REGISTER[lang])
        for old, new in both:
            assert (new, old) not in both, (lang, old, new)
            assert regex.fullmatch(r"[^\n]+", old) and old != new
