"""The detection commands of the ``taxogen`` CLI (registered in :mod:`engine.cli`).

``taxogen detect FILE``, ``taxogen evaluate detection``, ``taxogen bench detect``,
``taxogen train-detect``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from kg.starter import default_graph_name

from engine.cli.common import DEFAULT_DATA, DisableRuleOpt, DocsOpt, PacksOpt, build_engine, fail, figures_page
from engine.types import EntityType
_StoreOpt = typer.Option(None, "--store", help="Store directory whose labels feed the gazetteer (default: the starter graph).")
_ConfigOpt = typer.Option(None, "--config", help="TOML configuration file.")


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _texts(path: Path) -> list[tuple[str, str]]:
    """(id, text) of every document of a .txt, .json, .jsonl or WikiReplace file."""
    from engine.io.docio import BadRecord, read_documents

    out = []
    for rec in read_documents(path):
        if isinstance(rec, BadRecord):
            _say(f"bad record {rec.position}: {rec.reason}")
            continue
        out.append((rec.doc_id, rec.text))
    return out


def detect_cmd(
    source: Path = typer.Argument(..., help="A .txt file (one document), or a .jsonl/.json/WikiReplace file."),
    store: Optional[Path] = _StoreOpt,
    config: Optional[Path] = _ConfigOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    show_all: bool = typer.Option(False, "--all", help="Also list the candidate spans decided NO_MASK."),
    as_json: bool = typer.Option(False, "--json", help="One JSON line per document."),
) -> None:
    """Detect the personal spans of raw text and print them with their masking decision."""

    if not source.is_file():
        fail(FileNotFoundError(f"no such file: {source}"))
    docs = _texts(source)
    engine = build_engine(config, store, disable_rules=disable_rule, packs=packs)
    for doc_id, text in docs:
        spans = [s for s in engine.detect(text) if show_all or s.masked]
        if as_json:
            typer.echo(json.dumps({"id": doc_id, "spans": [s.to_dict() for s in spans]}, ensure_ascii=False))
            continue
        typer.echo(f"{doc_id}: {len(spans)} spans")
        for s in spans:
            ident = s.identifier_type.value if s.identifier_type else "-"
            typer.echo(f"  {s.start:>5}–{s.end:<5} {ident:<8} {s.entity_type.value:<9} {s.text!r:<40} "
                       f"p={s.score:.2f} {s.entity_id or ''} [{'+'.join(sorted(s.sources))}]")


def evaluate_detection_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace-format JSON file."),
    folds: int = typer.Option(5, "--folds", min=2, help="Cross-validation folds, grouped by document."),
    store: Optional[Path] = _StoreOpt,
    config: Optional[Path] = _ConfigOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    threshold: Optional[float] = typer.Option(None, "--threshold", help="P(mask) from which a span is masked (default: the shipped decider's)."),
    type_threshold: Optional[list[str]] = typer.Option(None, "--type-threshold", help="TYPE=P: the threshold of one entity type (e.g. DEM=0.05); repeatable."),
    baselines: bool = typer.Option(True, "--baselines/--no-baselines", help="Also score spaCy alone and Presidio's analyzer."),
    tune_precision: Optional[float] = typer.Option(None, "--tune-precision", min=0.0, max=1.0,
                                                   help="Also score taxogen with a threshold and thresholds per type chosen, in each fold, "
                                                        "by an inner CV on its training documents to reach this precision."),
    seed: int = typer.Option(13, "--seed"),
    train_with: Optional[List[Path]] = typer.Option(None, "--train-with", help="Annotated documents added to every fold's training, never scored "
                                                    "(default: the other shared corpus the shipped decider reads, biographies or court judgments, when it is there)."),
    folds_only: bool = typer.Option(False, "--folds-only", help="Train on the training folds of DATA alone."),
    as_json: bool = typer.Option(False, "--json"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Mention and entity recall (strict, loose), precision, per type, and TAB's own measures: taxogen in CV beside the baselines."""
    from taxogen_tools.evaluation.detection import evaluate_detection

    with figures_page(docs, "evaluate-detection", "Detection on raw text (evaluate detection)"):
        per_type = _type_thresholds(type_threshold)
        gold = _gold(data)
        if len(gold) < folds:
            fail(ValueError(f"{data} has {len(gold)} annotated documents, fewer than --folds {folds}"))
        extra_paths = [] if folds_only else (train_with if train_with else _other_corpora(data))
        extra = [d for p in extra_paths for d in _gold(p)]
        engine = build_engine(config, store, disable_rules=disable_rule, packs=packs)
        with engine.knowledge.active():  # the packs and rules the command chose
            report = evaluate_detection(engine.detector, gold, folds=folds, seed=seed, threshold=threshold,
                                        type_thresholds=per_type, baselines=baselines, tune_precision=tune_precision,
                                        train_with=extra, progress=None if as_json else _say)
        report.update({"data": str(data), "store": str(store) if store else default_graph_name() + " graph",
                       "train_with": [str(p) for p in extra_paths], "packs": ",".join(engine.knowledge.packs)})
        if as_json:
            typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
            return
        _print_report(report)


