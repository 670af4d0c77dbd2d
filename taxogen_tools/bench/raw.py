"""``taxogen bench raw``: raw text in, sanitized text out — taxogen beside Presidio, on one core, in one run.

Every measurement runs in its own fresh Python process pinned to one core
(``sched_setaffinity`` to the first allowed CPU, ``OMP_NUM_THREADS=1`` and friends), over the
same documents — the biographies (the shared WikiReplace texts) and the court judgments (the
shared TAB texts), each taken as raw text:

- **Presidio**, the two ways its users run it: ``AnalyzerEngine.analyze`` then
  ``AnonymizerEngine.anonymize`` per document (on the same installed spaCy model:
  :func:`engine.integrations.presidio.offline_analyzer`; the anonymizer's default operator,
  replace by ``<ENTITY_TYPE>``), and ``BatchAnalyzerEngine.analyze_iterator`` over the
  documents in batches, each result anonymized. The better of the two is the baseline.
- **taxogen**: ``Engine.from_config(store=…)``, then the documents in batches of
  :data:`BATCH` through ``Engine.sanitize_many`` with no mentions — detected, then
  generalized: what ``taxogen sanitize`` does with a directory of texts. The pipeline
  times each of its stages (:attr:`engine.pipeline.Pipeline.timings`).

Per process: the seconds from process start to the first sanitized document (imports,
models, stores — everything a user waits for; wall and CPU), then the documents per second
over every document after the first (wall, and per CPU second: on a shared machine the CPU
figure is the steadier one) and the peak resident memory. taxogen's first document is taken
twice: right after the store was built, with a fresh cache directory (nothing of taxogen's
in ``$TAXOGEN_CACHE_DIR``: the user's very first ``taxogen sanitize``), and with caches primed
by one run over a sentence that is not among the documents (a user's second run) — so no
document's embeddings are cached before it is measured either way. Without ``--store`` the
starter graph is built into the fresh cache directory first (``taxogen kg starter``; not
timed). The load average is printed at the start and the end: repeat a run whose load was high.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from taxogen_tools.bench import one_thread_env

#: documents per batch, taxogen's (``taxogen sanitize --batch``) and Presidio's batch analyzer
BATCH = 16
#: the text a priming run sanitizes (not one of the measured documents)
PRIMER = "Ingrid Solberg is a Norwegian geologist who lives in Oslo."
#: the systems measured per corpus, in order
SYSTEMS = ("presidio", "presidio-batch", "taxogen")


def corpus_texts(path: str | Path, limit: int | None = None) -> list[str]:
    """The texts of a WikiReplace or TAB file (a JSON list of records with ``text``), in order."""
    records = json.loads(Path(path).read_text(encoding="utf-8"))
    texts = [r["text"] for r in records]
    return texts[:limit] if limit else texts


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def run_system(system: str, data: str, store: str | None, limit: int | None, started: float) -> dict[str, Any]:
    """Run one system in this process (called in the child): start-up and the first document,
    then every other document (``limit`` 0: only :data:`PRIMER`; 1: only the first document)."""
    texts = [PRIMER] if limit == 0 else corpus_texts(data, limit)
    if system in ("presidio", "presidio-batch"):
        from presidio_anonymizer import AnonymizerEngine

        from engine.integrations.presidio import offline_analyzer

        analyzer, anonymizer = offline_analyzer(), AnonymizerEngine()

        def one(text: str) -> str:
            return anonymizer.anonymize(text, analyzer.analyze(text, language="en")).text

        def rest(batch: list[str]) -> None:
            if system == "presidio":
                for text in batch:
                    one(text)
                return
            from presidio_analyzer import BatchAnalyzerEngine

            results = BatchAnalyzerEngine(analyzer_engine=analyzer).analyze_iterator(batch, language="en", batch_size=BATCH)
            for text, found in zip(batch, results):
                anonymizer.anonymize(text, found)
    elif system == "taxogen":
        from engine import Engine

        engine = Engine.from_config(store=store) if store else Engine.from_config()

        def one(text: str) -> str:
            return engine.sanitize(text).text

        def rest(batch: list[str]) -> None:
            for i in range(0, len(batch), BATCH):
                engine.sanitize_many([(text, None) for text in batch[i : i + BATCH]])
    else:
        raise ValueError(f"unknown system {system!r}; systems: {', '.join(SYSTEMS)}")
    one(texts[0])
    out: dict[str, Any] = {"system": system, "first_document_seconds": round(time.time() - started, 2),
                           "first_document_cpu_seconds": round(_cpu(), 2)}
    if len(texts) < 2:
        return dict(out, peak_rss_mb=_peak_rss_mb())
    if system == "taxogen":
        engine.pipeline.reset_timings()
    wall, cpu = time.perf_counter(), time.process_time()
    rest(texts[1:])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(texts) - 1
    out.update(documents=n, mean_chars=round(sum(map(len, texts[1:])) / n), documents_per_second=round(n / wall, 2),
               documents_per_cpu_second=round(n / cpu, 2), ms_per_document=round(1000 * wall / n, 1),
               cpu_ms_per_document=round(1000 * cpu / n, 1), peak_rss_mb=_peak_rss_mb())
    if system == "taxogen":
        out["cpu_ms_per_document_by_stage"] = {k: round(1000 * v / n, 1) for k, v in engine.pipeline.timings["cpu"].items()}
    return out


def _child(system: str, data: str, store: str | None, limit: int | None, core: int | None, timeout: float,
           cache: str | None = None) -> dict[str, Any]:
    env = one_thread_env()
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


def _build_starter(cache: str, timeout: float) -> None:
    """The starter graph built into ``cache`` (``taxogen kg starter``), as a user's ``kg build``."""
    env = dict(os.environ, TAXOGEN_CACHE_DIR=cache)
    subprocess.run([sys.executable, "-m", "engine.cli", "kg", "starter"], env=env, capture_output=True, timeout=timeout, check=True)


