"""Latin-script names and Chinese transliterations compared by sound."""

import pytest

from hallucheck.text.name_sounds import han_key, han_name_in_han, han_name_in_latin, keys_match, latin_key, latin_name_in_han


@pytest.mark.parametrize(("word", "key"), [("Farage", "FLS"), ("Ford", "FT"), ("Gosling", "KSLN"), ("Washington", "FSNTN"),
                                           ("Schmidt", "SMT"), ("Philipps", "FLPS")])
def test_latin_key(word, key):
    assert latin_key(word) == key


def test_han_key():
    assert han_key("法拉奇") == "FLS"
    assert han_key("华盛顿") == "FSNTN"


@pytest.mark.parametrize(("name", "source"), [
    ("Nigel Farage", "奈杰尔·法拉奇在保守党大会上发誓。"),
    ("Pinellas", "在皮尼拉斯郡仍有报道。"),
    ("Cromwell", "克伦威尔是代表分歧一方的人物。"),  # one class apart (m / n)
    ("Ryan Gosling", "电影由瑞恩·高斯林主演。"),  # 高 is read because a dot marks the name
    ("Christine Blasey Ford", "福特指的是克里斯汀·布莱西·福特。"),
    ("Burnaston", "伯纳斯顿丰田总经理称工厂将停产。"),  # 顿 ends many names (华盛顿, 波士顿, 克林顿)
    ("Washington", "他在华盛顿发表讲话。"),
    ("Boston", "会议在波士顿举行。"),
])
def test_a_transliterated_name_is_found(name, source):
    assert latin_name_in_han(name, source)


@pytest.mark.parametrize(("name", "source"), [
    ("Boris Johnson", "奈杰尔·法拉奇在保守党大会上发誓。"),
    ("Tom Cruise", "电影由瑞恩·高斯林主演。"),
    ("Steve Wozniak", "该公司由史蒂夫·乔布斯在加州创立。"),  # a first name alike is not enough
    ("London", "会议在巴黎举行。"),
    ("Tom", "汤姆再也不会见你了。"),  # too short to compare: never found
])
def test_another_name_is_not_found(name, source):
    assert not latin_name_in_han(name, source)


def test_han_name_in_latin():
    assert han_name_in_latin("瑞恩·高斯林", "The film stars Ryan Gosling.")
    assert not han_name_in_latin("汤姆·克鲁斯", "The film stars Ryan Gosling.")


def test_keys_match_needs_the_same_start_and_few_differences():
    assert keys_match("KLMFL", "KLNFL")
    assert not keys_match("FLS", "PLS")
    assert not keys_match("SNSN", "TNTN")


def test_han_name_in_han():
    assert han_name_in_han("亨瑞克·史坦森", "他与亨利克·斯滕森搭档。")
    assert not han_name_in_han("汤姆·克鲁斯", "电影由瑞恩·高斯林主演。")


@pytest.mark.parametrize(("name", "source", "found"), [
    ("Joko", "佐科先生还面临着印尼教派之间挥之不去的紧张关系。", True),
    ("Collier", "在皮尼拉斯郡、萨拉索塔市以及科利尔县，仍有出现呼吸道刺激的报道。", True),
    ("Aguero", "阿奎罗正在经受脚伤的困扰。", True),
    # a stretch inside a longer name is not enough for a two-class word
    ("Kim", "佐科先生还面临着印尼教派之间挥之不去的紧张关系。", False),
    ("Sali", "萨拉索塔市仍有报道。", False),
])
def test_a_two_class_name_needs_a_whole_run(name: str, source: str, found: bool) -> None:
    assert latin_name_in_han(name, source) is found
