"""``taxogen spark kg-filter``: the dump filter of ``kg build``, over the dump's splits in parallel.

Each partition of the dump (Spark splits ``.bz2`` and plain files; a ``.gz`` is one split)
is read as raw lines, cut into blocks of whole lines and passed to
:func:`kg.ntfilter.filter_block`, the very function ``kg build`` filters with, so the kept
lines are the same. The output directory holds:

- ``part-00000`` …: the kept N-Triples lines, in dump order;
- ``_sitelinks/part-*``: one Q-number per ``schema:about`` line of the dump (the
  prominence prior of the index), as ``kg build``'s ``sitelinks.i32`` holds them.

Hadoop readers skip ``_``-names, so ``OUT`` reads as plain N-Triples anywhere;
``taxogen kg build --source OUT`` bulk-loads the parts and the sitelinks
(:mod:`kg.parts`). Malformed lines are counted and the first ones reported with their line
number in the dump, as ``kg build`` reports them.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Iterable, Iterator

from kg.dump_reader import BLOCK
from kg.ntfilter import filter_block

SITELINKS_DIR = "_sitelinks"


@dataclass
class FilterReport:
    """Lines read, kept and malformed (first examples: line number, reason, text)."""

    source: str
    out: str
    lines: int = 0
    kept: int = 0
    malformed: int = 0
    sitelinks: int = 0
    parts: int = 0
    seconds: float = 0.0
    examples: list[tuple[str, str, str]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def _blocks(lines: Iterable[bytes], size: int = BLOCK) -> Iterator[bytes]:
    """Whole-line blocks of about ``size`` bytes."""
    chunk: list[bytes] = []
    n = 0
    for line in lines:
        chunk.append(line)
        n += len(line) + 1
        if n >= size:
            yield b"\n".join(chunk) + b"\n"
            chunk, n = [], 0
    if chunk:
        yield b"\n".join(chunk) + b"\n"


def filter_partition(index: int, lines: Iterable[bytes]) -> Iterator[tuple]:
    """``("kept", text)`` per block with kept lines, ``("about", ints)``, and last
    ``("stats", partition, lines, kept, malformed, examples)`` (examples: local line numbers)."""
    n_lines = n_kept = n_bad = 0
    examples: list[tuple[int, str, str]] = []
    for block in _blocks(bytes(line) for line in lines):
        res = filter_block(block)
        for no, reason, text in res.malformed:
            if len(examples) < 20:
                examples.append((n_lines + no, reason, text))
        n_bad += res.n_malformed
        n_lines += res.lines
        n_kept += res.n_kept
        if res.kept:
            yield ("kept", res.kept.decode("utf-8").rstrip("\n"))
        if res.about is not None:
            yield ("about", res.about.tolist())
    yield ("stats", index, n_lines, n_kept, n_bad, examples)


def spark_kg_filter(spark, dump: str, out: str, *, partitions: int | None = None, max_examples: int = 10) -> FilterReport:
    """Filter ``dump`` into ``out`` (see the module docstring); raises :class:`kg.errors.DumpError`
    for a missing dump or an existing output."""
    from pyspark import StorageLevel

    from engine.spark.sanitize import input_files, path_exists
    from kg.errors import DumpError

    try:
        files = input_files(spark, dump)
    except Exception as exc:  # noqa: BLE001 - InputError from the listing
        raise DumpError(str(exc), path=dump) from None
    if len(files) != 1:
        raise DumpError(f"{dump}: expected one dump file, found {len(files)}", path=dump)
    if path_exists(spark, out):
        raise DumpError(f"{out} exists; Spark writes a new directory of parts (remove it or choose another)", path=out)
    t0 = time.perf_counter()
    key = "spark.sql.files.maxPartitionBytes"
    saved = spark.conf.get(key)
    if partitions:  # splits of at most size/partitions bytes (of the compressed file), at least 64 kB
        spark.conf.set(key, str(max(1 << 16, _size(spark, files[0]) // partitions)))
    try:
        df = spark.read.option("lineSep", "\n").text(files[0]).selectExpr("CAST(value AS BINARY) AS value")
        rows = df.rdd.map(lambda r: r.value)  # planned now: the split size is fixed here
    finally:
        spark.conf.set(key, saved)
    results = rows.mapPartitionsWithIndex(filter_partition).persist(StorageLevel.MEMORY_AND_DISK)
    report = FilterReport(source=dump, out=out)
    try:
        stats = sorted(results.filter(lambda e: e[0] == "stats").map(lambda e: e[1:]).collect())
        base = 0
        for _, lines, kept, bad, examples in stats:
            for no, reason, text in examples:
                if len(report.examples) < max_examples:
                    report.examples.append((f"line {base + no}", reason, text[:200]))
            report.lines += lines
            report.kept += kept
            report.malformed += bad
            base += lines
        report.parts = len(stats)
        results.filter(lambda e: e[0] == "kept").map(lambda e: e[1]).saveAsTextFile(out)
        about = results.filter(lambda e: e[0] == "about").flatMap(lambda e: (str(q) for q in e[1]))
        report.sitelinks = about.count()
        about.saveAsTextFile(out.rstrip("/") + "/" + SITELINKS_DIR)
    finally:
        results.unpersist()
    report.seconds = time.perf_counter() - t0
    return report


def _size(spark, path: str) -> int:
    jvm = spark.sparkContext._jvm
    hpath = jvm.org.apache.hadoop.fs.Path(path)
    return int(hpath.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).getFileStatus(hpath).getLen())
