"""Faithful paraphrases of a source sentence by rules: new content words, another subject, clauses
moved, asides dropped.

Why: a faithful answer from an LLM rarely copies its source; it rewords. Cases whose faithful
answers are all copies teach a detector (the tagger and the per-language fits alike) that every
word the sources lack is an error, and then it rejects faithful reworded answers. A paraphrase
here applies at least two meaning-keeping operations, of these:

- content words and set phrases swapped for synonyms (:data:`PARAPHRASE`);
- the subject changed ("You can X" -> "It is possible to X", "Sie können" -> "Man kann");
- connectives and abbreviations reworded (:func:`hallucheck.synth.edits.reword`);
- a fronted adverbial moved to the end ("To do X, run Y." -> "Run Y to do X."), or a Chinese
  condition moved behind its consequence ("如果A，B。" -> "B，前提是A。");
- a parenthetical aside dropped (leaving something out is not an error).

None of them adds a figure, a name or a claim, so the result stays a faithful answer, and any
unfaithful edit made on top of it keeps an exact span.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import regex

from hallucheck.synth.draft import Draft
from hallucheck.synth.edits import EditContext, reword
from hallucheck.synth.paraphrase_lexicon import PARAPHRASE, REGISTER
from hallucheck.text.language import is_chinese

__all__ = ["paraphrase"]

# A Chinese word followed by one of these is part of a longer word (使用者, 自动化, 显示器, 命令行).
_ZH_LONGER = "者化性器行"
_FRONTED = {
    "en": ("In", "On", "For", "With", "By", "After", "Before", "During", "Since", "Under", "Without", "To", "From",
           "Using"),
    "fr": ("Dans", "Pour", "Avec", "Par", "Après", "Avant", "Pendant", "Depuis", "Sur", "Sans", "En", "Sous", "Lors"),
}
_CLAUSE_WORDS = {
    "en": r"(?i)\b(?:because|since|when|if|which|that|while|although|where|unless|so|and|or|to|as)\b",
    "fr": r"(?i)(?<!\p{L})(?:parce|car|quand|lorsque|si|qui|que|qu|et|ou|où|dont|pour|afin)(?!\p{L})",
}
_ZH_CONDITION = regex.compile(r"^(如果|假如|若(?!干))([^，。！？]{2,40})，(?:那么|那麼|则|則|就)?([^。！？]{4,})([。！？])$")
_ZH_PROVIDED = "前提是"  # "provided that" (the same characters in both scripts)

Operation = Callable[[str, EditContext], "str | None"]


@lru_cache(maxsize=1024)
def _pattern(old: str, language: str) -> regex.Pattern[str]:
    if is_chinese(language):
        return regex.compile(regex.escape(old) + f"(?![{_ZH_LONGER}])")
    head = r"(?<![\p{L}\p{N}'’-])" if old[:1].isalpha() else ""
    tail = r"(?![\p{L}\p{N}'’-])" if old[-1:].isalpha() else ""
    return regex.compile(head + regex.escape(old) + tail)


def _replace_pairs(
    text: str, pairs: tuple[tuple[str, str], ...], ctx: EditContext, limit: int, subjects: bool = False
) -> str | None:
    """Up to ``limit`` of the pairs applied (each once, in random order); None when none applies.
    ``subjects``: the pairs trade subjects ("Sie können" -> "Man kann"), lower-cased inside a sentence."""
    order = list(pairs)
    ctx.rng.shuffle(order)
    changed = 0
    for old, new in order:
        if changed >= limit:
            break
        forms = [(old, new)]
        if old[:1].islower() and not is_chinese(ctx.language):
            forms.append((old[:1].upper() + old[1:], new[:1].upper() + new[1:]))
        for o, n in forms:
            m = _pattern(o, ctx.language).search(text)
            if m is None:
                continue
            if not n and m.start() == 0:
                rest = text[m.end() :]
                text = rest[:1].upper() + rest[1:]
            elif subjects and n[:1].isupper() and _mid_sentence(text, m.start()):
                text = text[: m.start()] + n[:1].lower() + n[1:] + text[m.end() :]  # "und Sie können" -> "und man kann"
            else:
                text = text[: m.start()] + n + text[m.end() :]
            changed += 1
            break
    return text if changed else None


def _mid_sentence(text: str, at: int) -> bool:
    """Whether ``at`` is inside a sentence (not its start, nor right after a stop or an opening bracket)."""
    before = text[:at].rstrip()
    return bool(before) and before[-1] not in ".!?:;(\"„«“"


def _words(text: str, ctx: EditContext) -> str | None:
    return _replace_pairs(text, PARAPHRASE.get(ctx.language, ()), ctx, ctx.rng.choice((1, 2, 3)))


def _register(text: str, ctx: EditContext) -> str | None:
    return _replace_pairs(text, REGISTER.get(ctx.language, ()), ctx, 1, subjects=True)


def _connectives(text: str, ctx: EditContext) -> str | None:
    draft = reword(text, ctx)
    return draft.text if draft is not None else None


def _move_fronted(text: str, ctx: EditContext) -> str | None:
    """"In X, Y." -> "Y in X."; "如果A，B。" -> "B，前提是A。"."""
    if is_chinese(ctx.language):
        m = _ZH_CONDITION.match(text)
        if m is None:
            return None
        return f"{m.group(3)}，{_ZH_PROVIDED}{m.group(2)}{m.group(4)}"
    words = _FRONTED.get(ctx.language)
    if not words:
        return None
    m = regex.match(rf"^({'|'.join(words)}) ([^,;:()]{{3,60}}), ([^,;:].{{8,}}?)\.$", text)
    if m is None or m.group(3)[:1].isdigit() or regex.search(_CLAUSE_WORDS[ctx.language], m.group(3)):
        return None  # a clause in the rest could take the moved phrase as its own
    rest = m.group(3)
    return f"{rest[:1].upper()}{rest[1:]} {m.group(1).lower()} {m.group(2)}."


def _drop_aside(text: str, ctx: EditContext) -> str | None:
    pattern = r"（[^（）]{1,40}）|\([^()]{1,40}\)" if is_chinese(ctx.language) else r"\s\([^()]{1,80}\)"
    m = regex.search(pattern, text)
    if m is None or m.start() < 3:
        return None
    out = text[: m.start()] + text[m.end() :]
    return out if len(out) >= len(text) // 2 else None


_OPERATIONS: tuple[Operation, ...] = (_words, _words, _register, _connectives, _move_fronted, _drop_aside)


def paraphrase(sentence: str, ctx: EditContext, least: int = 2) -> Draft | None:
    """The sentence reworded by at least ``least`` meaning-keeping operations, or None when the
    rules find too little to change (the caller then tries another sentence)."""
    ops = list(_OPERATIONS)
    ctx.rng.shuffle(ops)
    text = sentence
    done = 0
    for op in ops:
        out = op(text, ctx)
        if out is not None and out != text:
            text = out
            done += 1
    if done < least or text == sentence:
        return None
    return Draft(text)
