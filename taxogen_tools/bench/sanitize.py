"""Benchmarks of the engine (figures printed by ``taxogen bench …``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from taxogen_tools.bench.kg import percentile
from engine.engine import Engine
from engine.generate.sources.base import DocumentState
from engine.types import Span
from engine.io.wikireplace import load_wikireplace
from engine.text.sentences import sentence_around


def wikireplace_spans(path: str | Path, n: int) -> list[Span]:
    """The first ``n`` masked mentions of a WikiReplace file (cycled if fewer), as spans."""
    spans: list[Span] = []
    for doc in load_wikireplace(path):
        for m in doc.all_mentions():
            if m.masked:
                spans.append(Span(m.text, m.entity_type, m.identifier_type, context=sentence_around(doc.text, m.start, m.end), entity_id=m.entity_id))
    if not spans:
        raise ValueError(f"{path} has no masked mentions")
    return [spans[i % len(spans)] for i in range(n)]


def bench_candidates(engine: Engine, spans: list[Span], *, warmup: int = 200) -> dict[str, Any]:
    """Warm throughput and per-span latency of :meth:`Engine.candidates`."""
    for span in spans[:warmup]:
        engine.candidates(span, state=DocumentState())
    times = []
    state = DocumentState()
    t0 = time.perf_counter()
    for span in spans:
        t = time.perf_counter()
        engine.candidates(span, state=state)
        times.append((time.perf_counter() - t) * 1000)
    total = time.perf_counter() - t0
    by_type: dict[str, list[float]] = {}
    for span, ms in zip(spans, times):
        by_type.setdefault(span.entity_type.value, []).append(ms)
    return {
        "spans": len(spans),
        "seconds": round(total, 3),
        "spans_per_second": round(len(spans) / total, 1),
        "p50_ms": round(percentile(times, 0.5), 3),
        "p99_ms": round(percentile(times, 0.99), 3),
        "p50_ms_by_type": {t: round(percentile(v, 0.5), 3) for t, v in sorted(by_type.items())},
    }


def bench_rank(engine: Engine, data: str | Path, *, n: int = 300) -> dict[str, Any]:
    """Rank ``n`` annotated mentions one by one: embeddings cached vs not cached (model warm)."""
    from engine.select.embeddings import Embedder
    from taxogen_tools.training.selection_data import labelled_items

    items = [li.item for li in labelled_items(load_wikireplace(data))]
    items = [items[i % len(items)] for i in range(n)]
    engine.rank_items(items[:20])  # load model and ranker
    result: dict[str, Any] = {"mentions": n, "candidates": sum(len(i.candidates) for i in items)}
    fresh = Embedder.sharing_model(engine.embedder)  # warm model, empty caches
    saved = engine.loaded_embedder
    engine.embedder = fresh
    try:
        t0 = time.perf_counter()
        for it in items:
            engine.rank_item(it)
        uncached = time.perf_counter() - t0
        t0 = time.perf_counter()
        for it in items:
            engine.rank_item(it)
        cached = time.perf_counter() - t0
    finally:
        engine.embedder = saved
    result["uncached_mentions_per_second"] = round(n / uncached, 1)
    result["cached_mentions_per_second"] = round(n / cached, 1)
    result["uncached_ms_per_mention"] = round(1000 * uncached / n, 2)
    result["cached_ms_per_mention"] = round(1000 * cached / n, 2)
    result["texts_embedded_uncached"] = fresh.encoded
    return result


def bench_sanitize(engine: Engine, data: str | Path, *, batch: int = 16, threads: int = 1) -> dict[str, Any]:
    """Throughput of sanitization on documents never seen before (the headline), then warm.

    Runs on ``threads`` torch threads (default one core). Start-up is done first and not
    counted: the embedding model, ranker, graph facts and lemma tables are loaded
    (:func:`engine.scale.warm_up`) and one document is sanitized. "unseen" = every cache
    that depends on the documents emptied first — embeddings of document texts (memory
    and disk: a fresh in-memory embedder sharing the loaded model), approximate links,
    graph ladders — and
    the documents sanitized in batches of ``batch``; "warm" = the same documents again
    with their texts embedded (no user's case). The headline gives both per CPU second
    and their ratio. Per-document latencies follow, again from an empty cache. CPU
    seconds and the machine's load average are printed with the wall time: on a shared
    machine, documents per CPU second is the per-core figure.

    The label table (embeddings of candidate labels, :meth:`Embedder.encode_labels`) is
    kept in the unseen phase: labels come from the graph and the rules, not from the
    documents, and repeat across them. A "cold" phase first runs the same documents
    with nothing kept, not even the label table (it fills the table), and is printed
    beside the headline.
    """
    import os

    import torch

    from engine.io.docio import DocRecord, read_documents
    from engine.select.embeddings import Embedder
    from engine.scale import empty_caches, warm_up

    torch.set_num_threads(threads)
    docs = [d for d in read_documents(data, "wikireplace") if isinstance(d, DocRecord)]
    warm_up(engine)
    engine.sanitize(docs[0].text, docs[0].mentions)  # load everything else
    saved = engine.embedder

    def fresh(keep_labels: bool = False) -> Embedder:
        e = Embedder.sharing_model(saved if not keep_labels else engine.loaded_embedder, keep_labels=keep_labels)
        engine.embedder = e
        empty_caches(engine)
        return e

    out: dict[str, Any] = {"headline": {}, "documents": len(docs), "mentions": sum(len(d.mentions) for d in docs),
                           "torch_threads": threads, "embedding_precision": saved.precision}
    try:
        for phase in ("cold", "unseen", "warm"):
            if phase == "cold":
                emb = fresh()  # nothing kept: not even the label table
            elif phase == "unseen":
                emb = fresh(keep_labels=True)  # documents' caches emptied, label table kept
            load0 = os.getloadavg()[0]
            t, c = time.perf_counter(), time.process_time()
            for i in range(0, len(docs), batch):
                chunk = docs[i : i + batch]
                engine.sanitize_many([(d.text, d.mentions) for d in chunk])
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            out[f"batch_{phase}"] = {
                "batch_size": batch, "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
                "documents_per_second": round(len(docs) / wall, 2), "documents_per_cpu_second": round(len(docs) / cpu, 2),
                "texts_embedded": emb.encoded, "load_average_1min": [round(load0, 2), round(os.getloadavg()[0], 2)],
            }
            emb.encoded = 0
        unseen, warm = out["batch_unseen"]["documents_per_cpu_second"], out["batch_warm"]["documents_per_cpu_second"]
        out["headline"] = {
            "unseen_documents_per_cpu_second": unseen,
            "cold_documents_per_cpu_second": out["batch_cold"]["documents_per_cpu_second"],
            "warm_documents_per_cpu_second": warm,
            "warm_to_unseen_ratio": round(warm / unseen, 1) if unseen else None,
            "emptied_before_unseen": "embeddings of document texts (windows, spans; memory and disk), approximate links, graph ladders",
            "kept (start-up)": "embedding model, ranker, graph facts, lemma tables",
            "kept (label table)": "embeddings of candidate labels (graph classes, rule labels): they repeat across "
                                  "documents; at archive scale the steady state. 'cold' empties them too",
        }
        out["headline_unseen_documents_per_cpu_second"] = unseen
        for phase in ("cold", "warm"):
            if phase == "cold":
                fresh()
            times = []
            for d in docs:
                t = time.perf_counter()
                engine.sanitize(d.text, d.mentions)
                times.append((time.perf_counter() - t) * 1000)
            out[f"per_document_{phase}"] = {
                "median_ms": round(percentile(times, 0.5), 1), "p95_ms": round(percentile(times, 0.95), 1),
                "max_ms": round(max(times), 1),
            }
    finally:
        engine.embedder = saved
    return out
