"""Warming an engine up before it answers: everything a first request would load, loaded now.

A first raw-text request after ``taxogen serve`` reported ready took 6.9 s against 0.03 s
repeated: spaCy, the gazetteer, the sentence-embedding model, the ranker, the lemma tables
of the renderer, WordNet's nouns and the store's pages were all loaded by that request. :func:`warm_up`
sanitizes a short invented biography twice — detected, and with mentions given — and
generalizes one span, so each of those is loaded before the server reports ready.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from engine.generate.noun_hierarchy import noun_hierarchy

if TYPE_CHECKING:  # pragma: no cover
    from engine.engine import Engine

#: an invented biography with a span of most entity types (no real person)
PRIMER = ("Ingrid Solberg (born 18 July 1980 in Oslo) is a Norwegian geologist. She worked for the "
          "Geological Survey of Norway for 12 years and lives in Bergen.")


def warm_up(engine: "Engine", *, detect: bool = True, progress: Callable[[str], None] | None = None) -> float:
    """Load what requests need by answering :data:`PRIMER` (``detect``: also the raw-text
    path); returns the seconds it took. Errors are left to the first real request."""
    t0 = time.perf_counter()
    try:
        mentions = engine.detect_mentions(PRIMER) if detect else []
        engine.sanitize(PRIMER, mentions)
        engine.candidates("geologist", "DEM", context=PRIMER)
        noun_hierarchy()  # WordNet's nouns, read when a common noun the store lacks first comes
    except Exception as exc:  # noqa: BLE001 - a warm-up never stops the server; requests report errors
        if progress:
            progress(f"warm-up stopped early: {type(exc).__name__}")
    seconds = time.perf_counter() - t0
    if progress:
        progress(f"warmed up in {seconds:.1f} s")
    return seconds
