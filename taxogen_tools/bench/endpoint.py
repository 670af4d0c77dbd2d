"""``taxogen bench endpoint``: the engine against a real SPARQL server behind injected faults.

An Oxigraph server on 127.0.0.1 holds a Wikidata dump (the shared seed by default); a
:class:`kg.faults.FaultProxy` sits in front of it. For each scenario a fresh local store
(the embedded sample graph) is sanitizing a document whose spans the sample lacks, so
every span needs the endpoint (2 s timeout, 3 retries, breaker after 3 failed queries,
backoff from 0.2 s). Figures per scenario: requests, retries, throttled waits,
failed and refused queries, time spent, spans linked, and spans left with their original
text (must be 0).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from engine.config import EndpointSettings, EngineConfig
from engine.engine import Engine
from engine.types import EntityType, Mention
from kg.build import build_from_dump
from kg.faults import FaultProxy
from kg.oxiserver import oxigraph_server
from kg.store import sample_graph_path

SPANS = [
    ("Bergen", "LOC"), ("Trondheim", "LOC"), ("Stavanger", "LOC"), ("Uppsala", "LOC"), ("Gothenburg", "LOC"),
    ("Helsinki", "LOC"), ("Copenhagen", "LOC"), ("seismologist", "DEM"), ("astronomer", "DEM"), ("botanist", "DEM"),
]

SCENARIOS: dict[str, list[str]] = {
    "healthy": [],
    "slow (past the 2 s timeout)": ["slow:3"] * 3,
    "429 with Retry-After: 1": ["429:1"] * 4,
    "500/503 bursts": ["500", "503", "500"] * 3,
    "truncated JSON": ["truncate"] * 3,
    "timeout inside a 200 body": ["timeout-in-200"] * 3,
    "endpoint failing throughout": ["500"] * 10_000,
}


def run(seed: Path | None, *, spans: list[tuple[str, str]] = SPANS) -> dict[str, Any]:
    data = seed if seed is not None else sample_graph_path()
    text = "; ".join(s for s, _ in spans) + "."
    mentions, pos = [], 0
    for s, t in spans:
        start = text.index(s, pos)
        mentions.append(Mention(start, start + len(s), EntityType(t)))
        pos = start + len(s)
    results: dict[str, Any] = {"upstream_data": str(data), "spans": len(spans), "scenarios": {}}
    with tempfile.TemporaryDirectory(prefix="taxogen-bench-endpoint-") as tmp:
        with oxigraph_server([data], Path(tmp)) as upstream:
            for name, plan in SCENARIOS.items():
                store = Path(tmp) / f"store-{len(results['scenarios'])}"
                build_from_dump(sample_graph_path(), store, progress=False)
                with FaultProxy(upstream, plan) as proxy:
                    settings = EndpointSettings(
                        url=proxy.url, enabled=True, timeout_s=2.0, max_retries=3, breaker_threshold=3, breaker_cooldown_s=60,
                        backoff_base_s=0.2, backoff_max_s=2.0, max_wait_s=5.0,
                    )
                    engine = Engine.from_config(EngineConfig(store=store, model="none", endpoint=settings))
                    t0 = time.perf_counter()
                    result = engine.sanitize(text, mentions)
                    elapsed = time.perf_counter() - t0
                    stats = engine.remote.remote.client.stats
                    linked = sum(1 for r in result.replacements if (r.rung or r.replacement) != "***")
                    leaks = sum(1 for r in result.replacements if r.original in result.text)
                    results["scenarios"][name] = {
                        "requests": proxy.requests, "retries": stats.retries, "throttled": stats.throttled,
                        "failed_queries": stats.failures, "refused_by_breaker": stats.refused,
                        "seconds": round(elapsed, 2), "spans_generalized": linked, "spans_masked": len(spans) - linked,
                        "spans_left_unreplaced": leaks, "errors": dict(stats.errors),
                    }
                    engine.kg.close()
    results["every_span_replaced"] = all(s["spans_left_unreplaced"] == 0 for s in results["scenarios"].values())
    return results
