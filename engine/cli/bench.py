"""``taxogen bench …``: benchmarks that print their figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from kg.starter import default_graph_name

from engine.cli.common import DEFAULT_DATA, App, ConfigOpt, DocsOpt, StoreOpt, build_engine, fail, figures_page

bench_app = App(help="Benchmarks that print their figures.", no_args_is_help=True)


@bench_app.command("candidates")
def bench_candidates_cmd(
    store: Optional[Path] = StoreOpt,
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose masked mentions are the spans."),
    n: int = typer.Option(1000, "--n", help="Number of spans."),
    config: Optional[Path] = ConfigOpt,
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Warm candidate generation: spans per second and latency percentiles."""
    import time as _time

    from taxogen_tools.bench.sanitize import bench_candidates, wikireplace_spans

    with figures_page(docs, "bench-candidates", "Candidate generation speed (bench candidates)"):
        t0 = _time.perf_counter()
        engine = build_engine(config, store)
        startup = _time.perf_counter() - t0
        result = bench_candidates(engine, wikireplace_spans(data, n))
        result["engine_startup_seconds"] = round(startup, 2)
        result["store"] = str(store) if store else default_graph_name()
        typer.echo(json.dumps(result, indent=2))


@bench_app.command("rank")
def bench_rank_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose annotated mentions are ranked."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    n: int = typer.Option(300, "--n", help="Mentions per measurement."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Mentions ranked per second, warm, with embeddings cached and uncached."""
    from taxogen_tools.bench.sanitize import bench_rank

    with figures_page(docs, "bench-rank", "Ranking speed (bench rank)"):
        engine = build_engine(config, store)
        typer.echo(json.dumps(bench_rank(engine, data, n=n), indent=2))


