"""Labelled data sets for evaluation, read as a stream of ``(Case, Gold)`` pairs.

Two formats:

- ``ragtruth``: RAGTruth records (``id, task_type, query, context, output, labels``). The task
  type maps to ``qa`` / ``summary`` / ``data2txt``; the context (for Data2txt a JSON-like record
  rendered as text) is passed as the one source, as is. Records are filtered by the project's
  one data split (:func:`hallucheck.eval.split.part_of`).
- ``generic``: one object per line with ``question, contexts, answer`` and the gold
  ``label`` (bool) and/or ``spans`` (``[{start, end, label?}]``, offsets into the answer), optional
  ``task``, ``language``, ``id``, ``metadata`` and ``part`` (``train`` / ``calib`` / ``dev``: the
  split part the record belongs to, as ``hallucheck data synth`` writes it). ``--split`` selects
  records by their ``part``; without it every record is read.

Files may be gzip-compressed (``.gz``). Bad records stop the run with an InputError naming the
line, because a silently skipped record changes every number computed afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from hallucheck.errors import InputError
from hallucheck.eval.split import PARTS, source_key
from hallucheck.jsonio import display_name, iter_jsonl

__all__ = [
    "FORMATS",
    "SPLITS",
    "Gold",
    "Example",
    "ragtruth_example",
    "generic_example",
    "load_dataset",
    "count_examples",
    "sniff_format",
]

Format = Literal["ragtruth", "generic"]
FORMATS: tuple[str, ...] = ("ragtruth", "generic")
SPLITS: tuple[str, ...] = ("dev", "calib", "train", "all")

_RAGTRUTH_TASKS = {"qa": "qa", "summary": "summary", "data2txt": "data2txt"}


@dataclass(frozen=True)
class Gold:
    """What the data set says about one answer: hallucinated or not, and where (answer offsets)."""

    hallucinated: bool
    spans: tuple[tuple[int, int], ...] = ()
    labels: tuple[str, ...] = ()
    id: str | None = None


@dataclass(frozen=True)
class Example:
    """One labelled case; ``line`` is where it came from, for messages."""

    case: Any  # hallucheck.types.Case (kept loose so pickling across processes stays cheap to type)
    gold: Gold
    line: int = 0
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Any]:  # allows ``case, gold = example``
        yield self.case
        yield self.gold


def _require(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in record:
        raise InputError(f"{where}: missing field {key!r}")
    value = record[key]
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise InputError(f"{where}: field {key!r} must be {names}, got {type(value).__name__}")
    return value


def _gold_spans(raw: Any, answer: str, where: str, field_name: str) -> tuple[tuple[tuple[int, int], ...], tuple[str, ...]]:
    if raw is None:
        return (), ()
    if not isinstance(raw, list):
        raise InputError(f"{where}: field {field_name!r} must be a list of {{start, end}} objects")
    spans: list[tuple[int, int]] = []
    labels: list[str] = []
    for k, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise InputError(f"{where}: {field_name}[{k}] must be an object with start and end")
        start, end = item.get("start"), item.get("end")
        if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
            raise InputError(f"{where}: {field_name}[{k}] needs integer start and end")
        if not 0 <= start <= end <= len(answer):
            raise InputError(
                f"{where}: {field_name}[{k}] [{start}, {end}) lies outside the answer ({len(answer)} characters)"
            )
        spans.append((start, end))
        label = item.get("label_type") or item.get("label")
        if isinstance(label, str):
            labels.append(label)
    return tuple(spans), tuple(labels)


def _case(fields: dict[str, Any], where: str) -> Any:
    from hallucheck.cases import make_case  # lazy: heavy: pulls in pydantic; loaded only when this path runs

    try:
        return make_case(fields)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


def _ragtruth_contexts(context: str, task: str) -> list[dict[str, str]]:
    """The sources as the generators saw them. A QA context is three retrieved passages joined by
    blank lines (every QA record of the train file has exactly three), which the generators were
    shown as passages 1-3 and often cite ("(Passage 2)"); kept as three sources with ids 1-3 so
    those citations resolve. Joined again they are the record's context, character for character.
    Other tasks have one source."""
    parts = context.split("\n\n")
    if task == "qa" and len(parts) == 3 and all(p.strip() for p in parts):
        return [{"id": str(i), "text": p} for i, p in enumerate(parts, start=1)]
    return [{"id": "1", "text": context}]


def ragtruth_example(record: Mapping[str, Any], where: str = "record", line: int = 0) -> Example:
    """A RAGTruth record as a Case and its gold labels."""
    rid = record.get("id")
    task_type = _require(record, "task_type", str, where)
    task = _RAGTRUTH_TASKS.get(task_type.strip().lower())
    if task is None:
        raise InputError(f"{where}: unknown task_type {task_type!r} (expected QA, Summary or Data2txt)")
    query = record.get("query") or ""
    if not isinstance(query, str):
        raise InputError(f"{where}: field 'query' must be str, got {type(query).__name__}")
    context = _require(record, "context", (str, dict, list), where)
    if not isinstance(context, str):
        import json  # lazy: already loaded by this module's imports; kept where it is used

        context = json.dumps(context, ensure_ascii=False)
    output = _require(record, "output", str, where)
    spans, labels = _gold_spans(record.get("labels"), output, where, "labels")
    case = _case(
        {
            "question": query,
            "contexts": _ragtruth_contexts(context, task),
            "answer": output,
            "task": task,
            # the split's key of its source: edits made of this answer carry it too (hallucheck
            # data edits), so a fit's folds keep them with the answer they came from
            "metadata": {**({"id": str(rid)} if rid is not None else {}), "source_key": source_key(record)},
        },
        where,
    )
    gold = Gold(hallucinated=bool(spans), spans=spans, labels=labels, id=None if rid is None else str(rid))
    return Example(case=case, gold=gold, line=line)


_GENERIC_CASE_FIELDS = ("question", "contexts", "context", "answer", "task", "language", "citations_expected", "metadata")


def _record_part(record: Mapping[str, Any], where: str) -> str | None:
    """The ``part`` of a generic record (None when it has none); any other value is an error."""
    part = record.get("part")
    if part is None:
        return None
    if part not in PARTS:
        raise InputError(f"{where}: field 'part' must be one of {', '.join(PARTS)}, got {part!r}")
    return str(part)


def generic_example(record: Mapping[str, Any], where: str = "record", line: int = 0) -> Example:
    """A generic labelled record (``question, contexts, answer, label, spans``) as a Case and gold."""
    _require(record, "answer", str, where)
    if "contexts" not in record and "context" not in record:
        raise InputError(f"{where}: missing field 'contexts'")
    unknown = sorted(set(record) - set(_GENERIC_CASE_FIELDS) - {"label", "spans", "id", "part"})
    if unknown:
        raise InputError(f"{where}: unknown field {unknown[0]!r}")
    _record_part(record, where)
    answer = record["answer"]
    spans, labels = _gold_spans(record.get("spans"), answer, where, "spans")
    if "label" in record:
        label = record["label"]
        if isinstance(label, bool):
            hallucinated = label
        elif isinstance(label, int) and label in (0, 1):
            hallucinated = bool(label)
        else:
            raise InputError(f"{where}: field 'label' must be true or false, got {label!r}")
        if spans and not hallucinated:
            raise InputError(f"{where}: label is false but spans are given")
    elif "spans" in record:
        hallucinated = bool(spans)
    else:
        raise InputError(f"{where}: needs 'label' (true/false) or 'spans' to be evaluated")
    rid = record.get("id")
    fields = {k: record[k] for k in _GENERIC_CASE_FIELDS if k in record}
    fields.setdefault("metadata", {})
    if rid is not None and isinstance(fields["metadata"], dict):
        fields["metadata"] = {**fields["metadata"], "id": str(rid)}
    case = _case(fields, where)
    return Example(
        case=case,
        gold=Gold(hallucinated=hallucinated, spans=spans, labels=labels, id=None if rid is None else str(rid)),
        line=line,
    )


def _part(format: str, split: str | None) -> str:
    """The part to keep: RAGTruth defaults to dev; generic data to all records."""
    if format == "ragtruth":
        return split or "dev"
    return split or "all"


def load_dataset(
    path: str | Path,
    format: str = "ragtruth",
    *,
    split: str | None = None,
    limit: int | None = None,
    tasks: set[str] | None = None,
) -> Iterator[Example]:
    """Stream the labelled examples of ``path``.

    ``split`` selects a part of the project's data split (RAGTruth: by source, default ``dev``;
    generic: by each record's ``part`` field, default all records);
    ``limit`` stops after that many examples; ``tasks`` keeps only those tasks.
    """
    if format not in FORMATS:
        raise InputError(f"unknown data format {format!r} (known: {', '.join(FORMATS)})")
    if split is not None and split not in SPLITS:
        raise InputError(f"unknown split {split!r} (known: {', '.join(SPLITS)})")
    if limit is not None and limit < 0:
        raise InputError("--limit must not be negative")
    part = _part(format, split)
    name = display_name(path)
    return _stream(path, name, format, part, limit, tasks)


def _stream(path: str | Path, name: str, format: str, part: str, limit: int | None, tasks: set[str] | None) -> Iterator[Example]:
    from hallucheck.eval.split import part_of  # lazy: already loaded by this module's imports; kept where it is used

    if limit == 0:
        return
    count = 0
    for lineno, record in iter_jsonl(path):
        where = f"{name}: line {lineno}"
        if format == "ragtruth":
            if part != "all":
                try:
                    if part_of(record) != part:
                        continue
                except (TypeError, ValueError) as exc:
                    raise InputError(f"{where}: cannot place record in the split: {exc}") from None
            example = ragtruth_example(record, where, lineno)
        else:
            if part != "all":
                got = _record_part(record, where)
                if got is None:
                    raise InputError(f"{where}: record has no 'part' field, so --split {part} cannot select it (use --split all)")
                if got != part:
                    continue
            example = generic_example(record, where, lineno)
        if tasks is not None and example.case.task not in tasks:
            continue
        yield example
        count += 1
        if limit is not None and count >= limit:
            return


def count_examples(path: str | Path, format: str = "ragtruth", *, split: str | None = None, limit: int | None = None) -> int:
    """How many examples :func:`load_dataset` will yield (without building cases), for progress bars."""
    from hallucheck.eval.split import part_of  # lazy: already loaded by this module's imports; kept where it is used

    part = _part(format, split)
    n = 0
    for _, record in iter_jsonl(path):
        if limit is not None and n >= limit:
            break
        if part != "all":
            try:
                got = part_of(record) if format == "ragtruth" else record.get("part")
                if got is not None and got != part:
                    continue
            except (TypeError, ValueError):
                pass  # load_dataset reports the bad record with its line
        n += 1
    return n


def sniff_format(path: str | Path) -> str:
    """``ragtruth`` when the first record has RAGTruth's fields (task_type, output), else ``generic``."""
    for _, record in iter_jsonl(path):
        return "ragtruth" if "output" in record and "task_type" in record else "generic"
    return "generic"
