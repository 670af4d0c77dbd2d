"""``taxogen bench privacy``: background index build time and size, guard time per document."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from engine.io.docio import DocRecord, read_documents
from engine.privacy.background import Background


def _rss_mb() -> float:
    """Resident set size of this process in MB (Linux ``/proc``; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return round(1000 * s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))], 2) if s else 0.0


def bench_privacy(engine, data: str | Path, *, k: int = 10, batch: int = 16) -> dict[str, Any]:
    """Build the index from the store (timed, no cache), save and reload it, then guard
    every document of ``data`` with target ``k`` twice (cold and warm constraint cache)."""
    rss0 = _rss_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    bg = Background.build(engine.kg)
    build_s, build_cpu = time.perf_counter() - t0, time.process_time() - c0
    rss1 = _rss_mb()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "privacy-index.bin"
        bg.save(path)
        size = path.stat().st_size
        t1 = time.perf_counter()
        Background.load(path)
        load_s = time.perf_counter() - t1
    engine.privacy_guard = engine.privacy_guard.with_background(bg)
    docs = [(r.text, r.mentions) for r in read_documents(data, "wikireplace") if isinstance(r, DocRecord)]
    passes = []
    for _ in range(2):
        seconds, reached, climbs = [], 0, 0
        for i in range(0, len(docs), batch):
            for res in engine.sanitize_many(docs[i:i + batch], k=k):
                seconds.append(res.privacy.seconds)
                reached += res.privacy.reached
                climbs += len(res.privacy.climbs)
        passes.append({"documents": len(seconds), "p50_ms": _pct(seconds, 0.5), "p95_ms": _pct(seconds, 0.95),
                       "p99_ms": _pct(seconds, 0.99), "max_ms": _pct(seconds, 1.0), "reached_k": reached, "climbs": climbs})
    return {
        "index": {**bg.stats.to_dict(), "build_seconds": round(build_s, 2), "build_cpu_seconds": round(build_cpu, 2), "rss_growth_mb": round(rss1 - rss0, 1),
                  "file_bytes": size, "load_seconds": round(load_s, 3)},
        "guard": {"k": k, "cold": passes[0], "warm": passes[1],
                  "note": "guard time only (slots, disclosure, set sizes, climbs, NO_MASK ladders); ranking excluded"},
    }
