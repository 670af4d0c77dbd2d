"""Throughput at scale: dense documents (linear in mentions), unseen documents per core."""

from __future__ import annotations


def empty_caches(engine) -> None:
    """Forget what the engine remembers across documents (approximate links, graph
    ladders), so that a benchmark measures documents never seen before."""
    from engine.types import EntityType

    engine.linker._approx.clear()
    for entity_type in (EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC):
        getattr(engine.sources.for_type(entity_type), "_ladders", {}).clear()
