"""Benchmark of the knowledge graph: seed build time and chain-lookup latency.

Chain lookups are timed three ways over the same random labelled items:

- ``preloaded``: :class:`kg.chains.ChainIndex` in its default mode (edges read once from
  the store, ladders built in memory with the overlay rules; what the engine uses);
- ``sparql``: the same ladders from the ``chain_edges_*`` property-path queries run per
  lookup;
- ``bfs``: a plain Python breadth-first search collecting every ancestor (with depth)
  over the same P31/P279/P361/P8225 edges, no overlay, as the reference.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Callable

from kg.build import build_from_dump
from kg.chains import ChainIndex, PreloadedTaxonomy
from kg.starter import default_store
from kg.store import KGStore
from kg.vocab import TAXONOMY_PROPS


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by nearest rank."""
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[idx]


def bfs_ancestors(view: PreloadedTaxonomy, qid: str) -> dict[str, int]:
    """Every ancestor of ``qid`` over the taxonomy properties, with its BFS depth."""
    depth = {qid: 0}
    queue = deque([qid])
    while queue:
        node = queue.popleft()
        for prop in TAXONOMY_PROPS:
            for parent in view.parents(node, prop):
                if parent not in depth:
                    depth[parent] = depth[node] + 1
                    queue.append(parent)
    return depth


def _time(fn: Callable[[str], object], items: list[str]) -> list[float]:
    out = []
    for q in items:
        t0 = time.perf_counter()
        fn(q)
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def bench_kg(seed: str | Path | None, store: str | Path | None, *, n: int = 1000, seed_value: int = 7, sparql_n: int = 200) -> dict:
    """Run the benchmark; returns the figures (milliseconds) as a dict."""
    result: dict = {}
    tmp = None
    if seed is not None:
        tmp = tempfile.TemporaryDirectory(prefix="taxogen-bench-")
        t0 = time.perf_counter()
        report = build_from_dump(seed, Path(tmp.name) / "store", progress=False)
        result["build_seconds"] = round(time.perf_counter() - t0, 2)
        result["build_triples"] = report.triples
        store = Path(tmp.name) / "store"
    kg = KGStore.read_only(store) if store is not None else default_store()
    t0 = time.perf_counter()
    index = ChainIndex(kg, mode="preloaded")
    result["preload_seconds"] = round(time.perf_counter() - t0, 2)
    view = index.view
    assert view is not None
    labelled = sorted(q for q in view.labels if q.startswith("Q"))
    rng = random.Random(seed_value)
    items = rng.sample(labelled, min(n, len(labelled)))
    result["items"] = len(items)
    for q in items[:50]:  # warm-up
        index.chains(q)
        bfs_ancestors(view, q)
    pre = _time(index.chains, items)
    bfs = _time(lambda q: bfs_ancestors(view, q), items)
    sparql_index = ChainIndex(kg, mode="sparql", rules=index.rules)
    sp = _time(sparql_index.chains, items[:sparql_n])
    for name, values in (("preloaded", pre), ("sparql", sp), ("bfs", bfs)):
        result[name] = {
            "n": len(values),
            "p50_ms": round(percentile(values, 0.5), 4),
            "p99_ms": round(percentile(values, 0.99), 4),
            "mean_ms": round(statistics.fmean(values), 4),
        }
    result["ratio_p50_preloaded_vs_bfs"] = round(result["preloaded"]["p50_ms"] / max(result["bfs"]["p50_ms"], 1e-9), 2)
    result["ratio_p99_preloaded_vs_bfs"] = round(result["preloaded"]["p99_ms"] / max(result["bfs"]["p99_ms"], 1e-9), 2)
    result["ratio_p50_sparql_vs_bfs"] = round(result["sparql"]["p50_ms"] / max(result["bfs"]["p50_ms"], 1e-9), 2)
    result["targets"] = {
        "p99_le_5ms": result["preloaded"]["p99_ms"] <= 5.0,
        "ratio_le_3x": result["ratio_p99_preloaded_vs_bfs"] <= 3.0 and result["ratio_p50_preloaded_vs_bfs"] <= 3.0,
    }
    if tmp is not None:
        del kg
        tmp.cleanup()
    return result
