"""A Latin-script name in brackets after the Chinese words it glosses."""

from __future__ import annotations

import pytest

from hallucheck.text.name_glosses import glossed_name


def _at(answer: str, name: str) -> tuple[int, int]:
    start = answer.index(name)
    return start, start + len(name)


@pytest.mark.parametrize(("answer", "name", "source", "glossed"), [
    ("美国优先 (Priorities USA) 的主席塞西尔对新闻频道指出。", "Priorities USA", "“美国优先”组织负责人盖伊·塞西尔", True),
    ("对战丹佛金块队（Denver Nuggets）的季前开幕战。", "Denver Nuggets", "迎战丹佛掘金者队的季前赛", True),
    ("这些由苏格兰独立学校理事会 (Scottish Council of Independent Schools, SCIS) 代表的学校",
     "Scottish Council of Independent Schools", "“苏格兰私立学校理事会” (SCIS)", True),
    # the glossed words are not the sources'
    ("MWP 的确很容易被读成「布偶 (Muppet)」。", "Muppet", "这是从 MWP 到 “笨蛋”的一次简短的词语更换。", False),
    # not in brackets, or the brackets hold more than the name
    ("美国优先 Priorities USA 的主席指出。", "Priorities USA", "“美国优先”组织负责人", False),
    ("美国优先 (Priorities USA 的团体) 的主席指出。", "Priorities USA", "“美国优先”组织负责人", False),
])
def test_glossed_name(answer: str, name: str, source: str, glossed: bool) -> None:
    assert glossed_name(answer, *_at(answer, name), source) is glossed