def _other_corpora(data: Path) -> list[Path]:
    """The shared corpora the shipped decider is trained on, but ``data``: the biographies
    (:data:`DEFAULT_DATA`) and the court judgments beside them, those that are there."""
    corpora = (DEFAULT_DATA, DEFAULT_DATA.parent.parent / "tab" / "tab_94.json")
    return [p for p in corpora if p.is_file() and p.resolve() != data.resolve()]


def _print_report(report: dict) -> None:
    def f(v):
        return "   —  " if v is None else f"{v:6.3f}"

    typer.echo(f"detection on {Path(report['data']).name} — {report['documents']} documents, gold: {report['gold']}")
    per_type = "".join(f", {t} ≥ {p}" for t, p in sorted((report.get("type_thresholds") or {}).items()))
    per_kind = "".join(f", in a {k or 'other'} document ≥ {p}" for k, p in sorted((report.get("kind_thresholds") or {}).items()))
    also = ", ".join(Path(p).name for p in report.get("train_with") or [])
    typer.echo(f"  taxogen: {report['folds']}-fold CV grouped by document (seed {report['seed']}), mask when P(mask) ≥ {report['threshold']}{per_kind}{per_type}; "
               f"gazetteer from {report['store']}; packs {report.get('packs', '')}")
    typer.echo(f"  every fold's decider is trained on the other folds{' and on every document of ' + also if also else ''}")
    _print_tab(report)
    typer.echo(f"  {'system':<20}{'DIRECT':>8}{'QUASI':>8}{'DIRECT':>8}{'QUASI':>8}{'entity D':>10}{'entity Q':>10}{'precision':>11}{'DEM':>7}{'MISC':>7}")
    typer.echo(f"  {'':<20}{'strict':>8}{'strict':>8}{'loose':>8}{'loose':>8}{'':>10}{'':>10}{'':>11}{'strict':>7}{'strict':>7}")
    for name, r in report["systems"].items():
        typer.echo(f"  {name:<20}{f(r['direct_strict']):>8}{f(r['quasi_strict']):>8}{f(r['direct_loose']):>8}{f(r['quasi_loose']):>8}"
                   f"{f(r['entity_direct']):>10}{f(r['entity_quasi']):>10}{f(r['precision']):>11}{f(r['dem_strict']):>7}{f(r['misc_strict']):>7}")
    typer.echo("  per entity type (DIRECT+QUASI mentions: strict / loose recall, entity recall; precision of spans predicted that type):")
    types = tuple(t.value for t in EntityType)
    typer.echo(f"    {'system':<20}" + "".join(f"{t:>22}" for t in types))
    for name, r in report["systems"].items():
        cells = []
        for t in types:
            rec = r["recall"].get(f"ALL:{t}")
            ent = r["entity_recall"].get(f"ALL:{t}")
            prec = r["precision_by_type"].get(t, {}).get("precision")
            if rec is None:
                cells.append(f"{'—':>22}")
            else:
                cells.append(f"{rec['strict']:.2f}/{rec['loose']:.2f}/{(ent or {}).get('recall') or 0:.2f} p{(prec if prec is not None else 0):.2f}".rjust(22))
        typer.echo(f"    {name:<20}" + "".join(cells))
    counts = report["systems"]["taxogen"]["recall"]
    typer.echo("    mentions: " + ", ".join(f"{t} {counts[f'ALL:{t}']['mentions']}" for t in types if f"ALL:{t}" in counts))
    typer.echo("  taxogen at other thresholds (same CV):")
    for t, c in report["threshold_curve"].items():
        typer.echo(f"    P(mask) ≥ {t:<4}  DIRECT {f(c['direct_strict'])}  QUASI {f(c['quasi_strict'])}  precision {f(c['precision'])}  DEM {f(c['dem_strict'])}")
    tuned = report.get("tuned")
    if tuned:
        typer.echo(f"  {tuned['system']}: thresholds chosen per fold by inner CV on its training documents only:")
        for c in tuned["folds"]:
            per = ", ".join(f"{t} {v}" for t, v in sorted(c["type_thresholds"].items()))
            typer.echo(f"    fold {c['fold']}: P(mask) ≥ {c['threshold']}{'; ' + per if per else ''}")
    _print_types(report.get("type_accuracy") or {})


