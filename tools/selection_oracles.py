"""How far could selection go if the ranker knew who annotated? A diagnostic, not a feature.

Runs the same grouped cross-validation as ``taxogen evaluate selection`` three times over
several fold assignments, with the shipped feature set and with one of two *oracle*
additions that no deployment has:

- ``annotator``: one-hot of the annotator who marked the document (and "nine annotators");
- ``document style``: for each mention, the share of the *other* mentions of its document
  (dates apart from the rest) whose gold choice is ``***`` and whose gold is the first
  rung — the annotators' answers on the same document, leaked on purpose.

If even these leave accuracy short of a target, the target is out of reach of document-
or annotator-level signals. Run from the repository root with a built seed store:

    python tools/selection_oracles.py --store /tmp/seedstore [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict

import lightgbm as lgb
import numpy as np

from engine.engine import Engine
from engine.select.ranker import DEFAULT_ROUNDS, lightgbm_params, split_scores
from taxogen_tools.evaluation.selection import evaluate, grouped_folds
from taxogen_tools.training.ranker import FeatureTable, prepare, relevance


def per_candidate(items, columns) -> np.ndarray:
    return np.array([row for it, row in zip(items, columns) for _ in it.item.candidates], dtype=float)


def annotator_columns(items) -> list[list[float]]:
    names = sorted({it.mention.annotator for it in items})
    return [[float(it.mention.annotator == n) for n in names] + [float(sum(it.votes) > 1)] for it in items]


def document_style_columns(items) -> list[list[float]]:
    by_doc: dict[str, list[int]] = defaultdict(list)
    for k, it in enumerate(items):
        by_doc[it.item.group].append(k)
    out = []
    for k, it in enumerate(items):
        is_date = it.item.entity_type.value == "DATETIME"
        others = [items[j] for j in by_doc[it.item.group] if j != k and (items[j].item.entity_type.value == "DATETIME") == is_date]
        if not others:
            out.append([-1.0, -1.0])
            continue
        masked = statistics.fmean(o.gold_index == len(o.item.candidates) - 1 for o in others)
        first = statistics.fmean(o.gold_index == 0 for o in others)
        out.append([masked, first])
    return out


def cross_validated(items, table: FeatureTable, *, seed: int, folds: int = 5) -> tuple[float, float, float]:
    """``cross_validate`` without the feature schema check (the oracle columns are not in it)."""
    params = lightgbm_params(seed)
    figures = []
    split = grouped_folds(items, folds, seed)
    for f, test in enumerate(split):
        train = [i for g, idx in enumerate(split) if g != f for i in idx]
        Xt, st = table.rows(train)
        booster = lgb.train(params, lgb.Dataset(Xt, label=relevance([items[i] for i in train]), group=st), DEFAULT_ROUNDS)
        Xs, ss = table.rows(test)
        m = evaluate([items[i] for i in test], split_scores(booster.predict(Xs, num_threads=1), ss))
        figures.append((m.majority, m.all_selections, m.mrr))
    return tuple(float(np.mean(col)) for col in zip(*figures))  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/wikireplace/wikireplace_dev.json")
    ap.add_argument("--store", default=None, help="store directory for graph features (default: embedded sample)")
    ap.add_argument("--repeats", type=int, default=5, help="fold assignments (seeds 13, 14, …)")
    args = ap.parse_args()
    engine = Engine.from_config(store=args.store)
    prepared = prepare(args.data, engine)
    items, table = prepared.items, prepared.table

    def with_columns(columns: list[list[float]]) -> FeatureTable:
        return FeatureTable(np.hstack([table.X, per_candidate(items, columns)]), table.sizes, table.offsets)

    variants = {
        "shipped features": table,
        "+ annotator (oracle)": with_columns(annotator_columns(items)),
        "+ document style (oracle)": with_columns(document_style_columns(items)),
    }
    print(f"{'variant':<28}{'majority':>10}{'all sel.':>10}{'MRR':>8}   (mean over {args.repeats} fold assignments)")
    for name, variant in variants.items():
        runs = [cross_validated(items, variant, seed=13 + r) for r in range(args.repeats)]
        maj, alls, mrr = (statistics.fmean(r[k] for r in runs) for k in range(3))
        print(f"{name:<28}{maj:>10.2%}{alls:>10.2%}{mrr:>8.3f}", flush=True)


if __name__ == "__main__":
    main()
