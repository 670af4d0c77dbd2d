"""Spark in local mode (slow: starts Java): the same output and bad records as ``taxogen
sanitize``, the same kept triples as ``kg build``'s filter, and no JVM left behind.

``TAXOGEN_SPARK_TEST_DOCS`` sets how many of the 75 shared documents are compared (default 8,
to keep CI short; ``TAXOGEN_SPARK_TEST_DOCS=75`` compares them all).
"""

from __future__ import annotations

import bz2
import gzip
import json
import os
import tarfile
from pathlib import Path

import pytest

pytest.importorskip("pyspark")

from engine.io.batch import run_sanitize  # noqa: E402
from engine.io.docio import position_order  # noqa: E402
from engine.engine import Engine  # noqa: E402
from engine.spark.data import wikireplace_jsonl  # noqa: E402
from engine.spark.kgfilter import spark_kg_filter  # noqa: E402
from engine.spark.sanitize import WorkerSettings, spark_sanitize  # noqa: E402
from engine.spark.session import java_binary, spark_session  # noqa: E402
from engine.spark.store import StoreSpec  # noqa: E402
from kg.dumps import DumpReport  # noqa: E402
from kg.parallel import parallel_filter  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(java_binary() is None, reason="no Java (apt-get install openjdk-17-jre-headless)")]

N_DOCS = int(os.environ.get("TAXOGEN_SPARK_TEST_DOCS", "8"))


@pytest.fixture(scope="module")
def spark():
    from pyspark import SparkContext

    with spark_session("local[2]", app="taxogen tests") as session:
        proc = SparkContext._gateway.proc
        yield session
    assert proc.poll() is not None, "the JVM outlived the Spark session"
    assert SparkContext._gateway is None


def _parts(out: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(out.glob("part-*")))


def _mixed_input(wikireplace_path: Path, path: Path) -> Path:
    """Shared documents with bad records among them: broken JSON, a blank line, a repeated
    id, offsets outside the text, overlapping mentions (bad only under --overlap reject)."""
    docs = list(wikireplace_jsonl(wikireplace_path))[:N_DOCS]
    bad = [
        '{"text": broken',
        "",
        docs[1],
        json.dumps({"id": "out-of-range", "text": "abc", "mentions": [{"start": 0, "end": 9, "entity_type": "PERSON"}]}),
        json.dumps({"text": "Anna Berg lives in Oslo.", "mentions": [{"start": 0, "end": 9, "entity_type": "PERSON"},
                                                                     {"start": 5, "end": 9, "entity_type": "PERSON"}]}),
    ]
    lines = [line.encode("utf-8") for line in docs[:3] + bad + docs[3:]]
    lines.insert(8, b'{"text": "\xff\xfe not UTF-8", "mentions": []}')
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_given_shared_documents_and_bad_records_then_spark_output_and_report_equal_the_cli(spark, seed_store, wikireplace_path, tmp_path) -> None:
    src = _mixed_input(wikireplace_path, tmp_path / "docs.jsonl")
    cli_out = tmp_path / "cli.jsonl"
    engine = Engine.from_config(None, store=str(seed_store))
    expected = run_sanitize(engine, src, cli_out, overlap="reject", progress=False)

    out = tmp_path / "spark-out"
    got = spark_sanitize(spark, str(src), str(out), WorkerSettings(store=StoreSpec(path=str(seed_store)), overlap="reject"), partitions=3)

    injected = [f"docs.jsonl:{n}" for n in (4, 6, 7, 8, 9)]
    assert injected == [pos for pos, _ in expected.bad][:5]  # (a shared document with overlaps is bad too under reject)
    assert expected.documents == N_DOCS - (len(expected.bad) - 5) > 0
    assert _parts(out) == cli_out.read_text(encoding="utf-8")  # same JSON per document, same order
    assert got.run.report(src, cli_out) == expected.report(src, cli_out)  # same bad records (in line order), notes, counts
    assert [pos for pos, _ in got.run.bad] == sorted((pos for pos, _ in got.run.bad), key=position_order)


