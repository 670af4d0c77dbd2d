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
from typing import Any, Callable, Sequence

import numpy as np

from engine.select.features import ALL_GROUPS, FeatureBuilder
from engine.select.ranker import DEFAULT_ROUNDS, Ranker
from engine.select.selection_data import LabelledItem
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


def relevance(items: Sequence[LabelledItem], mode: str = "majority") -> np.ndarray:
    """Row labels: 1 for the majority label (``majority``), or graded by vote share (``votes``)."""
    rows: list[int] = []
    for it in items:
        n = len(it.item.candidates)
        if mode == "majority":
            rows.extend(1 if i == it.gold_index else 0 for i in range(n))
        elif mode == "votes":
            total = max(1, sum(it.votes))
            rows.extend(max(3 if i == it.gold_index else 0, round(3 * it.votes[i] / total)) for i in range(n))
        else:
            raise ValueError(f"unknown label mode {mode!r} (majority or votes)")
    return np.asarray(rows, dtype=np.int32)


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


@dataclass
class FeatureTable:
    """Features of every item, computed once, sliceable by item."""

    X: np.ndarray
    sizes: list[int]
    offsets: list[int]

    @classmethod
    def build(cls, builder: FeatureBuilder, items: Sequence[LabelledItem]) -> "FeatureTable":
        X, sizes = builder.build([it.item for it in items])
        offsets = list(np.cumsum([0] + sizes[:-1]))
        return cls(X, sizes, offsets)

    def rows(self, idx: Sequence[int]) -> tuple[np.ndarray, list[int]]:
        parts = [self.X[self.offsets[i] : self.offsets[i] + self.sizes[i]] for i in idx]
        return (np.vstack(parts) if parts else self.X[:0]), [self.sizes[i] for i in idx]

    def select_columns(self, keep: np.ndarray) -> "FeatureTable":
        return FeatureTable(self.X[:, keep], self.sizes, self.offsets)


def spread(values: Sequence[float]) -> dict[str, float]:
    """Mean, population std, min and max, rounded to 4 places."""
    return {"mean": round(statistics.fmean(values), 4), "std": round(statistics.pstdev(values), 4),
            "min": round(min(values), 4), "max": round(max(values), 4)}


def split_scores(scores: np.ndarray, sizes: Sequence[int]) -> list[np.ndarray]:
    out, pos = [], 0
    for n in sizes:
        out.append(scores[pos : pos + n])
        pos += n
    return out


def train_ranker(
    items: Sequence[LabelledItem],
    table: FeatureTable,
    idx: Sequence[int],
    *,
    groups: Sequence[str],
    label_mode: str = "majority",
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 13,
    params: dict[str, Any] | None = None,
    info: dict[str, Any] | None = None,
) -> Ranker:
    X, sizes = table.rows(idx)
    rel = relevance([items[i] for i in idx], label_mode)
    prior = None
    if "prior" in groups:  # counted on these training items; each row without its own document
        from engine.select.label_prior import LabelPrior

        prior = LabelPrior.from_items([items[i] for i in idx])
        prior.fill(X, [items[i] for i in idx], _prior_columns(groups), own_document_out=True)
    ranker = Ranker.train(X, sizes, rel, groups=groups, rounds=rounds, seed=seed, params=params, info=info)
    if prior is not None:
        prior.by_doc = {}
        ranker.prior = prior
    return ranker


def _prior_columns(groups: Sequence[str]) -> list[int]:
    from engine.select.features import feature_names
    from engine.select.label_prior import PRIOR_COLUMNS

    names = feature_names(groups)
    return [names.index(c) for c in PRIOR_COLUMNS]


def scoring_rows(ranker: Ranker, items: Sequence[LabelledItem], table: FeatureTable, idx: Sequence[int]) -> tuple[np.ndarray, list[int]]:
    """Rows of ``idx`` as ``ranker`` scores them: its label prior written into the ``prior`` columns."""
    X, sizes = table.rows(idx)
    if ranker.prior is not None:
        ranker.prior.fill(X, [items[i] for i in idx], _prior_columns(ranker.groups), own_document_out=False)
    return X, sizes


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
