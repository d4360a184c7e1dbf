"""The learned policy's spec: schema, validation at load, the compact file format."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hallucheck.errors import InputError
from hallucheck.policies.learned import LearnedPolicy, load_spec
from hallucheck.policies.learned_spec import SPEC_FORMAT, SpecError, pack_spec, read_spec_text, spec_of, write_spec
from hallucheck.policies.policy_file import load_policy_file

SHIPPED = resources.files("hallucheck.policies").joinpath("learned.json")


def _stump(feature: int, thr: float, lo: float, hi: float) -> dict[str, list[Any]]:
    return {"feature": [feature, -2, -2], "threshold": [thr, -2.0, -2.0], "left": [1, -1, -1], "right": [2, -1, -1],
            "value": [0.0, lo, hi]}


def _spec() -> dict[str, Any]:
    stage = {"detectors": ["ngram"], "features": ["ngram.risk", "case.task_qa"], "fill": [0.3, 0.0], "init": 0.0,
             "learning_rate": 1.0, "platt": [1.0, 0.0], "trees": [_stump(0, 0.5, -2.0, 2.0), _stump(1, 0.5, 0.1, 0.2)]}
    return {"detectors": ["ngram"], "stages": {"cheap": stage}, "threshold": 0.5, "span_detectors": []}


def test_the_shipped_spec_is_compact_versioned_and_loads() -> None:
    text = SHIPPED.read_text("utf-8")
    assert len(text.encode("utf-8")) <= 1_000_000
    assert json.loads(text)["format"] == SPEC_FORMAT == 2
    policy = LearnedPolicy()
    assert set(policy.stages) == {"cheap", "full"} and policy.languages


def test_the_file_format_keeps_every_number_exactly() -> None:
    data = load_spec()
    packed = pack_spec(data)
    again, _ = read_spec_text(json.dumps(packed), "packed")
    assert again == data
    stage = data["stages"]["full"]["trees"][0]
    assert isinstance(stage["threshold"][0], float) and isinstance(stage["feature"][0], int)


def test_a_spec_in_the_list_format_loads_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(_spec()), encoding="utf-8")
    assert load_policy_file(path)["stages"]["cheap"]["trees"][0] == _stump(0, 0.5, -2.0, 2.0)
    write_spec(_spec(), tmp_path / "new.json")
    written = json.loads((tmp_path / "new.json").read_text())
    assert written["format"] == 2 and isinstance(written["stages"]["cheap"]["trees"], dict)
    assert load_policy_file(tmp_path / "new.json") == load_policy_file(path)


def _with(change: Any) -> dict[str, Any]:
    spec = _spec()
    change(spec)
    return spec


def _set_threshold(value: Any) -> Any:
    return lambda s: s.update(threshold=value)


def _tree(column: str, index: int, value: Any) -> Any:
    return lambda s: s["stages"]["cheap"]["trees"][0][column].__setitem__(index, value)


BAD = {
    "nan threshold": (_set_threshold(math.nan), "threshold"),
    "threshold above 1": (_set_threshold(5), "threshold"),
    "string threshold": (_set_threshold("0.5"), "threshold"),
    "child outside the tree": (_tree("left", 0, 7), "child index"),
    "child before its node": (_tree("right", 0, 0), "child index"),
    "split on a feature the stage lacks": (_tree("feature", 0, 2), "feature index"),
    "a node with one child": (_tree("right", 1, 2), "one child"),
    "a column of another length": (lambda s: s["stages"]["cheap"]["trees"][0]["value"].append(1.0), "lengths"),
    "infinite leaf value": (_tree("value", 1, math.inf), "not finite"),
    "unknown feature": (lambda s: s["stages"]["cheap"].update(features=["ngram.risk", "ngram.f.novelty_n9"]), "novelty_n9"),
    "feature of a detector the stage does not run": (
        lambda s: s["stages"]["cheap"].update(features=["ngram.risk", "model.f.model_max"]), "model.f.model_max"),
    "fill of another length": (lambda s: s["stages"]["cheap"].update(fill=[0.1]), "fill"),
    "nan in a language group's threshold": (lambda s: s.update(languages={"fr": {"threshold": math.nan}}), "languages.fr"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_spec_is_one_error_naming_the_file(name: str, tmp_path: Path) -> None:
    change, says = BAD[name]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(change)), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_policy_file(path)
    message = str(err.value)
    assert str(path) in message and says in message and "\n" not in message
    assert isinstance(err.value, InputError)
    with pytest.raises(SpecError):
        LearnedPolicy(spec=path)


def test_a_corrupt_tree_table_is_an_error(tmp_path: Path) -> None:
    packed = pack_spec(_spec())
    packed["stages"]["cheap"]["trees"]["value"] = "not base64!"
    with pytest.raises(SpecError, match="deflated base64"):
        spec_of(packed, "corrupt.json")
    packed = pack_spec(_spec())
    packed["stages"]["cheap"]["trees"]["sizes"] = pack_spec(_with(lambda s: s["stages"]["cheap"]["trees"].pop()))[
        "stages"]["cheap"]["trees"]["sizes"]
    with pytest.raises(SpecError, match="disagree"):
        spec_of(packed, "corrupt.json")


def test_the_cli_says_one_line_for_a_bad_policy_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(_set_threshold(math.nan))), encoding="utf-8")
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"question": "q", "contexts": ["The shop opens at 9."], "answer": "It opens at 9."}))
    proc = subprocess.run([sys.executable, "-m", "hallucheck", "detect", str(case), "--policy", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "threshold" in lines[0], proc.stderr


def test_the_validated_trees_score_as_the_list_form() -> None:
    spec = load_spec()
    stage = LearnedPolicy().stages["full"]
    rng = np.random.default_rng(3)
    fitted = spec["stages"]["full"]
    for _ in range(50):
        x = np.asarray(fitted["fill"]) * rng.uniform(0.0, 2.0, len(fitted["fill"]))
        total = float(fitted["init"])
        for t in fitted["trees"]:
            node = 0
            while t["left"][node] >= 0:
                node = t["left"][node] if x[t["feature"][node]] <= t["threshold"][node] else t["right"][node]
            total += float(fitted["learning_rate"]) * t["value"][node]
        assert stage.raw(x) == total
