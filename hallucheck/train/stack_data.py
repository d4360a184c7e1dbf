"""Detector outputs on the calib and dev parts, cached per detector, for fitting the learned policy.

Running the model layer over 3,000 answers takes a while on two cores, so each detector's outputs
are kept in ``<cache>/<detector>.jsonl`` (one line per answer: risk, flagged, features, spans, and
for the model its token probabilities) and ``<cache>/gold.jsonl``; fitting reads them back.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.calibration.calibrate import source_group
from hallucheck.detectors import get_detector
from hallucheck.errors import InputError
from hallucheck.eval.datasets import load_dataset
from hallucheck.eval.split import source_fold, source_key

__all__ = ["TRAIN_CACHE", "collect", "collect_out_of_fold", "fold_taggers", "load_cache"]

# The folder, inside a train-policy cache, of the train part's rows (collect_out_of_fold)
TRAIN_CACHE = "train-out-of-fold"


def _gold_row(ex: Any, part: str, key: str, analysis: Any) -> dict[str, Any]:
    """The gold label and the case features the learned policy reads (as CaseAnalysis gives them
    at check time: length without citation markers, sentence count)."""
    case = ex.case
    recorded = (case.metadata or {}).get("source_key")
    if recorded:  # RAGTruth's split key: its records, and the edits made of them, name it
        source = str(recorded)
    elif len(case.contexts) == 1:
        source = source_key({"task_type": case.task, "query": case.question, "context": case.contexts[0].text})
    else:  # generic data: the answers written from the same sources share a group
        source = source_group(analysis)
    return {
        "key": key,
        "part": part,
        "task": case.task,
        "label": bool(ex.gold.hallucinated),
        "spans": [list(s) for s in ex.gold.spans],
        "answer_chars": analysis.answer_chars,
        "sentences": len(analysis.sentences),
        "source": source,
        "language": analysis.language,
        "cross_lingual": analysis.cross_lingual,
        "extra": bool((case.metadata or {}).get("extra_cases")),
        "edit": str((case.metadata or {}).get("edit", "")),
        "citation_only": _citation_only(ex.gold.spans, analysis),
    }


def _citation_only(spans: Any, analysis: Any) -> bool:
    """Whether every labelled span lies on a citation marker: the answer's only error is whom it
    cites (a wrong or unknown source id), which the citation rules judge, not the stacked scores."""
    markers = analysis.citation_markers
    return bool(spans) and all(any(m.start <= s and e <= m.end for m in markers) for s, e in spans)


def collect(
    data: str | Path,
    cache: str | Path,
    detectors: list[str],
    parts: tuple[str, ...] = ("calib", "dev"),
    detector_options: dict[str, dict[str, Any]] | None = None,
    limit: int | None = None,
    log: Any = print,
    data_format: str = "ragtruth",
    keep: Callable[[Any], bool] | None = None,
) -> None:
    """Run ``detectors`` on every answer of ``parts`` and append their outputs to the cache
    (``data_format``: ``ragtruth``, or ``generic`` records with a ``part`` such as
    ``hallucheck data synth`` writes). ``keep``: run only on the examples it accepts."""
    out = Path(cache)
    out.mkdir(parents=True, exist_ok=True)
    dets = {n: get_detector(n, **(detector_options or {}).get(n, {})) for n in detectors}
    done: dict[str, set[str]] = {n: set(load_cache(out, n)) for n in detectors}
    gold_done = set(load_cache(out, "gold"))
    files = {n: open(out / f"{n}.jsonl", "a", encoding="utf-8") for n in detectors}
    gold_fh = open(out / "gold.jsonl", "a", encoding="utf-8")
    t0 = time.time()
    n = 0
    try:
        for part in parts:
            for ex in load_dataset(data, data_format, split=part, limit=limit):
                if keep is not None and not keep(ex):
                    continue
                key = f"{part}:{ex.line}"
                todo = [d for d in detectors if key not in done[d]]
                analysis = CaseAnalysis(ex.case)
                if key not in gold_done:
                    gold_fh.write(json.dumps(_gold_row(ex, part, key, analysis)) + "\n")
                    gold_done.add(key)
                if not todo:
                    continue
                # the semantic layer shares its alignment with later layers, as in a real check
                for name in sorted(todo, key=lambda d: dets[d].layer):
                    f = dets[name].detect(analysis)
                    row: dict[str, Any] = {
                        "key": key,
                        "risk": f.risk,
                        "flagged": f.flagged,
                        "features": f.features,
                        "spans": [[s.start, s.end, s.score, s.label] for s in f.spans],
                        "latency_ms": round(f.latency_ms, 2),
                        "error": f.error,
                    }
                    if "token_probs" in f.details:
                        row["token_probs"] = f.details["token_probs"]
                    files[name].write(json.dumps(row) + "\n")
                n += 1
                if n % 100 == 0:
                    for fh in files.values():
                        fh.flush()
                    gold_fh.flush()
                    log(f"{n} answers in {time.time() - t0:.0f}s ({', '.join(detectors)})")
    finally:
        for fh in files.values():
            fh.close()
        gold_fh.close()


def fold_taggers(tagger_dirs: Sequence[str | Path]) -> list[Path]:
    """The tagger exports of a cross-fitted train part, checked: ``tagger_dirs[k]`` must have been
    trained with ``skip_fold: [k, n]``, n the number of exports (an input error otherwise, raised
    before any detector runs)."""
    n = len(tagger_dirs)
    if n < 2:
        raise InputError("out-of-fold train rows need one tagger per fold, at least two")
    dirs = [Path(d).resolve() for d in tagger_dirs]
    for k, d in enumerate(dirs):
        try:
            config = json.loads((d / "config.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"tagger {d}: no readable config.json ({exc})") from exc
        skip = list((config.get("train_config") or {}).get("skip_fold") or [])
        if skip != [k, n]:
            raise InputError(f"tagger {d} was trained with skip_fold {skip or 'unset'}; as tagger {k + 1} of {n} it must "
                             f"leave out fold {k} of {n} (skip_fold: [{k}, {n}])")
    return dirs


def collect_out_of_fold(
    data: str | Path,
    cache: str | Path,
    tagger_dirs: Sequence[str | Path],
    detectors: list[str],
    limit: int | None = None,
    log: Any = print,
    run: bool = True,
) -> Path:
    """Detector outputs on the RAGTruth train part whose tagger features are out of fold; returns
    their cache folder (``<cache>/train-out-of-fold``).

    Why: the learned policy is fitted on the calib part (1,416 answers), because the shipped tagger
    was trained on the train part and its features there are in-sample. With taggers trained with
    ``skip_fold: [k, n]`` (each leaves out the train sources of fold k), the ``model`` detector
    reads each train answer with the tagger that never saw its source, and the train part's 12,000
    answers can join the trees. ``tagger_dirs[k]`` must be the export of the run that left out fold
    k of ``len(tagger_dirs)``; the folder records which taggers wrote it and refuses others.
    ``run=False`` only checks the folder (a fit on the cache as it is).
    """
    dirs = fold_taggers(tagger_dirs)
    n = len(dirs)
    out = Path(cache) / TRAIN_CACHE
    if run:
        out.mkdir(parents=True, exist_ok=True)
    manifest = out / "taggers.json"
    recorded = [str(d) for d in dirs]
    if manifest.is_file() and json.loads(manifest.read_text(encoding="utf-8")) != recorded:
        raise InputError(f"{out} holds rows of other taggers ({manifest}); use another --cache")
    if not run:
        if not manifest.is_file():
            raise InputError(f"{out} holds no out-of-fold rows yet; collect them first")
        return out
    manifest.write_text(json.dumps(recorded) + "\n", encoding="utf-8")
    from hallucheck.models.tagger import TAGGER_DIR  # lazy: loaded only on this path

    # the detector's verdict is a feature too: it must mean what the shipped tagger's means
    shipped = json.loads((TAGGER_DIR / "config.json").read_text(encoding="utf-8"))
    options = {"answer_threshold": shipped["answer_threshold"]} if "answer_threshold" in shipped else {}
    def in_fold(k: int) -> Callable[[Any], bool]:
        return lambda ex: source_fold(str((ex.case.metadata or {}).get("source_key", "")), n) == k

    # one pass per fold, every detector in it, so each answer is analysed once
    for k, d in enumerate(dirs):
        collect(data, out, detectors, parts=("train",), detector_options={"model": {"model_dir": str(d), **options}},
                limit=limit, log=log, keep=in_fold(k))
    return out


def load_cache(cache: str | Path, name: str) -> dict[str, dict[str, Any]]:
    path = Path(cache) / f"{name}.jsonl"
    out: dict[str, dict[str, Any]] = {}
    if path.is_file():
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    try:
                        row = json.loads(line)
                    except ValueError:  # a line cut by an interruption
                        continue
                    if name == "citations":
                        _invalid_markers(row)
                    out[row["key"]] = row
    return out


def _invalid_markers(row: dict[str, Any]) -> None:
    """Caches written before the citation rules gave ``invalid_markers`` as a feature: it is the
    number of their ``invalid_citation`` spans (one per marker naming an unknown id)."""
    feats = row.setdefault("features", {})
    if "invalid_markers" not in feats:
        feats["invalid_markers"] = float(sum(1 for s in row.get("spans", []) if len(s) > 3 and s[3] == "invalid_citation"))
