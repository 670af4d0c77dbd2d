"""The ``taxogen`` command line (typer). Commands print JSON with ``--json``; errors exit 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from kg.cli import app as kg_app
from kg.cli import fail

app = typer.Typer(help="taxogen: knowledge-graph backed generalization for text sanitization.", no_args_is_help=True)
app.add_typer(kg_app, name="kg")
bench_app = typer.Typer(help="Benchmarks that print their figures.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


@app.command()
def demo(
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: embedded sample graph)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Sanitize the plain-text demo biography shipped in the package: detect its spans, then generalize them."""
    from importlib import resources

    from engine.io.docio import DocRecord, result_to_dict

    text = (resources.files("engine") / "data" / "demo_biography.txt").read_text(encoding="utf-8").strip()
    engine = build_engine(None, store)
    doc = DocRecord("demo-biography", text, tuple(engine.detect_mentions(text)), "demo_biography.txt")  # issue 13: raw text in
    result = engine.sanitize(doc.text, doc.mentions)
    if as_json:
        typer.echo(json.dumps(result_to_dict(doc.doc_id, result, with_originals=True), indent=2, ensure_ascii=False))
        return
    typer.echo("original:\n  " + doc.text + "\n")
    typer.echo("sanitized:\n  " + result.text + "\n")
    typer.echo("replacements (shown [chosen rung, when it differs] · runner-up rung):")
    for r in result.replacements:
        alts = [a.candidate.label for a in r.alternatives if a.candidate.label != (r.rung or r.replacement)][:1]
        rung = f" [{r.rung!r}]" if r.rung and r.rung != r.replacement and not r.kept else ""
        typer.echo(f"  {r.original!r:<24} {r.mention.entity_type.value:<9} → {r.replacement!r}{rung}" + (f"  · {alts[0]!r}" if alts else "") + (f"  ({r.note})" if r.note else ""))
    for e in result.edits:
        typer.echo(f"  edit: {e}")


evaluate_app = typer.Typer(help="Evaluations on WikiReplace-format data.", no_args_is_help=True)
app.add_typer(evaluate_app, name="evaluate")

DEFAULT_DATA = Path("../shared/data/wikireplace/wikireplace_dev.json")


def build_engine(config: Optional[Path], store: Optional[Path], endpoint: Optional[str] = None, offline: bool = False,
                 user_agent: Optional[str] = None, **overrides):
    """``Engine.from_config`` with CLI overrides (file < environment < flags); errors exit 1."""
    from engine.engine import Engine
    from engine.errors import SanitizerError

    if endpoint:
        overrides.update({"endpoint.url": endpoint, "endpoint.enabled": True})
    if offline:
        overrides["endpoint.offline"] = True
    if user_agent:
        overrides["endpoint.user_agent"] = user_agent
    try:
        return Engine.from_config(config, store=store, **overrides)
    except SanitizerError as exc:
        fail(exc)


ConfigOpt = typer.Option(None, "--config", help="TOML configuration file.")
EndpointOpt = typer.Option(None, "--endpoint", help="Ask this SPARQL endpoint for what the store lacks (caches into --store).")
OfflineOpt = typer.Option(False, "--offline", help="Never call the endpoint (cached answers only).")
UserAgentOpt = typer.Option(None, "--user-agent", help="User-Agent sent to the endpoint (say who you are and how to reach you).")
StoreOpt = typer.Option(None, "--store", help="Store directory (default: embedded sample graph).")


