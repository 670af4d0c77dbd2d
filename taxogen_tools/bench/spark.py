"""``taxogen bench spark``: Spark documents/s at ``local[1]``, ``local[2]`` … on the same documents.

The input: every document of ``--data`` (WikiReplace files or ``.jsonl`` documents), each
``repeat`` times (:func:`engine.spark.data.repeated_lines`: the whole input after itself,
copies with their own ids; by default enough copies for 1,500 documents). A run has fixed
costs whatever its size — Spark's passes over the input (reading, the id check, the sort,
writing the parts) and task start-up, ``one_document_run_seconds`` below, about 1.5 s here —
so 75 documents show more of them than of the scaling an archive gets.

For each master, in its own session (so its own JVM):

1. ``session_start_seconds``: starting the session (the JVM and the SparkContext);
2. ``engine_load_seconds``: a first job builds the engine in every Python worker (model,
   store, ranker) — the fixed cost of each executor — and fills its label table: each
   worker sanitizes the distinct documents once, forgetting each batch's vectors, links
   and ladders after it (``label_table``: its size and the seconds the fill took). The run
   then sees a long run's label table in every worker (without a disk cache each worker
   would embed the same labels again, work a long run does once);
3. ``jvm_warmup_seconds``: the job run once over one document (the JVM loads and compiles
   the code of each pass on first use: the text reader, the shuffle, the output committer
   — 2–3 s at ``local[N]`` whatever N); ``one_document_run_seconds``: the same job over
   that document once more — the fixed cost of every run;
4. ``run``: the documents, as JSON lines, through :func:`engine.spark.sanitize.spark_sanitize`
   into a temporary directory, on engines with empty embedding caches (in memory only, no
   disk cache) that forget every batch's vectors, links and ladders after it
   (``WorkerSettings.forget_documents``): no document, and no copy, reuses another's; the
   label table and the store's lookup caches stay (a copy costs about a tenth less than
   an unseen document for them). Its ``documents_per_second`` is wall time including
   Spark's own passes; ``worker_cpu_seconds`` is the CPU the Python workers spent
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

from engine.spark.data import document_lines, repeated_lines
from engine.spark.sanitize import WorkerSettings, default_partitions, spark_sanitize, worker_engine
from engine.spark.session import spark_session
from engine.spark.store import StoreSpec


#: the settings whose label table this Python worker has filled (one fill per worker)
_FILLED: set[WorkerSettings] = set()


def _load_engines(index: int, _: Iterator, settings: WorkerSettings, lines: list[str]) -> Iterator[tuple[int, int, float, float, int, float]]:
    """Build this worker's engine (model, ranker, store) and, once per worker, sanitize the
    input's distinct ``lines`` batch by batch, forgetting each batch's vectors, links and
    ladders after it: what stays is the label table of those documents, as a long run's
    would be. Yields (partition, pid, engine seconds, label-table seconds, labels, peak RSS MB)."""
    import os as _os
    import resource

    from engine.io.batch import sanitize_batch
    from engine.io.docio import DocRecord, jsonl_record
    from engine.scale import forget_documents

    t0 = time.perf_counter()
    engine, _ = worker_engine(settings)
    built, filled = time.perf_counter() - t0, 0.0
    if settings not in _FILLED:
        t1 = time.perf_counter()
        records = [r for i, line in enumerate(lines) if isinstance(r := jsonl_record(line, "labels.jsonl", i + 1), DocRecord)]
        for b in range(0, len(records), settings.batch):
            sanitize_batch(engine, records[b : b + settings.batch], overlap=settings.overlap)
            forget_documents(engine)
        _FILLED.add(settings)
        filled = time.perf_counter() - t1
    forget_documents(engine)
    labels = len(engine.loaded_embedder.labels) if engine.loaded_embedder is not None else 0
    yield index, _os.getpid(), built, filled, labels, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _forget(index: int, _: Iterator, settings: WorkerSettings) -> Iterator[int]:
    """Forget this worker's cross-document caches again (after the JVM's warm-up run)."""
    from engine.scale import forget_documents

    engine, _ = worker_engine(settings)
    forget_documents(engine)
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
                batch: int = 16, repeat: int | None = None) -> dict[str, Any]:
    """The figures of every master (see the module docstring); ``data``: one file or several
    (WikiReplace, or ``.jsonl`` documents), their documents in order, ``repeat`` times
    (``None``: :func:`default_copies`). Raises ``ValueError`` for copies of fewer documents
    than a batch."""
    distinct = document_lines(data if isinstance(data, list) else [data])
    repeat = default_copies(len(distinct), batch) if repeat is None else repeat
    lines = repeated_lines(distinct, repeat, batch=batch)
    settings = WorkerSettings(store=StoreSpec(path=str(Path(store).absolute()) if store else None), batch=batch, disk_cache=False,
                              forget_documents=True)
    out: dict[str, Any] = {"documents": len(lines), "distinct_documents": len(distinct), "copies": repeat, "batch": batch,
                           "results": {}}
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
                loads = sc.parallelize(range(n), n).mapPartitionsWithIndex(lambda i, it: _load_engines(i, it, settings, distinct)).collect()
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
                # a run's fixed cost, whatever its size: the same job over that one document again
                one = spark_sanitize(spark, str(warm), str(Path(tmp) / f"one-{len(out['results'])}"), settings, partitions=n)
                sc.parallelize(range(n), n).mapPartitionsWithIndex(lambda i, it: _forget(i, it, settings)).collect()
                jvm0 = _jvm_cpu_seconds()
                result = spark_sanitize(spark, str(src), str(Path(tmp) / f"out-{len(out['results'])}"), settings, partitions=n)
                jvm_cpu = _jvm_cpu_seconds() - jvm0
            cores = cores_of(master)
            dps = len(lines) / result.seconds
            out["results"][master] = {
                "session_start_seconds": round(started, 2),
                "engine_load_seconds": round(loaded, 2),
                "jvm_warmup_seconds": round(warmed, 2),
                "one_document_run_seconds": round(one.seconds, 2),
                "label_table": {"labels": max(row[4] for row in loads), "fill_seconds": round(max(row[3] for row in loads), 2)},
                "python_workers": len({row[1] for row in loads}),
                "worker_peak_rss_mb": max(round(max(row[5] for row in loads)), result.worker_peak_rss_mb),
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


#: documents a run has at least by default (copies of fewer): Spark's fixed passes (about 1.5 s
#: a run here, ``one_document_run_seconds``) and the tail of the last tasks are then about a
#: fifteenth of a local[1] run
DEFAULT_RUN_DOCUMENTS = 1500


def default_copies(distinct: int, batch: int = 16) -> int:
    """Copies of ``distinct`` documents that make :data:`DEFAULT_RUN_DOCUMENTS` at least (20 of
    the shared 75); 1 for as many documents or more, or for fewer than a batch."""
    if distinct < batch:
        return 1
    return max(1, -(-DEFAULT_RUN_DOCUMENTS // distinct))


def scaling_ratios(results: dict[str, Any]) -> dict[str, float]:
    """Documents/s of every ``local[N]`` over ``local[1]``'s, measured in the same run
    (``"local[2]/local[1]"`` …); empty without a ``local[1]`` result."""
    base = results.get("local[1]", {}).get("run", {}).get("documents_per_second")
    if not base:
        return {}
    return {f"{m}/local[1]": round(r["run"]["documents_per_second"] / base, 2)
            for m, r in results.items() if m != "local[1]" and r.get("run", {}).get("documents_per_second")}
