"""``hallucheck data``: make labelled data sets.

``data synth`` turns a folder of documents into labelled cases (faithful answers and answers
with one labelled error each), in the generic format ``hallucheck eval`` reads;
``data edits`` makes contradiction edits of the clean answers of a RAGTruth file.
"""

from __future__ import annotations

from pathlib import Path

import typer

from hallucheck.cli import app

__all__ = ["data_app", "synth_command"]

data_app = typer.Typer(help="Make labelled data sets (synthetic cases, contradiction edits).", no_args_is_help=True)
app.add_typer(data_app, name="data")


def _check_out(out: Path) -> None:
    from hallucheck.errors import InputError

    if out.parent and not out.parent.exists():
        raise InputError(f"{out}: the folder {out.parent} does not exist")
    if out.exists() and out.is_dir():
        raise InputError(f"{out}: is a folder")


def _write(records: object, out: Path) -> dict[str, int]:
    """Write the records as JSON lines (gzip when ``out`` ends in .gz); counts by part and label."""
    import gzip
    import json

    counts: dict[str, int] = {}
    tmp = out.with_name(out.name + ".part")
    opener = gzip.open if out.suffix == ".gz" else open
    with opener(tmp, "wt", encoding="utf-8") as fh:  # type: ignore[operator]
        for rec in records:  # type: ignore[attr-defined]
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            for key in ("total", f"part:{rec['part']}", "hallucinated" if rec["label"] else "faithful"):
                counts[key] = counts.get(key, 0) + 1
    tmp.replace(out)
    return counts


def _summary(counts: dict[str, int], out: Path) -> str:
    parts = ", ".join(f"{p} {counts.get('part:' + p, 0)}" for p in ("train", "calib", "dev"))
    return (
        f"wrote {counts.get('total', 0)} cases to {out} ({counts.get('hallucinated', 0)} hallucinated, "
        f"{counts.get('faithful', 0)} faithful; {parts})"
    )


@data_app.command("synth")
def synth_command(
    source_dir: str = typer.Argument(..., metavar="SOURCE_DIR", help="Folder of .html/.md/.txt documents."),
    lang: str = typer.Option(..., "--lang", help="Language of the cases: en, de, fr, zh-Hans or zh-Hant."),
    out: Path = typer.Option(..., "--out", "-o", help="Where the cases go (JSON lines; .gz compresses)."),
    seed: int = typer.Option(13, "--seed", help="Seed of every random choice (same seed, same cases)."),
    cross: str | None = typer.Option(
        None, "--cross-lang",
        help="Language of the sources of cross-lingual cases (default: en, or zh-Hans for --lang en); "
        "needs files named NAME.LANG.EXT. 'none' turns them off.",
    ),
) -> None:
    """Labelled QA and summary cases from your own documents, split train/calib/dev by document.

    Output: one JSON object a line with question, contexts, answer, label, spans (start, end,
    label), part and metadata.edit: what `hallucheck eval --format generic` reads.
    """
    import sys

    from hallucheck.errors import InputError
    from hallucheck.synth.cases import SynthOptions, default_partner, make_cases
    from hallucheck.synth.corpus import LANGUAGES, read_corpus
    from hallucheck.text.language import normalize_language

    language = normalize_language(lang)
    if language not in LANGUAGES:
        raise InputError(f"unknown --lang {lang!r} (known: {', '.join(LANGUAGES)})")
    partner_lang: str | None = None
    if cross is None:
        partner_lang = default_partner(language)
    elif cross.strip().lower() != "none":
        partner_lang = normalize_language(cross)
        if partner_lang not in LANGUAGES:
            raise InputError(f"unknown --cross-lang {cross!r} (known: none, {', '.join(LANGUAGES)})")
        if partner_lang == language:
            raise InputError("--cross-lang must differ from --lang")
    _check_out(out)
    sections = read_corpus(source_dir, language)
    if not sections:
        raise InputError(f"{source_dir}: no paragraphs in {language} found in .html, .md or .txt files")
    partners = read_corpus(source_dir, partner_lang) if partner_lang else []
    counts = _write(make_cases(sections, SynthOptions(seed=seed), partners), out)
    sys.stderr.write(_summary(counts, out) + "\n")
