"""Loading RAGTruth and generic labelled data (written in the test), with the split and bad input."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from hallucheck.errors import InputError
from hallucheck.eval.datasets import count_examples, load_dataset, sniff_format
from hallucheck.eval.split import part_of


def _ragtruth(i: int, task: str = "QA", labels: list | None = None) -> dict:
    output = f"Answer number {i} says the sky is green."
    return {
        "id": str(i),
        "task_type": task,
        "model": "m",
        "quality": "good",
        "query": f"question {i}",
        "context": f"context {i}: the sky is blue." if task != "Data2txt" else "{'name': 'Cafe', 'city': 'Paris'}",
        "output": output,
        "labels": labels if labels is not None else [],
    }


def _write_jsonl(path: Path, records: list, gz: bool = False) -> Path:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_ragtruth_records_map_to_cases_and_gold(tmp_path: Path) -> None:
    span = {"start": 32, "end": 37, "text": "green", "label_type": "Evident Conflict", "implicit_true": False}
    records = [_ragtruth(1, "QA", [span]), _ragtruth(2, "Summary"), _ragtruth(3, "Data2txt")]
    path = _write_jsonl(tmp_path / "rt.jsonl.gz", records, gz=True)
    examples = list(load_dataset(path, "ragtruth", split="all"))
    assert [e.case.task for e in examples] == ["qa", "summary", "data2txt"]
    first = examples[0]
    assert first.case.answer[32:37] == "green"
    assert first.gold.hallucinated and first.gold.spans == ((32, 37),)
    assert first.gold.labels == ("Evident Conflict",)
    assert first.gold.id == "1" and first.line == 1
    assert first.case.question == "question 1"
    assert [s.text for s in first.case.contexts] == ["context 1: the sky is blue."]
    assert not examples[1].gold.hallucinated
    # Data2txt context is passed through as text, as is
    assert examples[2].case.contexts[0].text == "{'name': 'Cafe', 'city': 'Paris'}"
    case, gold = examples[1]  # unpacks as (Case, Gold)
    assert case.task == "summary" and gold.spans == ()


def test_split_filter_uses_part_of(tmp_path: Path) -> None:
    records = [_ragtruth(i) for i in range(60)]
    path = _write_jsonl(tmp_path / "rt.jsonl", records)
    expected = {p: [str(r["id"]) for r in records if part_of(r) == p] for p in ("dev", "calib", "train")}
    assert sum(len(v) for v in expected.values()) == 60
    for part, ids in expected.items():
        got = [e.gold.id for e in load_dataset(path, "ragtruth", split=part)]
        assert got == ids
        assert count_examples(path, "ragtruth", split=part) == len(ids)
    assert [e.gold.id for e in load_dataset(path, "ragtruth")] == expected["dev"]  # dev by default
    assert len(list(load_dataset(path, "ragtruth", split="all", limit=7))) == 7
    assert count_examples(path, "ragtruth", split="all", limit=7) == 7


def test_generic_format(tmp_path: Path) -> None:
    records = [
        {"id": "a", "question": "q", "contexts": ["The sky is blue."], "answer": "The sky is green.", "spans": [{"start": 11, "end": 16}]},
        {"question": "q", "contexts": [{"id": "s1", "text": "x"}], "answer": "x", "label": False, "task": "summary"},
        {"contexts": ["y"], "answer": "z", "label": True},
    ]
    path = _write_jsonl(tmp_path / "g.jsonl", records)
    assert sniff_format(path) == "generic"
    ex = list(load_dataset(path, "generic"))
    assert ex[0].gold.hallucinated and ex[0].gold.spans == ((11, 16),) and ex[0].gold.id == "a"
    assert ex[0].case.metadata["id"] == "a"
    assert not ex[1].gold.hallucinated and ex[1].case.task == "summary"
    assert ex[2].gold.hallucinated and ex[2].gold.spans == ()


def test_generic_records_are_split_by_their_part(tmp_path: Path) -> None:
    records = [
        {"id": str(i), "contexts": ["x"], "answer": "x", "label": False, "part": part}
        for i, part in enumerate(["train", "dev", "calib", "dev", "train"])
    ]
    path = _write_jsonl(tmp_path / "parts.jsonl", records)
    assert [e.gold.id for e in load_dataset(path, "generic", split="dev")] == ["1", "3"]
    assert [e.gold.id for e in load_dataset(path, "generic", split="calib")] == ["2"]
    assert len(list(load_dataset(path, "generic"))) == 5
    assert len(list(load_dataset(path, "generic", split="all"))) == 5
    assert count_examples(path, "generic", split="train") == 2
    assert count_examples(path, "generic") == 5


def test_generic_span_labels_are_kept(tmp_path: Path) -> None:
    record = {
        "contexts": ["Costs 99 euros."], "answer": "Costs 89 euros [4].", "part": "dev",
        "spans": [{"start": 6, "end": 8, "label": "contradiction"}, {"start": 15, "end": 18, "label": "invalid_citation"}],
    }
    (ex,) = load_dataset(_write_jsonl(tmp_path / "l.jsonl", [record]), "generic", split="dev")
    assert ex.gold.spans == ((6, 8), (15, 18)) and ex.gold.labels == ("contradiction", "invalid_citation")


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"contexts": ["x"], "answer": "y", "label": True, "part": "test"}, "field 'part' must be one of"),
        ({"contexts": ["x"], "answer": "y"}, "needs 'label'"),
        ({"contexts": ["x"], "answer": 3, "label": True}, "'answer' must be str"),
        ({"answer": "y", "label": True}, "missing field 'contexts'"),
        ({"contexts": [], "answer": "y", "label": True}, "at least one source"),
        ({"contexts": ["x"], "answer": "y", "label": "yes"}, "must be true or false"),
        ({"contexts": ["x"], "answer": "y", "spans": [{"start": 0, "end": 9}]}, "outside the answer"),
        ({"contexts": ["x"], "answer": "y", "label": True, "colour": 1}, "unknown field 'colour'"),
    ],
)
def test_generic_bad_records_name_the_line(tmp_path: Path, record: dict, message: str) -> None:
    good = {"contexts": ["x"], "answer": "y", "label": False}
    path = _write_jsonl(tmp_path / "g.jsonl", [good, record])
    with pytest.raises(InputError) as err:
        list(load_dataset(path, "generic"))
    assert "line 2" in str(err.value) and message in str(err.value)


def test_ragtruth_bad_records(tmp_path: Path) -> None:
    bad = _ragtruth(1)
    del bad["output"]
    path = _write_jsonl(tmp_path / "rt.jsonl", [bad])
    with pytest.raises(InputError, match="line 1: missing field 'output'"):
        list(load_dataset(path, "ragtruth", split="all"))
    path = _write_jsonl(tmp_path / "rt2.jsonl", [{**_ragtruth(1), "task_type": "Poetry"}])
    with pytest.raises(InputError, match="unknown task_type"):
        list(load_dataset(path, "ragtruth", split="all"))


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        list(load_dataset(tmp_path / "missing.jsonl", "generic"))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="no records"):
        list(load_dataset(empty, "generic"))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"contexts": ["x"], "answer": "y", "label": true}\n{not json\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 2: not valid JSON"):
        list(load_dataset(broken, "generic"))
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b'{"contexts": ["x"], "answer": "y", "label": true}\n{"answer": "\xff"}\n')
    with pytest.raises(InputError, match="line 2: not valid UTF-8"):
        list(load_dataset(binary, "generic"))
    # Generic records are split by their own 'part' field; one without it cannot be placed.
    with pytest.raises(InputError, match="line 1: record has no 'part' field"):
        list(load_dataset(broken, "generic", split="dev"))
    with pytest.raises(InputError, match="unknown data format"):
        load_dataset(broken, "csv")


def test_ragtruth_qa_passages_are_the_sources_the_generators_cited() -> None:
    from hallucheck.eval.datasets import ragtruth_example

    context = "First passage.\n\nSecond passage says 3 days.\n\nThird passage."
    record = {"id": 7, "task_type": "QA", "query": "q", "context": context,
              "output": "It takes 3 days (Passage 2).", "labels": []}
    case = ragtruth_example(record).case
    assert [s.id for s in case.contexts] == ["1", "2", "3"] and case.source_text == context
    summary = ragtruth_example({**record, "task_type": "Summary"}).case
    assert [s.id for s in summary.contexts] == ["1"] and summary.source_text == context
