"""Training data: RAGTruth label types become token types, extra generic files join the train part."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hallucheck.models.tagger_features import TOKEN_TYPES
from hallucheck.train.data import build_examples, label_type_index, load_tokenizer

CONFLICT = TOKEN_TYPES.index("conflict")
BASELESS = TOKEN_TYPES.index("baseless")


def test_ragtruth_and_generic_label_names_map_to_types() -> None:
    assert label_type_index("Evident Conflict") == CONFLICT
    assert label_type_index("Subtle Conflict") == CONFLICT
    assert label_type_index("contradiction") == CONFLICT
    assert label_type_index("Evident Baseless Info") == BASELESS
    assert label_type_index("Subtle Baseless Info") == BASELESS
    assert label_type_index(None) == BASELESS


def test_extra_generic_file_adds_only_its_train_part(tiny_model_dir: Path, tiny_data: Path, tmp_path: Path) -> None:
    from hallucheck.models.tagger_features import EncoderSettings

    answer = "Die Brücke wurde 1950 gebaut."
    y0 = answer.index("1950")
    rec = {"question": "Wann?", "contexts": [{"id": "1", "text": "Die Brücke wurde 1930 gebaut."}], "answer": answer,
           "spans": [{"start": y0, "end": y0 + 4, "label": "contradiction"}], "language": "de"}
    extra = tmp_path / "extra.jsonl"
    with open(extra, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({**rec, "part": "train"}) + "\n")
        fh.write(json.dumps({**rec, "part": "dev"}) + "\n")
    tok = load_tokenizer(str(tiny_model_dir))
    settings = EncoderSettings(max_len=64, max_target=24, target_stride=16, max_question=8, max_prev=8, max_unit_tokens=24)
    base = build_examples(tiny_data, "train", tok, settings)
    mixed = build_examples(tiny_data, "train", tok, settings, extra=(str(extra),))
    added = mixed[len(base):]
    assert len(added) == 1 and added[0].record == 10**7
    assert CONFLICT in set(added[0].labels.tolist())
    # RAGTruth's "Evident Conflict" labels of the fixture are conflict tokens too
    assert any(CONFLICT in set(e.labels.tolist()) for e in base)


def test_skip_fold_leaves_out_the_sources_of_one_fold_and_the_edits_made_of_them(
    tiny_model_dir: Path, tiny_data: Path, tmp_path: Path
) -> None:
    from hallucheck.eval.split import source_fold, source_key
    from hallucheck.models.tagger_features import EncoderSettings
    from hallucheck.train.data import read_records

    tok = load_tokenizer(str(tiny_model_dir))
    settings = EncoderSettings(max_len=64, max_target=24, target_stride=16, max_question=8, max_prev=8, max_unit_tokens=24)
    records = dict(read_records(tiny_data, "train"))
    fold = {i: source_fold(source_key(r), 2) for i, r in records.items()}
    assert set(fold.values()) == {0, 1}  # the fixture's train sources fall in both folds
    # an edit names the RAGTruth source it was made from; a synth case names none and is always kept
    edit_of = next(i for i, f in fold.items() if f == 0)
    extra = tmp_path / "extra.jsonl"
    case = {"question": "When?", "contexts": [{"id": "1", "text": "It was built in 1930."}], "answer": "In 1950.",
            "spans": [], "language": "en", "part": "train"}
    with open(extra, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({**case, "metadata": {"source_key": source_key(records[edit_of])}}) + "\n")
        fh.write(json.dumps(case) + "\n")
    for k in (0, 1):
        kept = build_examples(tiny_data, "train", tok, settings, extra=(str(extra),), skip_fold=(k, 2))
        ragtruth = {e.record for e in kept if e.record < 10**7}
        assert ragtruth == {i for i, f in fold.items() if f != k}
        assert {e.record for e in kept if e.record >= 10**7} == ({10**7, 10**7 + 1} if k == 1 else {10**7})


def test_skip_fold_must_name_one_fold_of_at_least_two() -> None:
    from hallucheck.train.config import TrainConfig

    assert TrainConfig(skip_fold=[1, 2]).skip_fold == [1, 2]
    for bad in ([2, 2], [0, 1], [0], [-1, 3]):
        with pytest.raises(ValueError, match="skip_fold"):
            TrainConfig(skip_fold=bad)
    # a run without folds prepares the same data as before the option existed
    assert TrainConfig().data_settings_key() != TrainConfig(skip_fold=[0, 2]).data_settings_key()


def test_runs_saved_before_typed_labels_load_as_binary() -> None:
    from hallucheck.train.config import TrainConfig

    assert TrainConfig.from_saved({"seed": 3}).n_types == 2
    assert TrainConfig.from_saved({"seed": 3, "n_types": 3}).n_types == 3
    assert TrainConfig().n_types == 3


def test_binary_collate_folds_types_into_one_unsupported_label(tiny_model_dir: Path, tiny_data: Path) -> None:
    pytest.importorskip("torch")
    from hallucheck.models.tagger_features import EncoderSettings
    from hallucheck.train.loop import collate

    tok = load_tokenizer(str(tiny_model_dir))
    ex = [e for e in build_examples(tiny_data, "train", tok, EncoderSettings(max_len=64, max_target=24)) if e.labels.max() > 1]
    ex = ex or [e for e in build_examples(tiny_data, "train", tok, EncoderSettings(max_len=64, max_target=24)) if e.labels.max() > 0]
    assert ex
    assert int(collate(ex, 2)["labels"].max()) == 1
    assert int(collate(ex, 3)["labels"].max()) == int(max(e.labels.max() for e in ex))