def _load() -> float:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else float("nan")


def bench_raw(corpora: dict[str, str | Path], *, store: str | None = None, limit: int | None = None, one_core: bool = True,
              timeout: float = 3600.0, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """taxogen and Presidio on the same documents of each corpus (name → file; see the module docstring)."""
    say = progress or (lambda _: None)
    core = None
    if one_core and hasattr(os, "sched_getaffinity"):
        core = min(os.sched_getaffinity(0))
    out: dict[str, Any] = {"store": store, "core": core, "threads": 1 if one_core else None, "load_at_start": _load(),
                           "corpora": {}, "first_document": {}}
    cold, primed = tempfile.mkdtemp(prefix="taxogen-bench-cold-"), tempfile.mkdtemp(prefix="taxogen-bench-primed-")
    first_corpus = str(next(iter(corpora.values())))
    try:
        if store is None:
            say("bench raw: building the starter graph into the fresh cache directories (not timed) …")
            _build_starter(cold, timeout)
            _build_starter(primed, timeout)
        say("bench raw: taxogen's first document after the store's build, fresh cache directory …")
        out["first_document"]["taxogen_fresh_cache"] = _child("taxogen", first_corpus, store, 1, core, timeout, cold)
        say("bench raw: priming taxogen's caches …")
        out["taxogen_priming"] = _child("taxogen", first_corpus, store, 0, core, timeout, primed)
        for name, path in corpora.items():
            runs = out["corpora"][name] = {"data": str(path)}
            for system in SYSTEMS:
                say(f"bench raw: {name}: {system} …")
                runs[system] = r = _child(system, str(path), store, limit, core, timeout, primed if system == "taxogen" else None)
                if "error" not in r:
                    say(f"bench raw: {name}: {system}: {r.get('documents_per_second')} documents/s, "
                        f"{r.get('documents_per_cpu_second')} per CPU second")
            runs["ratios"] = _ratios(runs)
        bio = next(iter(out["corpora"].values()))
        out["first_document"]["taxogen_primed"] = {k: bio["taxogen"].get(k) for k in ("first_document_seconds", "first_document_cpu_seconds")}
        out["first_document"]["presidio"] = {k: bio["presidio"].get(k) for k in ("first_document_seconds", "first_document_cpu_seconds")}
    finally:
        shutil.rmtree(cold, ignore_errors=True)
        shutil.rmtree(primed, ignore_errors=True)
    out["load_at_end"] = _load()
    f = out["first_document"]
    if all(f.get(k, {}).get("first_document_seconds") for k in ("taxogen_fresh_cache", "presidio")):
        out["first_document"]["ratios"] = {
            key: round(f[key]["first_document_seconds"] / f["presidio"]["first_document_seconds"], 2)
            for key in ("taxogen_fresh_cache", "taxogen_primed") if f.get(key, {}).get("first_document_seconds")}
        out["first_document"]["cpu_ratios"] = {
            key: round(f[key]["first_document_cpu_seconds"] / f["presidio"]["first_document_cpu_seconds"], 2)
            for key in ("taxogen_fresh_cache", "taxogen_primed") if f.get(key, {}).get("first_document_cpu_seconds")}
    return out


def _ratios(runs: dict[str, Any]) -> dict[str, Any]:
    """taxogen's documents per second over the better Presidio mode's, wall and per CPU second."""
    t = runs.get("taxogen", {})
    presidio = [runs[s] for s in ("presidio", "presidio-batch") if "error" not in runs.get(s, {"error": 1})]
    if "error" in t or not presidio:
        return {}
    best = max(presidio, key=lambda r: r["documents_per_second"])
    best_cpu = max(presidio, key=lambda r: r["documents_per_cpu_second"])
    return {"baseline": best["system"], "documents_per_second": round(t["documents_per_second"] / best["documents_per_second"], 2),
            "baseline_cpu": best_cpu["system"],
            "documents_per_cpu_second": round(t["documents_per_cpu_second"] / best_cpu["documents_per_cpu_second"], 2)}


def format_raw(report: dict[str, Any]) -> str:
    """The report as lines for the terminal."""
    lines = [f"raw text in, one core ({report['core']}), one thread; load average {report['load_at_start']} at the start, "
             f"{report.get('load_at_end')} at the end (2 cores shared: repeat a run whose load was high)"]
    for name, runs in report["corpora"].items():
        first = next((r for r in runs.values() if isinstance(r, dict) and "documents" in r), {})
        lines.append(f"{name}: {runs['data']} ({first.get('documents', '?')} documents after the first, "
                     f"{first.get('mean_chars', '?')} characters on average)")
        lines.append(f"  {'':15s} {'docs/s':>8s} {'docs/CPU s':>10s} {'ms/doc':>8s} {'CPU ms/doc':>10s} {'peak RSS':>9s}")
        for system in SYSTEMS:
            r = runs.get(system, {})
            if "error" in r:
                lines.append(f"  {system:15s} failed: {r['error']}")
                continue
            lines.append(f"  {system:15s} {r['documents_per_second']:8.2f} {r['documents_per_cpu_second']:10.2f} "
                         f"{r['ms_per_document']:8.1f} {r['cpu_ms_per_document']:10.1f} {r['peak_rss_mb']:6.0f} MB")
        stages = runs.get("taxogen", {}).get("cpu_ms_per_document_by_stage")
        if stages:
            lines.append("  taxogen CPU ms a document by stage: " + ", ".join(f"{k} {v}" for k, v in stages.items()))
        q = runs.get("ratios")
        if q:
            lines.append(f"  taxogen / Presidio ({q['baseline']}): documents/s {q['documents_per_second']}×; "
                         f"per CPU second ({q['baseline_cpu']}) {q['documents_per_cpu_second']}× (target ≥ 1)")
    f = report["first_document"]
    if f:
        def show(key: str) -> str:
            r = f.get(key) or {}
            if "error" in r:
                return f"failed: {r['error']}"
            return f"{r.get('first_document_seconds')} s (CPU {r.get('first_document_cpu_seconds')} s)"

        lines.append("first sanitized document, seconds from process start:")
        lines.append(f"  taxogen, first run after the store's build (fresh cache directory)  {show('taxogen_fresh_cache')}")
        lines.append(f"  taxogen, caches primed                                              {show('taxogen_primed')}")
        lines.append(f"  Presidio                                                            {show('presidio')}")
        if f.get("ratios"):
            lines.append(f"  taxogen / Presidio: fresh cache {f['ratios'].get('taxogen_fresh_cache')}× (CPU "
                         f"{f['cpu_ratios'].get('taxogen_fresh_cache')}×), primed {f['ratios'].get('taxogen_primed')}× "
                         f"(CPU {f['cpu_ratios'].get('taxogen_primed')}×) (target ≤ 1)")
    return "\n".join(lines)
