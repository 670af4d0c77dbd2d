"""Training the replacement ranker: from a WikiReplace file to labelled items, their feature
table and a LightGBM ranker (``taxogen train``; cross-validation in :mod:`taxogen_tools.evaluation.selection`)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from engine.select.embeddings import Embedder, default_cache_path
from engine.engine import Engine
from engine.select.features import ALL_GROUPS, EMBEDDING_GROUPS, FeatureBuilder
from engine.select.ranker import DEFAULT_ROUNDS, Ranker
from taxogen_tools.training.selection_data import LabelledItem, labelled_items
from engine.io.wikireplace import load_wikireplace


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


@dataclass
class FeatureTable:
    """Features of every item, computed once, sliceable by item."""

    X: np.ndarray
    sizes: list[int]
    offsets: list[int]
    #: the sentence model of the embedding columns (``None``: none embedded); a ranker trained
    #: on the table records it (:attr:`engine.select.ranker.Ranker.embedding_model`)
    embedding_model: str | None = None

    @classmethod
    def build(cls, builder: FeatureBuilder, items: Sequence[LabelledItem]) -> "FeatureTable":
        X, sizes = builder.build([it.item for it in items])
        offsets = list(np.cumsum([0] + sizes[:-1]))
        return cls(X, sizes, offsets, getattr(builder.embedder, "model_name", None))

    def rows(self, idx: Sequence[int]) -> tuple[np.ndarray, list[int]]:
        parts = [self.X[self.offsets[i] : self.offsets[i] + self.sizes[i]] for i in idx]
        return (np.vstack(parts) if parts else self.X[:0]), [self.sizes[i] for i in idx]

    def select_columns(self, keep: np.ndarray) -> "FeatureTable":
        return FeatureTable(self.X[:, keep], self.sizes, self.offsets, self.embedding_model)


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
        prior.fill(X, [items[i] for i in idx], prior_columns(groups), own_document_out=True)
    ranker = Ranker.train(X, sizes, rel, groups=groups, rounds=rounds, seed=seed, params=params, info=info)
    if table.embedding_model is not None:
        ranker.embedding_model = table.embedding_model
    if prior is not None:
        prior.by_doc = {}
        ranker.prior = prior
    return ranker


def prior_columns(groups: Sequence[str]) -> list[int]:
    """Column indices of the label prior's features among ``groups``' features."""
    from engine.select.features import feature_names
    from engine.select.label_prior import PRIOR_COLUMNS

    names = feature_names(groups)
    return [names.index(c) for c in PRIOR_COLUMNS]


def scoring_rows(ranker: Ranker, items: Sequence[LabelledItem], table: FeatureTable, idx: Sequence[int]) -> tuple[np.ndarray, list[int]]:
    """Rows of ``idx`` as ``ranker`` scores them: its label prior written into the ``prior`` columns."""
    X, sizes = table.rows(idx)
    if ranker.prior is not None:
        ranker.prior.fill(X, [items[i] for i in idx], prior_columns(ranker.groups), own_document_out=False)
    return X, sizes


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def store_fingerprint(engine: Engine) -> dict[str, Any]:
    """What identifies the store the graph features came from."""
    meta = engine.kg.metadata
    return {"store": str(engine.kg.path) if engine.kg.path else "embedded", "triples": len(engine.kg), "source": meta.get("source", "embedded sample")}


@dataclass
class PreparedData:
    items: list[LabelledItem]
    table: FeatureTable
    builder: FeatureBuilder
    seconds: float


def prepare(
    data: str | Path,
    engine: Engine,
    *,
    groups: Sequence[str] = ALL_GROUPS,
    embedder: Embedder | None = None,
    progress: Callable[[str], None] | None = say,
) -> PreparedData:
    """Load the file, build the ranking items and their features (embeddings cached)."""
    t0 = time.perf_counter()
    docs = load_wikireplace(data)
    items = labelled_items(docs)
    if progress:
        progress(f"{len(docs)} documents, {len(items)} annotated mentions, {sum(len(i.item.candidates) for i in items)} candidates")
    embedder = embedder or Embedder(default_cache_path(), precision=engine.config.embedding_precision,
                                    model_name=engine.config.embedding_model_name)  # the model rankers are trained on
    builder = FeatureBuilder(embedder if set(EMBEDDING_GROUPS) & set(groups) else None, groups=groups, graph=engine.graph_stats if "graph" in groups else None)
    if progress:
        progress("computing features (embeddings are cached in " + str(embedder.cache_path) + ") …")
    table = FeatureTable.build(builder, items)
    if progress:
        progress(f"features: {table.X.shape[0]} rows × {table.X.shape[1]} columns, {embedder.encoded} texts embedded, {time.perf_counter() - t0:.1f} s")
    return PreparedData(items, table, builder, time.perf_counter() - t0)


def train_model(
    prepared: PreparedData,
    engine: Engine,
    *,
    seed: int = 13,
    rounds: int = DEFAULT_ROUNDS,
    label_mode: str = "majority",
    data_name: str = "",
) -> Ranker:
    """A ranker trained on every prepared mention."""
    docs = sorted({it.item.group for it in prepared.items})
    info = {
        "data": data_name, "documents": len(docs), "doc_ids": docs, "mentions": len(prepared.items), "label_mode": label_mode,
        "graph_store": store_fingerprint(engine), "trained_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    return train_ranker(
        prepared.items, prepared.table, list(range(len(prepared.items))), groups=prepared.builder.groups,
        label_mode=label_mode, rounds=rounds, seed=seed, info=info,
    )