@app.command()
def generalize(
    span: str = typer.Argument(..., help="The span text, e.g. 'geologist'."),
    entity_type: str = typer.Option(..., "--type", help="PERSON, DATETIME, QUANTITY, CODE, LOC, ORG, DEM or MISC."),
    context: Optional[str] = typer.Option(None, "--context", help="The sentence around the span."),
    identifier_type: str = typer.Option("QUASI", "--identifier", help="DIRECT, QUASI or NO_MASK."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    endpoint: Optional[str] = EndpointOpt,
    offline: bool = OfflineOpt,
    user_agent: Optional[str] = UserAgentOpt,
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The ordered replacement candidates of one span, with provenance."""
    from engine.errors import SanitizerError
    from engine.io.contract import parse_generalize_request

    try:  # the same contract as POST /generalize, checked before anything loads
        req = parse_generalize_request({"span": span, "entity_type": entity_type, "identifier_type": identifier_type, "context": context})
    except SanitizerError as exc:
        fail(exc)
        return
    engine = build_engine(config, store, endpoint, offline, user_agent)
    try:
        ladder = engine.candidates(req.span, req.entity_type, context=req.context, identifier_type=req.identifier_type)
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
    from engine.evaluation.generation import evaluate_generation
    from engine.io.wikireplace import load_wikireplace

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


@evaluate_app.command("truth")
def evaluate_truth_cmd(
    store: Optional[Path] = StoreOpt,
    truth: Optional[Path] = typer.Option(None, "--truth", help="Truth set (JSON lines; default tests/data/truth_set.jsonl)."),
    config: Optional[Path] = ConfigOpt,
    as_json: bool = typer.Option(False, "--json"),
    show: int = typer.Option(30, "--show", help="How many false and unjudged rungs to list."),
    chosen: bool = typer.Option(False, "--chosen", help="Also score the rung the ranker picks per span (loads the model)."),
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="The judged spans' documents (their places give homonyms their country); skipped if absent."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Only the spans judged in this batch (e.g. s4-batch1, judged out of sample)."),
) -> None:
    """False rate of offered rungs on the judged truth set, per entity type; lists unjudged rungs."""
    from engine.errors import SanitizerError
    from engine.evaluation.truth import batch_spans, document_contexts, evaluate_truth, load_truth_set

    try:
        judgments = load_truth_set(truth)
        if batch:
            judgments = batch_spans(judgments, batch)
    except SanitizerError as exc:
        fail(exc)
        return
    engine = build_engine(config, store)
    report = evaluate_truth(engine, judgments, chosen=chosen, contexts=document_contexts(engine, data, {j.doc_id for j in judgments}))
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    typer.echo(f"truth set: {len(judgments)} judgments, {report.spans} spans (store: {store or 'embedded'})")
    typer.echo(f"  {'type':<9}{'spans':>6}{'offered':>8}{'judged':>8}{'false':>7}{'false rate':>11}{'first rung false':>18}{'unjudged':>9}")
    for t, st in report.per_type.items():
        rate = f"{st['false_rate']:.2%}" if st["false_rate"] is not None else "—"
        first = f"{st['first_false']}/{st['first_judged']}"
        typer.echo(f"  {t:<9}{st['spans']:>6}{st['offered']:>8}{st['judged']:>8}{st['false']:>7}{rate:>11}{first:>18}{st['unjudged']:>9}")
    if chosen:
        typer.echo("chosen rung (ranker's pick per span):")
        typer.echo(f"  {'type':<9}{'judged':>8}{'false':>7}{'false rate':>11}{'***':>6}{'unjudged':>9}")
        for t, st in report.per_type.items():
            rate = f"{st['chosen_false_rate']:.2%}" if st["chosen_false_rate"] is not None else "—"
            typer.echo(f"  {t:<9}{st['chosen_judged']:>8}{st['chosen_false']:>7}{rate:>11}{st['chosen_mask']:>6}{st['chosen_unjudged']:>9}")
    typer.echo(f"false rungs ({len(report.false_rungs)}):")
    for r in report.false_rungs[:show]:
        typer.echo(f"  {r['entity_type']:<9}{r['span']!r:<40} → {r['replacement']!r}  ({r['reason']})")
    typer.echo(f"unjudged rungs ({len(report.unjudged)}):")
    for r in report.unjudged[:show]:
        typer.echo(f"  {r['entity_type']:<9}{r['span']!r:<40} → {r['replacement']!r}  [{r['doc_id']}] {r['context'][:80]!r}")


@bench_app.command("candidates")
def bench_candidates_cmd(
    store: Optional[Path] = StoreOpt,
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose masked mentions are the spans."),
    n: int = typer.Option(1000, "--n", help="Number of spans."),
    config: Optional[Path] = ConfigOpt,
) -> None:
    """Warm candidate generation: spans per second and latency percentiles."""
    import time as _time

    from engine.bench.sanitize import bench_candidates, wikireplace_spans

    t0 = _time.perf_counter()
    engine = build_engine(config, store)
    startup = _time.perf_counter() - t0
    result = bench_candidates(engine, wikireplace_spans(data, n))
    result["engine_startup_seconds"] = round(startup, 2)
    result["store"] = str(store) if store else "embedded"
    typer.echo(json.dumps(result, indent=2))


@app.command()
def train(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    out: Path = typer.Option(..., "--out", help="Directory to write model.txt and ranker.json into."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    seed: int = typer.Option(13, "--seed"),
    rounds: Optional[int] = typer.Option(None, "--rounds", help="Boosting rounds (default: 40 on served ladders, 100 on WikiReplace's)."),
    label_mode: str = typer.Option("majority", "--labels", help="majority, or votes (graded by vote share)."),
    ladders: str = typer.Option("served", "--ladders", help="served: our own ladders with the annotators' choice mapped onto them; wikireplace: WikiReplace's."),
    groups: Optional[str] = typer.Option(None, "--groups", help="Feature groups, comma-separated (default: structure,embedding-pooled,graph,document; 'embedding' embeds one sentence per candidate)."),
) -> None:
    """Train the LightGBM ranker on every annotated mention of DATA (reproducible with --seed)."""
    import time as _time

    from engine.errors import InputError, SanitizerError
    from engine.evaluation.sanitize_eval import TRAIN_MODES, rounds_for
    from engine.evaluation.served import prepare_served
    from engine.select.training import prepare, say, train_model

    t0 = _time.perf_counter()
    engine = build_engine(config, store, model="none")
    try:
        if ladders not in TRAIN_MODES:
            raise InputError(f"unknown --ladders {ladders!r}; expected one of {', '.join(TRAIN_MODES)}")
        chosen = _feature_groups(groups) if groups or ladders != "served" else _served_groups()
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


def _served_groups() -> tuple[str, ...]:
    from engine.select.features import SERVED_GROUPS

    return SERVED_GROUPS


def _feature_groups(text: str | None) -> tuple[str, ...]:
    """``--groups a,b`` checked against the known feature groups (default: all)."""
    from engine.errors import InputError
    from engine.select.features import DEFAULT_GROUPS, FEATURE_GROUPS

    if not text:
        return DEFAULT_GROUPS
    chosen = tuple(g.strip() for g in text.split(",") if g.strip())
    unknown = [g for g in chosen if g not in FEATURE_GROUPS]
    if unknown or not chosen:
        raise InputError(f"unknown feature groups {unknown}; known: {', '.join(FEATURE_GROUPS)}")
    return chosen


def _echo_spreads(spreads: dict[str, dict[str, float]], rows: tuple[tuple[str, str], ...]) -> None:
    """One line per (key, name): mean, then std and min–max (see ``engine.select.selection.spread``)."""
    for key, name in rows:
        s = spreads[key]
        typer.echo(f"    {name:<28} {s['mean']:.4f}  (±{s['std']:.4f}, {s['min']:.4f}–{s['max']:.4f})")


@evaluate_app.command("selection")
def evaluate_selection_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    folds: int = typer.Option(5, "--folds", help="Grouped cross-validation folds (ignored with --model)."),
    model: Optional[str] = typer.Option(None, "--model", help="Score an existing model: a directory or 'shipped'."),
    ablation: bool = typer.Option(False, "--ablation", help="Also run CV without each feature group and with each alone."),
    groups: Optional[str] = typer.Option(None, "--groups", help="Feature groups for CV, comma-separated (default: structure,embedding-pooled,graph,document)."),
    repeats: int = typer.Option(1, "--repeats", min=1, help="Repeat CV with this many fold assignments (seeds --seed, --seed+1, …)."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    seed: int = typer.Option(13, "--seed"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Majority-vote accuracy, all-selections accuracy and MRR, per entity type, with the first-rung baseline."""
    from engine.errors import SanitizerError
    from engine.select.ranker import Ranker, shipped_model_dir
    from engine.select.selection import ablation as run_ablation
    from engine.select.selection import (
        agreement_ceiling,
        cross_validate,
        evaluate,
        repeated_cv,
        scoring_rows,
        split_scores,
    )
    from engine.select.training import prepare, say, store_fingerprint

    engine = build_engine(config, store, model="none")
    report: dict = {"data": str(data), "graph_store": store_fingerprint(engine)}
    try:
        if model is not None:
            ranker = Ranker.load(shipped_model_dir() if model == "shipped" else Path(model))
            trained = ranker.info.get("graph_store", {})
            if trained and trained.get("triples") != report["graph_store"]["triples"]:
                say(f"warning: the model's graph features came from {trained.get('source')} ({trained.get('triples')} triples); "
                    f"this run uses {report['graph_store']['source']} ({report['graph_store']['triples']} triples)")
            prepared = prepare(data, engine, groups=ranker.groups)
            X, _sizes = scoring_rows(ranker, prepared.items, prepared.table, range(len(prepared.items)))
            scores = split_scores(ranker.score(X), prepared.table.sizes)
            metrics = evaluate(prepared.items, scores)
            evaluated = {it.item.group for it in prepared.items}
            seen = evaluated & set(ranker.info.get("doc_ids", []))
            report.update({"mode": "model", "model": model, "metrics": metrics.to_dict(), "documents": len(evaluated), "in_sample_documents": len(seen)})
            if seen:
                say(f"warning: {len(seen)} of the {len(evaluated)} documents were in the model's training data — "
                    "these figures are in-sample; `--folds` gives held-out ones")
        else:
            chosen = _feature_groups(groups)
            prepared = prepare(data, engine, groups=chosen)
            cv = cross_validate(prepared.items, prepared.table, folds=folds, groups=chosen, seed=seed, progress=None if as_json else say)
            report.update({"mode": f"{folds}-fold grouped CV", "cv": cv, "metrics": cv["pooled"]})
            if repeats > 1:
                report["repeated"] = repeated_cv(prepared.items, prepared.table, repeats=repeats, folds=folds, seed=seed, progress=None if as_json else say)
            if ablation:
                report["ablation"] = run_ablation(prepared.items, prepared.table, folds=folds, seed=seed, progress=None if as_json else say)
        ceiling = agreement_ceiling(prepared.items)
        report["agreement"] = ceiling.to_dict() if ceiling else None
    except SanitizerError as exc:
        fail(exc)
        return
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    m = report["metrics"]
    typer.echo(f"selection on {data.name} — {report['mode']} — {m['mentions']} mentions")
    if "cv" in report:
        mean = report["cv"]["mean"]
        typer.echo("  mean over folds (std, min–max):")
        _echo_spreads(mean, (("majority", "majority vote"), ("all_selections", "all selections"), ("mrr", "MRR"),
                             ("baseline_majority", "first rung, majority"), ("baseline_all_selections", "first rung, all selections")))
        typer.echo("  pooled over folds:")
    typer.echo(f"    {'type':<10}{'mentions':>9}{'majority':>10}{'all sel.':>10}{'MRR':>8}{'first rung':>12}")
    for t, st in m["per_type"].items():
        typer.echo(f"    {t:<10}{st['mentions']:>9}{st['majority']:>10.2%}{st['all_selections']:>10.2%}{st['mrr']:>8.3f}{st['baseline_majority']:>12.2%}")
    typer.echo(f"    {'ALL':<10}{m['mentions']:>9}{m['majority']:>10.2%}{m['all_selections']:>10.2%}{m['mrr']:>8.3f}{m['baseline_majority']:>12.2%}")
    if "repeated" in report:
        typer.echo(f"  repeated with {len(report['repeated']['runs'])} fold assignments (mean of fold means; std, min–max):")
        _echo_spreads(report["repeated"]["mean"], (("majority", "majority vote"), ("all_selections", "all selections"), ("mrr", "MRR")))
    if report["agreement"]:
        a = report["agreement"]
        typer.echo(f"  annotator agreement ({a['multi_mentions']} mentions with {a['annotators']:g} annotators each): "
                   f"an annotator picks the majority choice of the others {a['agreement']:.2%} of the time")
        typer.echo("    per type: " + ", ".join(f"{t} {st['agreement']:.1%}" for t, st in a["per_type"].items()))
        typer.echo(f"    estimated ceiling for a perfect consensus predictor on these {m['mentions']} mentions: majority vote {a['expected_ceiling']:.2%}")
    if "ablation" in report:
        typer.echo("  ablation (mean majority / all selections / MRR over folds):")
        for row in report["ablation"]:
            typer.echo(f"    {row['variant']:<22}{row['majority']:>9.2%}{row['all_selections']:>9.2%}{row['mrr']:>8.3f}")


@evaluate_app.command("sanitize")
def evaluate_sanitize_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    folds: int = typer.Option(5, "--folds", help="Grouped cross-validation folds by document (ignored with --model)."),
    model: Optional[str] = typer.Option(None, "--model", help="Sanitize with an existing model: a directory or 'shipped'."),
    train_on: str = typer.Option("served", "--train-on", help="CV training ladders: served (our own) or wikireplace."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    seed: int = typer.Option(13, "--seed"),
    show: int = typer.Option(0, "--show", help="Print this many output sentences (with their flags and source) and the leaks."),
    show_seed: Optional[int] = typer.Option(None, "--show-seed", help="Draw the --show sentences at random with this seed (default: the first ones)."),
    as_json: bool = typer.Option(False, "--json"),
    groups: Optional[str] = typer.Option(None, "--groups", help="Feature groups of the CV rankers, comma-separated (default: structure,embedding-pooled,graph,document, and prior on served ladders)."),
) -> None:
    """End to end: sanitize the documents with our ladders and ranker, score what a reader receives."""
    from engine.errors import SanitizerError
    from engine.evaluation.report import echo_sanitize_report
    from engine.evaluation.sanitize_eval import evaluate_sanitize
    from engine.select.training import say

    engine = build_engine(config, store, model="none")
    try:
        report = evaluate_sanitize(engine, data, folds=folds, model=model, train_on=train_on, seed=seed,
                                   examples=show, sample_seed=show_seed, progress=None if as_json else say, groups=_feature_groups(groups) if groups else None)
    except SanitizerError as exc:
        fail(exc)
        return
    if as_json:
        typer.echo(json.dumps(report.to_dict() | {"data": str(data), "examples": report.examples}, indent=2, ensure_ascii=False))
        return
    echo_sanitize_report(report, data.name, typer.echo)


@bench_app.command("rank")
def bench_rank_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose annotated mentions are ranked."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    n: int = typer.Option(300, "--n", help="Mentions per measurement."),
) -> None:
    """Mentions ranked per second, warm, with embeddings cached and uncached."""
    from engine.bench.sanitize import bench_rank

    engine = build_engine(config, store)
    typer.echo(json.dumps(bench_rank(engine, data, n=n), indent=2))


@app.command()
def sanitize(
    source: Path = typer.Argument(..., help="A .jsonl/.json/.txt file or a directory of them (.txt: one raw document, spans detected)."),
    out: Path = typer.Option(..., "--out", help="Output .jsonl file (or directory, for a directory input)."),
    fmt: str = typer.Option("auto", "--format", help="auto, jsonl, wikireplace, json or txt."),
    annotator: Optional[str] = typer.Option(None, "--annotator", help="WikiReplace: whose mentions to use (default: the first)."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first bad record (no output is written)."),
    with_originals: bool = typer.Option(False, "--with-originals", help="Include the original span texts (for audit only)."),
    overlap: str = typer.Option("merge", "--overlap", help="merge or reject overlapping mentions."),
    batch: int = typer.Option(16, "--batch", help="Documents ranked together."),
    progress: bool = typer.Option(True, "--progress/--no-progress"),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    endpoint: Optional[str] = EndpointOpt,
    offline: bool = OfflineOpt,
    user_agent: Optional[str] = UserAgentOpt,
    k: Optional[int] = typer.Option(None, "--k", min=0, help="Generalize further until at least K persons of the store fit (privacy.k; 0 only measures)."),
) -> None:
    """Sanitize documents; results are JSON lines written atomically."""
    from engine.io.batch import run_sanitize
    from engine.io.cli_checks import sanitize_pairs
    from kg.procs import exit_on_signals

    try:
        pairs = sanitize_pairs(source, out, fmt=fmt, overlap=overlap, batch=batch)  # before anything loads
    except ValueError as exc:
        fail(exc)
        return
    engine = build_engine(config, store, endpoint, offline, user_agent, **({"privacy.k": k} if k is not None else {}))
    empty = []
    with exit_on_signals():  # SIGTERM/SIGHUP: the part file is removed as on Ctrl-C
        for src, dst in pairs:
            try:
                summary = run_sanitize(engine, src, dst, fmt=fmt, annotator=annotator, strict=strict, with_originals=with_originals,
                                       overlap=overlap, batch=batch, progress=progress)
            except OSError as exc:  # checked up front, but the disk can fill or permissions change
                fail(OSError(f"{exc.filename or dst}: {exc.strerror or exc}"))
                return
            err_lines, line = summary.report(src, dst, annotator)
            for text in err_lines:
                typer.echo(text, err=True)
            if summary.aborted:
                typer.echo(f"error: stopped at a bad record (--strict); {dst} not written", err=True)
                raise typer.Exit(1)
            if summary.documents == 0:
                empty.append(src)
            typer.echo(line)
    if empty:
        fail(ValueError(f"no document of {', '.join(p.name for p in empty)} was sanitized (every record was bad or left out); "
                        "no output written for it"))


@app.command()
def serve(
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(8000, "--port"),
    max_body: int = typer.Option(1_000_000, "--max-body", help="Largest accepted request body, in bytes."),
    endpoint: Optional[str] = EndpointOpt,
    offline: bool = OfflineOpt,
    user_agent: Optional[str] = UserAgentOpt,
    warm: bool = typer.Option(True, "--warm-up/--no-warm-up", help="Answer an invented document before reporting ready, so a first request is fast."),
) -> None:
    """Run the HTTP API (FastAPI + uvicorn); OpenAPI docs at /docs."""
    if not 0 <= port <= 65535:
        fail(ValueError(f"--port must be between 0 and 65535, got {port}"))
    if max_body < 1:
        fail(ValueError("--max-body must be at least 1 byte"))
    try:
        import uvicorn

        from engine.api import create_app
    except ImportError as exc:
        fail(ImportError(f"the HTTP API needs the 'server' extra: pip install 'taxogen[server]' ({exc})"))
        return
    engine = build_engine(config, store, endpoint, offline, user_agent)
    if warm:
        from engine.warmup import warm_up

        warm_up(engine, progress=lambda m: typer.echo(m, err=True))
    uvicorn.run(create_app(engine, max_body_bytes=max_body), host=host, port=port)


@bench_app.command("sanitize")
def bench_sanitize_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose documents are sanitized."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    batch: int = typer.Option(16, "--batch"),
    threads: int = typer.Option(1, "--threads", help="Torch threads (1 = one core)."),
    dense: Optional[int] = typer.Option(None, "--dense", min=1, help="Instead: one document repeated to this many mentions (and 500/2,000/8,000), seconds each."),
) -> None:
    """Headline: unseen documents per CPU second (documents' caches emptied, label table kept), cold (nothing kept), warm, their ratio; then latencies."""
    from engine.bench.sanitize import bench_sanitize

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
) -> None:
    """Requests, retries, time and results against a local SPARQL server with injected faults."""
    from engine.bench.endpoint import run

    typer.echo(json.dumps(run(seed if seed and seed.exists() else None), indent=2))


