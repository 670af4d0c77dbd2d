"""The ``taxogen`` command line (typer). Commands print JSON with ``--json``; errors exit 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from kg.cli import app as kg_app

app = typer.Typer(help="taxogen: knowledge-graph backed generalization for text sanitization.", no_args_is_help=True)
app.add_typer(kg_app, name="kg")
bench_app = typer.Typer(help="Benchmarks that print their figures.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


@app.command()
def demo() -> None:
    """Show the ladders of a few items of the embedded default graph."""
    from kg import ChainIndex, KGStore

    index = ChainIndex(KGStore.embedded())
    for qid in ("Q520549", "Q585", "Q486156"):
        chains = index.chains(qid)
        typer.echo(f"{chains.label} ({qid})")
        for prop, ladders in chains.ladders.items():
            typer.echo(f"  {prop:<5} " + " → ".join(r.label for r in ladders.first) + " → ***")


evaluate_app = typer.Typer(help="Evaluations on WikiReplace-format data.", no_args_is_help=True)
app.add_typer(evaluate_app, name="evaluate")

DEFAULT_DATA = Path("../shared/data/wikireplace/wikireplace_dev.json")


def fail(exc: Exception) -> None:
    """Print an error and exit with code 1."""
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(1)


def build_engine(config: Optional[Path], store: Optional[Path], **overrides):
    """``Engine.from_config`` with CLI overrides; configuration errors exit 1."""
    from engine.engine import Engine
    from engine.errors import SanitizerError

    try:
        return Engine.from_config(config, store=store, **overrides)
    except SanitizerError as exc:
        fail(exc)


ConfigOpt = typer.Option(None, "--config", help="TOML configuration file.")
StoreOpt = typer.Option(None, "--store", help="Store directory (default: embedded sample graph).")


@app.command()
def generalize(
    span: str = typer.Argument(..., help="The span text, e.g. 'geologist'."),
    entity_type: str = typer.Option(..., "--type", help="PERSON, DATETIME, QUANTITY, CODE, LOC, ORG, DEM or MISC."),
    context: Optional[str] = typer.Option(None, "--context", help="The sentence around the span."),
    identifier_type: str = typer.Option("QUASI", "--identifier", help="DIRECT, QUASI or NO_MASK."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The ordered replacement candidates of one span, with provenance."""
    from engine.errors import SanitizerError

    engine = build_engine(config, store)
    try:
        ladder = engine.candidates(span, entity_type, context=context, identifier_type=identifier_type)
    except SanitizerError as exc:
        fail(exc)
        return
    if as_json:
        typer.echo(json.dumps({
            "span": span, "entity_type": ladder.span.entity_type.value, "reason": ladder.reason,
            "links": [{"qid": l.qid, "label": l.label, "method": l.method.value, "score": l.score} for l in ladder.links],
            "candidates": [c.to_dict() for c in ladder.candidates],
        }, indent=2, ensure_ascii=False))
        return
    typer.echo(f"{span} [{ladder.span.entity_type.value}] — {ladder.reason}")
    for c in ladder.candidates:
        prov = c.rule or ""
        if c.qid:
            prov = f"{c.qid} via {c.path}"
        elif c.path:
            prov = f"{c.rule} via {c.path}"
        typer.echo(f"  {c.level:>2}. {c.label:<45} {c.source:<9} {prov}")


@evaluate_app.command("generation")
def evaluate_generation_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    as_json: bool = typer.Option(False, "--json"),
    show: int = typer.Option(50, "--show", help="How many differences to list."),
) -> None:
    """Compare our ladders with WikiReplace's options (rules and graph types)."""
    from engine.errors import SanitizerError
    from engine.evaluate_generation import evaluate_generation
    from engine.wikireplace import load_wikireplace

    engine = build_engine(config, store)
    try:
        docs = load_wikireplace(data)
    except SanitizerError as exc:
        fail(exc)
        return
    report = evaluate_generation(engine, docs, progress=not as_json)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    typer.echo(f"rules: heuristic options of WikiReplace found in our ladder, in order ({data.name}, store: {store or 'embedded'})")
    typer.echo(f"  {'type':<9}{'mentions':>9}{'agree':>8}{'share':>8}{'deliberate':>11}{'agree+deliberate':>18}")
    for t, st in report.rules.items():
        typer.echo(f"  {t:<9}{st['mentions']:>9}{st['agree']:>8}{st['agree_share']:>8.2%}{st['deliberate']:>11}{st['agree_or_deliberate_share']:>18.2%}")
    typer.echo("graph types (masked mentions):")
    typer.echo(f"  {'type':<6}{'masked':>7}{'linked':>15}{'choice≠***':>11}{'choice in ladder':>19}{'ceiling':>15}{'mean len':>9}{'more specific':>14}")
    for t, st in report.graph.items():
        typer.echo(
            f"  {t:<6}{st['masked']:>7}{st['linked']:>6} ({st['linked_share']:>6.1%}){st['with_choice']:>11}"
            f"{st['choice_in_ladder']:>8} ({(st['choice_in_ladder_share'] or 0):>7.1%}){st['ceiling_reachable']:>5} ({(st['ceiling_reachable_share'] or 0):>6.1%})"
            f"{st['mean_ladder_length']:>9}{st['more_specific']:>14}"
        )
    typer.echo("  ceiling = majority choice is the label of an ancestor (1–12 hops, P31/P279/P361) of an item whose label/alias equals the span")
    typer.echo(f"differences ({len(report.differences)}):")
    for d in report.differences[:show]:
        tag = f"deliberate: {d['deliberate']}" if d["deliberate"] else "UNEXPLAINED"
        typer.echo(f"  {d['type']:<9}{d['span']!r:<28} heuristic {d['heuristic']} ours {d['ours']}  [{tag}]")


@bench_app.command("candidates")
def bench_candidates_cmd(
    store: Optional[Path] = StoreOpt,
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose masked mentions are the spans."),
    n: int = typer.Option(1000, "--n", help="Number of spans."),
    config: Optional[Path] = ConfigOpt,
) -> None:
    """Warm candidate generation: spans per second and latency percentiles."""
    import time as _time

    from engine.bench import bench_candidates, wikireplace_spans

    t0 = _time.perf_counter()
    engine = build_engine(config, store)
    startup = _time.perf_counter() - t0
    result = bench_candidates(engine, wikireplace_spans(data, n))
    result["engine_startup_seconds"] = round(startup, 2)
    result["store"] = str(store) if store else "embedded"
    typer.echo(json.dumps(result, indent=2))


@bench_app.command("kg")
def bench_kg_cmd(
    seed: Optional[Path] = typer.Option(None, "--seed", help="Dump to build (timed); default: none."),
    store: Optional[Path] = typer.Option(None, "--store", help="Existing store (ignored with --seed)."),
    n: int = typer.Option(1000, "--n", help="Random labelled items to look up."),
) -> None:
    """Build time, chain-lookup latency (p50/p99) and the ratio to a plain Python BFS."""
    from kg.bench import bench_kg

    typer.echo(json.dumps(bench_kg(seed, store, n=n), indent=2))


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
