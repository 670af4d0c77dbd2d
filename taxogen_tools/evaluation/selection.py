"""Training and evaluating replacement selection (EVALUATION.md protocol).

Metrics per mention: *majority* (top-ranked = the majority-vote label), *all
selections* (top-ranked = any label some annotator chose) and the reciprocal rank of
the majority label; reported overall and per entity type, with the first-rung baseline
on the same mentions. Cross-validation folds are grouped by document.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from engine.engine import Engine
from engine.select.features import ALL_GROUPS, DEFAULT_GROUPS
from engine.select.ranker import DEFAULT_ROUNDS, Ranker, shipped_model_dir, split_scores
from taxogen_tools.training.ranker import FeatureTable, prepare, say, scoring_rows, store_fingerprint, train_ranker
from taxogen_tools.training.selection_data import LabelledItem
from engine.io.wikireplace import majority


@dataclass
class SelectionMetrics:
    """Accuracy figures over a set of mentions."""

    mentions: int
    majority: float
    all_selections: float
    mrr: float
    baseline_majority: float
    baseline_all_selections: float
    per_type: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def evaluate(items: Sequence[LabelledItem], scores: Sequence[np.ndarray]) -> SelectionMetrics:
    """Metrics of per-item score vectors (same order as ``items``)."""
    per: dict[str, list[tuple[float, float, float, float, float]]] = defaultdict(list)
    rows = []
    for it, sc in zip(items, scores):
        order = list(np.argsort(-np.asarray(sc), kind="stable"))
        top = order[0]
        r = (
            float(top == it.gold_index),
            float(top in it.chosen),
            1.0 / (order.index(it.gold_index) + 1),
            float(it.gold_index == 0),
            float(0 in it.chosen),
        )
        rows.append(r)
        per[it.item.entity_type.value].append(r)

    def mean(rs: list, k: int) -> float:
        return round(sum(r[k] for r in rs) / len(rs), 4) if rs else 0.0

    return SelectionMetrics(
        mentions=len(rows), majority=mean(rows, 0), all_selections=mean(rows, 1), mrr=mean(rows, 2),
        baseline_majority=mean(rows, 3), baseline_all_selections=mean(rows, 4),
        per_type={t: {"mentions": len(rs), "majority": mean(rs, 0), "all_selections": mean(rs, 1), "mrr": mean(rs, 2), "baseline_majority": mean(rs, 3)} for t, rs in sorted(per.items())},
    )


@dataclass
class AgreementCeiling:
    """How often the annotators themselves agree, from the multi-annotated mentions.

    ``agreement``: share of (mention, annotator) pairs whose choice equals the majority
    choice of the *other* annotators of that mention (leave-one-annotator-out, ties as
    in the protocol). ``expected_ceiling``: the majority-vote accuracy a perfect
    predictor of the consensus would reach on the evaluated mentions — its choice is
    the majority on multi-annotated mentions, and it matches a lone annotator only as
    often as annotators match the consensus (per entity type).
    """

    multi_mentions: int
    annotators: float
    agreement: float
    per_type: dict[str, dict[str, float]]
    expected_ceiling: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def agreement_ceiling(items: Sequence[LabelledItem]) -> AgreementCeiling | None:
    """Annotator agreement and the consensus ceiling; ``None`` without multi-annotated mentions."""
    per: dict[str, list[float]] = defaultdict(list)
    multi = [it for it in items if sum(it.votes) > 1]
    for it in multi:
        voters = [(who, label) for label, whos in it.mention.selection.items() for who in whos]
        for k, (_, label) in enumerate(voters):
            others: dict[str, list[str]] = {}
            for j, (who, other) in enumerate(voters):
                if j != k:
                    others.setdefault(other, []).append(who)
            per[it.item.entity_type.value].append(float(majority(others) == label))
    if not multi:
        return None
    pairs = [x for xs in per.values() for x in xs]
    overall = sum(pairs) / len(pairs)
    by_type = {t: sum(xs) / len(xs) for t, xs in per.items()}
    expected = sum(1.0 if sum(it.votes) > 1 else by_type.get(it.item.entity_type.value, overall) for it in items) / len(items)
    return AgreementCeiling(
        multi_mentions=len(multi), annotators=round(len(pairs) / len(multi), 2), agreement=round(overall, 4),
        per_type={t: {"pairs": len(xs), "agreement": round(by_type[t], 4)} for t, xs in sorted(per.items())},
        expected_ceiling=round(expected, 4),
    )


def grouped_folds(items: Sequence[LabelledItem], k: int, seed: int = 13) -> list[list[int]]:
    """Item indices per fold; all mentions of one document fall in the same fold."""
    by_doc: dict[str, list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        by_doc[it.item.group].append(i)
    docs = sorted(by_doc)
    random.Random(seed).shuffle(docs)
    docs.sort(key=lambda d: -len(by_doc[d]))  # largest first, stable after the shuffle
    folds: list[list[int]] = [[] for _ in range(k)]
    for d in docs:
        smallest = min(range(k), key=lambda f: len(folds[f]))
        folds[smallest].extend(by_doc[d])
    return [sorted(f) for f in folds]


def spread(values: Sequence[float]) -> dict[str, float]:
    """Mean, population std, min and max, rounded to 4 places."""
    return {"mean": round(statistics.fmean(values), 4), "std": round(statistics.pstdev(values), 4),
            "min": round(min(values), 4), "max": round(max(values), 4)}


def cross_validate(
    items: Sequence[LabelledItem],
    table: FeatureTable,
    *,
    folds: int = 5,
    groups: Sequence[str] = ALL_GROUPS,
    label_mode: str = "majority",
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 13,
    params: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Grouped k-fold CV: per-fold metrics, their mean and spread, and pooled metrics."""
    fold_idx = grouped_folds(items, folds, seed)
    fold_metrics: list[SelectionMetrics] = []
    pooled: dict[int, np.ndarray] = {}
    for f, test in enumerate(fold_idx):
        t0 = time.perf_counter()
        train = [i for g, idx in enumerate(fold_idx) if g != f for i in idx]
        ranker = train_ranker(items, table, train, groups=groups, label_mode=label_mode, rounds=rounds, seed=seed, params=params)
        X, sizes = scoring_rows(ranker, items, table, test)
        scores = split_scores(ranker.score(X), sizes)
        m = evaluate([items[i] for i in test], scores)
        fold_metrics.append(m)
        for i, s in zip(test, scores):
            pooled[i] = s
        if progress:
            progress(f"fold {f + 1}/{folds}: {m.mentions} mentions, majority {m.majority:.2%}, all {m.all_selections:.2%}, MRR {m.mrr:.3f} ({time.perf_counter() - t0:.1f} s)")
    order = sorted(pooled)
    pooled_m = evaluate([items[i] for i in order], [pooled[i] for i in order])

    return {
        "folds": folds,
        "mean": {k: spread([getattr(m, k) for m in fold_metrics]) for k in ("majority", "all_selections", "mrr", "baseline_majority", "baseline_all_selections")},
        "per_fold": [m.to_dict() for m in fold_metrics],
        "pooled": pooled_m.to_dict(),
    }


