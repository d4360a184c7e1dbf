"""Weights that several shipped ONNX graphs hold in common, stored once.

Why: the English span tagger is all-MiniLM-L6-v2 with its word-embedding table frozen in
training (``freeze_word_embeddings``), so its int8 table is byte for byte the one of the int8
sentence embedder; the multilingual tagger's table is that table with rows for Chinese characters
added after it (:func:`share_leading_rows`); and the embedder's two graphs (float arithmetic and dynamic int8) use the same
int8 weights. Stored once, the shipped model files are smaller by the size of each copy.

How: the graphs keep their large initializers as ONNX *external data* (a file beside the graph,
an offset and a length; :func:`save_external`). A graph whose data sits in its own directory
loads as any ONNX model does. A graph that uses a file of another model directory (ONNX Runtime
refuses external paths outside the graph's directory) names those tensors in its
``config.json`` under ``"shared_tensors"``; :func:`load_shared` reads them and
:func:`hallucheck.models.runtime.inference_session` hands them to ONNX Runtime, which puts them
in place of the graph's external references before it checks or optimises the graph.

:func:`save_external` and :func:`share_tensor` are packaging steps and import ``onnx`` (extra
``train``); :func:`load_shared` needs only numpy.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.errors import HallucheckError

__all__ = [
    "MODELS_DIR", "ROWS_FILE", "WORD_TABLE", "RowsPart", "SharedTensor", "SharedTensorError", "load_shared", "main",
    "save_external", "share_leading_rows", "share_matching", "share_tensor", "share_word_table",
]

MODELS_DIR = Path(__file__).resolve().parent
_MIN_EXTERNAL_BYTES = 1024  # smaller tensors stay in the graph


class SharedTensorError(HallucheckError, RuntimeError):
    """A shared tensor a graph needs is missing or does not match its declaration."""


@dataclass(frozen=True)
class RowsPart:
    """Rows of a table that follow its first part, read from ``file`` (relative to :data:`MODELS_DIR`)."""

    file: str
    rows: int
    offset: int = 0


@dataclass(frozen=True)
class SharedTensor:
    """Where one tensor of a graph lives: ``file`` relative to :data:`MODELS_DIR`. A table whose
    first rows another model holds and whose other rows are its own (``rows_from``) is read in
    parts and joined (:func:`share_leading_rows`)."""

    file: str
    dtype: str
    shape: tuple[int, ...]
    offset: int = 0
    sha256: str = ""
    rows_from: tuple[RowsPart, ...] = ()

    @classmethod
    def from_config(cls, raw: Mapping[str, Any]) -> SharedTensor:
        return cls(
            file=str(raw["file"]),
            dtype=str(raw["dtype"]),
            shape=tuple(int(d) for d in raw["shape"]),
            offset=int(raw.get("offset", 0)),
            sha256=str(raw.get("sha256", "")),
            rows_from=tuple(RowsPart(str(p["file"]), int(p["rows"]), int(p.get("offset", 0)))
                            for p in raw.get("rows_from", ())),
        )

    def to_config(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "dtype": self.dtype, "shape": list(self.shape), "offset": self.offset,
                               "sha256": self.sha256}
        if self.rows_from:
            out["rows_from"] = [{"file": p.file, "rows": p.rows, "offset": p.offset} for p in self.rows_from]
        return out

    def read(self, models_dir: Path = MODELS_DIR) -> np.ndarray:
        """The tensor, read from its file or files into one array (no joined copy: a session
        load must not leave a second table's worth of freed memory behind); a clear error when a
        file is missing or short."""
        out = np.empty(self.shape, dtype=np.dtype(self.dtype))
        flat = out.reshape(self.shape[0], -1) if out.ndim else out.reshape(1, -1)
        first = flat.shape[0] - sum(p.rows for p in self.rows_from)
        row = 0
        for file, offset, rows in [(self.file, self.offset, first), *((p.file, p.offset, p.rows) for p in self.rows_from)]:
            _read_into(models_dir / file, offset, flat[row : row + rows])
            row += rows
        return out


def _read_into(path: Path, offset: int, target: np.ndarray) -> None:
    view = memoryview(target).cast("B")  # type: ignore[arg-type]  # numpy declares the buffer protocol for Python 3.12+ only
    try:
        with path.open("rb") as fh:
            fh.seek(offset)
            got = fh.readinto(view)
    except OSError as exc:
        raise SharedTensorError(f"shared weights {path} cannot be read: {exc}") from exc
    if got != view.nbytes:
        raise SharedTensorError(f"shared weights {path} hold {got} bytes at offset {offset}, "
                                f"not the {view.nbytes} the graph needs")


def load_shared(config: Mapping[str, Any], models_dir: Path = MODELS_DIR) -> dict[str, np.ndarray]:
    """The tensors a model's ``config.json`` declares under ``"shared_tensors"`` (name -> array)."""
    raw = config.get("shared_tensors") or {}
    return {name: SharedTensor.from_config(spec).read(models_dir) for name, spec in raw.items()}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _point_to_external(init: Any, location: str, offset: int, length: int) -> None:
    """Make the TensorProto ``init`` hold no data of its own but a reference to ``length``
    bytes at ``offset`` of ``location`` (a file name beside the graph)."""
    from onnx import TensorProto  # lazy: optional extra (train)

    for field in ("raw_data", "float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
        init.ClearField(field)
    init.data_location = TensorProto.EXTERNAL
    del init.external_data[:]
    for key, value in (("location", location), ("offset", str(offset)), ("length", str(length))):
        entry = init.external_data.add()
        entry.key, entry.value = key, value


def save_external(models: Mapping[Path, Any], files: Mapping[str, str], default_file: str) -> dict[str, str]:
    """Save ONNX ``models`` (path -> ModelProto, all in one directory) with their large
    initializers as external data, each tensor stored once.

    ``files`` puts named tensors in a file of their own (e.g. the word-embedding table that
    another graph shares); every other large tensor goes to ``default_file``. Tensors of the same
    name must hold the same bytes in every model (else ValueError). Returns tensor name ->
    sha256 of its bytes.
    """
    from onnx import numpy_helper, save  # lazy: optional extra (train)

    dirs = {p.parent for p in models}
    if len(dirs) != 1:
        raise ValueError("models sharing external data must be saved in one directory")
    out_dir = dirs.pop()
    written: dict[str, tuple[str, int, int, str]] = {}  # name -> (file, offset, length, sha256)
    handles: dict[str, Any] = {}
    sizes: dict[str, int] = {}
    try:
        for model in models.values():
            for init in model.graph.initializer:
                data = numpy_helper.to_array(init).tobytes()
                if len(data) < _MIN_EXTERNAL_BYTES:
                    continue
                digest = _digest(data)
                if init.name in written:
                    if written[init.name][3] != digest:
                        raise ValueError(f"tensor {init.name} differs between the graphs")
                else:
                    file = files.get(init.name, default_file)
                    if file not in handles:
                        handles[file] = (out_dir / file).open("wb")
                        sizes[file] = 0
                    handles[file].write(data)
                    written[init.name] = (file, sizes[file], len(data), digest)
                    sizes[file] += len(data)
                file, offset, length, _ = written[init.name]
                _point_to_external(init, file, offset, length)
    finally:
        for handle in handles.values():
            handle.close()
    for path, model in models.items():
        save(model, str(path))
    return {name: entry[3] for name, entry in written.items()}


def _share_one(init: Any, shared: bytes, shared_file: str, location: str) -> SharedTensor | None:
    """Point initializer ``init`` at the first place ``shared`` holds its bytes (as external data
    at ``location`` beside the graph); None when it does not hold them."""
    from onnx import numpy_helper  # lazy: optional extra (train)

    array = numpy_helper.to_array(init)
    data = array.tobytes()
    offset = shared.find(data)
    if offset < 0:
        return None
    _point_to_external(init, location, offset, len(data))
    return SharedTensor(file=shared_file, dtype=str(array.dtype), shape=tuple(int(d) for d in array.shape),
                        offset=offset, sha256=_digest(data))


def share_tensor(model_path: Path, name: str, shared_file: str, models_dir: Path = MODELS_DIR) -> SharedTensor:
    """Take tensor ``name`` out of the graph at ``model_path`` when ``shared_file`` (relative to
    ``models_dir``) holds the same bytes, and return its :class:`SharedTensor` for the model's
    ``config.json``. ValueError when the bytes differ: a table that training changed is not shared.
    """
    import onnx  # lazy: optional extra (train)

    model = onnx.load(str(model_path))
    init = next((t for t in model.graph.initializer if t.name == name), None)
    if init is None:
        raise ValueError(f"{model_path} has no initializer {name}")
    spec = _share_one(init, (models_dir / shared_file).read_bytes(), shared_file, Path(shared_file).name)
    if spec is None:
        raise ValueError(f"{shared_file} does not hold {name} of {model_path} byte for byte")
    onnx.save(model, str(model_path))
    return spec


def share_matching(model_dir: Path, shared_file: str, min_bytes: int = 65536,
                   models_dir: Path = MODELS_DIR) -> dict[str, SharedTensor]:
    """Make the graph ``model_dir/model.onnx`` read every tensor of at least ``min_bytes`` that
    ``shared_file`` (relative to ``models_dir``) holds byte for byte from there, and record them in
    the model's ``config.json``.

    Why: a model trained from another with its lower layers frozen (the sentence-pair model from
    the multilingual tagger) quantises those layers to the same int8 bytes; a search by content
    finds them whatever the two exports named them. Returns the shared tensors by name.
    """
    import json  # lazy: loaded only on this path

    import onnx  # lazy: optional extra (train)

    model_path, config_path = model_dir / "model.onnx", model_dir / "config.json"
    model = onnx.load(str(model_path))
    shared = (models_dir / shared_file).read_bytes()
    found: dict[str, SharedTensor] = {}
    # a name no file beside the graph has: loaded without its config, the graph fails clearly
    # instead of reading another file's bytes (the shared file may be another "model.onnx")
    location = "shared-" + shared_file.replace("/", "-")
    for init in model.graph.initializer:
        if init.data_location == onnx.TensorProto.EXTERNAL or len(init.raw_data) < min_bytes:
            continue
        spec = _share_one(init, shared, shared_file, location)
        if spec is not None:
            found[init.name] = spec
    if found:
        onnx.save(model, str(model_path))
        config = json.loads(config_path.read_text(encoding="utf-8"))
        config["shared_tensors"] = {**config.get("shared_tensors", {}),
                                    **{name: spec.to_config() for name, spec in found.items()}}
        config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return found


WORD_TABLE = "inner.encoder.embeddings.word_embeddings.weight_quantized"
ROWS_FILE = "word_rows.bin"  # beside a graph: the rows of its word table that no other file holds


def share_leading_rows(model_dir: Path, name: str, shared_file: str, models_dir: Path = MODELS_DIR,
                       rows_file: str = "") -> SharedTensor:
    """Make the 2-D table ``name`` of ``model_dir/model.onnx`` read its first rows from
    ``shared_file`` (which must hold them byte for byte) and the others from ``rows_file``
    (relative to ``models_dir``; by default ``ROWS_FILE`` beside the graph, written here; an
    existing file is reused when it holds those rows, so two graphs with one table share both).

    Why: the multilingual tagger is MiniLM with rows for Chinese characters added to its word
    table, and training left the original rows as they were (only the new rows learn), so its
    first 30,522 rows are the embedder's ``minilm/word_embeddings.bin``. :func:`load_shared`
    joins the parts before ONNX Runtime copies the table into the graph, so the session holds
    one table, as before. ValueError when the rows differ or the table is no larger than the
    shared one.
    """
    import onnx  # lazy: optional extra (train)
    from onnx import numpy_helper  # lazy: optional extra (train)

    model_path = model_dir / "model.onnx"
    model = onnx.load(str(model_path))
    init = next((t for t in model.graph.initializer if t.name == name), None)
    if init is None:
        raise ValueError(f"{model_path} has no initializer {name}")
    table = numpy_helper.to_array(init)
    shared = (models_dir / shared_file).read_bytes()
    row_bytes = table[0].nbytes if table.ndim == 2 else 0
    rows = len(shared) // row_bytes if row_bytes else 0
    if not rows or len(shared) % row_bytes or rows >= table.shape[0] or table[:rows].tobytes() != shared:
        raise ValueError(f"the first rows of {name} in {model_path} are not {shared_file} byte for byte")
    tail = table[rows:].tobytes()
    if not rows_file:
        rows_file = str((model_dir / ROWS_FILE).resolve().relative_to(models_dir.resolve()))
    target = models_dir / rows_file
    if not (target.is_file() and target.read_bytes() == tail):
        target.write_bytes(tail)
    data = table.tobytes()
    _point_to_external(init, "shared-" + shared_file.replace("/", "-"), 0, len(data))
    onnx.save(model, str(model_path))
    return SharedTensor(file=shared_file, dtype=str(table.dtype), shape=tuple(int(d) for d in table.shape),
                        sha256=_digest(data), rows_from=(RowsPart(rows_file, table.shape[0] - rows),))


def share_word_table(model_dir: Path, models_dir: Path = MODELS_DIR, rows_file: str = "") -> SharedTensor:
    """Make the tagger in ``model_dir`` read its word-embedding table from the embedder's
    ``minilm/word_embeddings.bin`` and record that in its config: the whole table when it is the
    same, its first rows when the tagger's table extends it (:func:`share_leading_rows`; the
    other rows go to ``rows_file``, by default ``word_rows.bin`` beside the graph)."""
    import json  # lazy: loaded only on this path

    import onnx  # lazy: optional extra (train)

    config_path = model_dir / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    shared_file = "minilm/word_embeddings.bin"
    graph = onnx.load(str(model_dir / "model.onnx"), load_external_data=False).graph
    # the taggers' exporter names it under "inner.", the pair model's without
    table = next((t.name for t in graph.initializer if t.name.endswith(WORD_TABLE.removeprefix("inner."))), WORD_TABLE)
    try:
        name = table
        spec = share_tensor(model_dir / "model.onnx", name, shared_file, models_dir)
    except ValueError:
        spec = share_leading_rows(model_dir, table, shared_file, models_dir, rows_file)
    config["shared_tensors"] = {**config.get("shared_tensors", {}), name: spec.to_config()}
    config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return spec


def main(argv: list[str] | None = None) -> int:
    """``python -m hallucheck.models.shared_tensors MODEL_DIR [--match FILE]``: share a tagger's
    word table with the embedder, or (``--match``) every tensor a shipped file already holds."""
    import argparse  # lazy: loaded only on this path
    import sys  # lazy: loaded only on this path

    parser = argparse.ArgumentParser(description="Store weights that shipped graphs hold in common once.")
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("--rows-file", metavar="FILE", default="",
                        help="where the rows of a word table beyond the embedder's go, relative to the models "
                             "directory (default: word_rows.bin beside the graph; an existing file holding the "
                             "same rows is reused, e.g. tagger_multilingual/word_rows.bin)")
    parser.add_argument("--match", metavar="FILE", default="",
                        help="a file relative to the models directory (e.g. tagger_multilingual/model.onnx) "
                             "whose bytes the graph's tensors are looked up in")
    args = parser.parse_args(argv)
    try:
        if args.match:
            found = share_matching(args.model_dir, args.match)
            size = sum(int(np.prod(t.shape)) * np.dtype(t.dtype).itemsize for t in found.values())
            print(f"{args.model_dir}: {len(found)} tensors ({size / 1e6:.2f} MB) now read from {args.match}")
            return 0
        spec = share_word_table(args.model_dir, rows_file=args.rows_file)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{args.model_dir}: word table now read from {spec.file} ({spec.sha256[:12]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
