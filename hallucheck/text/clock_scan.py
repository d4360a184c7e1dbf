"""Clock times in text: "16:30", "9:30 pm", "19h30", "5 p.m.", "19 Uhr", and Chinese ones
("下午3点" = 15:00, "晚上10点半", "15点30分", "上午九点"). ``value`` is minutes after midnight;
``unit`` "12h" marks a time written without its half of the day ("5:00", "3点")."""

from __future__ import annotations

import re

from hallucheck.text.number_values import NumberMention, parse_chinese_numeral
from hallucheck.text.phrases import trie_pattern
from hallucheck.text.scan_positions import Runs, Taken, matches_at

__all__ = ["scan_times", "scan_zh_times"]

_TIMES = [
    # 16:30, 21:0, 9:30 pm, 19h30
    re.compile(
        r"(?<![\d.:,])(?P<h>\d{1,2})(?::|h(?=\d{2}))(?P<mi>\d{1,2})(?!\d)(?::\d{2}(?!\d))?"
        r"(?:\s*(?P<ap>[ap])\.?\s?m\b\.?)?"
    ),
    # 9 am, 5 p.m., 19 Uhr
    re.compile(r"(?<![\d.:,])(?P<h>\d{1,2})\s*(?:(?P<ap>[ap])\.?\s?m\b\.?|uhr\b)"),
]


def _says_hours(s: str) -> bool:
    """"19 Uhr" / "19h" are 24-hour times."""
    return s.endswith("uhr") or s.endswith("h")


def scan_times(lt: str, text: str, runs: Runs, out: list[NumberMention], taken: Taken) -> None:
    """Each pattern is tried only at the runs it may start at: an hour followed by ``:`` or ``h``
    (``16:30``), or by white space, ``a``, ``p`` or ``u`` (``9 am``, ``19 Uhr``)."""
    for pat, starts in zip(_TIMES, (runs.clock, runs.hour)):
        for mt in matches_at(pat, lt, starts, taken):
            a, b = mt.span()
            gd = mt.groupdict()
            h = int(gd["h"])
            mi = int(gd["mi"]) if gd.get("mi") else 0
            if h > 24 or mi > 59:
                continue
            ap = (gd.get("ap") or "").lower()
            if ap and 1 <= h <= 12:  # "0:00 PM" (hour 0) is read as written
                h = h % 12 + (12 if ap == "p" else 0)
            minutes = (h % 24) * 60 + mi
            # "5:00" without am/pm may mean 5 pm: such a time matches either half of the day
            unit = "12h" if not ap and 1 <= h <= 12 and not _says_hours(mt.group()) else ""
            out.append(NumberMention(a, b, text[a:b], "time", float(minutes), 0.0, unit, f"{minutes // 60:02d}:{minutes % 60:02d}"))
            taken.take(a, b)


# Chinese clock times: "下午3点", "晚上10点半", "15点30分", "上午九点", "15时". The hour counts as a time
# only with a part of the day before it or a clock word after it ("3点注意事项" are three points).
_ZH_DAY_PART = {"凌晨": 0, "早上": 0, "早晨": 0, "清晨": 0, "上午": 0, "中午": 12, "下午": 12, "傍晚": 12,
                "晚上": 12, "夜里": 12, "夜間": 12, "夜间": 12, "午夜": 12}
_ZH_HOUR = re.compile(
    rf"(?P<part>{trie_pattern(list(_ZH_DAY_PART))})?(?P<h>\d{{1,2}}|[零〇一二两兩三四五六七八九十]{{1,3}})"
    r"(?P<unit>点钟|點鐘|点|點|时|時)(?:(?P<half>半)|(?P<mi>\d{1,2}|[零〇一二三四五六七八九十]{1,3})分|(?P<q>一刻|三刻))?"
)
_ZH_CLOCK_AFTER = re.compile(
    r"(?:钟|鐘|整|左右|前|后|後|起|开|開|关|關|营业|營業|开始|開始|结束|結束|截止|到|至|以前|以后|以後|之前|之后|之後)"
)


def _zh_small(raw: str) -> int | None:
    return int(raw) if raw.isdigit() else parse_chinese_numeral(raw)


def scan_zh_times(lt: str, text: str, out: list[NumberMention], taken: Taken) -> None:
    for mt in _ZH_HOUR.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b) or (a > 0 and lt[a - 1].isdigit()):
            continue
        h = _zh_small(mt["h"])
        part = mt["part"]
        minute_part = mt["half"] or mt["mi"] or mt["q"]
        if mt["h"].isdigit():
            clock_word = mt["unit"] in ("点钟", "點鐘", "时", "時") or bool(_ZH_CLOCK_AFTER.match(lt, b))
        else:
            # "一点" is also "a little" (早一点到) and "一时" "a moment" (一时半会): a spelled hour
            # needs a part of the day, minutes, or 钟 / 整 to be a time.
            if mt["unit"] in ("时", "時") and not part:
                continue
            clock_word = mt["unit"] in ("点钟", "點鐘") or lt.startswith(("钟", "鐘", "整"), b)
        if h is None or h > 24 or not (part or minute_part or clock_word):
            continue
        mi = 30 if mt["half"] else 15 if mt["q"] == "一刻" else 45 if mt["q"] == "三刻" else 0
        if mt["mi"]:
            got = _zh_small(mt["mi"])
            if got is None or got > 59:
                continue
            mi = got
        unit = ""
        if part:
            if _ZH_DAY_PART[part] and h < 12 and not (part == "中午" and h >= 11):
                h += 12  # 下午3点 = 15:00; 中午12点 = 12:00
            if part == "午夜" and h in (12, 24):
                h = 0
        elif 1 <= h <= 12:
            unit = "12h"  # "3点" may be 3 or 15 o'clock
        minutes = (h % 24) * 60 + mi
        out.append(NumberMention(a, b, text[a:b], "time", float(minutes), 0.0, unit, f"{minutes // 60:02d}:{minutes % 60:02d}"))
        taken.take(a, b)
