"""Dense documents: sanitize time as the number of mentions of one document grows.

A dense document is one WikiReplace document (by default the one with the most
mentions) repeated (a blank line between copies)
until it holds the wanted number of mentions: every step of sanitization sees the
document as one (one ladder per mention, one leak guard, one rendering pass), while
the distinct texts to embed stay those of one document. Each size starts from an empty
embedding cache (model loaded) and an empty linking cache, so the figure includes
embedding what the document needs.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Sequence

from engine.io.docio import DocRecord, read_documents
from engine.scale import empty_caches
from engine.types import Mention

#: Sizes measured besides the one asked for (to show how time grows).
STEPS = (500, 2_000, 8_000)


def dense_document(text: str, mentions: Sequence[Mention], n: int) -> tuple[str, list[Mention]]:
    """``text`` repeated until ``n`` mentions (the last copy cut to fit)."""
    if not mentions:
        raise ValueError("the document has no mentions to repeat")
    parts: list[str] = []
    out: list[Mention] = []
    offset = 0
    while len(out) < n:
        for m in mentions[: n - len(out)]:
            out.append(Mention(m.start + offset, m.end + offset, m.entity_type, m.identifier_type))
        parts.append(text)
        offset += len(text) + 2
    return "\n\n".join(parts), out


def bench_dense(engine, data: str | Path, n: int, *, doc_index: int | None = None, steps: Sequence[int] = STEPS) -> dict[str, Any]:
    """Seconds to sanitize dense documents of ``steps`` and ``n`` mentions (see the module docstring)."""
    from engine.select.embeddings import Embedder

    docs = [d for d in read_documents(data, "wikireplace") if isinstance(d, DocRecord)]
    base = max(docs, key=lambda d: len(d.mentions)) if doc_index is None else docs[doc_index % len(docs)]
    engine.sanitize(base.text, base.mentions)  # load the model, ranker and indexes
    saved = engine.loaded_embedder
    rows = []
    try:
        for size in sorted({s for s in steps if s < n} | {n}):
            text, mentions = dense_document(base.text, list(base.mentions), size)
            if saved is not None:
                fresh = Embedder.sharing_model(saved)  # loaded by the first sanitize when the ranker embeds
            else:
                fresh = Embedder(None, model_name=engine.embedding_model)
            engine.embedder = fresh
            empty_caches(engine)
            t0, c0 = time.perf_counter(), time.process_time()
            result = engine.sanitize(text, mentions)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            rows.append({
                "mentions": size, "characters": len(text), "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
                "ms_per_mention": round(1000 * wall / size, 3), "texts_embedded": fresh.encoded,
                "replacements": len(result.replacements), "errors": len(result.errors),
            })
    finally:
        engine.embedder = saved
    return {"document": base.doc_id, "document_mentions": len(base.mentions), "sizes": rows}
