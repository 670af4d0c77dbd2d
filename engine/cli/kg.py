"""``taxogen kg …``: build, inspect and query the taxonomy store (typer sub-application over :mod:`kg`)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Optional

import typer

from engine.cli.common import App, ConfigOpt, EndpointOpt, UserAgentOpt, build_engine, fail
from kg.build import build_from_dump, build_from_triples
from kg.chains import ChainIndex
from kg.errors import KGError, QueryError, SanitizerError
from kg.overlay import validate_overlay
from kg.queries import bind as bind_terms
from kg.queries import load_query_file, unbound_inputs
from kg.starter import default_store
from kg.store import KGStore

kg_app = App(help="Build, inspect and query the Wikidata taxonomy store.", no_args_is_help=True)


def open_store(store: Optional[Path], *, read_only: bool = True) -> KGStore:
    """The store at ``store``, or the default store (the starter graph) when ``store`` is None."""
    if store is None:
        return default_store()
    return KGStore.read_only(store) if read_only else KGStore.open(store)


@kg_app.command()
def build(
    store: Path = typer.Option(..., "--store", help="Store directory to create or replace."),
    source: Optional[Path] = typer.Option(None, "--source", help="Wikidata dump: .nt/.json, optionally .gz/.bz2, or a directory of N-Triples parts (taxogen spark kg-filter)."),
    endpoint: Optional[str] = typer.Option(None, "--endpoint", help="SPARQL endpoint URL to extract from."),
    roots: str = typer.Option("", "--roots", help="Comma-separated root classes for --endpoint (e.g. Q5,Q515)."),
    user_agent: Optional[str] = typer.Option(None, "--user-agent", help="User-Agent for --endpoint (name your tool and a contact)."),
    timeout_s: float = typer.Option(60.0, "--timeout", help="Per-query timeout in seconds for --endpoint."),
    page_size: int = typer.Option(10000, "--page-size", help="Rows per page for --endpoint."),
    strict: bool = typer.Option(False, "--strict", help="Fail on the first malformed line."),
    show: int = typer.Option(10, "--show", help="How many malformed lines to print."),
    progress: bool = typer.Option(True, "--progress/--no-progress"),
    as_json: bool = typer.Option(False, "--json", help="Print the build report as JSON."),
    check: bool = typer.Option(True, "--check/--no-check", help="Run the ontology check (taxogen kg check) on the new store; refuse an overlay with errors."),
    overlay_files: list[Path] = typer.Option([], "--overlay", help="Overlay files to load (default: shipped ontology/*.ttl; give taxogen.ttl too)."),
    labels: list[Path] = typer.Option([], "--labels", help="Further N-Triples of labels and descriptions to load with the source (repeatable), e.g. the seed's class-labels.nt.gz."),
) -> None:
    """Build a store from a dump or an endpoint; an existing store is replaced only on success."""
    if (source is None) == (endpoint is None):
        fail(ValueError("give exactly one of --source or --endpoint"))
    from kg.procs import exit_on_signals

    try:
        with exit_on_signals():  # SIGTERM/SIGHUP remove the temporary build directory, as Ctrl-C does
            report = _build_report(source, endpoint, store, roots, user_agent, timeout_s, page_size, strict, progress, show, check,
                                   overlay_files or None, labels)
    except SanitizerError as exc:
        fail(exc)
        return
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        return
    typer.echo(
        f"built {report.store}: {report.triples:,} triples ({report.overlay_triples} overlay) from "
        f"{report.lines:,} lines, {report.kept:,} kept, {report.malformed} malformed, "
        f"{report.seconds:.1f} s (bulk load {report.load_seconds:.1f} s)"
        + (f"; {report.label_triples:,} triples from {', '.join(Path(p).name for p in report.labels)}" if report.labels else "")
    )
    for no, reason, text in report.malformed_examples:
        typer.echo(f"  line {no}: {reason}: {text[:100]!r}", err=True)  # repr: binary junk stays printable
    if report.malformed > len(report.malformed_examples):
        typer.echo(f"  … and {report.malformed - len(report.malformed_examples)} more malformed lines", err=True)
    if report.kept == 0:
        typer.echo(f"warning: no triple taxogen keeps in {report.lines:,} line{'' if report.lines == 1 else 's'}: the store holds only the overlay "
                   "(--strict makes this an error)", err=True)


def _build_report(source: Optional[Path], endpoint: Optional[str], store: Path, roots: str, user_agent: Optional[str],
                  timeout_s: float, page_size: int, strict: bool, progress: bool, show: int, check: bool = True,
                  overlay_files: Optional[list[Path]] = None, labels: tuple[Path, ...] | list[Path] = ()):
    """Run the build the options of ``taxogen kg build`` ask for; returns its report."""
    if source is not None:
        return build_from_dump(source, store, strict=strict, progress=progress, max_examples=show, check=check,
                               overlay_files=overlay_files, labels=labels)
    from kg.extract import extract_subtaxonomy
    from kg.remote import DEFAULT_USER_AGENT, EndpointConfig, SparqlClient

    root_ids = [r.strip() for r in roots.split(",") if r.strip()]
    if not root_ids:
        fail(ValueError("--endpoint needs --roots Q…,Q…"))
    client = SparqlClient(EndpointConfig(url=endpoint, user_agent=user_agent or DEFAULT_USER_AGENT, timeout_s=timeout_s))
    return build_from_triples(extract_subtaxonomy(client, root_ids, page_size=page_size), store, source=endpoint, progress=progress,
                              check=check, overlay_files=overlay_files, labels=labels)


@kg_app.command("starter")
def starter_cmd(as_json: bool = typer.Option(False, "--json")) -> None:
    """Build the starter graph's store into the cache now (it is built on first use otherwise); print where it is."""
    import time

    from kg.starter import starter_store, starter_store_dir

    t0 = time.perf_counter()
    existed = (starter_store_dir() / "oxigraph").is_dir()
    try:
        kg = starter_store(progress=not as_json)
    except SanitizerError as exc:
        fail(exc)
        return
    info = {"store": str(kg.path), "triples": len(kg), "built": not existed, "seconds": round(time.perf_counter() - t0, 1)}
    kg.close()
    if as_json:
        typer.echo(json.dumps(info, indent=2))
        return
    typer.echo(f"starter graph: {info['store']} ({info['triples']:,} triples; "
               + (f"built in {info['seconds']} s)" if info["built"] else "already built)"))


