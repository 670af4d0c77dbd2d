"""``taxogen spark …`` and ``taxogen bench spark``: thin commands over :mod:`engine.spark`."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer

from engine.cli.common import App, DocsOpt, fail, figures_page

spark_app = App(help="Run on Apache Spark (local[N] or a cluster): sanitize archives, filter dumps.", no_args_is_help=True)

MasterOpt = typer.Option(None, "--master", help="local[N] or spark://HOST:PORT (default: spark-submit's, else local[2]).")
PartitionsOpt = typer.Option(None, "--partitions", min=1, help="Ranges the input is split into (default: 2 per core, more for a long input).")


def resolve_master(master: Optional[str]) -> Optional[str]:
    """``master``, or ``None`` under spark-submit (its ``--master`` applies), else ``local[2]``."""
    if master:
        return master
    return None if os.environ.get("PYSPARK_GATEWAY_PORT") else "local[2]"  # spark-submit's PythonRunner sets it


def short_error(exc: BaseException) -> str:
    """One line from a Spark/py4j failure: the Python error an executor raised when there is
    one (``module.Error: message``), else the first line that is not a stack frame."""
    import re

    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    python = [m.group(1) for line in lines if (m := re.match(r"^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception): .+)$", line))
              and not line.startswith(("org.", "java.", "py4j.", "scala."))]
    if python:
        return python[-1][:400]
    for line in lines:
        if not line.startswith(("at ", "Traceback", "File ")) and "An error occurred while calling" not in line:
            return line[:400]
    return type(exc).__name__


@contextmanager
def _errors() -> Iterator[None]:
    """Engine errors as they are; Spark/py4j failures as one line; exit 1."""
    from engine.errors import SanitizerError

    try:
        yield
    except SanitizerError as exc:
        fail(exc)
    except typer.Exit:
        raise
    except Exception as exc:  # noqa: BLE001 - py4j/pyspark errors carry Java stack traces
        if type(exc).__module__.split(".")[0] not in ("py4j", "pyspark"):
            raise
        fail(RuntimeError(f"Spark failed: {short_error(exc)}"))


@spark_app.command("sanitize")
def sanitize_cmd(
    source: str = typer.Argument(..., help="JSON-lines input: a file, directory or glob Spark reads (local, hdfs://, s3a://)."),
    out: str = typer.Argument(..., help="Output directory of JSON-lines parts (must not exist)."),
    master: Optional[str] = MasterOpt,
    store: Optional[str] = typer.Option(None, "--store", help="Store directory present at this path on every node (opened read-only)."),
    store_archive: Optional[str] = typer.Option(None, "--store-archive", help="A .tar.gz of the store directory, shipped to every executor (SparkFiles)."),
    partitions: Optional[int] = PartitionsOpt,
    overlap: str = typer.Option("merge", "--overlap", help="merge or reject overlapping mentions."),
    batch: int = typer.Option(16, "--batch", help="Documents ranked together."),
    k: Optional[int] = typer.Option(None, "--k", min=0, help="Privacy guard: at least K persons of the store fit (privacy.k)."),
) -> None:
    """Sanitize JSON lines on Spark, one engine per executor worker; the same results and
    bad-record report as ``taxogen sanitize``."""
    from engine.spark.sanitize import WorkerSettings, spark_sanitize
    from engine.spark.session import spark_session
    from engine.spark.store import StoreSpec

    with _errors():
        spec = StoreSpec(path=str(Path(store).absolute()) if store and "://" not in store else store, archive=store_archive)
        settings = WorkerSettings(store=spec, overlap=overlap, batch=batch, k=k)
        with spark_session(resolve_master(master), app="taxogen spark sanitize") as spark:
            result = spark_sanitize(spark, source, out, settings, partitions=partitions)
        err_lines, line = result.run.report(source, out)
        for text in err_lines:
            typer.echo(text, err=True)
        typer.echo(line)
        if result.run.documents == 0:
            fail(ValueError(f"no document of {source} was sanitized (every record was bad or left out); no output written for it"))


@spark_app.command("kg-filter")
def kg_filter_cmd(
    dump: str = typer.Argument(..., help="Wikidata N-Triples dump (.nt, .nt.gz, .nt.bz2: bz2 is split across executors)."),
    out: str = typer.Argument(..., help="Output directory of N-Triples parts (must not exist); `taxogen kg build --source OUT` loads it."),
    master: Optional[str] = MasterOpt,
    partitions: Optional[int] = typer.Option(None, "--partitions", min=1, help="Minimum input splits (default: Spark's)."),
    show: int = typer.Option(10, "--show", help="How many malformed lines to print."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Filter a dump in parallel with the filter of ``kg build``: the kept triples as parts,
    the sitelink counts beside them (``OUT/_sitelinks``)."""
    from engine.spark.kgfilter import spark_kg_filter
    from engine.spark.session import spark_session

    with _errors():
        with spark_session(resolve_master(master), app="taxogen spark kg-filter") as spark:
            report = spark_kg_filter(spark, dump, out, partitions=partitions, max_examples=show)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        return
    typer.echo(f"filtered {dump} → {out}: {report.lines:,} lines, {report.kept:,} kept, {report.malformed} malformed, "
               f"{report.sitelinks:,} sitelinks, {report.parts} parts, {report.seconds:.1f} s")
    for where, reason, text in report.examples:
        typer.echo(f"  {where}: {reason}: {text[:100]!r}", err=True)
    if report.malformed > len(report.examples):
        typer.echo(f"  … and {report.malformed - len(report.examples)} more malformed lines", err=True)


def bench_spark_cmd(
    data: list[Path] = typer.Option([Path("../shared/data/wikireplace/wikireplace_dev.json")], "--data",
                                    help="File whose documents are sanitized: WikiReplace, or .jsonl documents (repeatable: their documents in order)."),
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: the starter graph)."),
    masters: str = typer.Option("local[1],local[2]", "--masters", help="Comma-separated masters to measure, one session each."),
    partitions: Optional[int] = PartitionsOpt,
    batch: int = typer.Option(16, "--batch"),
    repeat: Optional[int] = typer.Option(None, "--repeat", min=1, help="Each document this many times, copies with their own ids "
                                         "(default: enough for 1,500 documents; 20 of the shared 75). Every batch forgets the "
                                         "vectors, links and ladders of the ones before; the label table stays."),
    docs: Optional[Path] = DocsOpt,
) -> None:
    """Spark documents/s at each master on documents never seen before (or copies whose
    predecessors were forgotten), with the session (JVM) start-up and the engine load on
    the workers measured separately; the ratio of each master to local[1]."""
    from taxogen_tools.bench.spark import bench_spark
    from engine.spark.session import require_spark

    with figures_page(docs, "bench-spark", "Sanitizing on Spark (bench spark)"), _errors():
        require_spark()
        for path in data:
            if not path.is_file():
                fail(ValueError(f"no such file: {path}"))
        if store is not None and not store.is_dir():
            fail(ValueError(f"no such store directory: {store}"))
        try:
            report = bench_spark(data, store, [m.strip() for m in masters.split(",") if m.strip()],
                                 partitions=partitions, batch=batch, repeat=repeat)
        except ValueError as exc:
            fail(exc)
            return
        typer.echo(json.dumps(report, indent=2))
