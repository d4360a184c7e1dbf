"""The training mix draw: capped per group, train part only, no records the tagger cannot see."""

from __future__ import annotations

import json
from pathlib import Path

from hallucheck.train.mix import draw, main


def _write(path: Path) -> None:
    rows = []
    for i in range(30):
        edit = ["negation", "role", "number"][i % 3]
        part = "dev" if i % 10 == 9 else "train"
        spans = [{"start": 0, "end": 1, "label": "contradiction"}] if i % 5 else []
        if i == 4:
            spans = [{"start": 0, "end": 3, "label": "invalid_citation"}]
        rows.append({"id": str(i), "part": part, "language": "en", "answer": "x", "spans": spans,
                     "metadata": {"edit": edit if spans else None}})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_draw_caps_each_group_and_keeps_file_order(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    _write(p)
    recs = draw(p, per_group=3, group="edit", skip_groups=frozenset({"original"}))
    groups = [r["metadata"]["edit"] for r in recs]
    assert all(groups.count(g) <= 3 for g in set(groups)) and set(groups) == {"negation", "role", "number"}
    assert all(r["part"] == "train" for r in recs)
    assert all(r["spans"] for r in recs)
    assert "4" not in {r["id"] for r in recs}  # an invalid-citation record: the tagger never sees markers
    ids = [int(r["id"]) for r in recs]
    assert ids == sorted(ids)


def test_command_writes_the_draw(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "e.jsonl"
    _write(p)
    out = tmp_path / "mix.jsonl"
    assert main([str(p), "--per-group", "100", "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 26  # 27 train records but the invalid-citation one
    assert "records ->" in capsys.readouterr().out
