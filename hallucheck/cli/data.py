"""``hallucheck data``: make labelled data sets.

``data synth`` turns a folder of documents into labelled cases (faithful answers and answers
with one labelled error each), in the generic format ``hallucheck eval`` reads;
``data edits`` makes contradiction edits of the clean answers of a RAGTruth file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from hallucheck.cli.root import app

__all__ = ["data_app", "edits_command", "synth_command"]

data_app = typer.Typer(help="Make labelled data sets (synthetic cases, contradiction edits).", no_args_is_help=True)
app.add_typer(data_app, name="data")


def _check_out(out: Path) -> None:
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used

    if out.parent and not out.parent.exists():
        raise InputError(f"{out}: the folder {out.parent} does not exist")
    if out.exists() and out.is_dir():
        raise InputError(f"{out}: is a folder")


def _write(records: object, out: Path) -> dict[str, int]:
    """Write the records as JSON lines (gzip when ``out`` ends in .gz); counts by part and label."""
    import gzip  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.jsonio import json_line  # lazy: start-up: the CLI imports a command's code only when it runs

    counts: dict[str, int] = {}
    tmp = out.with_name(out.name + ".part")
    opener = gzip.open if out.suffix == ".gz" else open
    try:
        with opener(tmp, "wt", encoding="utf-8") as fh:
            for rec in records:  # type: ignore[attr-defined]
                fh.write(json_line(rec))
                for key in ("total", f"part:{rec['part']}", "hallucinated" if rec["label"] else "faithful"):
                    counts[key] = counts.get(key, 0) + 1
    except BaseException:
        tmp.unlink(missing_ok=True)  # no half-written file left behind
        raise
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
    paraphrase: bool = typer.Option(
        True, "--paraphrase/--no-paraphrase",
        help="Write the paraphrase and para_<edit> cases (--no-paraphrase: leave them out).",
    ),
    antonym: bool = typer.Option(
        True, "--antonym/--no-antonym",
        help="Write the antonym cases, one a section (--no-antonym: the files made before this kind existed).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Labelled QA and summary cases from your own documents, split train/calib/dev by section.

    Output: one JSON object a line with question, contexts, answer, label, spans (start, end,
    label), part and metadata.edit: what `hallucheck eval --format generic` reads.
    """
    import sys  # lazy: already loaded by the package; kept where it is used

    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.cli.progress import progress_bar  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.synth.cases import SynthOptions, default_partner, make_cases
    from hallucheck.synth.corpus import LANGUAGES, read_corpus  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.synth.parts import MIN_SECTIONS  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.text.language import normalize_language  # lazy: start-up: the CLI imports a command's code only when it runs

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
    found = len({sec.key for sec in sections})
    if found < MIN_SECTIONS:
        raise InputError(
            f"{source_dir}: {found} section{'s' if found != 1 else ''} with text in {language}; the train, calib and "
            f"dev parts need at least {MIN_SECTIONS} (each heading starts a section): add documents or headings"
        )
    partners = read_corpus(source_dir, partner_lang) if partner_lang else []
    options = SynthOptions(seed=seed, paraphrase=paraphrase, antonym=antonym)
    with progress_bar(Console(stderr=True), "sections", quiet) as progress:
        bar = progress.add_task("synth", total=len(sections))
        counts = _write(make_cases(sections, options, partners, on_section=lambda n: progress.update(bar, completed=n)), out)
    sys.stderr.write(_summary(counts, out) + "\n")


# Options the two edit commands share.
_EDITS_OUT = typer.Option(..., "--out", "-o", help="Where the edited records go (JSON lines; .gz compresses).")
_EDITS_SEED = typer.Option(13, "--seed", help="Seed of every random choice (same seed, same edits).")


@data_app.command("edits")
def edits_command(
    data: str = typer.Argument(
        ..., metavar="RAGTRUTH.jsonl[.gz]", help="RAGTruth records (id, task_type, query, context, output, labels)."
    ),
    out: Path = _EDITS_OUT,
    seed: int = _EDITS_SEED,
    per_answer: int = typer.Option(2, "--per-answer", help="Edits of different kinds made from each clean answer."),
    originals: bool = typer.Option(True, "--originals/--no-originals", help="Also write each unedited clean answer."),
    parser: str = typer.Option(
        "auto", "--parser", help="auto: role swaps use spaCy's English parse when the 'triplets' extra is installed; "
        "none: the name-verb-name pattern only."
    ),
) -> None:
    """Contradiction edits (entity, number, date, negation, antonym, role, pronoun, quantifier,
    cause) of the RAGTruth answers labelled clean, each with its exact span and type
    (conflict / baseless), in the generic format, with the project's split part.
    """
    import sys  # lazy: already loaded by the package; kept where it is used

    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.jsonio import iter_jsonl  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.synth.contradict import english_parser  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.synth.ragtruth_edits import ragtruth_edits  # lazy: start-up: the CLI imports a command's code only when it runs

    if per_answer < 1:
        raise InputError("--per-answer must be at least 1")
    if parser not in ("auto", "none"):
        raise InputError(f"unknown --parser {parser!r} (known: auto, none)")
    _check_out(out)
    nlp = english_parser() if parser == "auto" else None

    def records() -> Iterator[dict[str, Any]]:
        for lineno, record in iter_jsonl(data):
            if "output" not in record or "task_type" not in record:
                raise InputError(f"{data}: line {lineno}: not a RAGTruth record (needs task_type and output)")
            yield record

    counts = _write(ragtruth_edits(records(), seed=seed, per_answer=per_answer, originals=originals, parser=nlp), out)
    sys.stderr.write(_summary(counts, out).replace(" cases ", " records ") + (" (role swaps by the spaCy parse)" if nlp else "") + "\n")


@data_app.command("source-edits")
def source_edits_command(
    edits: str = typer.Argument(
        ..., metavar="EDITS.jsonl[.gz]", help="What `hallucheck data edits` wrote (its unedited originals are read)."
    ),
    out: Path = _EDITS_OUT,
    seed: int = _EDITS_SEED,
    per_answer: int = typer.Option(2, "--per-answer", help="Kinds of edit made from each clean answer."),
    per_kind: int = typer.Option(1, "--per-kind", help="Different edits of each kind made from each clean answer."),
) -> None:
    """Edits of the source sentence a clean English answer restates: a negation or an opposite
    word put into the source (the answer's words now contradict it) or into both the source and
    the answer (the answer stays faithful). Training cases that only the evidence tells apart."""
    import sys  # lazy: already loaded by the package; kept where it is used

    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.jsonio import iter_jsonl  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.synth.source_edits import source_edit_records  # lazy: start-up: the CLI imports a command's code only when it runs

    if per_answer < 1 or per_kind < 1:
        raise InputError("--per-answer and --per-kind must be at least 1")
    _check_out(out)

    def records() -> Iterator[dict[str, Any]]:
        for lineno, record in iter_jsonl(edits):
            if not isinstance(record.get("contexts"), list) or "answer" not in record:
                raise InputError(f"{edits}: line {lineno}: not a generic record (needs contexts and answer)")
            yield record

    counts = _write(source_edit_records(records(), seed=seed, per_answer=per_answer, per_kind=per_kind), out)
    sys.stderr.write(_summary(counts, out).replace(" cases ", " records ") + "\n")