@bench_app.command("sanitize")
def bench_sanitize_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose documents are sanitized."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    batch: int = typer.Option(16, "--batch"),
    threads: int = typer.Option(1, "--threads", help="Torch threads (1 = one core)."),
    dense: Optional[int] = typer.Option(None, "--dense", min=1, help="Instead: one document repeated to this many mentions (and 500/2,000/8,000), seconds each."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Headline: unseen documents per CPU second (documents' caches emptied, label table kept), cold (nothing kept), warm, their ratio; then latencies."""
    from taxogen_tools.bench.sanitize import bench_sanitize

    with figures_page(docs, "bench-sanitize", "Sanitizing throughput per CPU second (bench sanitize)"):
        engine = build_engine(config, store)
        if dense is not None:
            import torch

            from engine.scale.dense import bench_dense

            torch.set_num_threads(threads)
            typer.echo(json.dumps(bench_dense(engine, data, dense), indent=2))
            return
        typer.echo(json.dumps(bench_sanitize(engine, data, batch=batch, threads=threads), indent=2))


@bench_app.command("endpoint")
def bench_endpoint_cmd(
    seed: Optional[Path] = typer.Option(Path("../shared/data/wikidata-seed/wikidata-seed.nt.gz"), "--seed",
                                        help="Dump the local Oxigraph server holds (default: the shared seed)."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Requests, retries, time and results against a local SPARQL server with injected faults."""
    from taxogen_tools.bench.endpoint import run

    with figures_page(docs, "bench-endpoint", "Endpoint client under injected faults (bench endpoint)"):
        typer.echo(json.dumps(run(seed if seed and seed.exists() else None), indent=2))


@bench_app.command("raw")
def bench_raw_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose texts (biographies) are sanitized as raw text."),
    court: Optional[Path] = typer.Option(Path("../shared/data/tab/tab_94.json"), "--court",
                                         help="TAB file whose texts (court judgments) are sanitized as raw text; '' leaves them out."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store taxogen uses (default: the starter graph, built into a fresh cache)."),
    limit: Optional[int] = typer.Option(None, "--limit", help="Only the first N documents of each corpus."),
    as_json: bool = typer.Option(False, "--json"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Raw text in: taxogen beside Presidio (per document and batched; same spaCy model) on biographies and
    court judgments, one core, in one run: documents/s, ms by stage, peak RSS, the first document cold and primed."""
    from taxogen_tools.bench.raw import bench_raw, format_raw

    corpora = {"biographies": data}
    if court is not None and str(court) not in ("", "."):  # --court '' leaves them out
        corpora["court judgments"] = court
    for path in corpora.values():
        if not path.is_file():
            fail(ValueError(f"cannot read {path}"))
            return
    with figures_page(docs, "bench-raw", "Raw text in: taxogen beside Presidio, one core (bench raw)"):
        report = bench_raw(corpora, store=str(store) if store else None, limit=limit, progress=lambda m: typer.echo(m, err=True))
        typer.echo(json.dumps(report, indent=2) if as_json else format_raw(report))


@bench_app.command("memory")
def bench_memory_cmd(
    n: int = typer.Option(10_000, "--docs-count", "-n", min=1, help="How many raw documents the run sanitizes."),
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose texts are cycled."),
    court: Optional[Path] = typer.Option(Path("../shared/data/tab/tab_94.json"), "--court",
                                         help="TAB file whose texts are cycled too; '' leaves them out."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store taxogen uses (default: the starter graph)."),
    as_json: bool = typer.Option(False, "--json"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Peak resident memory of one taxogen sanitize run over N raw documents (10,000 by default), one core,
    and the resident memory at each tenth of the run."""
    from taxogen_tools.bench.memory import bench_memory, format_memory

    corpora = [p for p in (data, court) if p is not None and str(p) not in ("", ".")]
    for path in corpora:
        if not path.is_file():
            fail(ValueError(f"cannot read {path}"))
            return
    with figures_page(docs, "bench-memory", "Memory over a long raw-text run (bench memory)"):
        try:
            report = bench_memory(corpora, n, store=str(store) if store else None, progress=lambda m: typer.echo(m, err=True))
        except (RuntimeError, ValueError) as exc:
            fail(exc)
            return
        typer.echo(json.dumps(report, indent=2) if as_json else format_memory(report))


@bench_app.command("serve")
def bench_serve_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose first texts are requested."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store the server uses (default: the starter graph)."),
    warm: bool = typer.Option(True, "--warm-up/--no-warm-up", help="Start the server with or without its warm-up."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """taxogen serve: time to ready, first raw-text request after ready, a repeat, and their ratio."""
    from taxogen_tools.bench.serve import bench_serve

    if not data.is_file():
        fail(ValueError(f"cannot read WikiReplace file {data}"))
        return
    with figures_page(docs, "bench-serve", "taxogen serve: ready, first request, repeat (bench serve)"):
        typer.echo(json.dumps(bench_serve(data, store=str(store) if store else None, warm=warm), indent=2))


@bench_app.command("scale")
def bench_scale_cmd(
    fractions: str = typer.Option("1/300,1/30", "--fractions", help="Comma-separated fractions of Wikidata's counts, e.g. 1/300,1/30,1/10."),
    workdir: Path = typer.Option(Path("bench-scale"), "--workdir", help="Where dumps and stores are written (removed after each scale)."),
    seed: Path = typer.Option(Path("../shared/data/wikidata-seed/wikidata-seed.nt.gz"), "--seed", help="The shared seed dump."),
    noise: float = typer.Option(1.0, "--noise", help="Dropped lines per kept line in the synthetic dumps (the real dump: ~21)."),
    store: Optional[Path] = typer.Option(None, "--store", help="Measure only the engine on this built store (no generation, no build; --fractions ignored)."),
    filter_source: Optional[Path] = typer.Option(
        None, "--filter-source",
        help="A dump with the real share of dropped lines (.nt, .nt.gz, .nt.bz2): the extrapolation takes the filter's rates from it, not from the synthetic scales."),
    as_json: bool = typer.Option(False, "--json"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Build Wikidata-shaped synthetic stores at fractions of the real counts; print build and engine figures."""
    from taxogen_tools.bench.scale import bench_filter, extrapolate, format_result, load_average, measure_store, run_scale

    with figures_page(docs, "bench-scale", "Build and engine at fractions of Wikidata's size (bench scale)"):
        if store is not None:
            if not (store / "index").is_dir():
                fail(ValueError(f"no built store with an index at {store}"))
            try:
                result = measure_store(store)
            except RuntimeError as exc:
                fail(exc)
                return
            typer.echo(json.dumps(result.to_dict(), indent=2) if as_json else format_result(result))
            return

        try:
            values = [float(a) / float(b) if "/" in f else float(f) for f in fractions.split(",") for a, _, b in [f.partition("/")]]
        except ValueError:
            fail(ValueError(f"bad --fractions {fractions!r} (e.g. 1/300,1/30)"))
            return
        if not seed.is_file():
            fail(ValueError(f"no seed dump at {seed}"))
        if filter_source is not None and not filter_source.is_file():
            fail(ValueError(f"no such dump: {filter_source}"))
        results = []
        for frac in values:
            if not 0 < frac <= 1:
                fail(ValueError(f"fraction {frac} not in (0, 1]"))
            typer.echo(f"[load average {load_average()}] scale {frac:.5f} …", err=True)
            results.append(run_scale(seed, frac, workdir, noise=noise))
            if not as_json:
                typer.echo(format_result(results[-1]))
        filter_run = None
        if filter_source is not None:
            typer.echo(f"[load average {load_average()}] filter over {filter_source} …", err=True)
            filter_run = bench_filter(filter_source, workdir / "filter")
            if not as_json:
                typer.echo(f"filter over {filter_source}: {filter_run['lines']:,} lines, {filter_run['kept']:,} kept, "
                           f"{filter_run['lines_per_s'] / 1e6:.2f} M lines/s on {filter_run['workers']} workers "
                           f"({filter_run['decompressor']}; load average {filter_run['load_average_before']} → {filter_run['load_average_after']})")
        extra = extrapolate(results, filter_run)
        if as_json:
            typer.echo(json.dumps({"scales": [r.to_dict() for r in results], "filter": filter_run, "extrapolation": extra}, indent=2))
            return
        for n in (2, 16):
            e = extra[f"{n}_cores"]
            typer.echo(f"real dump ({extra['dump_lines'] / 1e9:.2f} G lines, {extra['kept_triples'] / 1e6:.0f} M kept) on {n} cores, "
                       f"from scale {extra['from_scale']} (filter rates from {extra['filter_from']}): filter {e['filter_h']} h, load and index {e['load_and_index_h']} h, total {e['total_h']} h "
                       f"(as measured on this machine); quiet machine, from CPU time, with lbzip2 on the same cores: "
                       f"filter {e['quiet_filter_with_lbzip2_h']} h ({e['quiet_filter_lines_per_s'] / 1e6:.2f} M lines/s)")
        typer.echo(f"[load average {load_average()}]")


@bench_app.command("filter")
def bench_filter_cmd(
    source: Path = typer.Option(..., "--source", help="An N-Triples dump (.nt, .nt.gz, .nt.bz2)."),
    workdir: Path = typer.Option(Path("bench-filter"), "--workdir"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Time only the build's parallel filter over a dump (lines/s, per-CPU figures, load average)."""
    from taxogen_tools.bench.scale import bench_filter

    with figures_page(docs, "bench-filter", "The build's parallel dump filter (bench filter)"):
        if not source.is_file():
            fail(ValueError(f"no such dump: {source}"))
        from kg.errors import SanitizerError

        try:
            typer.echo(json.dumps(bench_filter(source, workdir), indent=2))
        except (SanitizerError, OSError) as exc:
            fail(exc)


@bench_app.command("kg")
def bench_kg_cmd(
    seed: Optional[Path] = typer.Option(None, "--seed", help="Dump to build (timed); default: none."),
    store: Optional[Path] = typer.Option(None, "--store", help="Existing store (ignored with --seed)."),
    n: int = typer.Option(1000, "--n", help="Random labelled items to look up."),
    endpoint: bool = typer.Option(True, "--endpoint/--no-endpoint", help="Also time the SPARQL endpoint (on --store, else the sample)."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Build time, chain-lookup latency (p50/p99), the ratio to a plain Python BFS, and the SPARQL endpoint."""
    from taxogen_tools.bench.kg import bench_kg

    with figures_page(docs, "bench-kg", "Chain lookups and the SPARQL endpoint (bench kg)"):
        result = bench_kg(seed, store, n=n)
        if endpoint:
            from taxogen_tools.bench.sparql import bench_endpoint
            from kg.starter import default_store
            from kg.store import KGStore

            result["sparql_endpoint"] = bench_endpoint(KGStore.read_only(store) if store is not None else default_store())
        typer.echo(json.dumps(result, indent=2))


@bench_app.command("privacy")
def bench_privacy_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose documents are guarded."),
    k: int = typer.Option(10, "--k", min=1),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Background index build time and size, and guard time per document (p50/p99)."""
    from taxogen_tools.bench.privacy import bench_privacy

    with figures_page(docs, "bench-privacy", "Privacy guard: index build and time per document (bench privacy)"):
        if not data.is_file():
            fail(FileNotFoundError(f"no such file: {data}"))
        engine = build_engine(config, store)
        typer.echo(json.dumps(bench_privacy(engine, data, k=k), indent=2))
