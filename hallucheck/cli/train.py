"""``hallucheck train`` (fit the span tagger), ``train-pairs`` (the sentence-pair model) and
``train-policy`` (fit the learned policy).

Both need the ``train`` extra; its libraries are imported only inside the commands.
"""

from __future__ import annotations

import typer

from hallucheck.cli.root import app

__all__ = ["train", "train_pairs", "train_policy"]


@app.command("train")
def train(
    config: str | None = typer.Option(None, "--config", help="JSON/YAML training config (default settings otherwise)"),
    run_dir: str = typer.Option("runs/tagger", "--run-dir", help="checkpoints, logs and prepared data"),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="continue from the run directory's checkpoint"),
    max_steps: int | None = typer.Option(None, "--max-steps", help="stop after this many optimizer steps"),
    limit: int | None = typer.Option(None, "--limit", help="use only the first N training answers"),
    export: bool = typer.Option(False, "--export", help="export to ONNX (int8 where it keeps accuracy) at the end"),
    export_dir: str | None = typer.Option(None, "--export-dir", help="where the ONNX model goes"),
) -> None:
    """Fine-tune the span tagger on the train part of RAGTruth (resumable, logged, seeded)."""
    from hallucheck.train.run import run_training  # lazy: start-up: the CLI imports a command's code only when it runs

    raise typer.Exit(run_training(config, run_dir, resume, max_steps, limit, export, export_dir))


@app.command("train-pairs")
def train_pairs(
    config: str = typer.Option(..., "--config", help="JSON pair-model config (hallucheck/train/configs/pairs-*.json)"),
    run_dir: str = typer.Option("runs/pairs", "--run-dir", help="checkpoints, logs and the pair files it builds"),
    max_steps: int | None = typer.Option(None, "--max-steps", help="stop this session after this many steps"),
    export_dir: str | None = typer.Option(None, "--export-dir", help="export the run to int8 ONNX here (after training)"),
) -> None:
    """Train (or resume) the sentence-pair model the ``nli`` detector ships with; optionally export it."""
    from pathlib import Path  # lazy: already loaded by the package; kept where it is used

    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.train.pair_loop import PairConfig, export_pairs  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.train.pair_loop import train_pairs as run  # lazy: start-up: the CLI imports a command's code only when it runs

    try:
        cfg = PairConfig.from_json(Path(config).read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError) as exc:
        raise InputError(f"cannot read pair config {config}: {exc}") from None
    last = run(cfg, run_dir, stop_after=max_steps)
    if last:
        typer.echo(f"last eval: {last}")
    if export_dir:
        check = export_pairs(run_dir, export_dir)
        typer.echo(f"exported to {export_dir}: int8 accuracy {check['int8']['accuracy']:.4f}, "
                   f"float {check['float']['accuracy']:.4f}")


@app.command("train-policy")
def train_policy(
    data: str = typer.Option("../shared/data/ragtruth/train.jsonl.gz", "--data", help="RAGTruth train file"),
    out: str = typer.Option("hallucheck/policies/learned.json", "--out", help="where the fitted policy goes"),
    features_cache: str | None = typer.Option(None, "--cache", help="reuse/keep detector features here (.jsonl)"),
    seed: int = typer.Option(13, "--seed"),
    detectors: str | None = typer.Option(
        None, "--detectors", help="comma-separated detectors of the full stage (default: the cheap ones + model)"
    ),
    tagger_config: str | None = typer.Option(
        None, "--tagger-config", help="also write the calib-chosen token and answer thresholds into this tagger config.json"
    ),
    extra_cases: list[str] = typer.Option(
        [], "--extra-cases",
        help="a generic-format labelled file (hallucheck data synth) whose calib part joins the fit; repeatable",
    ),
    extra_weight: float = typer.Option(1.0, "--extra-weight", help="tree weight of the extra cases' rows"),
    max_escalate: float = typer.Option(
        0.3, "--max-escalate", help="largest share of calib answers the cascade may send to the model layer"
    ),
    train_taggers: str | None = typer.Option(
        None, "--train-taggers",
        help="comma-separated tagger exports, one per fold of the train part (trained with skip_fold [k, n]): "
             "the train part's answers, each read by the tagger that never saw it, join the trees",
    ),
) -> None:
    """Fit and calibrate the learned policy on the calib part (needs scikit-learn)."""
    from hallucheck.train.stack import fit_policy  # lazy: start-up: the CLI imports a command's code only when it runs

    dets = tuple(d.strip() for d in detectors.split(",") if d.strip()) if detectors else None
    raise typer.Exit(fit_policy(data, out, features_cache, seed, detectors=dets, tagger_config=tagger_config,
                                extra_cases=tuple(extra_cases), extra_weight=extra_weight,
                                max_escalate=max_escalate,
                                train_taggers=tuple(t.strip() for t in (train_taggers or "").split(",") if t.strip())))