@bench_app.command("raw")
def bench_raw_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose texts are sanitized as raw text."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store taxogen uses (default: the sample graph)."),
    limit: Optional[int] = typer.Option(None, "--limit", help="Only the first N documents."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Raw text in: taxogen beside Presidio (analyzer + anonymizer, same spaCy model), one core, in one run."""
    from engine.bench.raw import bench_raw, format_raw

    if not data.is_file():
        fail(ValueError(f"cannot read WikiReplace file {data}"))
        return
    report = bench_raw(data, store=str(store) if store else None, limit=limit, progress=lambda m: typer.echo(m, err=True))
    typer.echo(json.dumps(report, indent=2) if as_json else format_raw(report))


@bench_app.command("serve")
def bench_serve_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose first texts are requested."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store the server uses (default: the sample graph)."),
    warm: bool = typer.Option(True, "--warm-up/--no-warm-up", help="Start the server with or without its warm-up."),
) -> None:
    """taxogen serve: time to ready, first raw-text request after ready, a repeat, and their ratio."""
    from engine.bench.serve import bench_serve

    if not data.is_file():
        fail(ValueError(f"cannot read WikiReplace file {data}"))
        return
    typer.echo(json.dumps(bench_serve(data, store=str(store) if store else None, warm=warm), indent=2))


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
) -> None:
    """Build Wikidata-shaped synthetic stores at fractions of the real counts; print build and engine figures."""
    from engine.bench.scale import bench_filter, extrapolate, format_result, load_average, measure_store, run_scale

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
) -> None:
    """Time only the build's parallel filter over a dump (lines/s, per-CPU figures, load average)."""
    from engine.bench.scale import bench_filter

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
) -> None:
    """Build time, chain-lookup latency (p50/p99), the ratio to a plain Python BFS, and the SPARQL endpoint."""
    from kg.bench import bench_kg

    result = bench_kg(seed, store, n=n)
    if endpoint:
        from kg.sparql.bench import bench_endpoint
        from kg.store import KGStore

        result["sparql_endpoint"] = bench_endpoint(KGStore.read_only(store) if store is not None else KGStore.embedded())
    typer.echo(json.dumps(result, indent=2))


