"""A Latin-script name in brackets after the Chinese words it glosses: "美国优先 (Priorities USA)".

Why: a Chinese text often gives the original of a name it has translated, in brackets right after
the translation ("文在寅 (Moon Jae-in)", "丹佛金块队 (Denver Nuggets)"). Over Chinese sources that
give only the translation, the name rule read the bracketed original as a name the sources lack,
and rejected a faithful answer on it. A gloss adds no claim of its own: what the answer says is
said by the Chinese words before it, which the other rules and the verifier read.

How: the name must fill the brackets (up to a comma or an enumeration mark: "(Scottish Council of
Independent Schools, SCIS)"), and at least half of the Han characters right before the bracket
must occur in the sources, so that the glossed words are the sources' own (金块队 over 掘金者队);
a gloss of words the sources do not have ("布偶 (Muppet)" over 笨蛋) stays a name they lack.
"""

from __future__ import annotations

import regex

__all__ = ["glossed_name"]

_OPEN = "(（"
_CLOSE = ")）,，、;；"
_GLOSSED = regex.compile(r"\p{Han}{2,12}$")


def glossed_name(answer: str, start: int, end: int, source_text: str) -> bool:
    """Whether ``answer[start:end]`` is a bracketed gloss of Chinese words the sources hold (see the module doc)."""
    before = answer[:start].rstrip()
    after = answer[end:].lstrip()
    if not before or before[-1] not in _OPEN or not after or after[0] not in _CLOSE:
        return False
    term = _GLOSSED.search(before[:-1].rstrip())
    if term is None:
        return False
    han = term.group()
    return 2 * sum(c in source_text for c in han) >= len(han)
