"""Build ``hallucheck/data/places.tsv``: countries, territories and major cities named in English,
German, French, Simplified and Traditional Chinese.

    python -m hallucheck.train.place_table hallucheck/data/places.tsv

Why a table and not a run-time dependency: the rules must tell that 柏林 and Berlin are one city
and 巴黎 another, which a small shipped table does without loading a locale library into every
checker. The names are CLDR's (Unicode licence, via Babel: ``pip install babel``, only to build):
the territory names of each locale and the exemplar city of each time zone, less the zones that
name no city one would write (Antarctic stations, US county zones, islands named as their
territory); each Chinese name is also written in the other script (OpenCC, also only to build:
the Taiwan name 義大利 is 义大利 in Simplified, the mainland 澳大利亚 澳大利亞 in Traditional). A short
list written here adds the English short forms of a few countries ("US",
"UK") and major cities that no time zone is named after (Lyon, Munich, Beijing).

One line a place: its kind (``country`` or ``city``), an id (a CLDR territory code, a time-zone
id, or ``x/`` and the English name for the added cities), then one column a language, several
names of one language joined by ``|``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["ADDED_CITIES", "ADDED_NAMES", "LANGUAGES", "build"]

# Column order of the table; the Babel locale each column is read from (Traditional Chinese: the
# Taiwan and Hong Kong spellings both).
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "zh-Hans", "zh-Hant")
_LOCALES: dict[str, tuple[str, ...]] = {"en": ("en",), "de": ("de",), "fr": ("fr",), "zh-Hans": ("zh_Hans",),
                                        "zh-Hant": ("zh_Hant", "zh_Hant_HK")}

# Territory codes that name no country or territory (groupings, placeholders).
_NOT_PLACES = frozenset({"EU", "EZ", "UN", "QO", "ZZ", "XA", "XB"})
# Time-zone areas whose exemplar cities are stations, counties or abbreviations, not cities.
_ZONE_SKIP = ("Etc/", "Antarctica/", "America/Indiana/", "America/Kentucky/", "America/North_Dakota/")
# Exemplar cities that read as common words or given names more often than as the city
# ("Phoenix", "Regina", "Darwin"), or that are no city (islands, bays).
_CITY_SKIP = frozenset({
    "Phoenix", "Regina", "Darwin", "Stanley", "Dawson", "Oral", "Kirov", "Chita", "Nome", "Creston", "Resolute", "Jersey",
    "Guernsey", "Cayman", "Canaries", "Azores", "Madeira", "Faroes", "Bahia", "Menominee", "Thule", "Santiago", "Mérida",
    "Córdoba", "San Juan", "San Luis", "La Rioja", "Salta", "Marigot", "Gambier", "Comoros", "Maldives", "Mauritius",
    "Fiji", "Guam", "Palau", "Nauru", "Niue", "Samara", "Victoria", "Cambridge Bay", "Dawson Creek", "Glace Bay", "Goose Bay",
    "Swift Current", "Lower Prince’s Quarter",
})

# Territory names that read as a given name or a saint's church more often than as the country
# ("Chad Hammel", "St. Martin's"): left out of their column, the other languages' names kept.
_NAME_SKIP = frozenset({"Chad", "Jordan", "Georgia", "St. Martin", "Saint-Martin", "St. Barthélemy", "Saint-Barthélemy"})

# Names CLDR gives no column for: English short forms, the older name beside a new one, German's
# inflected form of a name that opens with an adjective ("im Vereinigten Königreich").
ADDED_NAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "US": {"en": ("US", "USA", "U.S.", "U.S.A."), "de": ("USA", "Vereinigten Staaten"), "fr": ("USA",)},
    "GB": {"en": ("UK", "U.K.", "Britain", "Great Britain"), "de": ("Großbritannien", "Vereinigten Königreich"),
           "fr": ("Grande-Bretagne",)},
    "TR": {"en": ("Turkey",)},
    "CZ": {"en": ("Czech Republic",), "de": ("Tschechische Republik",), "fr": ("République tchèque",)},
    "MM": {"en": ("Myanmar", "Burma")},
    "HK": {"en": ("Hong Kong",), "de": ("Hongkong",), "fr": ("Hong Kong",), "zh-Hans": ("香港",), "zh-Hant": ("香港",)},
    "MO": {"en": ("Macao", "Macau"), "de": ("Macao",), "fr": ("Macao",), "zh-Hans": ("澳门",), "zh-Hant": ("澳門",)},
    "KR": {"en": ("Korea",)},
    "CD": {"en": ("Democratic Republic of the Congo",)},
    "CG": {"en": ("Republic of the Congo",)},
    "VA": {"en": ("Vatican",)},
    "CN": {"de": ("Volksrepublik China",)},
}

# Major cities no time zone is named after: (English, German, French, Simplified, Traditional);
# several names of one language joined by "|". Names that are also common words or given names
# (Nice, Florence, Washington, Hamburg: 汉堡 is a hamburger too) are left out.
ADDED_CITIES: tuple[tuple[str, str, str, str, str], ...] = (
    ("Lyon", "Lyon", "Lyon", "里昂", "里昂"),
    ("Marseille", "Marseille", "Marseille", "马赛", "馬賽"),
    ("Toulouse", "Toulouse", "Toulouse", "图卢兹", "圖盧茲"),
    ("Bordeaux", "Bordeaux", "Bordeaux", "波尔多", "波爾多"),
    ("Strasbourg", "Straßburg", "Strasbourg", "斯特拉斯堡", "斯特拉斯堡"),
    ("Munich", "München", "Munich", "慕尼黑", "慕尼黑"),
    ("Cologne", "Köln", "Cologne", "科隆", "科隆"),
    ("Frankfurt", "Frankfurt am Main|Frankfurt", "Francfort", "法兰克福", "法蘭克福"),
    ("Stuttgart", "Stuttgart", "Stuttgart", "斯图加特", "斯圖加特"),
    ("Düsseldorf", "Düsseldorf", "Düsseldorf", "杜塞尔多夫", "杜塞爾多夫|杜塞道夫"),
    ("Bonn", "Bonn", "Bonn", "波恩", "波恩"),
    ("Milan", "Mailand", "Milan", "米兰", "米蘭"),
    ("Venice", "Venedig", "Venise", "威尼斯", "威尼斯"),
    ("Naples", "Neapel", "Naples", "那不勒斯", "那不勒斯|拿坡里"),
    ("Barcelona", "Barcelona", "Barcelone", "巴塞罗那", "巴塞羅那|巴塞隆納"),
    ("Geneva", "Genf", "Genève", "日内瓦", "日內瓦"),
    ("Bern", "Bern", "Berne", "伯尔尼", "伯爾尼|伯恩"),
    ("Rotterdam", "Rotterdam", "Rotterdam", "鹿特丹", "鹿特丹"),
    ("Manchester", "Manchester", "Manchester", "曼彻斯特", "曼徹斯特"),
    ("Liverpool", "Liverpool", "Liverpool", "利物浦", "利物浦"),
    ("Edinburgh", "Edinburgh", "Édimbourg", "爱丁堡", "愛丁堡"),
    ("Saint Petersburg|St. Petersburg", "Sankt Petersburg", "Saint-Pétersbourg", "圣彼得堡", "聖彼得堡"),
    ("Ankara", "Ankara", "Ankara", "安卡拉", "安卡拉"),
    ("Beijing|Peking", "Peking", "Pékin", "北京", "北京"),
    ("Guangzhou", "Guangzhou", "Canton", "广州", "廣州"),
    ("Shenzhen", "Shenzhen", "Shenzhen", "深圳", "深圳"),
    ("Hangzhou", "Hangzhou", "Hangzhou", "杭州", "杭州"),
    ("Nanjing", "Nanjing", "Nankin", "南京", "南京"),
    ("Wuhan", "Wuhan", "Wuhan", "武汉", "武漢"),
    ("Chengdu", "Chengdu", "Chengdu", "成都", "成都"),
    ("Tianjin", "Tianjin", "Tianjin", "天津", "天津"),
    ("Osaka", "Osaka", "Osaka", "大阪", "大阪"),
    ("Kyoto", "Kyoto", "Kyoto", "京都", "京都"),
    ("Busan", "Busan", "Busan", "釜山", "釜山"),
    ("Hanoi", "Hanoi", "Hanoï", "河内", "河內"),
    ("Mumbai|Bombay", "Mumbai", "Bombay", "孟买", "孟買"),
    ("New Delhi", "Neu-Delhi", "New Delhi", "新德里", "新德里"),
    ("San Francisco", "San Francisco", "San Francisco", "旧金山|三藩市", "舊金山|三藩市"),
    ("Boston", "Boston", "Boston", "波士顿", "波士頓"),
    ("Seattle", "Seattle", "Seattle", "西雅图", "西雅圖"),
    ("Philadelphia", "Philadelphia", "Philadelphie", "费城", "費城"),
    ("Miami", "Miami", "Miami", "迈阿密", "邁阿密"),
    ("Atlanta", "Atlanta", "Atlanta", "亚特兰大", "亞特蘭大"),
    ("Ottawa", "Ottawa", "Ottawa", "渥太华", "渥太華"),
    ("Montreal", "Montreal", "Montréal", "蒙特利尔", "蒙特婁|蒙特利爾"),
    ("Canberra", "Canberra", "Canberra", "堪培拉", "坎培拉|堪培拉"),
    ("Brasília|Brasilia", "Brasília", "Brasilia", "巴西利亚", "巴西利亞"),
    ("Rio de Janeiro", "Rio de Janeiro", "Rio de Janeiro", "里约热内卢", "里約熱內盧"),
)


def _names(*groups: str | Iterable[str]) -> list[str]:
    """The names of ``groups`` (a name, or several), each split at "|", in order and each once."""
    out: list[str] = []
    for g in groups:
        for name in (g,) if isinstance(g, str) else g:
            for n in name.split("|"):
                n = n.strip()
                if n and n not in out:
                    out.append(n)
    return out


def _row(kind: str, pid: str, columns: list[list[str]]) -> str:
    return "\t".join([kind, pid, *("|".join(c) for c in columns)])


def _cross_script(columns: list[list[str]], s2t: Callable[[str], str], t2s: Callable[[str], str]) -> list[list[str]]:
    """The columns with each Chinese name also in the other script: the Taiwan name 義大利 is
    written 义大利 in Simplified, the mainland 澳大利亚 澳大利亞 in Traditional."""
    hans, hant = LANGUAGES.index("zh-Hans"), LANGUAGES.index("zh-Hant")
    out = list(columns)
    out[hans] = _names(columns[hans], [t2s(n) for n in columns[hant]])
    out[hant] = _names(columns[hant], [s2t(n) for n in columns[hans]])
    return out


def build(out: Path) -> int:
    """Write the table (see the module docstring); return the number of places written."""
    from babel import Locale  # lazy: needed only to build the table
    from babel.core import get_global  # lazy: needed only to build the table
    from babel.dates import get_timezone_location  # lazy: needed only to build the table

    from hallucheck.train.human_pairs import converter  # lazy: OpenCC (train extra), needed only to build the table

    s2t, t2s = converter("s2t"), converter("t2s")
    locales = {lang: [Locale.parse(code) for code in codes] for lang, codes in _LOCALES.items()}
    english = locales["en"][0].territories
    rows: list[str] = []
    country_names: set[str] = set()
    for code in sorted(english):
        if len(code) != 2 or not code.isalpha() or code in _NOT_PLACES:
            continue
        added = ADDED_NAMES.get(code, {})
        columns = [[n for n in _names([loc.territories[code] for loc in locales[lang] if code in loc.territories], added.get(lang, ()))
                    if n not in _NAME_SKIP] for lang in LANGUAGES]
        country_names.update(n for c in columns for n in c)
        rows.append(_row("country", code, _cross_script(columns, s2t, t2s)))
    zones = get_global("zone_territories")
    for zone in sorted(zones):
        if zone.startswith(_ZONE_SKIP) or "/" not in zone:
            continue
        columns = [_names([get_timezone_location(zone, loc, return_city=True) for loc in locales[lang]]) for lang in LANGUAGES]
        if any(any(ch.isdigit() for ch in n) for n in columns[0]) or columns[0][0] in _CITY_SKIP:
            continue
        if columns[0][0] in country_names or columns[0][0] in _NAME_SKIP:
            continue  # named as its territory (Singapore, Monaco, Panama): a country here
        rows.append(_row("city", zone, _cross_script(columns, s2t, t2s)))
    for city in ADDED_CITIES:
        columns = [_names(c) for c in city]
        rows.append(_row("city", "x/" + columns[0][0].replace(" ", "_"), _cross_script(columns, s2t, t2s)))
    header = ("# Places and their names (kind, id, " + ", ".join(LANGUAGES) + "); built by python -m hallucheck.train.place_table.\n"
              "# Names from the Unicode CLDR (territory names, time-zone exemplar cities), Unicode License v3:"
              " https://www.unicode.org/license.txt\n")
    out.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    return len(rows)


if __name__ == "__main__":
    print(build(Path(sys.argv[1])), "places")