@kg_app.command("index")
def index_cmd(
    store: Path = typer.Option(..., "--store", help="A built store directory."),
    progress: bool = typer.Option(True, "--progress/--no-progress"),
) -> None:
    """(Re)build the indices of a store built by an older taxogen: the graph's (labels, class graph,
    prominence) and those derived from them (the gazetteer's entries, the privacy index)."""
    from kg.derived import build_derived
    from kg.index import index_store

    try:
        kg = KGStore.read_only(store)
        report = index_store(kg, progress=progress)
        derived = build_derived(kg, progress=progress)
    except (SanitizerError, OSError) as exc:
        fail(exc)
        return
    typer.echo(f"indexed {store}: {report.nodes:,} class nodes, {report.names:,} names, {report.keys:,} keys, "
               f"prominence from {report.prominence}, {report.bytes / 1e6:.1f} MB, {report.seconds:.1f} s; derived "
               + ", ".join(f"{name} {seconds} s" for name, seconds in derived.items()))


@kg_app.command()
def stats(
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: the starter graph)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Triple counts per predicate and per named graph."""
    try:
        st = open_store(store).stats()
    except SanitizerError as exc:
        fail(exc)
        return
    if as_json:
        typer.echo(json.dumps({"per_predicate": st.per_predicate, "named_graphs": st.named_graphs, "total": st.total}, indent=2))
        return
    typer.echo(f"{'predicate':<60} {'triples':>10}")
    for pred, n in sorted(st.per_predicate.items(), key=lambda kv: (-kv[1], kv[0])):
        typer.echo(f"{_short(pred):<60} {n:>10,}")
    typer.echo(f"{'total':<60} {st.total:>10,}")
    for graph, n in st.named_graphs.items():
        typer.echo(f"graph {graph}: {n:,} triples")


def _short(iri: str) -> str:
    for prefix, short in (
        ("http://www.wikidata.org/prop/direct/", "wdt:"),
        ("http://www.w3.org/2000/01/rdf-schema#", "rdfs:"),
        ("http://www.w3.org/2004/02/skos/core#", "skos:"),
        ("http://schema.org/", "schema:"),
    ):
        if iri.startswith(prefix):
            return short + iri[len(prefix):]
    return iri


@kg_app.command()
def chains(
    qid: str = typer.Argument(..., help="Wikidata item id, e.g. Q520549."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: the starter graph)."),
    mode: str = typer.Option("preloaded", "--mode", help="preloaded (default) or sparql."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The pruned ladders of an item per property, first and longest."""
    try:
        from engine.text.articles import with_definite_article

        index = ChainIndex(open_store(store), mode=mode, name_phrase=with_definite_article)
        result = index.chains(qid)
    except (SanitizerError, ValueError) as exc:
        fail(exc)
        return
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
        return
    typer.echo(f"{result.qid} {result.label or '(no label)'}")
    if not result.ladders:
        typer.echo("  no ladders (no P31/P279/P8225/P361 edges in this store)")
    for prop, ladders in result.ladders.items():
        for kind in ("first", "longest"):
            rungs = getattr(ladders, kind)
            text = " → ".join(f"{r.label} ({r.qid or r.rule}, d{r.depth})" for r in rungs)
            typer.echo(f"  {prop:<5} {kind:<7} {text}")


