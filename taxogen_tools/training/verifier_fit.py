"""Fitting the verifier (:mod:`engine.generate.verifier`): LightGBM on the judged rungs of the
truth set, calibrated by isotonic regression on out-of-fold scores, cross-validated by group.

- :func:`build_dataset`: the matched rungs (:mod:`taxogen_tools.training.verifier_data`) as a
  matrix, with their labels (1: true) and groups (a document and a batch never split);
- :func:`fit`: a booster on every row and its calibration, fitted on the scores each row gets
  from boosters trained on the other groups (inner grouped cross-validation: the
  probabilities say how often a rung is true on a batch the model has not seen);
- :func:`cross_validate`: leave one group out; each fold's model is :func:`fit` on the others
  (its calibration from an inner cross-validation of their groups). Out-of-fold
  probabilities of every row, and the fold models for sanitizing each group's documents
  (:mod:`taxogen_tools.evaluation.verifier_curve`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.generate.verifier import Calibration, Verifier
from engine.generate.verify_features import FEATURE_GROUPS, RungFeatures
from taxogen_tools.training.verifier_data import (
    Rows, document_states, groups_of, judged_sources, judged_spans, ladders, rows_of,
)

DEFAULT_PARAMS: dict[str, Any] = {
    "objective": "binary",
    "learning_rate": 0.05,
    "num_leaves": 15,
    "min_data_in_leaf": 20,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "verbosity": -1,
    "num_threads": 1,
    "deterministic": True,
    "force_row_wise": True,
}
DEFAULT_ROUNDS = 200
#: inner folds of the calibration (groups are split into this many parts)
INNER_FOLDS = 4


@dataclass
class Dataset:
    """The matched rungs as a matrix: ``X`` (rows × ``names``), ``y`` (1 true), ``groups``."""

    X: np.ndarray
    y: np.ndarray
    groups: np.ndarray
    names: list[str]
    rows: Rows
    feature_groups: tuple[str, ...]
    rules: tuple[str, ...]
    #: the judged spans (their groups), and the ladder built for each
    spans: list = field(default_factory=list)
    ladders: list = field(default_factory=list)

    def columns(self, keep: Sequence[str]) -> "Dataset":
        """The same rows with only the features ``keep`` (in that order)."""
        at = [self.names.index(n) for n in keep]
        return Dataset(self.X[:, at], self.y, self.groups, list(keep), self.rows, self.feature_groups, self.rules, self.spans, self.ladders)


def build_dataset(engine, judgments, rules: Sequence[str], *, shared: str | Path, feature_groups: Sequence[str] = FEATURE_GROUPS,
                  extra: Sequence = (), judged_docs: Sequence[str | Path] = (), progress: Callable[[str], None] | None = None) -> Dataset:
    """Rebuild the ladder of every judged graph-type span with ``rules`` switched off (the
    config's rules otherwise) and match the judged replacements to its rungs; ``shared``: the
    shared WikiReplace documents (their places and sports are the spans' document state);
    ``extra``: judgments of judged batches, training rows only (:func:`judged_batch`);
    ``judged_docs``: their documents (raw text: mentions detected), for their document state."""
    configured = engine.config.knowledge()
    features = RungFeatures(engine.truth, engine.chains, rules=rules, knowledge=configured, embedder=lambda: engine.embedder)
    spans = judged_spans([*judgments, *extra])
    groups = groups_of(spans)
    states = document_states(engine, {s.doc_id for s in spans}, judged_sources(shared), [Path(p) for p in judged_docs])
    before = engine.knowledge
    engine.knowledge = configured.with_rules_off(rules)
    try:
        if progress:
            progress(f"rebuilding the ladders of {len(spans)} judged spans ({len(states)} documents) …")
        built = ladders(engine, spans, states, progress=progress)
        rows = rows_of(spans, built, states, features, groups, feature_groups)
    finally:
        engine.knowledge = before
    names = features.names(feature_groups)
    X = np.array([[r.get(n, 0.0) for n in names] for r in rows.features], dtype=np.float64).reshape(len(rows.features), len(names))
    return Dataset(X, np.array(rows.true, dtype=np.int64), np.array(rows.groups), names, rows, tuple(feature_groups), tuple(rules),
                   spans, built)


def lgb_params(seed: int, params: dict[str, Any] | None = None) -> dict[str, Any]:
    p = dict(DEFAULT_PARAMS, **(params or {}))
    p.update({"seed": seed, "bagging_seed": seed, "feature_fraction_seed": seed, "data_random_seed": seed})
    return p


def train_booster(X: np.ndarray, y: np.ndarray, names: Sequence[str], *, params: dict[str, Any] | None = None,
                  rounds: int = DEFAULT_ROUNDS, seed: int = 13) -> Any:
    """A LightGBM binary classifier of P(true) on rows ``X``."""
    import lightgbm as lgb

    data = lgb.Dataset(X, label=y, feature_name=[_safe(n) for n in names], free_raw_data=False)
    return lgb.train(lgb_params(seed, params), data, num_boost_round=rounds)


def isotonic(raw: np.ndarray, y: np.ndarray) -> Calibration:
    """The isotonic fit of ``y`` on the raw scores (increasing, clipped outside them)."""
    from sklearn.isotonic import IsotonicRegression

    iso = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True, out_of_bounds="clip").fit(raw, y)
    return Calibration(tuple(map(float, iso.X_thresholds_)), tuple(map(float, iso.y_thresholds_)))


def _inner_folds(groups: np.ndarray, k: int) -> list[np.ndarray]:
    """``groups`` split into at most ``k`` parts of about equal rows (largest group first)."""
    names, counts = np.unique(groups, return_counts=True)
    parts: list[list[str]] = [[] for _ in range(min(k, len(names)))]
    sizes = [0] * len(parts)
    for i in np.argsort(-counts, kind="stable"):
        j = int(np.argmin(sizes))
        parts[j].append(str(names[i]))
        sizes[j] += int(counts[i])
    return [np.isin(groups, p) for p in parts]


def fit(X: np.ndarray, y: np.ndarray, groups: np.ndarray, names: Sequence[str], *, params: dict[str, Any] | None = None,
        rounds: int = DEFAULT_ROUNDS, seed: int = 13, inner: int = INNER_FOLDS) -> tuple[Any, Calibration]:
    """A booster on every row and its calibration from out-of-fold scores over ``groups``."""
    raw = np.zeros(len(y))
    for test in _inner_folds(groups, inner):
        if test.all():
            raw[:] = 0.5
            break
        booster = train_booster(X[~test], y[~test], names, params=params, rounds=rounds, seed=seed)
        raw[test] = booster.predict(X[test])
    return train_booster(X, y, names, params=params, rounds=rounds, seed=seed), isotonic(raw, y)


@dataclass
class CrossValidation:
    """Out-of-fold P(true) per row and, per group, the model trained without it."""

    probabilities: np.ndarray
    models: dict[str, tuple[Any, Calibration]]


def cross_validate(data: Dataset, *, params: dict[str, Any] | None = None, rounds: int = DEFAULT_ROUNDS, seed: int = 13,
                   progress: Callable[[str], None] | None = None) -> CrossValidation:
    """Leave one group out (module docstring)."""
    probs = np.zeros(len(data.y))
    models: dict[str, tuple[Any, Calibration]] = {}
    for group in sorted(set(data.groups.tolist())):
        test = data.groups == group
        booster, calibration = fit(data.X[~test], data.y[~test], data.groups[~test], data.names, params=params, rounds=rounds, seed=seed)
        probs[test] = calibration(booster.predict(data.X[test]))
        models[group] = (booster, calibration)
        if progress:
            progress(f"  fold {group}: {int(test.sum())} rungs, {int((data.y[test] == 0).sum())} false")
    return CrossValidation(probs, models)


def verifier_of(booster: Any, calibration: Calibration, data: Dataset, min_truth: float, *, params: dict[str, Any] | None = None,
                info: dict[str, Any] | None = None) -> Verifier:
    """A :class:`Verifier` of a trained booster (its features those of ``data``)."""
    return Verifier(booster, list(data.names), data.feature_groups, data.rules, calibration, float(min_truth),
                    {k: v for k, v in lgb_params(13, params).items()}, dict(info or {}))


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)
