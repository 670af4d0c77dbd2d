"""``taxogen evaluate …``: evaluations on WikiReplace-format data that print their figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from kg.starter import default_graph_name

from engine.cli.common import (
    DEFAULT_DATA, App, ConfigOpt, DisableRuleOpt, DocsOpt, MinTruthOpt, PacksOpt, StoreOpt, build_engine, fail, feature_groups, figures_page,
)

evaluate_app = App(help="Evaluations on WikiReplace-format data.", no_args_is_help=True)


@evaluate_app.command("generation")
def evaluate_generation_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    min_truth: Optional[float] = MinTruthOpt,
    as_json: bool = typer.Option(False, "--json"),
    show: int = typer.Option(50, "--show", help="How many differences to list."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Compare our ladders with WikiReplace's options (rules and graph types)."""
    from engine.errors import SanitizerError
    from taxogen_tools.evaluation.generation import evaluate_generation
    from engine.io.wikireplace import load_wikireplace

    with figures_page(docs, "evaluate-generation", "Our ladders against WikiReplace's options (evaluate generation)"):
        engine = build_engine(config, store, disable_rules=disable_rule, packs=packs, min_truth=min_truth)
        try:
            documents = load_wikireplace(data)
        except SanitizerError as exc:
            fail(exc)
            return
        report = evaluate_generation(engine, documents, progress=not as_json)
        if as_json:
            typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
            return
        typer.echo(f"rules: heuristic options of WikiReplace found in our ladder, in order ({data.name}, store: {store or default_graph_name()})")
        typer.echo(f"  {'type':<9}{'mentions':>9}{'agree':>8}{'share':>8}{'deliberate':>11}{'agree+deliberate':>18}")
        for t, st in report.rules.items():
            typer.echo(f"  {t:<9}{st['mentions']:>9}{st['agree']:>8}{st['agree_share']:>8.2%}{st['deliberate']:>11}{st['agree_or_deliberate_share']:>18.2%}")
        typer.echo("graph types (masked mentions):")
        typer.echo(f"  {'type':<6}{'masked':>7}{'linked':>15}{'class offered':>16}{'choice≠***':>11}{'choice in ladder':>19}{'ceiling':>15}{'mean len':>9}{'more specific':>14}")
        for t, st in report.graph.items():
            typer.echo(
                f"  {t:<6}{st['masked']:>7}{st['linked']:>6} ({st['linked_share']:>6.1%}){st['with_class']:>7} ({st['with_class_share']:>6.1%})"
                f"{st['with_choice']:>11}"
                f"{st['choice_in_ladder']:>8} ({(st['choice_in_ladder_share'] or 0):>7.1%}){st['ceiling_reachable']:>5} ({(st['ceiling_reachable_share'] or 0):>6.1%})"
                f"{st['mean_ladder_length']:>9}{st['more_specific']:>14}"
            )
        typer.echo("  class offered = the ladder has a rung before ***")
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
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    min_truth: Optional[float] = MinTruthOpt,
    as_json: bool = typer.Option(False, "--json"),
    show: int = typer.Option(30, "--show", help="How many false and unjudged rungs to list."),
    chosen: bool = typer.Option(False, "--chosen", help="Also score the rung the ranker picks per span (loads the model)."),
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="The judged spans' documents (their places give homonyms their country); skipped if absent."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Only the spans judged in this batch (e.g. s4-batch1, judged out of sample)."),
    curve: bool = typer.Option(False, "--curve", help="The verifier's precision–coverage curve under cross-validation grouped by document and batch, the default operating point marked (trains a model per group: minutes)."),
    rules: Optional[str] = typer.Option(None, "--rules", metavar="A,B", help="With --curve: the rules read as features (default: the shipped verifier's)."),
    judged: Optional[List[Path]] = typer.Option(None, "--judged", metavar="DIR",
                                                help="With --curve: a judged batch directory, training rows only (repeatable; default: the shipped verifier's, where present)."),
    groups: Optional[str] = typer.Option(None, "--groups", metavar="A,B", help="With --curve: the feature groups (default: the shipped verifier's)."),
    judged_docs: Optional[List[Path]] = typer.Option(None, "--judged-docs", metavar="FILE",
                                                     help="With --curve: the documents of the --judged batches (JSON lines of id and text; repeatable; default: the shipped verifier's, where present)."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """False rate of offered rungs on the judged truth set, per entity type; lists unjudged rungs.
    With --curve: the verifier's cross-validated false rate against the class share kept, per operating point."""
    from engine.errors import SanitizerError
    from taxogen_tools.evaluation.truth import batch_spans, document_contexts, evaluate_truth, load_truth_set

    if curve:
        with figures_page(docs, "evaluate-truth-curve", "The verifier's precision–coverage curve (evaluate truth --curve)"):
            _truth_curve(config, store, truth, data, rules, groups, judged, judged_docs, disable_rule, packs)
        return
    with figures_page(docs, "evaluate-truth", "Truth of the offered and chosen rungs (evaluate truth)"):
        try:
            judgments = load_truth_set(truth)
            if batch:
                judgments = batch_spans(judgments, batch)
        except SanitizerError as exc:
            fail(exc)
            return
        engine = build_engine(config, store, disable_rules=disable_rule, packs=packs, min_truth=min_truth)
        report = evaluate_truth(engine, judgments, chosen=chosen, contexts=document_contexts(engine, data, {j.doc_id for j in judgments}))
        if as_json:
            typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
            return
        typer.echo(f"truth set: {len(judgments)} judgments, {report.spans} spans (store: {store or default_graph_name()})")
        typer.echo(f"  {'type':<9}{'spans':>6}{'offered':>8}{'judged':>8}{'false':>7}{'false rate':>11}{'first rung false':>18}{'unjudged':>9}")
        for t, st in report.per_type.items():
            rate = f"{st['false_rate']:.2%}" if st["false_rate"] is not None else "—"
            first = f"{st['first_false']}/{st['first_judged']}"
            typer.echo(f"  {t:<9}{st['spans']:>6}{st['offered']:>8}{st['judged']:>8}{st['false']:>7}{rate:>11}{first:>18}{st['unjudged']:>9}")
        if chosen:
            typer.echo("chosen rung (the selection policy's pick per span, before the privacy guard):")
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


def _truth_curve(config: Optional[Path], store: Optional[Path], truth: Optional[Path], data: Path, rules: Optional[str],
                 groups: Optional[str], judged: Optional[List[Path]], judged_docs: Optional[List[Path]], disable_rule: Optional[List[str]],
                 packs: Optional[str]) -> None:
    """``evaluate truth --curve``: the verifier's curve under grouped cross-validation (:mod:`taxogen_tools.evaluation.verifier_curve`)."""
    from engine.errors import SanitizerError
    from taxogen_tools.evaluation.truth import load_truth_set
    from taxogen_tools.evaluation.verifier_curve import TARGET_FALSE, operating_point
    from taxogen_tools.training.ranker import say
    from taxogen_tools.training.verifier import chosen_groups, chosen_rules, cross_validated_curve, summary_lines
    from taxogen_tools.training.verifier_data import judged_batch

    shipped = build_engine(config, store, disable_rules=disable_rule, packs=packs)
    model = shipped.verifier.model if shipped.verifier is not None else None
    engine = build_engine(config, store, disable_rules=disable_rule, packs=packs, verifier="none")
    try:
        judgments = load_truth_set(truth)
        chosen = chosen_rules(rules) if rules is not None or model is None else model.rules
        read_groups = chosen_groups(groups) if groups is not None or model is None else model.groups
        if judged is None and model is not None:  # the batches the shipped verifier was trained with, where present
            judged = [Path(d) for d in model.info.get("trained_on", {}).get("judged_batches", []) if Path(d).is_dir()]
        if judged_docs is None and model is not None:
            judged_docs = [Path(f) for f in model.info.get("trained_on", {}).get("judged_documents", []) if Path(f).is_file()]
        extra = [j for d in judged or () for j in judged_batch(d)]
        dataset, cv, points = cross_validated_curve(engine, judgments, shared=data, rules=chosen, groups=read_groups, extra=extra,
                                                    judged_docs=judged_docs or (), progress=say)
    except SanitizerError as exc:
        fail(exc)
        return
    point = operating_point(points, TARGET_FALSE)
    default = model.min_truth if model is not None else (point.min_truth if point is not None else None)
    why = "the shipped verifier's operating point" if model is not None else f"the lowest keeping false shown ≤ {TARGET_FALSE:.0%}"
    typer.echo(f"the verifier's curve (store: {store or 'embedded'}); ← default: min_truth {default} ({why})")
    for line in summary_lines(dataset, cv, points, default):
        typer.echo(line)


def _echo_spreads(spreads: dict[str, dict[str, float]], rows: tuple[tuple[str, str], ...]) -> None:
    """One line per (key, name): mean, then std and min–max (see ``taxogen_tools.evaluation.selection.spread``)."""
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
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    min_truth: Optional[float] = MinTruthOpt,
    seed: int = typer.Option(13, "--seed"),
    as_json: bool = typer.Option(False, "--json"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Majority-vote accuracy, all-selections accuracy and MRR, per entity type, with the first-rung baseline."""
    from engine.errors import SanitizerError
    from taxogen_tools.evaluation.selection import evaluate_selection
    from taxogen_tools.training.ranker import say

    with figures_page(docs, "evaluate-selection", "Replacement selection on WikiReplace's ladders (evaluate selection)"):
        engine = build_engine(config, store, model="none", disable_rules=disable_rule, packs=packs, min_truth=min_truth)
        try:
            report = evaluate_selection(engine, data, folds=folds, model=model, with_ablation=ablation,
                                        groups=feature_groups(groups) if model is None else (), repeats=repeats, seed=seed,
                                        progress=None if as_json else say)
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
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    min_truth: Optional[float] = MinTruthOpt,
    seed: int = typer.Option(13, "--seed"),
    show: int = typer.Option(0, "--show", help="Print this many output sentences (with their flags and source) and the leaks."),
    show_seed: Optional[int] = typer.Option(None, "--show-seed", help="Draw the --show sentences at random with this seed (default: the first ones)."),
    as_json: bool = typer.Option(False, "--json"),
    groups: Optional[str] = typer.Option(None, "--groups", help="Feature groups of the CV rankers, comma-separated (default: structure,embedding-pooled,graph,document, and prior on served ladders)."),
    k: Optional[List[int]] = typer.Option(None, "--k", min=1, help="Also sanitize with the privacy guard at this k and add its row to the utility table (repeatable: --k 10 --k 100)."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """End to end: sanitize the documents with our ladders and ranker, score what a reader receives and keeps."""
    from engine.errors import SanitizerError
    from taxogen_tools.evaluation.report import echo_sanitize_report
    from taxogen_tools.evaluation.sanitize_eval import evaluate_sanitize
    from taxogen_tools.training.ranker import say

    with figures_page(docs, "evaluate-sanitize", "End to end: what a reader receives (evaluate sanitize)"):
        engine = build_engine(config, store, model="none", disable_rules=disable_rule, packs=packs, min_truth=min_truth)
        try:
            report = evaluate_sanitize(engine, data, folds=folds, model=model, train_on=train_on, seed=seed,
                                       examples=show, sample_seed=show_seed, progress=None if as_json else say, groups=feature_groups(groups) if groups else None,
                                       ks=tuple(k or ()))
        except SanitizerError as exc:
            fail(exc)
            return
        if as_json:
            typer.echo(json.dumps(report.to_dict() | {"data": str(data), "examples": report.examples}, indent=2, ensure_ascii=False))
            return
        echo_sanitize_report(report, data.name, typer.echo)


@evaluate_app.command("privacy")
def evaluate_privacy_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    k: int = typer.Option(10, "--k", min=1, help="Target of the guarded release."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    min_truth: Optional[float] = MinTruthOpt,
    as_json: bool = typer.Option(False, "--json"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """k per document (anonymity set in the store) and the utility kept, for five releases."""
    from engine.errors import SanitizerError
    from taxogen_tools.evaluation.privacy_eval import evaluate_privacy, format_table

    with figures_page(docs, "evaluate-privacy", "k-anonymity and utility of five releases (evaluate privacy)"):
        if not data.is_file():
            fail(FileNotFoundError(f"no such file: {data}"))
        engine = build_engine(config, store, disable_rules=disable_rule, packs=packs, min_truth=min_truth)
        try:
            report = evaluate_privacy(engine, data, k=k, progress=lambda msg: typer.echo(msg, err=True))
        except SanitizerError as exc:
            fail(exc)
            return
        typer.echo(json.dumps(report, indent=2) if as_json else "\n".join(format_table(report)))


@evaluate_app.command("masks")
def evaluate_masks_cmd(
    masks: Path = typer.Argument(..., help="Masked ranges, {doc_id: [[start, end], …]} (taxogen sanitize --format tab)."),
    data: Path = typer.Option(Path("../shared/data/tab/tab_94.json"), "--data", help="TAB-format JSON file the masks are scored against."),
    config: Optional[Path] = ConfigOpt,
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Score masked ranges against a TAB file with TAB's own measures: entity recall of DIRECT and
    QUASI identifiers, token precision."""
    from engine.config import EngineConfig
    from engine.errors import SanitizerError
    from taxogen_tools.evaluation.masks import format_masks, score_masks

    for path in (masks, data):
        if not path.is_file():
            fail(ValueError(f"cannot read {path}"))
            return
    try:
        import spacy

        nlp = spacy.load(EngineConfig.load(config).spacy_model, exclude=["ner", "lemmatizer"])
        report = score_masks(masks, data, nlp=nlp)
    except SanitizerError as exc:
        fail(exc)
        return
    typer.echo(json.dumps(report, indent=2) if as_json else format_masks(report, masks.name, data.name))


@evaluate_app.command("court")
def evaluate_court_cmd(
    data: Path = typer.Option(Path("../shared/data/tab/tab_94.json"), "--data", help="TAB-format JSON file (court judgments)."),
    part: str = typer.Option("all", "--part", help="Which judgments: build, measure or all (the TAB split)."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    min_truth: Optional[float] = MinTruthOpt,
    k: Optional[int] = typer.Option(None, "--k", help="Privacy guard target (default: the config's privacy.k)."),
    export: Optional[Path] = typer.Option(None, "--export", help="Write a sample of generalizations for readers to judge (JSON lines)."),
    per_type: int = typer.Option(60, "--per-type", help="How many generalizations of each type the sample holds."),
    rows_out: Optional[Path] = typer.Option(None, "--rows", help="Write every masked mention and what the reader receives (JSON lines)."),
    judgments: Optional[Path] = typer.Option(None, "--judgments", help="A readers' file (truthful, less_specific per row): print their shares."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Court judgments, masked spans given: the share of masked DATETIME, DEM, LOC, MISC, ORG and
    QUANTITY spans that get a generalization, and readers' verdicts on a sample."""
    from taxogen_tools.evaluation.court import (
        court_replacements, format_judged, format_reach, judged_shares, reach, rows_to_jsonl, sample, write_sample,
    )

    if part not in ("build", "measure", "all"):
        fail(ValueError(f"--part must be build, measure or all, not {part!r}"))
    with figures_page(docs, f"evaluate-court-{part}", f"Court judgments: generalization of the masked spans ({part} part)"):
        if judgments is not None:
            for line in format_judged(judged_shares(judgments), f"readers' verdicts in {judgments.name}"):
                typer.echo(line)
            return
        engine = build_engine(config, store, disable_rules=disable_rule, packs=packs, min_truth=min_truth)
        rows = court_replacements(engine, data, part=part, k=k, progress=lambda msg: typer.echo(msg, err=True))
        for line in format_reach(reach(rows), f"{data.name}, {part} part: masked spans that get a generalization (store: {store or 'default'})"):
            typer.echo(line)
        if rows_out is not None:
            rows_to_jsonl(rows, rows_out)
        if export is not None:
            n = write_sample(sample(rows, per_type), export)
            typer.echo(f"wrote {n} generalizations to judge to {export}", err=True)
