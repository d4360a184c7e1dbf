"""An answer sentence with its figures written as its evidence writes them, for the verifier.

Why: the figure rules know that "21 Tage" is "drei Wochen", "120 minutes" is "deux heures" and
"八点" is "8点" (:mod:`hallucheck.text.durations`, :func:`hallucheck.text.numbers.same_value`), and
the weekday rule that "Mon–Fri" is "Monday to Friday" (:mod:`hallucheck.text.weekdays`), but
the sentence-pair verifier reads words: it saw few quantities restated in another unit and reads
such a faithful sentence as a contradiction, which then decides the verdict. Before the verifier
reads a sentence, each figure (or length of time) of it that equals one of the evidence's, in
other words, is replaced by the evidence's own words for it, so the verifier judges the rest of
the sentence. A figure with no equal in the evidence stays as written, so a changed figure still
reads as changed.
"""

from __future__ import annotations

from hallucheck.text.durations import Duration, find_durations, same_length, spelled_durations
from hallucheck.text.numbers import NumberMention, find_numbers, same_value
from hallucheck.text.weekdays import find_weekdays, same_days

__all__ = ["written_as_source"]


def _lengths(text: str, language: str) -> tuple[list[NumberMention], dict[int, Duration]]:
    """The figures of ``text`` and the lengths of time among them (spelled ones included)."""
    mentions = find_numbers(text, language)
    durations = find_durations(text, mentions, language)
    for m, d in spelled_durations(text):
        if any(o.start <= m.start <= o.end + 6 for o in mentions):
            continue  # the half of "two and a half hours", not a length of its own
        mentions.append(m)
        durations[m.start] = d
    return mentions, durations


def _equal_form(m: NumberMention, d: Duration | None, premise: str, p_mentions: list[NumberMention],
                p_durations: dict[int, Duration]) -> tuple[int, int] | None:
    """The offsets in the premise of the words that say what ``m`` (with its duration ``d``) says,
    when the premise holds no other figure of its kind: where it holds two ("RO膜每24个月, 活性炭每12
    个月"), which one the sentence restates is for the figure rules to say, and writing the equal one
    in would make a figure from another clause read as the right one."""
    if d is not None:
        same_scale = [pd for pd in p_durations.values() if pd.scale == d.scale]
        if len(same_scale) == 1 and same_length(d, same_scale[0]):
            return same_scale[0].start, same_scale[0].end
        return None
    kind = [pm for pm in p_mentions if pm.start not in p_durations and pm.value is not None and pm.kind == m.kind]
    if len(kind) == 1 and m.value is not None and same_value(m, kind[0]):
        return kind[0].start, kind[0].end
    return None


def written_as_source(sentence: str, premise: str, language: str) -> str:
    """``sentence`` with each figure that equals one of ``premise``'s, written another way, in the
    premise's words (a length of time with its unit); the sentence itself when none does. Both are
    in ``language``: over evidence in another language the premise's words would make a sentence
    of two languages, which the verifier reads worse than the answer's own."""
    if not premise:
        return sentence
    sentence = _days_as_source(sentence, premise)
    mentions, durations = _lengths(sentence, language)
    if not mentions:
        return sentence
    p_mentions, p_durations = _lengths(premise, language)
    if not p_mentions:
        return sentence
    out: list[str] = []
    pos = 0
    for m in sorted(mentions, key=lambda x: x.start):
        d = durations.get(m.start)
        a, b = (d.start, d.end) if d is not None else (m.start, m.end)
        if a < pos:
            continue  # inside a length of time already replaced
        found = _equal_form(m, d, premise, p_mentions, p_durations)
        if found is None or premise[found[0]:found[1]] == sentence[a:b]:
            continue
        out.append(sentence[pos:a])
        out.append(premise[found[0]:found[1]])
        pos = b
    if not out:
        return sentence
    out.append(sentence[pos:])
    return "".join(out)


def _days_as_source(sentence: str, premise: str) -> str:
    """``sentence`` with each range of weekdays that states the same days as the premise's one
    range ("Mon–Fri", "weekdays" over "Monday to Friday") in the premise's words."""
    ranges = [w for w in find_weekdays(premise) if not w.single]
    if len(ranges) != 1:
        return sentence
    theirs = ranges[0]
    out: list[str] = []
    pos = 0
    for w in find_weekdays(sentence):
        if w.single or w.text == theirs.text or not same_days(w, theirs):
            continue
        out += [sentence[pos:w.start], theirs.text]
        pos = w.end
    return "".join(out) + sentence[pos:] if out else sentence
