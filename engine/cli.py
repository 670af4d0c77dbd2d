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
