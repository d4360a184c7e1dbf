"""README.md stays short, and every Python block in it runs as it stands.

A block that needs something beyond ``pip install '.[all]'`` (a running server, a key) starts
with a ``# needs: ...`` comment saying how to get it and is only compiled, not run. Each other
block runs in a fresh namespace, so none leans on another's variables.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
MAX_LINES = 250
MAX_BYTES = 20 * 1024
_FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```", re.S | re.M)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line, code) of every ```python block."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _FENCE.finditer(text)]


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def _needs(code: str) -> bool:
    return code.lstrip().startswith("# needs:")


def test_readme_is_short() -> None:
    data = README.read_bytes()
    assert data.count(b"\n") <= MAX_LINES
    assert len(data) <= MAX_BYTES


def test_readme_has_runnable_python() -> None:
    assert sum(not _needs(code) for _, code in BLOCKS) >= 2


@pytest.mark.parametrize("code", [c for _, c in BLOCKS], ids=[f"README.md:{n}" for n, _ in BLOCKS])
def test_python_block(code: str) -> None:
    compiled = compile(code, str(README), "exec")
    assert "..." not in code, "a placeholder (...) does not run as is"
    if _needs(code):
        first = code.lstrip().splitlines()[0]
        assert len(first) > len("# needs: "), "say what the block needs and how to get it"
        return
    exec(compiled, {"__name__": "__readme__"})


def test_the_extraction_finds_blocks() -> None:
    text = "x\n```python\nprint(1)\n```\n```bash\nls\n```\n```python\n# needs: a server\nf()\n```\n"
    assert python_blocks(text) == [(2, "print(1)\n"), (8, "# needs: a server\nf()\n")]
