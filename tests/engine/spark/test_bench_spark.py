"""``taxogen bench spark`` prints documents/s at local[1] and local[2] (slow: two JVMs)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

pytest.importorskip("pyspark")

from engine.cli import app  # noqa: E402
from engine.spark.session import java_binary  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(java_binary() is None, reason="no Java")]


def test_given_three_documents_then_bench_prints_documents_per_second_at_local_1_and_2(seed_store, wikireplace_path, tmp_path) -> None:
    from pyspark import SparkContext

    docs = json.loads(wikireplace_path.read_text(encoding="utf-8"))[:3]
    data = tmp_path / "three.json"
    data.write_text(json.dumps(docs), encoding="utf-8")

    result = CliRunner().invoke(app, ["bench", "spark", "--data", str(data), "--store", str(seed_store), "--masters", "local[1],local[2]",
                                       "--repeat", "1"])

    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout[result.stdout.index("{"):])
    assert figures["documents"] == figures["distinct_documents"] == 3 and figures["copies"] == 1
    for master, cores in (("local[1]", 1), ("local[2]", 2)):
        r = figures["results"][master]
        assert r["run"]["documents"] == 3 and r["run"]["documents_per_second"] > 0
        assert r["run"]["documents_per_second_per_core"] == pytest.approx(r["run"]["documents_per_second"] / cores, abs=0.01)
        assert r["session_start_seconds"] > 0 and r["engine_load_seconds"] > 0 and r["one_document_run_seconds"] > 0
        assert r["label_table"]["labels"] > 0 and r["run"]["engine_builds_during_run"] == []
        assert r["partitions"] == 2 * cores  # two ranges per core
    assert SparkContext._gateway is None  # each session's JVM was shut down


def test_given_copies_of_fewer_documents_than_a_batch_then_bench_refuses_them(wikireplace_path, tmp_path) -> None:
    docs = json.loads(wikireplace_path.read_text(encoding="utf-8"))[:3]
    data = tmp_path / "three.json"
    data.write_text(json.dumps(docs), encoding="utf-8")

    result = CliRunner().invoke(app, ["bench", "spark", "--data", str(data), "--repeat", "2"])

    assert result.exit_code == 1 and "fewer than a batch" in result.output