def _print_tab(report: dict) -> None:
    """TAB's own measures (taxogen_tools.evaluation.tab_measures), and along the thresholds."""
    def f(v):
        return "   —  " if v is None else f"{v:6.3f}"

    typer.echo("  TAB's measures (entity recall: every mention to mask wholly masked; token precision: masked tokens inside an annotated DIRECT/QUASI span):")
    typer.echo(f"  {'system':<20}{'entity':>8}{'DIRECT':>8}{'QUASI':>8}{'token':>8}{'token':>11}{'mention':>11}")
    typer.echo(f"  {'':<20}{'recall':>8}{'recall':>8}{'recall':>8}{'recall':>8}{'precision':>11}{'precision':>11}")
    for name, r in (report.get("tab_measures") or {}).items():
        typer.echo(f"  {name:<20}{f(r['entity_recall']):>8}{f(r['entity_recall_direct']):>8}{f(r['entity_recall_quasi']):>8}"
                   f"{f(r['token_recall']):>8}{f(r['token_precision']):>11}{f(r['mention_precision']):>11}")
    typer.echo("  TAB's measures of taxogen at other thresholds (same CV):")
    for t, c in report["threshold_curve"].items():
        typer.echo(f"    P(mask) ≥ {t:<4}  entity recall {f(c['tab_entity_recall'])}  DIRECT {f(c['tab_entity_recall_direct'])}  "
                   f"QUASI {f(c['tab_entity_recall_quasi'])}  token precision {f(c['tab_token_precision'])}")


def _print_types(types: dict) -> None:
    """Type accuracy of the spans that strictly match an annotated mention."""
    if not types:
        return
    typer.echo("  type accuracy (annotated mentions a span covers whole: detected type = annotated type):")
    for name, r in types.items():
        per = "  ".join(f"{t} {v['accuracy']:.2f} ({v['matched']})" for t, v in r["by_type"].items() if v["accuracy"] is not None)
        acc = "—" if r["accuracy"] is None else f"{r['accuracy']:.3f}"
        typer.echo(f"    {name:<24} {acc} of {r['matched']}   {per}")
        if r.get("exact_accuracy") is not None:
            typer.echo(f"    {'':<24} {r['exact_accuracy']:.3f} of the {r['exact_matched']} a span matches exactly (same characters)")
    first = next(iter(types.values()))
    typer.echo("    most frequent wrong pairs (annotated → detected), " + next(iter(types)) + ":")
    for c in first["confusions"]:
        typer.echo(f"      {c['annotated']:>8} → {c['detected']:<8} {c['count']:>4}   e.g. " + ", ".join(repr(x) for x in c["examples"]))


