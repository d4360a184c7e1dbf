"""Human-labelled pairs as verifier data: labels, split groups, script variants, contrasts."""

import gzip
import json
import random

import pytest

from hallucheck.train.human_pairs import HumanRow, contrast_pairs, group_of, human_pairs, name_pool, part_of, read_rows, swapped_name


def _write(folder, name, rows):
    with gzip.open(folder / f"{name}.jsonl.gz", "wt", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def test_translations_of_one_sentence_share_a_group_across_files():
    a = group_of("ntrex_flores-en+de-ntrex-17", "ntrex_flores", "x")
    b = group_of("ntrex_2refs-fr-17", "ntrex_2refs", "y")
    c = group_of("ntrex_2refs-zh-Hans+zh-Hant-17", "ntrex_2refs", "z")
    assert a == b == c == "ntrex:17"
    assert group_of("ntrex_flores-en+de-flores-17", "ntrex_flores", "x") == "flores:17"
    assert group_of("tatoeba_cmn-en+zh-Hant-487006-765577", "tatoeba_cmn", "x") == "tatoeba:487006"
    assert group_of("gqnli-fr-13", "gqnli", "x") == group_of("gqnli-en-19", "gqnli", "y")


def test_parts_are_a_deterministic_tenth_each():
    groups = [f"g{i}" for i in range(5000)]
    parts = [part_of(g) for g in groups]
    assert parts == [part_of(g) for g in groups]
    assert 0.07 < parts.count("dev") / 5000 < 0.13 and 0.07 < parts.count("calib") / 5000 < 0.13


def test_snli_translations_share_their_english_premise_group(tmp_path):
    en = [{"id": "snli_devtest-en-dev-0", "lang": "en", "premise": "Two women embrace.", "hypothesis": "Two people hug.",
           "label": "entailment", "source": "snli_devtest"}]
    de = [{"id": "snli_devtest-de-dev-0", "lang": "de", "premise": "Zwei Frauen umarmen sich.", "hypothesis": "Zwei Menschen umarmen sich.",
           "label": "entailment", "source": "snli_devtest"}]
    _write(tmp_path, "snli_devtest_en", en)
    _write(tmp_path, "snli_devtest_de", de)
    (row_en,) = read_rows(tmp_path, "snli_devtest_en")
    (row_de,) = read_rows(tmp_path, "snli_devtest_de")
    assert row_en.group == row_de.group == "snli:two women embrace."
    assert row_en.label == 0


def test_paraphrase_labels_and_contrasts(tmp_path):
    pytest.importorskip("opencc")
    rows = [{"id": f"tatoeba_cmn-en+zh-Hans-{i}-{i + 1}", "lang": "en+zh-Hans", "premise": f"He bought {i + 3} apples.",
             "hypothesis": f"他买了{i + 3}个苹果。", "label": "paraphrase", "source": "tatoeba_cmn"} for i in range(400)]
    _write(tmp_path, "tatoeba_cmn_en+zh-Hans", rows)
    pairs = [p for part in ("train", "calib", "dev") for p in
             human_pairs(tmp_path, part, seed=1, files=("tatoeba_cmn_en+zh-Hans",), contrasts=1.0, context_share=0.0)]
    plain = [p for p in pairs if p.kind.endswith(":cross")]
    assert len(plain) == 400 and all(p.label == 0 for p in plain)
    figures = [p for p in pairs if p.kind == "human:contrast:figure"]
    assert figures and all(p.label == 2 for p in figures)
    assert all(p.hypothesis != r["hypothesis"] for p in figures for r in rows if r["premise"] == p.premise)


def test_an_added_clause_is_neutral_and_keeps_the_human_premise():
    row = HumanRow("ntrex_2refs_fr", "Le musée ouvre à neuf heures.", "Le musée ouvre à 9 h.", 0, "fr", "fr", "ntrex:1")
    other = HumanRow("ntrex_2refs_fr", "x", "Les billets coûtent dix euros.", 0, "fr", "fr", "ntrex:2")
    made = list(contrast_pairs(row, other, random.Random(0)))
    added = [p for p in made if p.kind == "human:contrast:added"]
    assert added and added[0].label == 1 and added[0].premise == row.premise
    assert "les billets coûtent dix euros" in added[0].hypothesis


def _twins_beside_the_same_pairs(folder, name, kind, seed, **share):
    """The twins of ``kind`` a share of them makes, after checking that every other pair is as without them."""
    plain = list(human_pairs(folder, "train", seed=seed, files=(name,)))
    mixed = list(human_pairs(folder, "train", seed=seed, files=(name,), **share))
    assert [p for p in mixed if p.kind != kind] == plain
    return [p for p in mixed if p.kind == kind]


def test_unrelated_twins_are_neutral_over_other_rows_premises_and_leave_the_other_pairs_as_they_were(tmp_path):
    pytest.importorskip("opencc")
    rows = [{"id": f"snli_devtest-en-dev-{i}", "lang": "en", "premise": f"Premise number {i} is here.",
             "hypothesis": f"Hypothesis {i}.", "label": "entailment", "source": "snli_devtest"} for i in range(300)]
    _write(tmp_path, "snli_devtest_en", rows)
    twins = _twins_beside_the_same_pairs(tmp_path, "snli_devtest_en", "human:contrast:unrelated", seed=3, unrelated=0.5)
    assert len(twins) > 50 and all(p.label == 1 for p in twins)
    own = {r["hypothesis"]: r["premise"] for r in rows}
    assert all(own[p.hypothesis] not in p.premise for p in twins)


def test_a_swapped_name_is_a_contradiction_with_a_name_the_premise_does_not_hold():
    pytest.importorskip("jieba")
    rows = [HumanRow("tatoeba_cmn_en+zh-Hans", "Paris is the capital of France.", "法国的首都是巴黎。", 0, "en", "zh-Hans", "t:1"),
            HumanRow("tatoeba_cmn_en+zh-Hans", "He moved to London.", "他搬到了伦敦。", 0, "en", "zh-Hans", "t:2"),
            HumanRow("tatoeba_cmn_en+zh-Hans", "She flew to Tokyo.", "她飞往东京。", 0, "en", "zh-Hans", "t:3")]
    pool = name_pool(rows, random.Random(0))
    assert {"巴黎", "伦敦", "东京"} <= set(pool[("zh-Hans", "place")])
    twin = swapped_name(rows[0], pool, random.Random(1))
    assert twin is not None and twin.label == 2 and twin.kind == "human:contrast:name" and twin.language == "en+zh-Hans"
    assert twin.premise == rows[0].premise and twin.hypothesis != rows[0].hypothesis
    assert twin.hypothesis.endswith("。") and ("伦敦" in twin.hypothesis or "东京" in twin.hypothesis or "法国" not in twin.hypothesis)
    lone = HumanRow("stsb_train_images_en", "A dog runs.", "A dog is running.", 0, "en", "en", "s:1")
    assert swapped_name(lone, pool, random.Random(0)) is None  # names nothing


def test_name_twins_leave_the_other_pairs_as_they_were(tmp_path):
    pytest.importorskip("opencc")
    rows = [{"id": f"ntrex_flores-en+fr-ntrex-{i}", "lang": "en+fr", "premise": f"Tom met {name} in room {i}.",
             "hypothesis": f"Tom a rencontré {name} dans la salle {i}.", "label": "paraphrase", "source": "ntrex_flores"}
            for i, name in zip(range(300), ["Mary", "Alice", "Susan"] * 100)]
    _write(tmp_path, "ntrex_flores_en+fr", rows)
    twins = _twins_beside_the_same_pairs(tmp_path, "ntrex_flores_en+fr", "human:contrast:name", seed=2, names=1.0)
    assert len(twins) > 50 and all(p.label == 2 for p in twins)