@app.command("train-language-policies")
def train_language_policies(
    cases: str = typer.Argument(
        ..., metavar="CASES_DIR", help="Folder of labelled cases, one file per language: *.zh-Hans.jsonl, *.de.jsonl ..."
    ),
    policy: str = typer.Option("hallucheck/policies/learned.json", "--policy", help="the learned policy to extend"),
    out: str = typer.Option("hallucheck/policies/learned.json", "--out", help="where the extended policy goes"),
    cache: str = typer.Option("runs/language-stack", "--cache", help="detector outputs per language (kept, reused)"),
    dev_cases: str | None = typer.Option(
        None, "--dev-cases", help="folder of the dev cases when they are kept apart (default: CASES_DIR)"
    ),
    dev_limit: int | None = typer.Option(None, "--dev-limit", help="score at most N dev answers per language"),
    run_detectors: bool = typer.Option(
        True, "--collect/--no-collect", help="run the detectors on answers missing from the cache (--no-collect: fit on the cache as it is)"
    ),
    seed: int = typer.Option(13, "--seed"),
    tagger_stage_drop: str = typer.Option(
        "", "--tagger-stage-drop", help="comma-separated detectors the stage with the tagger leaves out (e.g. ngram,overlap)"
    ),
    min_gain: float = typer.Option(
        0.01, "--min-gain", help="calib OOF F1 the tagger stage must add over the cheap one to be used (negative: may cost)"
    ),
    extra_cases: str | None = typer.Option(
        None,
        "--extra-cases",
        help="folder of more labelled cases, one file per language (e.g. data/reworded): their train and calib parts join the fit",
    ),
    extra_parts: str = typer.Option(
        "train,calib", "--extra-parts",
        help="parts of --extra-cases that join the fit (calib alone when the tagger was trained on their train part)",
    ),
    only_groups: str = typer.Option(
        "", "--groups", help="comma-separated language groups to fit (zh, de, fr); the others keep their fit from --policy"
    ),
    cross_lingual_only: bool = typer.Option(
        False, "--cross-lingual-only",
        help="keep each group's fit from --policy; fit only its second fit, for answers over sources in another language",
    ),
) -> None:
    """Fit the learned policy per language group (zh, de, fr) on the calib part of labelled cases
    (as ``hallucheck data synth`` writes them); report dev per language (needs scikit-learn)."""
    import json  # lazy: already loaded by the package; kept where it is used
    from pathlib import Path  # lazy: already loaded by the package; kept where it is used

    from hallucheck.calibration.stage_fit import FULL_EXTRA  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.policies.default import DEFAULT_DETECTORS as CHEAP  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.policies.learned import load_spec  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.policies.learned_spec import write_spec  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.train.language_stack import LANGUAGE_GROUPS, fit_language_policies, with_extra_cases
    from hallucheck.train.stack_data import collect  # lazy: start-up: the CLI imports a command's code only when it runs

    folder = Path(cases)
    if not folder.is_dir():
        raise InputError(f"{cases}: not a folder")
    dev_folder = Path(dev_cases) if dev_cases else folder
    if extra_cases and not Path(extra_cases).is_dir():
        raise InputError(f"--extra-cases {extra_cases}: not a folder")
    caches: dict[str, Path] = {}
    dev_caches: dict[str, Path] = {}
    dets = [*CHEAP, *FULL_EXTRA]
    drop = [d.strip() for d in tagger_stage_drop.split(",") if d.strip()]
    unknown = sorted(set(drop) - set(dets))
    if unknown:
        raise InputError(f"--tagger-stage-drop: unknown detector(s) {', '.join(unknown)}; the stages read {', '.join(dets)}")
    parts = [p.strip() for p in extra_parts.split(",") if p.strip()]
    if not parts or set(parts) - {"train", "calib"}:
        raise InputError(f"--extra-parts {extra_parts!r}: give train, calib or both (the dev part stays out of every fit)")
    chosen = [g.strip() for g in only_groups.split(",") if g.strip()] or None
    unknown_groups = sorted(set(chosen or ()) - set(LANGUAGE_GROUPS))
    if unknown_groups:
        raise InputError(f"--groups: unknown group(s) {', '.join(unknown_groups)}; the groups are {', '.join(LANGUAGE_GROUPS)}")
    for lang in (code for codes in LANGUAGE_GROUPS.values() for code in codes):
        files = sorted(folder.glob(f"*.{lang}.jsonl"))
        dev_files = sorted(dev_folder.glob(f"*.{lang}.jsonl"))
        if not files:
            continue
        caches[lang] = Path(cache) / lang
        source = files[0]
        if extra_cases:
            extra = sorted({*Path(extra_cases).glob(f"{lang}.jsonl"), *Path(extra_cases).glob(f"*.{lang}.jsonl")})
            source = with_extra_cases(files[0], extra, Path(cache) / f"cases.{lang}.jsonl", parts=parts)
        if run_detectors:
            collect(source, caches[lang], dets, parts=("calib",), data_format="generic")
        if dev_files:
            dev_caches[lang] = Path(cache) / "dev" / lang
            if run_detectors:
                collect(dev_files[0], dev_caches[lang], dets, parts=("dev",), limit=dev_limit, data_format="generic")
    if not caches:
        raise InputError(f"{cases}: no *.zh-Hans.jsonl, *.zh-Hant.jsonl, *.de.jsonl or *.fr.jsonl files")
    spec = dict(load_spec(policy))
    try:
        languages, report = fit_language_policies(
            spec, caches, dev_caches=dev_caches, seed=seed, min_gain=min_gain, tagger_stage_drop=drop, only_groups=chosen,
            cross_lingual_only=cross_lingual_only,
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None
    spec["languages"] = languages
    spec["languages_report"] = report
    write_spec(spec, out)
    typer.echo(json.dumps(report, indent=1))