def bench_detect_cmd(
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="WikiReplace file whose texts are detected."),
    store: Optional[Path] = _StoreOpt,
    config: Optional[Path] = _ConfigOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    repeats: int = typer.Option(1, "--repeats", min=1),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Detection time per document (warm), gazetteer build and first-document cost."""
    from taxogen_tools.bench.detect import bench_detect

    with figures_page(docs, "bench-detect", "Detection speed (bench detect)"):
        engine = build_engine(config, store, disable_rules=disable_rule, packs=packs)
        result = bench_detect(engine, data, repeats=repeats)
        result["store"] = str(store) if store else default_graph_name()
        typer.echo(json.dumps(result, indent=2))


def train_detect_cmd(
    data: List[Path] = typer.Option([DEFAULT_DATA], "--data", help="WikiReplace/TAB-format JSON file; repeatable (the documents of all are read)."),
    out: Path = typer.Option(..., "--out", help="Directory for model.txt and decider.json (engine/models/detect ships)."),
    store: Optional[Path] = _StoreOpt,
    config: Optional[Path] = _ConfigOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
    packs: Optional[str] = PacksOpt,
    threshold: float = typer.Option(0.3, "--threshold", help="P(mask) from which a span is masked."),
    type_threshold: Optional[list[str]] = typer.Option(None, "--type-threshold", help="TYPE=P: the threshold of one entity type (e.g. DEM=0.05), kept in the model; repeatable."),
    kind_threshold: Optional[list[str]] = typer.Option(None, "--kind-threshold", help="KIND=P: the threshold in one kind of document (court=0.4), kept in the model; repeatable."),
    seed: int = typer.Option(13, "--seed"),
) -> None:
    """Train the masking decider on every document of DATA (first annotator as gold)."""
    from taxogen_tools.training.detect import train_decider

    per_type = _type_thresholds(type_threshold)
    per_kind = _kind_thresholds(kind_threshold)
    docs = [d for path in data for d in _gold(path)]
    engine = build_engine(config, store, disable_rules=disable_rule, packs=packs)
    with engine.knowledge.active():  # the packs and rules the command chose
        train_decider(engine.detector, docs, out, seed=seed, threshold=threshold, type_thresholds=per_type, kind_thresholds=per_kind,
                      data_name=" + ".join(path.name for path in data), store=str(store) if store else default_graph_name() + " graph",
                      progress=_say)


def _kind_thresholds(values: list[str] | None) -> dict[str, float] | None:
    """``["court=0.4"]`` → ``{"court": 0.4}``; exit 1 with one line on a bad value."""
    from engine.detect.decide import COURT

    out: dict[str, float] = {}
    for v in values or ():
        name, _, num = v.partition("=")
        try:
            p = float(num)
        except ValueError:
            p = -1.0
        if name not in (COURT,) or not 0.0 <= p <= 1.0:
            fail(ValueError(f"--kind-threshold {v!r}: expected KIND=P with KIND {COURT} and 0 ≤ P ≤ 1"))
        out[name] = p
    return out or None


def _type_thresholds(values: list[str] | None) -> dict[str, float] | None:
    """``["DEM=0.05"]`` → ``{"DEM": 0.05}``; exit 1 with one line on a bad value."""
    if not values:
        return None
    out: dict[str, float] = {}
    types = {t.value for t in EntityType}
    for v in values:
        name, _, num = v.partition("=")
        try:
            p = float(num)
        except ValueError:
            p = -1.0
        if name.upper() not in types or not 0.0 <= p <= 1.0:
            fail(ValueError(f"--type-threshold {v!r}: expected TYPE=P with TYPE one of {', '.join(sorted(types))} and 0 ≤ P ≤ 1"))
        out[name.upper()] = p
    return out


def _gold(data: Path):
    """The annotated documents of a WikiReplace file, or exit 1 with one line."""
    from taxogen_tools.evaluation.detection import gold_documents
    from engine.errors import SanitizerError
    from engine.io.wikireplace import load_wikireplace

    try:
        return gold_documents(load_wikireplace(data))
    except SanitizerError as exc:
        fail(exc)
        raise AssertionError('fail() exits') from exc
