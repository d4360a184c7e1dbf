"""Shared adapter pieces: reading sources from framework objects, and the missing-extra message."""

from __future__ import annotations

import importlib
import sys
from types import SimpleNamespace

import pytest

from hallucheck import HallucheckError, InputError
from hallucheck.integrations.common import as_contexts


def test_sources_from_framework_shapes() -> None:
    node = SimpleNamespace(get_content=lambda: "from a node")
    doc = SimpleNamespace(page_content="from a document")
    got = as_contexts(["plain", doc, node, {"page_content": "serialised"}, {"lc": 1, "kwargs": {"page_content": "lc"}},
                       {"id": "A", "text": "kept"}])
    assert got == ["plain", "from a document", "from a node", "serialised", "lc", {"id": "A", "text": "kept"}]
    assert as_contexts("one") == ["one"] and as_contexts(None) == []
    with pytest.raises(InputError):
        as_contexts([object()])
    with pytest.raises(InputError):
        as_contexts(3)


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [("hallucheck.integrations.langchain", "langsmith.evaluation.evaluator", "langchain"),
     ("hallucheck.integrations.llamaindex", "llama_index.core.evaluation", "llamaindex")],
)
def test_a_missing_framework_says_what_to_install(monkeypatch: pytest.MonkeyPatch, module: str, blocked: str,
                                                  extra: str) -> None:
    monkeypatch.setitem(sys.modules, blocked, None)  # makes its import fail
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(HallucheckError, match=rf"pip install 'hallucheck\[{extra}\]'"):
        importlib.import_module(module)


def test_import_hallucheck_does_not_import_the_frameworks() -> None:
    import subprocess

    code = ("import sys, hallucheck, hallucheck.integrations; "
            "print([m for m in sys.modules if m.startswith(('langchain', 'langsmith', 'llama_index'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
