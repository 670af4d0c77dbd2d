"""Throughput at scale: dense documents (linear in mentions), unseen documents per core."""

from __future__ import annotations


def empty_caches(engine) -> None:
    """Forget what the engine remembers across documents (approximate links, graph
    ladders), so that a benchmark measures documents never seen before."""
    from engine.generate.sources.graph import GraphSource

    engine.linker.forget_approximate()
    for source in map(engine.sources.get, engine.sources.names()):
        if isinstance(source, GraphSource):
            source.forget_ladders()


def forget_documents(engine) -> None:
    """Forget every vector and ladder of the documents sanitized so far (the embedder's
    window and text memory, approximate links, graph ladders); the label table stays, as
    over a long run (benchmarks of unseen documents)."""
    if engine.loaded_embedder is not None:
        engine.loaded_embedder.clear_memory()
    empty_caches(engine)


def warm_up(engine) -> None:
    """Load once what the engine loads lazily on first use (the embedding model, the
    ranker, graph facts, the lemma tables of rendering), so that a benchmark of
    documents counts per-document work, not start-up."""
    if engine.ranker is not None:
        engine.embedder.model  # noqa: B018 — loads the model
        engine.graph_stats  # noqa: B018
    from engine.render.phrase import load_lemma_tables

    load_lemma_tables()
