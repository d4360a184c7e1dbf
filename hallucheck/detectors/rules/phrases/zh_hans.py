"""Simplified Chinese speculation and unnamed-authority phrases (the RAG prompting guide's lists, simplified, and more)."""

__all__ = ["SPECULATION", "FABRICATION", "BLOCKERS"]

SPECULATION = (
    "可能", "也许", "大概", "应该是", "我猜", "我认为", "通常来说", "一般而言", "据我所知",
    "或许", "似乎", "好像", "恐怕", "估计", "我想", "我相信", "我觉得", "一般来说", "通常",
    "大致上", "看起来", "想必", "说不定", "未必", "应该会", "不确定",
)

FABRICATION = (
    "根据官方资料", "根据官方", "根据最新消息", "根据最新资料", "研究显示", "研究表明", "研究指出",
    "有研究指出", "专家表示", "专家指出", "专家认为", "专家建议", "数据显示", "统计显示",
    "调查显示", "据报道", "据悉", "据说", "众所周知", "科学家表示", "科学证明", "官方数据",
    "多项研究", "业界普遍认为",
)

# Longer words that contain a phrase without meaning it.
BLOCKERS: dict[str, tuple[str, ...]] = {
    "可能": ("不可能", "可能性", "尽可能"),
    "我想": ("我想要", "我想知道"),
}
