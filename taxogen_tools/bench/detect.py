"""``taxogen bench detect``: detection time per document (warm), and the start-up cost."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from taxogen_tools.bench.kg import percentile


def bench_detect(engine, data: str | Path, *, repeats: int = 1) -> dict[str, Any]:
    """Detect every document of a WikiReplace file, one at a time, after one warm-up document."""
    from engine.io.wikireplace import load_wikireplace

    docs = load_wikireplace(data)
    t0 = time.perf_counter()
    detector = engine.detector
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    detector.detect(docs[0].text)  # loads spaCy and the decider
    first = time.perf_counter() - t0
    times, stages = [], {"candidates": [], "decision": []}
    for _ in range(repeats):
        for d in docs:
            t = time.perf_counter()
            cands = detector.candidates(d.text)
            t1 = time.perf_counter()
            detector.decide(cands)
            t2 = time.perf_counter()
            times.append((t2 - t) * 1000)
            stages["candidates"].append((t1 - t) * 1000)
            stages["decision"].append((t2 - t1) * 1000)
    chars = sum(len(d.text) for d in docs) * repeats
    return {
        "documents": len(docs) * repeats, "mean_chars": round(chars / (len(docs) * repeats)),
        "gazetteer_build_seconds": round(build, 2), "gazetteer_entries": detector.finder.gazetteer.size,
        "first_document_seconds": round(first, 2),
        "per_document_ms": {"median": round(percentile(times, 0.5), 1), "p95": round(percentile(times, 0.95), 1),
                            "max": round(max(times), 1), "mean": round(sum(times) / len(times), 1)},
        "per_stage_median_ms": {k: round(percentile(v, 0.5), 1) for k, v in stages.items()},
        "characters_per_second": round(chars / (sum(times) / 1000)),
    }