@kg_app.command()
def query(
    file: Path = typer.Argument(..., help="A .rq file (e.g. queries/ancestors.rq)."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: the starter graph)."),
    bind: list[str] = typer.Option([], "--bind", help="name=value, for inputs declared in the header."),
    fmt: str = typer.Option("table", "--format", help="json, csv or table."),
) -> None:
    """Run a SPARQL file with bound parameters against the store."""
    if fmt not in ("json", "csv", "table"):
        fail(ValueError(f"unknown format {fmt!r}"))
    bindings = {}
    for b in bind:
        name, sep, value = b.partition("=")
        if not sep:
            fail(ValueError(f"--bind needs name=value, got {b!r}"))
        bindings[name.strip().lstrip("?")] = value
    try:
        q = load_query_file(file)
        bind_terms(q, bindings)  # unknown names and bad values first
        missing = unbound_inputs(q, bindings)
        if missing:
            raise QueryError(f"{file.name} declares input ?{missing[0]} ({q.inputs[missing[0]]}): give it with --bind {missing[0]}=…",
                             query=q.name)
        rows = open_store(store).run(q, bindings)
    except SanitizerError as exc:
        fail(exc)
        return
    cols = list(rows[0].keys()) if rows else list(q.outputs)
    if fmt == "json":
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    elif fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
        typer.echo(buf.getvalue().rstrip("\n"))
    else:
        widths = {c: max([len(c)] + [len(str(r.get(c, ""))) for r in rows]) for c in cols}
        typer.echo("  ".join(c.ljust(min(widths[c], 60)) for c in cols))
        for r in rows:
            typer.echo("  ".join(str(r.get(c, "") if r.get(c) is not None else "")[:60].ljust(min(widths[c], 60)) for c in cols))
        typer.echo(f"({len(rows)} rows)", err=True)


@kg_app.command()
def overlay(
    store: Optional[Path] = typer.Option(None, "--store", help="Store to reload the overlay into."),
    files: list[Path] = typer.Option([], "--file", help="Overlay files (default: shipped ontology/*.ttl)."),
) -> None:
    """Validate the overlay and (with --store) reload it into the store's overlay graph."""
    problems = validate_overlay(files or None)
    for p in problems:
        typer.echo(f"overlay problem: {p}", err=True)
    if problems:
        raise typer.Exit(1)
    if store is None:
        typer.echo("overlay valid")
        return
    try:
        kg = KGStore.open(store)
        n = kg.load_overlay(files or None)
        kg.record_overlay(files or None)
    except KGError as exc:
        fail(exc)
        return
    typer.echo(f"overlay reloaded: {n} triples in <urn:taxogen:overlay>")


