"""Well-known names that Chinese gives by meaning, not by sound: "Tory" is 保守党, "Google" 谷歌.

Why: the name rule finds a Latin-script name of a Chinese answer in Chinese sources when they
transliterate it (:mod:`hallucheck.text.name_sounds`), but a name translated by meaning sounds
like nothing in its translation, so "今天在 Tory 会议抗议期间" over "在保守党大会上抗议" was rejected
on an unknown name. A short table of the organisations, parties, institutions and events that news
and product text names most often, each with its usual Simplified and Traditional renderings, covers
the common cases; a name outside it stays unknown, as before.
"""

from __future__ import annotations

__all__ = ["TRANSLATED_NAMES", "translated_name_in"]

_ROWS = (
    ("google", "谷歌"),
    ("microsoft", "微软 微軟"),
    ("facebook", "脸书 臉書 脸谱 臉譜"),
    ("apple", "苹果 蘋果"),
    ("tencent", "腾讯 騰訊"),
    ("huawei", "华为 華為"),
    ("twitter", "推特"),
    ("tory|tories|conservatives|conservative party", "保守党 保守黨"),
    ("labour|labour party", "工党 工黨"),
    ("democrats|democratic party", "民主党 民主黨"),
    ("republicans|republican party|gop", "共和党 共和黨"),
    ("white house", "白宫 白宮"),
    ("pentagon", "五角大楼 五角大樓"),
    ("nato", "北约 北約"),
    ("united nations|un", "联合国 聯合國"),
    ("european union|eu", "欧盟 歐盟"),
    ("world health organization|who", "世卫组织 世界卫生组织 世衛組織 世界衛生組織"),
    ("supreme court", "最高法院"),
    ("senate", "参议院 參議院"),
    ("house of representatives", "众议院 眾議院"),
    ("congress", "国会 國會"),
    ("premier league", "英超"),
    ("brexit", "脱欧 脫歐"),
    ("bbc", "英国广播公司 英國廣播公司"),
    ("fifa", "国际足联 國際足聯"),
    ("olympics|olympic games", "奥运 奧運"),
    ("nobel prize", "诺贝尔奖 諾貝爾獎"),
    ("oscars|academy awards", "奥斯卡 奧斯卡"),
    ("wall street", "华尔街 華爾街"),
    ("silicon valley", "硅谷 矽谷"),
)

# A name (lower case, words joined by single spaces) -> its usual Chinese renderings.
TRANSLATED_NAMES: dict[str, tuple[str, ...]] = {
    name: tuple(renderings.split()) for names, renderings in _ROWS for name in names.split("|")
}


def translated_name_in(name: str, text: str) -> bool:
    """Whether ``name`` is a name of :data:`TRANSLATED_NAMES` and ``text`` holds one of its renderings."""
    return any(r in text for r in TRANSLATED_NAMES.get(" ".join(name.lower().split()), ()))
