"""``taxogen bench spark``: Spark documents/s at ``local[1]``, ``local[2]`` … on the shared documents.

For each master, in its own session (so its own JVM):

1. ``session_start_seconds``: starting the session (the JVM and the SparkContext);
2. ``engine_load_seconds``: a first job builds the engine in every Python worker (model,
   store, ranker) and sanitizes one document to load them, then empties every cache — the
   fixed cost of each executor; ``jvm_warmup_seconds``: the job run once over one document
   (the JVM loads and compiles the code of each pass on first use: the text reader, the
   shuffle, the output committer — 2–3 s at ``local[N]`` whatever N), then the caches emptied
   again;
3. ``run``: the documents, as JSON lines, through :func:`engine.spark.sanitize.spark_sanitize`
   into a temporary directory, on engines with empty embedding caches (in memory only, no
   disk cache: documents never seen before, as ``bench sanitize``'s headline). Its
   ``documents_per_second`` is wall time including Spark's own passes (reading, the id
   check, sorting, writing); ``worker_cpu_seconds`` is the CPU the Python workers spent
   sanitizing, ``jvm_cpu_seconds`` the JVM's (local mode: driver and executor) — on a
   shared machine, documents per CPU second is the per-core figure.

``ratios``: each master's documents/s over ``local[1]``'s, from the same run
(``"local[2]/local[1]"``: the scaling from one core to two).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from engine.spark.data import document_lines
from engine.spark.sanitize import WorkerSettings, default_partitions, spark_sanitize, worker_engine
from engine.spark.session import spark_session
from engine.spark.store import StoreSpec


def _load_engines(index: int, _: Iterator, settings: WorkerSettings, first_line: str) -> Iterator[tuple[int, int, float, float]]:
    """Build this worker's engine and sanitize one document (model, ranker and store pages
    loaded), then forget every cross-document cache: the run starts from unseen documents."""
    import os as _os
    import resource

    from engine.io.batch import sanitize_batch
    from engine.io.docio import DocRecord, jsonl_record
    from engine.scale import empty_caches

    t0 = time.perf_counter()
    engine, _ = worker_engine(settings)
    rec = jsonl_record(first_line, "warmup.jsonl", 1)
    if isinstance(rec, DocRecord):
        sanitize_batch(engine, [rec], overlap=settings.overlap)
    engine.loaded_embedder.clear_memory()
    empty_caches(engine)
    yield index, _os.getpid(), time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _forget(index: int, _: Iterator, settings: WorkerSettings) -> Iterator[int]:
    """Forget this worker's cross-document caches again (after the JVM's warm-up run)."""
    from engine.scale import empty_caches

    engine, _ = worker_engine(settings)
    engine.loaded_embedder.clear_memory()
    empty_caches(engine)
    yield index


def _jvm_cpu_seconds() -> float:
    """CPU seconds of the JVM pyspark launched (local mode: driver and executors), from /proc."""
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    except (AttributeError, OSError, ValueError, IndexError):
        return 0.0


def cores_of(master: str) -> int | None:
    """N of ``local[N]`` (``None`` for other masters)."""
    if master.startswith("local[") and master.endswith("]") and master[6:-1].isdigit():
        return int(master[6:-1])
    return 1 if master == "local" else None


def bench_spark(data: str | Path | list[str | Path], store: str | Path | None, masters: list[str], *, partitions: int | None = None,
                batch: int = 16) -> dict[str, Any]:
    """The figures of every master (see the module docstring); ``data``: one file or several
    (WikiReplace, or ``.jsonl`` documents), their documents in order."""
    lines = document_lines(data if isinstance(data, list) else [data])
    settings = WorkerSettings(store=StoreSpec(path=str(Path(store).absolute()) if store else None), batch=batch, disk_cache=False)
    out: dict[str, Any] = {"documents": len(lines), "batch": batch, "results": {}}
    with tempfile.TemporaryDirectory(prefix="taxogen-bench-spark-") as tmp:
        src = Path(tmp) / "documents.jsonl"
        src.write_text("\n".join(lines) + "\n", encoding="utf-8")
        for master in masters:
            load0 = os.getloadavg()[0]
            t0 = time.perf_counter()
            with spark_session(master, app="taxogen bench spark") as spark:
                started = time.perf_counter() - t0
                sc = spark.sparkContext
                n = partitions or default_partitions(spark, len(lines))
                t1 = time.perf_counter()
                loads = sc.parallelize(range(n), n).mapPartitionsWithIndex(lambda i, it: _load_engines(i, it, settings, lines[0])).collect()
                loaded = time.perf_counter() - t1
                # the JVM's first pass over each code path (class loading, the text reader's
                # generated code, the output committer) is start-up too: one run over one
                # document, then the workers forget it
                t2 = time.perf_counter()
                warm = Path(tmp) / "warm.jsonl"
                warm.write_text(lines[0] + "\n", encoding="utf-8")
                spark_sanitize(spark, str(warm), str(Path(tmp) / f"warm-{len(out['results'])}"), settings, partitions=n)
                sc.parallelize(range(n), n).mapPartitionsWithIndex(lambda i, it: _forget(i, it, settings)).collect()
                warmed = time.perf_counter() - t2
                jvm0 = _jvm_cpu_seconds()
                result = spark_sanitize(spark, str(src), str(Path(tmp) / f"out-{len(out['results'])}"), settings, partitions=n)
                jvm_cpu = _jvm_cpu_seconds() - jvm0
            cores = cores_of(master)
            dps = len(lines) / result.seconds
            out["results"][master] = {
                "session_start_seconds": round(started, 2),
                "engine_load_seconds": round(loaded, 2),
                "jvm_warmup_seconds": round(warmed, 2),
                "python_workers": len({pid for _, pid, _, _ in loads}),
                "worker_peak_rss_mb": max(round(max(rss for _, _, _, rss in loads)), result.worker_peak_rss_mb),
                "partitions": result.partitions,
                "run": {
                    "documents": result.run.documents, "mentions": result.run.mentions, "bad_records": len(result.run.bad),
                    "seconds": round(result.seconds, 2), "documents_per_second": round(dps, 2),
                    "documents_per_second_per_core": round(dps / cores, 2) if cores else None,
                    "worker_cpu_seconds": round(result.worker_cpu_seconds, 2),
                    "documents_per_worker_cpu_second": round(len(lines) / result.worker_cpu_seconds, 2) if result.worker_cpu_seconds else None,
                    "engine_builds_during_run": result.engine_loads,
                    "jvm_cpu_seconds": round(jvm_cpu, 2),
                    "documents_per_cpu_second_workers_and_jvm": round(len(lines) / (result.worker_cpu_seconds + jvm_cpu), 2)
                    if result.worker_cpu_seconds + jvm_cpu > 0 else None,
                },
                "load_average_1min": [round(load0, 2), round(os.getloadavg()[0], 2)],
            }
    out["ratios"] = scaling_ratios(out["results"])
    return out


def scaling_ratios(results: dict[str, Any]) -> dict[str, float]:
    """Documents/s of every ``local[N]`` over ``local[1]``'s, measured in the same run
    (``"local[2]/local[1]"`` …); empty without a ``local[1]`` result."""
    base = results.get("local[1]", {}).get("run", {}).get("documents_per_second")
    if not base:
        return {}
    return {f"{m}/local[1]": round(r["run"]["documents_per_second"] / base, 2)
            for m, r in results.items() if m != "local[1]" and r.get("run", {}).get("documents_per_second")}