def repeated_cv(
    items: Sequence[LabelledItem],
    table: FeatureTable,
    *,
    repeats: int,
    folds: int = 5,
    groups: Sequence[str] = ALL_GROUPS,
    seed: int = 13,
    rounds: int = DEFAULT_ROUNDS,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Grouped CV repeated with ``repeats`` fold assignments (seeds ``seed`` …): how much
    the mean over folds moves with the split alone."""
    runs = []
    for r in range(repeats):
        cv = cross_validate(items, table, folds=folds, groups=groups, seed=seed + r, rounds=rounds)
        runs.append({"seed": seed + r, **{k: cv["mean"][k]["mean"] for k in ("majority", "all_selections", "mrr")}})
        if progress:
            progress(f"fold seed {seed + r}: majority {runs[-1]['majority']:.2%}, all {runs[-1]['all_selections']:.2%}, MRR {runs[-1]['mrr']:.3f}")

    return {"runs": runs, "mean": {k: spread([run[k] for run in runs]) for k in ("majority", "all_selections", "mrr")}}


def ablation(
    items: Sequence[LabelledItem],
    table: FeatureTable,
    *,
    folds: int = 5,
    seed: int = 13,
    rounds: int = DEFAULT_ROUNDS,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """CV figures with all feature groups, without each group, and with each group alone."""
    from engine.select.features import feature_names

    names = feature_names(ALL_GROUPS)
    variants: list[tuple[str, tuple[str, ...]]] = [("all groups", ALL_GROUPS)]
    variants += [(f"without {g}", tuple(x for x in ALL_GROUPS if x != g)) for g in ALL_GROUPS]
    variants += [(f"{g} only", (g,)) for g in ALL_GROUPS]
    out = []
    for label, groups in variants:
        keep = np.array([n in set(feature_names(groups)) for n in names])
        r = cross_validate(items, table.select_columns(keep), folds=folds, groups=groups, rounds=rounds, seed=seed)
        row = {"variant": label, **{k: r["mean"][k]["mean"] for k in ("majority", "all_selections", "mrr")}, "majority_std": r["mean"]["majority"]["std"]}
        out.append(row)
        if progress:
            progress(f"{label:<22} majority {row['majority']:.2%}  all {row['all_selections']:.2%}  MRR {row['mrr']:.3f}")
    return out


def evaluate_selection(
    engine: Engine,
    data: str | Path,
    *,
    folds: int = 5,
    model: str | None = None,
    with_ablation: bool = False,
    groups: Sequence[str] = DEFAULT_GROUPS,
    repeats: int = 1,
    seed: int = 13,
    progress: Callable[[str], None] | None = say,
    warn: Callable[[str], None] = say,
) -> dict[str, Any]:
    """``taxogen evaluate selection``: an existing ranker (``model``: a directory or
    ``"shipped"``) scored on every annotated mention of ``data``, or grouped ``folds``-fold
    CV of rankers on ``groups`` (optionally repeated and with the ablation); with the
    annotators' agreement ceiling. ``warn`` hears when the model's graph store differs
    from ``engine``'s or the model saw some of the documents."""
    report: dict[str, Any] = {"data": str(data), "graph_store": store_fingerprint(engine)}
    if model is not None:
        ranker = Ranker.load(shipped_model_dir() if model == "shipped" else Path(model))
        trained = ranker.info.get("graph_store", {})
        if trained and trained.get("triples") != report["graph_store"]["triples"]:
            warn(f"warning: the model's graph features came from {trained.get('source')} ({trained.get('triples')} triples); "
                 f"this run uses {report['graph_store']['source']} ({report['graph_store']['triples']} triples)")
        prepared = prepare(data, engine, groups=ranker.groups)
        X, _sizes = scoring_rows(ranker, prepared.items, prepared.table, range(len(prepared.items)))
        scores = split_scores(ranker.score(X), prepared.table.sizes)
        metrics = evaluate(prepared.items, scores)
        evaluated = {it.item.group for it in prepared.items}
        seen = evaluated & set(ranker.info.get("doc_ids", []))
        report.update({"mode": "model", "model": model, "metrics": metrics.to_dict(), "documents": len(evaluated), "in_sample_documents": len(seen)})
        if seen:
            warn(f"warning: {len(seen)} of the {len(evaluated)} documents were in the model's training data — "
                 "these figures are in-sample; `--folds` gives held-out ones")
    else:
        prepared = prepare(data, engine, groups=groups)
        cv = cross_validate(prepared.items, prepared.table, folds=folds, groups=groups, seed=seed, progress=progress)
        report.update({"mode": f"{folds}-fold grouped CV", "cv": cv, "metrics": cv["pooled"]})
        if repeats > 1:
            report["repeated"] = repeated_cv(prepared.items, prepared.table, repeats=repeats, folds=folds, seed=seed, progress=progress)
        if with_ablation:
            report["ablation"] = ablation(prepared.items, prepared.table, folds=folds, seed=seed, progress=progress)
    ceiling = agreement_ceiling(prepared.items)
    report["agreement"] = ceiling.to_dict() if ceiling else None
    return report