@evaluate_app.command("privacy")
def evaluate_privacy_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    k: int = typer.Option(10, "--k", min=1, help="Target of the guarded release."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """k per document (anonymity set in the store) and the utility kept, for five releases."""
    from engine.errors import SanitizerError
    from engine.evaluation.privacy_eval import evaluate_privacy, format_table

    if not data.is_file():
        fail(FileNotFoundError(f"no such file: {data}"))
    engine = build_engine(config, store)
    try:
        report = evaluate_privacy(engine, data, k=k, progress=lambda msg: typer.echo(msg, err=True))
    except SanitizerError as exc:
        fail(exc)
        return
    typer.echo(json.dumps(report, indent=2) if as_json else "\n".join(format_table(report)))


@bench_app.command("privacy")
def bench_privacy_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose documents are guarded."),
    k: int = typer.Option(10, "--k", min=1),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
) -> None:
    """Background index build time and size, and guard time per document (p50/p99)."""
    from engine.privacy.bench import bench_privacy

    if not data.is_file():
        fail(FileNotFoundError(f"no such file: {data}"))
    engine = build_engine(config, store)
    typer.echo(json.dumps(bench_privacy(engine, data, k=k), indent=2))


# --- detection (issue 13): raw text in; implementations in engine/detect/cli.py ---------
from engine.detect.cli import bench_detect_cmd, detect_cmd, evaluate_detection_cmd, train_detect_cmd  # noqa: E402

app.command("detect")(detect_cmd)
app.command("train-detect")(train_detect_cmd)
evaluate_app.command("detection")(evaluate_detection_cmd)
bench_app.command("detect")(bench_detect_cmd)

# --- Spark (issue 15): implementations in engine/spark/ ----------------------------------
from engine.spark.cli import bench_spark_cmd, spark_app  # noqa: E402

app.add_typer(spark_app, name="spark")
bench_app.command("spark")(bench_spark_cmd)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
