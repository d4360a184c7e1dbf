"""A local BM25 index (bm25s, extra ``knowledge``) over a folder of .txt, .md and .jsonl files.

Text files are cut into passages at blank lines (long paragraphs into ~``passage_chars``
pieces at sentence ends); .jsonl lines give ``{"id", "text"}`` (or ``content``) passages. Tokens
are the project's lemmas without stop words, so English, German, French and Chinese (jieba) are
indexed alike. ``save(dir)`` / ``BM25Index.load(dir)`` keep the index on disk.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hallucheck.errors import InputError
from hallucheck.knowledge.base import Passage, Verification, lexical_verify
from hallucheck.text import detect_language, split_sentences, tokenize

__all__ = ["BM25Index", "read_passages"]

_EXTS = (".txt", ".md", ".jsonl")
_META = "hallucheck-passages.json"


def _bm25s() -> Any:
    try:
        import bm25s  # lazy: optional extra (knowledge)
    except ImportError:
        raise InputError("the BM25 knowledge index needs bm25s: pip install 'hallucheck[knowledge]'") from None
    return bm25s


def _chunks(text: str, passage_chars: int) -> list[str]:
    out: list[str] = []
    for para in (p.strip() for p in text.replace("\r\n", "\n").split("\n\n")):
        if not para:
            continue
        if len(para) <= passage_chars:
            out.append(para)
            continue
        buf = ""
        for seg in split_sentences(para):
            if buf and len(buf) + len(seg.text) > passage_chars:
                out.append(buf.strip())
                buf = ""
            buf += seg.text + " "
        if buf.strip():
            out.append(buf.strip())
    return out


def read_passages(folder: str | Path, passage_chars: int = 800) -> list[Passage]:
    """Passages from every .txt / .md / .jsonl file under ``folder`` (sorted, recursive)."""
    root = Path(folder)
    if not root.is_dir():
        raise InputError(f"knowledge folder not found: {root}")
    passages: list[Passage] = []
    for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in _EXTS and p.is_file()):
        rel = path.relative_to(root).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{rel}: cannot read as UTF-8 text ({exc})") from None
        if path.suffix.lower() == ".jsonl":
            for n, line in enumerate(text.splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(f"{rel}: line {n}: not JSON ({exc.msg})") from None
                body = rec.get("text") or rec.get("content") if isinstance(rec, dict) else None
                if not isinstance(body, str):
                    raise InputError(f"{rel}: line {n}: expected an object with a 'text' field")
                passages.append(Passage(str(rec.get("id") or f"{rel}:{n}"), body, meta={"file": rel}))
        else:
            for i, chunk in enumerate(_chunks(text, passage_chars), start=1):
                passages.append(Passage(f"{rel}#{i}", chunk, meta={"file": rel}))
    return passages


class BM25Index:
    """``BM25Index.from_folder(path)`` or ``BM25Index(passages)``; ``search`` and ``verify``."""

    def __init__(self, passages: Iterable[Passage], *, language: str | None = None, support_threshold: float = 0.6,
                 _retriever: Any = None) -> None:
        self.passages = list(passages)
        sample = " ".join(p.text for p in self.passages[:50])
        self.language = language or (detect_language(sample) if sample.strip() else "en")
        self.support_threshold = support_threshold
        self._retriever = _retriever
        if self._retriever is None and self.passages:
            self._retriever = _bm25s().BM25()
            self._retriever.index([self._tokens(p.text) or ["_empty_"] for p in self.passages], show_progress=False)

    def __repr__(self) -> str:
        return f"BM25Index({len(self.passages)} passages, language={self.language!r})"

    def __len__(self) -> int:
        return len(self.passages)

    @classmethod
    def from_folder(cls, folder: str | Path, *, passage_chars: int = 800, **options: Any) -> BM25Index:
        return cls(read_passages(folder, passage_chars), **options)

    def _tokens(self, text: str) -> list[str]:
        return [t.norm for t in tokenize(text, self.language) if not t.is_punct and not t.is_stop]

    def search(self, query: str, k: int = 5) -> list[Passage]:
        if not self.passages or self._retriever is None:
            return []
        vocab = getattr(self._retriever, "vocab_dict", None) or {}
        q = [t for t in self._tokens(query) if not vocab or t in vocab]
        if not q:
            return []
        k = max(1, min(k, len(self.passages)))
        docs, scores = self._retriever.retrieve([q], k=k, show_progress=False)
        out = []
        for idx, score in zip(docs[0], scores[0]):
            if float(score) <= 0.0:
                continue
            p = self.passages[int(idx)]
            out.append(Passage(p.id, p.text, float(score), p.meta))
        return out

    def verify(self, claim: str, k: int = 3) -> Verification:
        """Lexical support of ``claim`` by its best retrieved passage sentence."""
        return lexical_verify(claim, self.search(claim, k), self.language, self.support_threshold)

    def save(self, directory: str | Path) -> None:
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        if self._retriever is not None:
            self._retriever.save(str(d), show_progress=False)
        meta = {"language": self.language, "support_threshold": self.support_threshold,
                "passages": [{"id": p.id, "text": p.text, "meta": p.meta} for p in self.passages]}
        (d / _META).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, directory: str | Path) -> BM25Index:
        d = Path(directory)
        meta_path = d / _META
        if not meta_path.is_file():
            raise InputError(f"no BM25 index in {d} (missing {_META}); build one with BM25Index.from_folder(...).save()")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        passages = [Passage(p["id"], p["text"], meta=p.get("meta") or {}) for p in meta["passages"]]
        retriever = _bm25s().BM25.load(str(d), show_progress=False) if passages else None
        return cls(passages, language=meta.get("language"), support_threshold=meta.get("support_threshold", 0.6),
                   _retriever=retriever)
