"""Traditional Chinese speculation and unnamed-authority phrases (the RAG prompting guide's lists and more)."""

__all__ = ["SPECULATION", "FABRICATION", "BLOCKERS"]

SPECULATION = (
    "可能", "也許", "大概", "應該是", "我猜", "我認為", "通常來說", "一般而言", "據我所知",
    "或許", "似乎", "好像", "恐怕", "估計", "我想", "我相信", "我覺得", "一般來說", "通常",
    "大致上", "看起來", "想必", "說不定", "未必", "應該會", "不確定",
)

FABRICATION = (
    "根據官方資料", "根據官方", "根據最新消息", "根據最新資料", "研究顯示", "研究表明", "研究指出",
    "有研究指出", "專家表示", "專家指出", "專家認為", "專家建議", "數據顯示", "統計顯示",
    "調查顯示", "據報導", "據悉", "據說", "眾所周知", "科學家表示", "科學證明", "官方數據",
    "多項研究", "業界普遍認為",
)

# Longer words that contain a phrase without meaning it.
BLOCKERS: dict[str, tuple[str, ...]] = {
    "可能": ("不可能", "可能性", "盡可能", "儘可能"),
    "我想": ("我想要", "我想知道"),
}