@kg_app.command("check")
def check_cmd(
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: the starter graph)."),
    files: list[Path] = typer.Option([], "--file", help="Rule files (default: shipped ontology/*.ttl; give taxogen.ttl too)."),
    reasoner: str = typer.Option("hermit", "--reasoner", help="hermit (Java), or none: the structural findings only."),
    owl: Optional[Path] = typer.Option(None, "--owl", help="Also save the ontology reasoned over as Turtle (opens in Protégé)."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Check the overlay and the truth rules together and against the store's classes, with an OWL reasoner.

    One line per finding, file:line first; exit 1 when there is an error. Findings:
    inconsistent, unsatisfiable, type-conflict, absent, cut-off, pruned-rule.
    """
    from kg.ontology_check import check_ontology

    if reasoner not in ("hermit", "none"):
        fail(ValueError(f"unknown reasoner {reasoner!r} (hermit or none)"))
    for f in files:
        if not f.is_file():
            fail(FileNotFoundError(f"no such rule file: {f}"))
    try:
        report = check_ontology(open_store(store), files or None, reasoner=None if reasoner == "none" else reasoner,
                                on_progress=lambda m: typer.echo(m, err=True))
    except SanitizerError as exc:
        fail(exc)
        return
    if owl is not None:
        report.ontology.serialize(str(owl), format="turtle")
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        for finding in report.findings:
            typer.echo(finding.format())
        typer.echo(report.summary(), err=True)
    if report.errors or (strict and report.warnings):
        raise typer.Exit(1)


@kg_app.command()
def serve(
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: the starter graph)."),
    port: Optional[int] = typer.Option(None, "--port", help="Port (default 7878)."),
    host: Optional[str] = typer.Option(None, "--host", help="Bind address (default 127.0.0.1)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Per-query timeout in seconds (default 30)."),
    max_result_bytes: Optional[int] = typer.Option(None, "--max-result-bytes", help="Largest result served (default 64 MiB)."),
    allow_service: list[str] = typer.Option([], "--allow-service", help="A SERVICE IRI queries may call (repeatable)."),
    config: Optional[Path] = typer.Option(None, "--config", help="TOML file with a \\[taxogen.sparql] table."),
) -> None:
    """Serve the store read-only over the SPARQL 1.1 protocol, WDQS dialect, on 127.0.0.1.

    Query it at http://127.0.0.1:PORT/query (or /sparql), e.g. with the files in queries/:
    curl -s http://127.0.0.1:7878/query -H 'Accept: text/csv' --data-urlencode query@queries/stats.rq
    SIGTERM or Ctrl-C stops it; it starts no child process.
    """
    import importlib.util

    from kg.sparql import SparqlSettings
    from kg.sparql import serve as serve_endpoint

    if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("starlette") is None:
        fail(RuntimeError("the SPARQL endpoint needs the server extra: pip install 'taxogen[server]'"))
        return
    try:
        settings = SparqlSettings.load(config, overrides={
            "port": port, "host": host, "timeout_s": timeout, "max_result_bytes": max_result_bytes,
            "service_allow_list": allow_service or None,
        })
        kg = open_store(store)
    except SanitizerError as exc:
        fail(exc)
        return
    import socket

    try:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((settings.host, settings.port))
    except OSError as exc:
        fail(OSError(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror}"))
        return
    typer.echo(f"SPARQL endpoint: http://{settings.host}:{settings.port}/query (read-only; Ctrl-C stops)", err=True)
    try:
        serve_endpoint(kg, settings)
    except SystemExit as exc:  # uvicorn's own exit on a startup failure it has already reported
        raise typer.Exit(0 if exc.code in (0, None) else 1) from None


@kg_app.command("refresh")
def kg_refresh(
    store: Path = typer.Option(..., "--store", help="Store whose remote cache to refresh."),
    everything: bool = typer.Option(False, "--all", help="Re-fetch every cached lookup, not only expired ones."),
    config: Optional[Path] = ConfigOpt,
    endpoint: Optional[str] = EndpointOpt,
    user_agent: Optional[str] = UserAgentOpt,
) -> None:
    """Re-fetch cached endpoint answers whose TTL has passed (or all with --all)."""
    engine = build_engine(config, store, endpoint, False, user_agent, **({} if endpoint else {"endpoint.enabled": True}))
    if engine.remote is None:
        fail(ValueError("no endpoint configured"))
        return
    counts = engine.remote.remote.refresh(everything=everything)
    stats = engine.remote.remote.client.stats.to_dict()
    typer.echo(json.dumps({"store": str(store), **counts, "client": stats}, indent=2))