def test_given_store_archive_then_executors_open_it_from_sparkfiles(spark, seed_store, wikireplace_path, tmp_path) -> None:
    src = tmp_path / "two.jsonl"
    src.write_text("\n".join(list(wikireplace_jsonl(wikireplace_path))[:2]) + "\n", encoding="utf-8")
    archive = tmp_path / "store.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(seed_store, arcname="store")
    engine = Engine.from_config(None, store=str(seed_store))
    run_sanitize(engine, src, tmp_path / "cli.jsonl", progress=False)

    out = tmp_path / "spark-out"
    got = spark_sanitize(spark, str(src), str(out), WorkerSettings(store=StoreSpec(archive=str(archive))), partitions=1)

    assert got.run.documents == 2
    assert _parts(out) == (tmp_path / "cli.jsonl").read_text(encoding="utf-8")


def test_given_existing_output_then_one_line_error_and_nothing_written(spark, tmp_path) -> None:
    from engine.errors import InputError

    src = tmp_path / "in.jsonl"
    src.write_text('{"text": "x", "mentions": []}\n')
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="exists"):
        spark_sanitize(spark, str(src), str(tmp_path / "out"), WorkerSettings())
    with pytest.raises(InputError, match="no such file"):
        spark_sanitize(spark, str(tmp_path / "missing.jsonl"), str(tmp_path / "out2"), WorkerSettings())


def test_given_seed_dump_then_kg_filter_keeps_what_kg_build_keeps(spark, seed_path, tmp_path) -> None:
    expected_file, report = tmp_path / "filtered.nt", DumpReport(path=str(seed_path))
    parallel_filter(seed_path, expected_file, report)  # the filter of kg build

    got = spark_kg_filter(spark, str(seed_path), str(tmp_path / "parts"))

    lines = _parts(tmp_path / "parts").splitlines()
    assert lines == expected_file.read_text(encoding="utf-8").splitlines()  # same lines, same order
    assert (got.lines, got.kept, got.malformed) == (report.lines, report.kept, report.malformed)


def test_given_split_bz2_dump_with_sitelinks_and_bad_lines_then_parts_build_the_same_store(spark, seed_path, tmp_path, monkeypatch) -> None:
    from kg.build import build_from_dump

    with gzip.open(seed_path, "rt", encoding="utf-8") as fh:
        head = [next(fh) for _ in range(30_000)]
    about = [f"<https://en.wikipedia.org/wiki/X{i}> <http://schema.org/about> <http://www.wikidata.org/entity/Q{5 + i % 7}> .\n" for i in range(500)]
    junk = ["this is not a triple\n", "<http://a> <http://b> .\n"]
    body = head[:12_000] + about[:250] + junk[:1] + head[12_000:] + about[250:] + junk[1:]
    dump = tmp_path / "dump.nt.bz2"
    dump.write_bytes(bz2.compress("".join(body).encode("utf-8"), compresslevel=1))  # 100 kB blocks: splittable

    got = spark_kg_filter(spark, str(dump), str(tmp_path / "parts"), partitions=4)
    expected_file, report = tmp_path / "filtered.nt", DumpReport(path=str(dump))
    # Spark checks every line, as kg build does without its grep prefilter (which lets a
    # malformed line naming no kept property go unreported): compare with that path
    monkeypatch.setenv("TAXOGEN_NO_PREFILTER", "1")
    parallel_filter(dump, expected_file, report, sitelinks=tmp_path / "sl.i32")

    assert got.parts >= 2  # really split
    assert _parts(tmp_path / "parts").splitlines() == expected_file.read_text(encoding="utf-8").splitlines()
    assert (got.lines, got.kept, got.malformed, got.sitelinks) == (report.lines, report.kept, report.malformed, 500)
    assert [where for where, _, _ in got.examples] == [f"line {no}" for no, _, _ in report.examples]

    from_parts = build_from_dump(tmp_path / "parts", tmp_path / "store-parts", progress=False)
    from_dump = build_from_dump(dump, tmp_path / "store-dump", progress=False)
    assert from_parts.triples == from_dump.triples and from_parts.kept == from_dump.kept
    same = lambda index: {k: v for k, v in index.items() if not k.endswith("seconds")}
    assert same(from_parts.index) == same(from_dump.index)
    assert from_dump.index["prominence"] == "sitelinks"
    for name in ("prominence_qid.npy", "prominence.npy"):  # the prior from the same sitelinks
        assert (tmp_path / "store-parts" / "index" / name).read_bytes() == (tmp_path / "store-dump" / "index" / name).read_bytes()
