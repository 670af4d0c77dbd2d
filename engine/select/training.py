"""From a WikiReplace file to a trained ranker, or to cross-validated figures."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from engine.select.embeddings import Embedder, default_cache_path
from engine.engine import Engine
from engine.select.features import ALL_GROUPS, EMBEDDING_GROUPS, FeatureBuilder, GraphStats
from engine.select.ranker import DEFAULT_ROUNDS, Ranker
from engine.select.selection import FeatureTable, train_ranker
from engine.select.selection_data import LabelledItem, labelled_items
from engine.io.wikireplace import load_wikireplace


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
    embedder = embedder or Embedder(default_cache_path(), precision=engine.config.embedding_precision)
    builder = FeatureBuilder(embedder if set(EMBEDDING_GROUPS) & set(groups) else None, groups=groups, graph=GraphStats.from_engine(engine) if "graph" in groups else None)
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
