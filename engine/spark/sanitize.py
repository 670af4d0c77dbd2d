"""``taxogen spark sanitize``: JSON lines from any path Spark reads, sanitized by one engine
per Python worker, written as JSON-lines parts; results identical to ``taxogen sanitize``.

The job, in order:

1. List the input files (a file, a directory or a glob; any Hadoop file system: local,
   ``hdfs://``, ``s3a://``) and read each one's lines as raw bytes with their line numbers
   (``spark.read.text`` split on ``\\n`` only, cast to binary, ``zipWithIndex``), once
   (persisted for the passes below): a line is
   parsed by :func:`engine.io.docio.jsonl_record`, the reader of ``taxogen sanitize``, so
   positions (``file:line``), default ids and bad-record reasons are the same; invalid
   UTF-8 reaches the parser as the bytes it is.
2. In one pass, count each file's lines and find repeated document ids per file (a small
   ``reduceByKey`` over ids only): every repeat after the first is a bad record, as in the CLI.
3. Send each line straight to its range of the global (file, line)
   order (``repartitionAndSortWithinPartitions``: no sampling pass), ``partitions`` ranges
   (default: two per core, at least one per 20,000 lines), and sanitize each range with
   :func:`engine.io.batch.sanitize_batch` in batches of ``batch`` documents, on an engine
   built once per Python worker (:func:`worker_engine`).
4. Collect the per-partition counts and bad records to the driver, then write the
   documents' JSON lines, in input order, as ``OUT/part-00000`` … (``saveAsTextFile``).

With one input file, ``cat OUT/part-*`` equals the file ``taxogen sanitize IN --out FILE``
writes, and the driver prints the same report lines (:meth:`engine.io.batch.RunSummary.report`).
Run it with ``taxogen spark sanitize IN OUT --master …``, or on a cluster with
``spark-submit --master spark://… $(python -c 'import engine.spark.submit as m; print(m.__file__)') IN OUT [options]``
(see :mod:`engine.spark.submit`; the master then comes from spark-submit).
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from engine.io.batch import RunSummary, merged_notes, result_line, sanitize_batch
from engine.io.docio import BadRecord, DocRecord, duplicate_reason, jsonl_record
from engine.errors import InputError
from engine.io.contract import OVERLAP_POLICIES
from engine.spark.store import StoreSpec


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """What an executor needs to build its engine (hashable: the key of the worker's cache)."""

    store: StoreSpec = StoreSpec()
    overlap: str = "merge"
    batch: int = 16
    k: int | None = None
    torch_threads: int = 1
    disk_cache: bool = True  # False: a fresh in-memory embedding cache (benchmarks of unseen documents)
    #: True: every batch starts from empty document caches (engine.scale.forget_documents), so
    #: no document reuses another's vectors or ladders (benchmarks of repeated documents)
    forget_documents: bool = False


@dataclass
class SparkRunSummary:
    """The CLI's :class:`RunSummary` plus where it ran and how long it took."""

    run: RunSummary
    files: list[str]
    partitions: int
    seconds: float
    worker_cpu_seconds: float = 0.0
    engine_loads: list[float] = field(default_factory=list)  # seconds each engine build took on a worker
    worker_peak_rss_mb: float = 0.0  # the largest Python worker (engine included)


# --- executors ------------------------------------------------------------------------------
_ENGINES: dict[WorkerSettings, Any] = {}  # one engine per Python worker process and settings


def worker_engine(settings: WorkerSettings) -> tuple[Any, float]:
    """The engine of this Python worker for ``settings`` (built on first use); also the
    seconds its build took now (0.0 when it was already built)."""
    engine = _ENGINES.get(settings)
    if engine is not None:
        return engine, 0.0
    t0 = time.perf_counter()
    import torch

    from engine.engine import Engine

    torch.set_num_threads(settings.torch_threads)  # one task = one core
    overrides: dict[str, Any] = {"endpoint.enabled": False}  # the store is read-only on executors
    if settings.k is not None:
        overrides["privacy.k"] = settings.k
    engine = Engine.from_config(None, store=settings.store.local_path(), **overrides)
    if not settings.disk_cache:
        from engine.select.embeddings import Embedder

        engine.embedder = Embedder(None, model_name=engine.embedding_model)
    _ENGINES[settings] = engine
    return engine, time.perf_counter() - t0


Line = tuple[int, int, str, bytes]  # (file number, line index from 0, file name, raw line)


def _records(lines: Iterable[Line], duplicates: dict[tuple[int, str], tuple[int, str]]) -> Iterator[tuple[tuple[int, int], DocRecord | BadRecord]]:
    for file_no, idx, name, raw in lines:
        rec = jsonl_record(raw, name, idx + 1)
        if rec is None:
            continue
        if isinstance(rec, DocRecord):
            first = duplicates.get((file_no, rec.doc_id))
            if first is not None and first[0] != idx:
                rec = BadRecord(rec.position, duplicate_reason(first[1]))
        yield (file_no, idx), rec


def sanitize_partition(lines: Iterable[Line], settings: WorkerSettings, duplicates: dict) -> Iterator[tuple]:
    """Sanitize one range of lines. Yields, in input order, ``("doc", json_line, position,
    mentions, failed, merged_notes)`` and ``("bad", position, reason)``; last a
    ``("stats", cpu_seconds, engine_load_seconds, peak_rss_mb)`` entry."""
    cpu0 = time.process_time()
    load = [0.0]
    pending: list[DocRecord] = []

    def flush() -> Iterator[tuple]:
        if pending:
            engine, took = worker_engine(settings)
            load[0] += took
            results = sanitize_batch(engine, pending, overlap=settings.overlap)
            if settings.forget_documents:
                from engine.scale import forget_documents

                forget_documents(engine)
            for d, r in zip(pending, results):
                if isinstance(r, BadRecord):
                    yield ("bad", r.position, r.reason)
                    continue
                yield ("doc", result_line(d.doc_id, r), d.position, len(r.replacements), len(r.errors), merged_notes(r))
        pending.clear()

    for _, rec in _records(lines, duplicates):
        if isinstance(rec, BadRecord):
            yield from flush()
            yield ("bad", rec.position, rec.reason)
            continue
        pending.append(rec)
        if len(pending) >= settings.batch:
            yield from flush()
    yield from flush()
    yield ("stats", time.process_time() - cpu0, load[0], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def _summarize(entries: Iterable[tuple]) -> Iterator[tuple]:
    """The small part of a partition's output that goes to the driver (no document text)."""
    for e in entries:
        yield e if e[0] != "doc" else ("doc", None, *e[2:])


def _line_facts(lines: Iterable[Line]) -> Iterator[tuple[tuple, tuple[int, str, int]]]:
    """One pass over a partition: each document id as ``("id", file, id) → (line, position,
    1)`` and, per file, the last line seen as ``("n", file) → (-line, "", 0)`` (so that
    :func:`_first_and_count`, which keeps the smallest, keeps the last line)."""
    last: dict[int, int] = {}
    for line in lines:
        last[line[0]] = max(last.get(line[0], -1), line[1])
        for (file_no, idx), rec in _records([line], {}):
            if isinstance(rec, DocRecord):
                yield ("id", file_no, rec.doc_id), (idx, rec.position, 1)
    yield from ((("n", f), (-i, "", 0)) for f, i in last.items())


def _first_and_count(a: tuple[int, str, int], b: tuple[int, str, int]) -> tuple[int, str, int]:
    first = a if a[0] <= b[0] else b
    return first[0], first[1], a[2] + b[2]


# --- driver ---------------------------------------------------------------------------------
def input_files(spark, path: str) -> list[str]:
    """The files ``path`` names (a file, a directory's files, or a glob), sorted; files whose
    name starts with ``_`` or ``.`` are left out, as Hadoop does. Raises :class:`InputError`."""
    jvm = spark.sparkContext._jvm
    hpath = jvm.org.apache.hadoop.fs.Path(path)
    fs = hpath.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    statuses = fs.globStatus(hpath) or []
    files: list[str] = []
    for st in statuses:
        children = fs.listStatus(st.getPath()) if st.isDirectory() else [st]
        for c in children:
            name = c.getPath().getName()
            if c.isFile() and not name.startswith(("_", ".")):
                files.append(c.getPath().toString())
    if not files:
        raise InputError(f"no such file or directory (or no input file in it): {path}")
    return sorted(files)


def path_exists(spark, path: str) -> bool:
    jvm = spark.sparkContext._jvm
    hpath = jvm.org.apache.hadoop.fs.Path(path)
    return bool(hpath.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).exists(hpath))


def read_lines(spark, files: list[str]):
    """An RDD of :data:`Line` tuples: every line of every file, as raw bytes, numbered per file.

    Read with the DataFrame text source and cast to binary, so that invalid UTF-8 reaches
    the parser as the bytes it is (``SparkContext.textFile`` would decode it)."""
    rdds = []
    for file_no, f in enumerate(files):
        name = f.rstrip("/").rsplit("/", 1)[-1]
        df = spark.read.option("lineSep", "\n").text(f).selectExpr("CAST(value AS BINARY) AS value")
        rdds.append(df.rdd.map(lambda row: bytes(row.value)).zipWithIndex()
                    .map(lambda pair, n=file_no, nm=name: (n, pair[1], nm, pair[0])))
    return rdds[0] if len(rdds) == 1 else spark.sparkContext.union(rdds)


def default_partitions(spark, lines: int) -> int:
    """Two ranges per core (uneven documents even out across the cores; each range is a task,
    and a PySpark task costs about 50 ms however small), and at least one range per
    :data:`LINES_PER_RANGE` lines (a range is sorted in the worker's memory)."""
    return max(1, 2 * spark.sparkContext.defaultParallelism, -(-lines // LINES_PER_RANGE))


#: A range of the input holds at most about this many lines by default.
LINES_PER_RANGE = 20_000


def spark_sanitize(spark, source: str, out: str, settings: WorkerSettings, *, partitions: int | None = None) -> SparkRunSummary:
    """Run the job (see the module docstring); nothing is written when no document is sanitized.

    Raises :class:`InputError` for a missing input or an existing output.
    """
    from pyspark import StorageLevel

    if settings.overlap not in OVERLAP_POLICIES:
        raise InputError(f"unknown --overlap {settings.overlap!r}; expected one of {', '.join(OVERLAP_POLICIES)}")
    if settings.batch < 1:
        raise InputError("--batch must be at least 1")
    sc = spark.sparkContext
    files = input_files(spark, source)
    if path_exists(spark, out):
        raise InputError(f"{out} exists; Spark writes a new directory of parts (remove it or choose another)")
    settings.store.ship(sc)
    t0 = time.perf_counter()
    lines = read_lines(spark, files).persist(StorageLevel.MEMORY_AND_DISK)  # read once, used by both passes
    facts = (lines.mapPartitions(_line_facts).reduceByKey(_first_and_count)
             .filter(lambda kv: kv[0][0] == "n" or kv[1][2] > 1).collect())  # line counts and repeated ids, in one pass
    counts = {key[1]: 1 - v[0] for key, v in facts if key[0] == "n"}
    offsets = {f: sum(counts.get(g, 0) for g in range(f)) for f in range(len(files))}
    total = sum(counts.values())
    duplicates = {(key[1], key[2]): (v[0], v[1]) for key, v in facts if key[0] == "id"}
    dup = sc.broadcast(duplicates)
    n = partitions or default_partitions(spark, total)
    # the lines' global order is known, so each goes to its range directly (no sampling pass)
    ordered = lines.keyBy(lambda line: (line[0], line[1])).repartitionAndSortWithinPartitions(
        n, lambda key: (offsets[key[0]] + key[1]) * n // max(total, 1)).values()
    results = ordered.mapPartitions(lambda it: sanitize_partition(it, settings, dup.value)).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        summary = RunSummary()
        cpu, loads, rss = 0.0, [], 0.0
        for entry in results.mapPartitions(_summarize).collect():  # partitions in order, each in line order
            if entry[0] == "doc":
                _, _, position, mentions, failed, merged = entry
                summary.documents += 1
                summary.mentions += mentions
                summary.failed_spans += failed
                summary.merged += [(position, note) for note in merged]
            elif entry[0] == "bad":
                summary.bad.append((entry[1], entry[2]))
            else:
                cpu += entry[1]
                rss = max(rss, entry[3])
                if entry[2]:
                    loads.append(round(entry[2], 2))
        if summary.documents:
            results.filter(lambda e: e[0] == "doc").map(lambda e: e[1]).saveAsTextFile(out)
    finally:
        results.unpersist()
        lines.unpersist()
        dup.destroy()
    return SparkRunSummary(summary, files, n, time.perf_counter() - t0, cpu, loads, round(rss))
