"""The CJK vocabulary extension: new pieces tokenize to new rows, and only those rows learn."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.train]


def test_common_characters_are_the_two_standard_level_one_sets() -> None:
    from hallucheck.train.vocab import common_cjk_characters

    chars = common_cjk_characters()
    assert len(chars) == len(set(chars))
    assert chars[0] == "啊"  # GB 2312 level 1 starts here
    assert 3755 < len(chars) < 3755 + 5401
    for ch in "净利润亿元退款開產額請":
        assert ch in chars


def test_extension_adds_rows_and_keeps_the_old_ones(tiny_model_dir: Path, tmp_path: Path) -> None:
    from safetensors.torch import load_file

    from hallucheck.train.data import load_tokenizer
    from hallucheck.train.vocab import extend_vocabulary, original_rows

    info = extend_vocabulary(tiny_model_dir, tmp_path / "ext", ["净", "额", "the"])
    assert info["original_rows"] == 30522 and info["added"] == 2  # "the" is already a piece
    assert original_rows(tmp_path / "ext") == 30522 and original_rows(tiny_model_dir) is None
    tok_old, tok_new = load_tokenizer(str(tiny_model_dir)), load_tokenizer(str(tmp_path / "ext"))
    assert tok_old.encode("净额", add_special_tokens=False).tokens == ["[UNK]", "[UNK]"]
    assert tok_new.encode("净额", add_special_tokens=False).ids == [30522, 30523]
    assert tok_new.encode("the bridge", add_special_tokens=False).ids == tok_old.encode("the bridge", add_special_tokens=False).ids
    old = next(v for k, v in load_file(str(tiny_model_dir / "model.safetensors")).items() if "word_embeddings" in k)
    new = next(v for k, v in load_file(str(tmp_path / "ext" / "model.safetensors")).items() if "word_embeddings" in k)
    assert new.shape == (30524, old.shape[1])
    assert torch.equal(new[:30522], old)
    assert not torch.equal(new[30522], new[30523])  # rows differ, so attention can tell them apart


def test_frozen_table_trains_only_the_new_rows(tiny_config, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from hallucheck.train.loop import build_model, train
    from hallucheck.train.vocab import run_model_dir

    cfg = replace(tiny_config, vocab_extension="cjk-common", freeze_word_embeddings=True, max_steps=2)
    run = tmp_path / "run"
    model_dir = run_model_dir(cfg.base_model, cfg.vocab_extension, run)
    start = build_model(cfg, model_dir).state_dict()["encoder.embeddings.word_embeddings.weight"].clone()
    train(cfg, run, echo=False)
    end = torch.load(run / "final.pt", map_location="cpu", weights_only=False)["model"]["encoder.embeddings.word_embeddings.weight"]
    assert end.shape[0] > 30522
    assert torch.equal(end[:30522], start[:30522])
    # the fixture's text is English, so new rows get no gradient either; a row that did is
    # exercised through the hook directly
    table = build_model(cfg, model_dir).encoder.embeddings.word_embeddings.weight
    assert table.requires_grad
    (table[0].sum() + table[-1].sum()).backward()
    assert float(table.grad[0].abs().sum()) == 0.0 and float(table.grad[-1].abs().sum()) > 0.0


def test_unknown_extension_is_refused(tmp_path: Path) -> None:
    from hallucheck.train.vocab import run_model_dir

    with pytest.raises(ValueError, match="unknown vocab_extension"):
        run_model_dir("x", "klingon", tmp_path)
