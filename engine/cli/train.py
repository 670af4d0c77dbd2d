"""``taxogen train``: the LightGBM ranker; ``taxogen train-verifier``: the verifier of rungs."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from engine.cli.common import DEFAULT_DATA, ConfigOpt, StoreOpt, build_engine, fail, feature_groups, served_groups


def train(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    out: Path = typer.Option(..., "--out", help="Directory to write model.txt and ranker.json into."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    seed: int = typer.Option(13, "--seed"),
    rounds: Optional[int] = typer.Option(None, "--rounds", help="Boosting rounds (default: 40 on served ladders, 100 on WikiReplace's)."),
    label_mode: str = typer.Option("majority", "--labels", help="majority, or votes (graded by vote share)."),
    ladders: str = typer.Option("served", "--ladders", help="served: our own ladders with the annotators' choice mapped onto them; wikireplace: WikiReplace's."),
    judged: Optional[List[Path]] = typer.Option(None, "--judged", metavar="DIR",
                                                help="A judged batch directory (classes.jsonl, classes.judged.jsonl): training rows only (repeatable)."),
    groups: Optional[str] = typer.Option(None, "--groups", help="Feature groups, comma-separated (default: structure,embedding-pooled,graph,document; 'embedding' embeds one sentence per candidate)."),
) -> None:
    """Train the LightGBM ranker on every annotated mention of DATA (reproducible with --seed)."""
    import time as _time

    from engine.errors import InputError, SanitizerError
    from taxogen_tools.evaluation.sanitize_eval import TRAIN_MODES, rounds_for
    from taxogen_tools.evaluation.served import prepare_served
    from taxogen_tools.training.ranker import prepare, say, train_model

    t0 = _time.perf_counter()
    engine = build_engine(config, store, model="none")
    try:
        if ladders not in TRAIN_MODES:
            raise InputError(f"unknown --ladders {ladders!r}; expected one of {', '.join(TRAIN_MODES)}")
        chosen = feature_groups(groups) if groups or ladders != "served" else served_groups()
        prepared = prepare_served(data, engine, progress=say, groups=chosen) if ladders == "served" else prepare(data, engine, groups=chosen)
    except SanitizerError as exc:
        fail(exc)
        return
    rounds = rounds if rounds is not None else rounds_for(ladders)
    say(f"training LambdaRank on {ladders} ladders ({rounds} rounds, seed {seed}) …")
    ranker = train_model(prepared, engine, seed=seed, rounds=rounds, label_mode=label_mode, data_name=data.name)
    ranker.info["ladders"] = ladders
    ranker.save(out)
    top = list(ranker.feature_importance().items())[:8]
    typer.echo(f"model written to {out} ({len(prepared.items)} mentions, {len(ranker.features)} features, {_time.perf_counter() - t0:.1f} s)")
    typer.echo("top features by gain: " + ", ".join(f"{k} {v:.0f}" for k, v in top))


def train_verifier(
    store: Optional[Path] = StoreOpt,
    out: Path = typer.Option(..., "--out", help="Directory to write model.txt and verifier.json into."),
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="The shared WikiReplace documents (the judged spans' documents, with tests/data/fresh_biographies*.jsonl)."),
    config: Optional[Path] = ConfigOpt,
    truth: Optional[Path] = typer.Option(None, "--truth", help="Truth set (JSON lines; default tests/data/truth_set.jsonl)."),
    rules: Optional[str] = typer.Option(None, "--rules", metavar="A,B",
                                        help="The rules whose verdicts are features, switched off while ladders are built (default: the shipped choice; '' for none)."),
    judged: Optional[List[Path]] = typer.Option(None, "--judged", metavar="DIR",
                                                help="A judged batch directory (classes.jsonl, classes.judged.jsonl): training rows only (repeatable)."),
    judged_docs: Optional[List[Path]] = typer.Option(None, "--judged-docs", metavar="FILE",
                                                     help="The documents of the --judged batches (JSON lines of id and text, or any input 'sanitize' reads; "
                                                          "repeatable): their rows get their document's state (its countries, its sports), raw texts' "
                                                          "mentions detected. Without it those rows are built from their sentence alone."),
    groups: Optional[str] = typer.Option(None, "--groups", metavar="A,B", help="Feature groups (default: all but shape, namesakes and context; all: link,provenance,kinds,store,lexical,embedding,shape,namesakes,context,rules)."),
    target: float = typer.Option(0.05, "--target", help="The default operating point keeps the cross-validated false rate among the class replacements shown at or below this."),
    k: Optional[int] = typer.Option(None, "--k", min=0, help="The privacy guard's k while the curve sanitizes (default privacy.k)."),
    seed: int = typer.Option(13, "--seed"),
) -> None:
    """Train the verifier on the judged truth set: grouped cross-validation, the curve, the default operating point, the model."""
    import time as _time

    from engine.errors import SanitizerError
    from taxogen_tools.training.ranker import say
    from taxogen_tools.training.verifier import train_verifier as run

    t0 = _time.perf_counter()
    engine = build_engine(config, store, verifier="none")
    try:
        verifier, lines = run(engine, shared=data, truth=truth, rules=rules, groups=groups, judged=judged or (), judged_docs=judged_docs or (), target=target, k=k, seed=seed, progress=say)
    except SanitizerError as exc:
        fail(exc)
        return
    verifier.save(out)
    for line in lines:
        typer.echo(line)
    typer.echo(f"verifier written to {out} ({len(verifier.features)} features, {len(verifier.rules)} rules read as features, "
               f"default min_truth {verifier.min_truth:g}; {_time.perf_counter() - t0:.0f} s)")
