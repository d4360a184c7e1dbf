"""The learned policy's spec: its schema (versioned, validated once when it is loaded) and its
file format.

A spec holds the fitted stages (boosted trees over the stack features of
:mod:`hallucheck.policies.features`, Platt scaling), the decision threshold, the cascade band, the
span-fusion choices, and per language group the stages and threshold that override them.

In memory a stage's trees are lists of numbers (``feature``, ``threshold``, ``left``, ``right``,
``value`` per node, as the fit exports them). On disk (format 2) each stage stores its trees as
one table of nodes: the five columns and the trees' sizes, each a little-endian array, deflated
and base64-encoded, which keeps the shipped file small and its numbers exact. Format 1 files (the
trees as JSON lists) still load.

Validation: thresholds and probabilities finite and within [0, 1]; every number of a stage finite;
the trees' columns of one length, child indices after their node and inside the tree, split
features inside the stage's feature list; every feature a name of the registry, from a detector
of its stage. A bad spec raises :class:`SpecError`, one line that names the file.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from hallucheck.errors import InputError
from hallucheck.policies.features import unknown_features

__all__ = ["SPEC_FORMAT", "PolicySpec", "Regime", "SpecError", "StageSpec", "Tree", "first_error", "pack_spec", "parse_spec",
           "read_spec_text", "spec_of", "unpack_spec", "write_spec"]

SPEC_FORMAT = 2

_COLUMNS: dict[str, str] = {"feature": "<i2", "threshold": "<f8", "left": "<i2", "right": "<i2", "value": "<f8"}

Probability = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False, strict=True)]
Finite = Annotated[float, Field(allow_inf_nan=False, strict=True)]


class SpecError(InputError):
    """A learned-policy spec that cannot be used as given (names its file and the first fault)."""


@dataclass(frozen=True)
class Tree:
    """One regression tree: per node its split feature (index into the stage's features), split
    threshold (``x <= threshold`` goes left), children (-1 at a leaf) and value."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    def problem(self, n_features: int) -> str | None:
        """What is wrong with the tree, or None."""
        n = len(self.feature)
        if n == 0 or any(len(getattr(self, c)) != n for c in _COLUMNS):
            return "tree columns of different lengths (or an empty tree)"
        if not np.all(np.isfinite(self.value)):
            return "a tree value is not finite"
        leaf = self.left == -1
        if np.any(leaf != (self.right == -1)):
            return "a node with one child"
        node = np.arange(n)
        inner = ~leaf
        children = (self.left[inner], self.right[inner])
        if any(np.any((c <= node[inner]) | (c >= n)) for c in children):
            return "a child index outside its tree"
        if np.any((self.feature[inner] < 0) | (self.feature[inner] >= n_features)):
            return "a split on a feature index outside the stage's features"
        if not np.all(np.isfinite(self.threshold[inner])):
            return "a split threshold is not finite"
        return None

    def as_lists(self) -> dict[str, list[Any]]:
        return {c: getattr(self, c).tolist() for c in _COLUMNS}


def _tree_of(data: Any) -> Tree:
    if isinstance(data, Tree):
        return data
    if not isinstance(data, Mapping) or set(_COLUMNS) - set(data):
        raise ValueError(f"a tree needs {', '.join(_COLUMNS)}")
    try:
        cols = {c: np.asarray(data[c], dtype=np.float64 if dtype == "<f8" else np.int64) for c, dtype in _COLUMNS.items()}
    except (TypeError, ValueError):
        raise ValueError("a tree column is not a list of numbers") from None
    if any(a.ndim != 1 for a in cols.values()):
        raise ValueError("a tree column is not a flat list")
    return Tree(**cols)


def _unpack_array(data: Any, dtype: str) -> np.ndarray:
    if not isinstance(data, str):
        raise ValueError("a packed column is not a string")
    try:
        raw = zlib.decompress(base64.b64decode(data.encode("ascii"), validate=True))
    except (binascii.Error, zlib.error, UnicodeEncodeError):
        raise ValueError("a packed column is not deflated base64") from None
    if len(raw) % np.dtype(dtype).itemsize:
        raise ValueError("a packed column's length is not a whole number of values")
    return np.frombuffer(raw, dtype=dtype).astype(np.float64 if dtype == "<f8" else np.int64)


def _pack_array(values: np.ndarray, dtype: str) -> str:
    arr = np.asarray(values).astype(dtype)
    if dtype != "<f8" and not np.array_equal(arr.astype(np.int64), np.asarray(values, dtype=np.int64)):
        raise ValueError(f"a tree index does not fit {dtype}")
    return base64.b64encode(zlib.compress(arr.tobytes(), 9)).decode("ascii")


def _unpack_trees(packed: Mapping[str, Any]) -> list[Tree]:
    if packed.get("encoding") != "deflate+base64":
        raise ValueError(f"unknown tree encoding {packed.get('encoding')!r}")
    sizes = _unpack_array(packed.get("sizes"), "<i4")
    cols = {c: _unpack_array(packed.get(c), dtype) for c, dtype in _COLUMNS.items()}
    total = int(sizes.sum()) if len(sizes) else 0
    if np.any(sizes <= 0) or any(len(a) != total for a in cols.values()):
        raise ValueError("the tree table's columns and sizes disagree")
    ends = np.cumsum(sizes)
    starts = ends - sizes
    return [Tree(**{c: a[s:e] for c, a in cols.items()}) for s, e in zip(starts.tolist(), ends.tolist())]


def _pack_trees(trees: list[Tree]) -> dict[str, Any]:
    out: dict[str, Any] = {"encoding": "deflate+base64", "count": len(trees),
                           "sizes": _pack_array(np.array([len(t.feature) for t in trees]), "<i4")}
    for c, dtype in _COLUMNS.items():
        out[c] = _pack_array(np.concatenate([getattr(t, c) for t in trees]) if trees else np.zeros(0), dtype)
    return out


class StageSpec(BaseModel):
    """One fitted stage: the detectors it needs, its features, their calib medians (``fill``, kept
    as a record of the fit; a feature missing at run time is an error), the trees and Platt scaling."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True, frozen=True)

    detectors: list[str] = Field(default_factory=list)
    features: list[str]
    fill: list[Finite]
    init: Finite
    learning_rate: Finite
    platt: tuple[Finite, Finite]
    trees: list[Tree]

    @field_validator("trees", mode="before")
    @classmethod
    def _trees(cls, value: Any) -> list[Tree]:
        if isinstance(value, Mapping):
            return _unpack_trees(value)
        if not isinstance(value, list):
            raise ValueError("trees must be a list of trees or a packed tree table")
        return [_tree_of(t) for t in value]

    @model_validator(mode="after")
    def _consistent(self) -> StageSpec:
        if len(self.fill) != len(self.features):
            raise ValueError(f"{len(self.features)} features but {len(self.fill)} fill values")
        if len(set(self.features)) != len(self.features):
            raise ValueError("a feature is listed twice")
        for i, tree in enumerate(self.trees):
            problem = tree.problem(len(self.features))
            if problem:
                raise ValueError(f"tree {i}: {problem}")
        return self

    def data(self, packed: bool) -> dict[str, Any]:
        """The stage as JSON data: trees as lists, or (``packed``) as the file's tree table."""
        out = self.model_dump(exclude={"trees"})
        out["platt"] = list(self.platt)
        out["trees"] = _pack_trees(self.trees) if packed else [t.as_lists() for t in self.trees]
        return out

    def unknown_features(self) -> list[str]:
        """Features that are no name of the registry, or that come from a detector the stage does not run."""
        own = set(self.detectors)
        return [n for n in self.features if n in unknown_features([n]) or (not n.startswith("case.") and n.split(".")[0] not in own)]


class Regime(BaseModel):
    """What a language group (or the group's fit for answers over sources in another language)
    overrides of the spec around it."""

    model_config = ConfigDict(extra="allow", frozen=True)

    stages: dict[str, StageSpec] | None = None
    threshold: Probability | None = None
    model_spans: bool | None = None
    escalate_low: Probability | None = None
    escalate_high: Probability | None = None
    cheap_settles_below: Probability | None = None
    token_threshold: Probability | None = None
    cross_lingual: Regime | None = None


class PolicySpec(BaseModel):
    """A fitted learned policy (format :data:`SPEC_FORMAT`)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    format: Literal[1, 2] = 1
    # the detectors a checker runs for this policy (a policy file must name them; see policy_file)
    detectors: list[str] = Field(default_factory=list)
    stages: dict[str, StageSpec] = Field(min_length=1)
    threshold: Probability
    escalate_low: Probability = 0.0
    escalate_high: Probability = 1.0
    # Answers whose cheap-stage probability is below this are decided by the cheap stage even
    # without the cascade: the model layer is not run for them (None: it always runs). Chosen on
    # calib with bench/settling.py, where the tagger changes (almost) no decision below it.
    cheap_settles_below: Probability | None = None
    span_detectors: list[str] = Field(default_factory=list)
    cheap_span_detectors: list[str] | None = None
    fallback_span_detectors: list[str] = Field(default_factory=list)
    span_keep_score: Finite = 1.01
    token_threshold: Probability | None = None
    token_threshold_by_task: dict[str, Probability] = Field(default_factory=dict)
    model_answer_threshold: Probability | None = None
    model_spans: bool = True
    language_group: str | None = None
    regime: str | None = None
    languages: dict[str, Regime] = Field(default_factory=dict)
    cross_lingual: Regime | None = None

    @model_validator(mode="after")
    def _known_features(self) -> PolicySpec:
        for where, stages in self._all_stages():
            for name, stage in stages.items():
                if not stage.detectors:
                    raise ValueError(f"{where}stage {name!r}: no detectors")
                bad = stage.unknown_features()
                if bad:
                    raise ValueError(f"{where}stage {name!r}: unknown feature {bad[0]!r} (not in the feature registry "
                                     "or not given by the stage's detectors)")
        return self

    def _all_stages(self) -> list[tuple[str, dict[str, StageSpec]]]:
        out: list[tuple[str, dict[str, StageSpec]]] = [("", self.stages)]

        def add(regime: Regime | None, where: str) -> None:
            if regime is None:
                return
            if regime.stages:
                out.append((where, regime.stages))
            add(regime.cross_lingual, f"{where}cross_lingual ")

        add(self.cross_lingual, "cross_lingual ")
        for group, regime in self.languages.items():
            add(regime, f"languages.{group} ")
        return out

    def with_regime(self, overrides: Regime, **fields: Any) -> PolicySpec:
        """This spec with what ``overrides`` sets (its stages, threshold, ...) in place of its own.

        ``cheap_settles_below`` is never inherited: it was measured for the spec's own stages, and
        a regime's cheap stage is another fit."""
        update: dict[str, Any] = {"cheap_settles_below": None}
        update.update({k: getattr(overrides, k) for k in overrides.model_fields_set})
        update.update(overrides.model_extra or {})
        update.update(fields)
        return self.model_copy(update=update)


def first_error(exc: ValidationError) -> str:
    """The first fault of a validation, in one line (where: what)."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ()))
    msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{loc}: {msg}" if loc else msg


def parse_spec(data: Any, source: str) -> PolicySpec:
    """The validated spec of ``data`` (format 1 or 2); SpecError naming ``source`` otherwise."""
    if not isinstance(data, Mapping):
        raise SpecError(f"policy spec {source}: not a JSON object")
    try:
        return PolicySpec.model_validate(dict(data))
    except ValidationError as exc:
        raise SpecError(f"policy spec {source}: {first_error(exc)}") from None


def _convert(data: Mapping[str, Any], typed: PolicySpec | Regime, packed: bool) -> dict[str, Any]:
    """``data`` with each stage written from its validated twin in ``typed``."""
    out = dict(data)
    if typed.stages:
        out["stages"] = {name: stage.data(packed) for name, stage in typed.stages.items()}
    if typed.cross_lingual is not None and isinstance(out.get("cross_lingual"), Mapping):
        out["cross_lingual"] = _convert(out["cross_lingual"], typed.cross_lingual, packed)
    if isinstance(typed, PolicySpec) and typed.languages:
        out["languages"] = {g: _convert(out["languages"][g], regime, packed) for g, regime in typed.languages.items()}
    return out


def unpack_spec(data: Mapping[str, Any], source: str = "<spec>") -> dict[str, Any]:
    """The spec as data with every stage's trees as lists (the form fits and calibrations edit), validated."""
    out = _convert(data, parse_spec(data, source), packed=False)
    out.pop("format", None)
    return out


def pack_spec(data: Mapping[str, Any], source: str = "<spec>") -> dict[str, Any]:
    """The spec as the file's data (format 2), validated."""
    out = _convert(data, parse_spec(data, source), packed=True)
    return {"format": SPEC_FORMAT, **{k: v for k, v in out.items() if k != "format"}}


def write_spec(data: Mapping[str, Any], path: str | Path) -> None:
    """Validate a spec and write it to ``path`` in the file format (format 2)."""
    text = json.dumps(pack_spec(data, str(path)), indent=1, allow_nan=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


def read_spec_text(text: str, source: str) -> tuple[dict[str, Any], PolicySpec]:
    """(the spec as data with list trees, the validated spec) from a file's text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(f"policy spec {source}: not readable as JSON ({exc})") from None
    return spec_of(data, source)


def spec_of(data: Any, source: str) -> tuple[dict[str, Any], PolicySpec]:
    """(the spec as data with list trees, the validated spec) from a spec's data (format 1 or 2)."""
    typed = parse_spec(data, source)
    out = _convert(data, typed, packed=False)
    out.pop("format", None)
    return out, typed
