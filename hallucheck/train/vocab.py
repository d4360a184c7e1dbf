"""A base encoder whose WordPiece vocabulary is extended with the common Chinese characters.

Why: all-MiniLM-L6-v2's English vocabulary holds a few hundred CJK characters, so half the pieces
of a Chinese text are ``[UNK]`` and the tagger cannot tell one character from another — it cannot
even see that an answer repeats its source. Adding the common characters as single-character
pieces gives each its own embedding row; a row starts near the mean of the existing rows (plus
noise of their spread, so rows differ and attention can match a character to itself) and is
learned in training while the original rows stay frozen.

Which characters: the GB 2312 level-1 set (3,755 most common Simplified characters) and the Big5
level-1 set (5,401 common Traditional characters) — standard lists that any Python can enumerate
from its codecs, so the choice is reproducible and not fitted to any evaluation text.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

__all__ = ["common_cjk_characters", "extend_vocabulary", "VOCAB_INFO", "original_rows", "run_model_dir",
           "EXTENSIONS"]

EXTENSIONS = ("cjk-common",)

VOCAB_INFO = "hallucheck_vocab.json"  # written beside an extended base: rows before the extension


def _decode_range(codec: str, lead: range, trail: list[range]) -> list[str]:
    out: list[str] = []
    for hi in lead:
        for tr in trail:
            for lo in tr:
                try:
                    ch = bytes([hi, lo]).decode(codec)
                except UnicodeDecodeError:
                    continue
                if len(ch) == 1 and "\u3400" <= ch <= "\u9fff":
                    out.append(ch)
    return out


def common_cjk_characters() -> list[str]:
    """GB 2312 level 1 then Big5 level 1 (Traditional ones not already listed), in code order."""
    gb = _decode_range("gb2312", range(0xB0, 0xD8), [range(0xA1, 0xFF)])
    big5 = _decode_range("big5", range(0xA4, 0xC7), [range(0x40, 0x7F), range(0xA1, 0xFF)])
    seen: set[str] = set()
    out: list[str] = []
    for ch in gb + big5:
        if ch not in seen:
            seen.add(ch)
            out.append(ch)
    return out


def original_rows(model_dir: str | Path) -> int | None:
    """Rows of the word-embedding table before an extension, or None for an unextended base."""
    p = Path(model_dir) / VOCAB_INFO
    if not p.is_file():
        return None
    return int(json.loads(p.read_text(encoding="utf-8"))["original_rows"])


def extend_vocabulary(base_dir: str | Path, out_dir: str | Path, chars: list[str], seed: int = 13) -> dict[str, Any]:
    """Write ``out_dir``: ``base_dir``'s model with ``chars`` (those it lacks) added as pieces."""
    import torch  # lazy: optional extra (train)
    from safetensors.torch import load_file, save_file  # lazy: optional extra (train)

    base, out = Path(base_dir), Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok = json.loads((base / "tokenizer.json").read_text(encoding="utf-8"))
    vocab: dict[str, int] = tok["model"]["vocab"]
    n_old = len(vocab)
    added = [ch for ch in chars if ch not in vocab]
    for i, ch in enumerate(added):
        vocab[ch] = n_old + i
    (out / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False), encoding="utf-8")

    weights = load_file(str(base / "model.safetensors"))
    key = next(k for k in weights if k.endswith("word_embeddings.weight"))
    table = weights[key]
    if table.shape[0] != n_old:
        raise ValueError(f"embedding rows ({table.shape[0]}) differ from the vocabulary ({n_old})")
    gen = torch.Generator().manual_seed(seed)
    mean, std = table.mean(dim=0), table.std(dim=0)
    new_rows = mean + std * torch.randn(len(added), table.shape[1], generator=gen)
    weights[key] = torch.cat([table, new_rows.to(table.dtype)], dim=0).contiguous()
    save_file(weights, str(out / "model.safetensors"))

    config = json.loads((base / "config.json").read_text(encoding="utf-8"))
    config["vocab_size"] = n_old + len(added)
    (out / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    for name in ("tokenizer_config.json", "special_tokens_map.json"):
        if (base / name).is_file():
            shutil.copyfile(base / name, out / name)
    info = {"original_rows": n_old, "added": len(added), "source": "GB 2312 level 1 + Big5 level 1",
            "base": str(base)}
    (out / VOCAB_INFO).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return info


def run_model_dir(base_model: str, vocab_extension: str, run_dir: str | Path) -> str:
    """The encoder folder a run reads: ``base_model``, or its extension built once in ``run_dir/base``."""
    from hallucheck.train.config import base_model_dir  # lazy: loaded only on this path

    base = base_model or base_model_dir()
    if not vocab_extension:
        return base
    if vocab_extension not in EXTENSIONS:
        raise ValueError(f"unknown vocab_extension {vocab_extension!r} (known: {', '.join(EXTENSIONS)})")
    out = Path(run_dir) / "base"
    if not (out / VOCAB_INFO).is_file():
        tmp = Path(run_dir) / "base.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        extend_vocabulary(base, tmp, common_cjk_characters())
        shutil.rmtree(out, ignore_errors=True)
        tmp.rename(out)
    return str(out)
