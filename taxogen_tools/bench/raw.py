"""``taxogen bench raw``: raw text in, sanitized text out — taxogen beside Presidio, in one run.

Each system runs in its own fresh Python process, pinned to one core (``sched_setaffinity``
to the first allowed CPU, ``OMP_NUM_THREADS=1`` and friends), over the same documents:

- **taxogen**: ``Engine.from_config(store=…)``, then per document ``detect_mentions`` and
  ``sanitize`` (what ``taxogen sanitize bio.txt`` does);
- **Presidio**: ``AnalyzerEngine`` on the same installed spaCy model
  (:func:`engine.integrations.presidio.offline_analyzer`) and ``AnonymizerEngine`` with its
  default operator (replace by ``<ENTITY_TYPE>``).

Reported per system: seconds from process start to the first sanitized document (imports,
models, stores — everything a user waits for), then documents per second over every
document after that first one. taxogen's caches (``$TAXOGEN_CACHE_DIR``: the gazetteer's
entries, embeddings) are a fresh directory, primed by one run over a sentence that is not
among the documents — a user's second run of ``taxogen sanitize`` — so no document's
embeddings are cached before it is measured. The ratios taxogen/Presidio are printed beside them
(docs/s: higher is better; start-up: lower is better).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

#: environment variables that cap the threads of numeric libraries at one
_ONE_THREAD = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")}


def _texts(data: str | Path, limit: int | None) -> list[str]:
    from engine.io.wikireplace import load_wikireplace

    texts = [d.text for d in load_wikireplace(data)]
    return texts[:limit] if limit else texts


#: the text a priming run sanitizes (not one of the measured documents)
PRIMER = "Ingrid Solberg is a Norwegian geologist who lives in Oslo."


def run_system(system: str, data: str, store: str | None, limit: int | None, started: float) -> dict[str, Any]:
    """Run one system in this process (called in the child): start-up, then every document
    (``limit`` 0: only :data:`PRIMER`, to fill the caches). taxogen's time per document is
    also split into its two stages, detection and sanitization (link, ladders, embeddings,
    ranking, guard, render)."""
    stages = {"detect": 0.0, "sanitize": 0.0}
    if system == "presidio":
        from presidio_anonymizer import AnonymizerEngine

        from engine.integrations.presidio import offline_analyzer

        analyzer, anonymizer = offline_analyzer(), AnonymizerEngine()

        def one(text: str) -> str:
            return anonymizer.anonymize(text, analyzer.analyze(text, language="en")).text
    elif system == "taxogen":
        from engine import Engine

        engine = Engine.from_config(store=store) if store else Engine.from_config()

        def one(text: str) -> str:
            t0 = time.perf_counter()
            mentions = engine.detect_mentions(text)
            t1 = time.perf_counter()
            out = engine.sanitize(text, mentions).text
            stages["detect"] += t1 - t0
            stages["sanitize"] += time.perf_counter() - t1
            return out
    else:
        raise ValueError(f"unknown system {system!r}")
    if limit == 0:
        one(PRIMER)
        return {"system": system, "primed_seconds": round(time.time() - started, 2)}
    texts = _texts(data, limit)
    one(texts[0])
    first = time.time() - started
    stages.update(detect=0.0, sanitize=0.0)
    t0 = time.perf_counter()
    chars = 0
    for text in texts[1:]:
        one(text)
        chars += len(text)
    wall = time.perf_counter() - t0
    n = len(texts) - 1
    return {"system": system, "first_document_seconds": round(first, 2), "documents": n,
            "documents_per_second": round(n / wall, 2) if wall > 0 else None,
            "ms_per_document": round(1000 * wall / n, 1) if n else None, "mean_chars": round(chars / n) if n else 0,
            **({"ms_per_document_by_stage": {k: round(1000 * v / n, 1) for k, v in stages.items()}}
               if system == "taxogen" and n else {})}


def _child(system: str, data: str, store: str | None, limit: int | None, core: int | None, timeout: float,
           cache: str | None = None) -> dict[str, Any]:
    env = dict(os.environ, **_ONE_THREAD, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    if cache is not None:
        env["TAXOGEN_CACHE_DIR"] = cache
    code = ("import os, sys, time, json; started = time.time()\n"
            f"core = {core!r}\n"
            "if core is not None and hasattr(os, 'sched_setaffinity'): os.sched_setaffinity(0, {core})\n"
            "from taxogen_tools.bench.raw import run_system\n"
            f"print(json.dumps(run_system({system!r}, {data!r}, {store!r}, {limit!r}, started)))\n")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
        return {"system": system, "error": tail[0]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_raw(data: str | Path, *, store: str | None = None, limit: int | None = None, one_core: bool = True,
              timeout: float = 1800.0, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """taxogen and Presidio on the same documents (see the module docstring)."""
    core = None
    if one_core and hasattr(os, "sched_getaffinity"):
        core = min(os.sched_getaffinity(0))
    out: dict[str, Any] = {"data": str(data), "store": store, "core": core, "threads": 1 if one_core else None, "systems": {}}
    cache = tempfile.mkdtemp(prefix="taxogen-bench-raw-")
    try:
        if progress:
            progress("bench raw: priming taxogen's caches in a fresh directory …")
        out["taxogen_priming"] = _child("taxogen", str(data), store, 0, core, timeout, cache)
        for system in ("presidio", "taxogen"):
            if progress:
                progress(f"bench raw: {system} …")
            out["systems"][system] = r = _child(system, str(data), store, limit, core, timeout, cache)
            if progress and "error" not in r:
                progress(f"bench raw: {system}: first document after {r['first_document_seconds']} s, "
                         f"{r['documents_per_second']} documents/s")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    t, p = out["systems"]["taxogen"], out["systems"]["presidio"]
    if "error" not in t and "error" not in p:
        out["ratios"] = {
            "documents_per_second_taxogen_over_presidio": round(t["documents_per_second"] / p["documents_per_second"], 2),
            "first_document_taxogen_over_presidio": round(t["first_document_seconds"] / p["first_document_seconds"], 2),
        }
    return out


def format_raw(report: dict[str, Any]) -> str:
    """The report as lines for the terminal."""
    lines = [f"raw text in, one core ({report['core']}): {report['data']}"]
    for name, r in report["systems"].items():
        if "error" in r:
            lines.append(f"  {name:9s} failed: {r['error']}")
        else:
            lines.append(f"  {name:9s} first sanitized document {r['first_document_seconds']:6.2f} s after process start; "
                         f"{r['documents_per_second']:6.2f} documents/s ({r['ms_per_document']} ms, {r['documents']} documents)")
            if "ms_per_document_by_stage" in r:
                lines.append("            ms a document by stage: " + ", ".join(f"{k} {v}" for k, v in r["ms_per_document_by_stage"].items()))
    if "ratios" in report:
        q = report["ratios"]
        lines.append(f"  taxogen / Presidio: documents/s {q['documents_per_second_taxogen_over_presidio']}× (target ≥ 1), "
                     f"time to first document {q['first_document_taxogen_over_presidio']}× (target ≤ 1)")
    return "\n".join(lines)
