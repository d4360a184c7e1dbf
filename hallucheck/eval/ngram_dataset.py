"""The n-gram novelty guide's dataset mode: run the n-gram novelty check over a JSONL file, one result per line.

Reads RAGTruth-style records (``query``, ``context``, ``output``, ``task_type``) or generic
ones (``question``, ``contexts`` — a string or a list of strings / ``{id, text}`` —, ``answer``,
optional ``task``), plain or gzip-compressed, and writes one JSON object per record:
``{"id", "task", "detected", "risk", "threshold", "details": [...flagged sentences...],
"spans": [...]}``, each flagged sentence with its novelty ratio, the ratio per n, the count
of new n-grams and a sample of them (the first 10). A record that cannot be read becomes
``{"line", "error"}`` instead of stopping the run.

Thresholds: ``thresholds`` maps an n-gram size to its own cut-off (the n-gram novelty guide's ``{1: 0.3,
2: 0.2}`` for QA, ``{1: 0.5, 2: 0.4}`` for summaries) — a sentence is flagged when any size
exceeds its cut-off; without it, the pooled novelty is compared with the task's threshold
(``task_thresholds``, over the defaults QA 0.3, summary 0.5, data2txt 0.5, other 0.4).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.detectors.lexical.ngram import NgramDetector
from hallucheck.errors import InputError
from hallucheck.types import Case

__all__ = ["process_dataset", "record_to_case", "DatasetSummary"]

DatasetSummary = dict[str, int]


def _open(path: Path, mode: str) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")  # type: ignore[return-value]
    return open(path, mode, encoding="utf-8")


def record_to_case(record: Mapping[str, Any]) -> Case:
    """A Case from a RAGTruth-style or generic record; InputError with a one-line reason if not."""
    if not isinstance(record, Mapping):
        raise InputError("record is not a JSON object")
    answer = next((record[k] for k in ("answer", "output", "response") if k in record), None)
    if not isinstance(answer, str):
        raise InputError("record has no answer (fields answer, output or response)")
    contexts = record.get("contexts", record.get("context"))
    if contexts is None:
        raise InputError("record has no sources (fields contexts or context)")
    if not isinstance(contexts, (str, list)):
        contexts = json.dumps(contexts, ensure_ascii=False)
    question = record.get("question", record.get("query", ""))
    task = record.get("task", record.get("task_type"))
    return make_case(question=str(question or ""), contexts=contexts, answer=answer, task=task)


def _records(path: Path) -> Iterator[tuple[int, Any]]:
    with _open(path, "r") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line)
            except json.JSONDecodeError as exc:
                yield n, InputError(f"not valid JSON: {exc.msg} at column {exc.colno}")


def process_dataset(
    input_path: str | Path,
    output_path: str | Path,
    ngram_sizes: Sequence[int] = (1, 2),
    thresholds: Mapping[int, float] | None = None,
    task_thresholds: Mapping[str, float] | None = None,
    *,
    threshold: float | None = None,
    sample_size: int = 10,
) -> DatasetSummary:
    """Check every record of ``input_path`` and write the results to ``output_path`` (JSONL).

    Returns counts: ``records`` read, ``detected``, ``errors``.
    """
    src = Path(input_path)
    if not src.is_file():
        raise InputError(f"input file not found: {src}")
    detector = NgramDetector(
        n_values=tuple(ngram_sizes),
        thresholds=task_thresholds,
        threshold=threshold,
        n_thresholds=thresholds,
        max_listed=sample_size,
    )
    counts = {"records": 0, "detected": 0, "errors": 0}
    with _open(Path(output_path), "w") as out:
        for line_no, rec in _records(src):
            counts["records"] += 1
            try:
                if isinstance(rec, InputError):
                    raise rec
                result = _check(detector, record_to_case(rec), rec, sample_size)
            except InputError as exc:
                counts["errors"] += 1
                result = {"line": line_no, "error": str(exc)}
            else:
                counts["detected"] += int(result["detected"])
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return counts


def _check(detector: NgramDetector, case: Case, record: Mapping[str, Any], sample_size: int) -> dict[str, Any]:
    finding = detector.detect(CaseAnalysis(case))
    answer = case.answer
    flagged = [s for s in finding.details.get("sentences", []) if s["flagged"]]
    details = [
        {
            "sentence": answer[s["start"] : s["end"]],
            "start": s["start"],
            "end": s["end"],
            "novelty_ratio": s["novelty"],
            "per_n": s["per_n"],
            "new_ngrams_count": s["novel_count"],
            "novel_ngrams_sample": s["novel_ngrams"][:sample_size],
        }
        for s in flagged
    ]
    return {
        "id": record.get("id"),
        "task": case.task,
        "detected": finding.flagged,
        "risk": finding.risk,
        "threshold": finding.details.get("threshold"),
        "details": details,
        "spans": [{"start": sp.start, "end": sp.end, "text": sp.text} for sp in finding.spans],
        "notes": finding.notes,
    }
