"""Spark commands without pyspark or without Java: one line, exit 1, no JVM (fast)."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def _one_line_error(result) -> str:
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def test_given_no_java_then_spark_sanitize_says_what_to_install(tmp_path, monkeypatch) -> None:
    pytest.importorskip("pyspark", reason="the Java check comes after the [spark] extra's")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no java on it
    src = tmp_path / "in.jsonl"
    src.write_text('{"text": "x", "mentions": []}\n')
    line = _one_line_error(runner.invoke(app, ["spark", "sanitize", str(src), str(tmp_path / "out")]))
    assert "Java 17" in line and "openjdk-17-jre-headless" in line


def test_given_java_home_without_java_then_kg_filter_says_so(tmp_path, monkeypatch) -> None:
    pytest.importorskip("pyspark", reason="the Java check comes after the [spark] extra's")
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    line = _one_line_error(runner.invoke(app, ["spark", "kg-filter", str(tmp_path / "dump.nt"), str(tmp_path / "out")]))
    assert "JAVA_HOME has no bin/java" in line


def test_given_no_pyspark_then_spark_commands_name_the_extra(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspark", None)  # import pyspark raises ImportError
    line = _one_line_error(runner.invoke(app, ["spark", "sanitize", str(tmp_path / "in.jsonl"), str(tmp_path / "out")]))
    assert "pip install 'taxogen[spark]'" in line
    line = _one_line_error(runner.invoke(app, ["bench", "spark", "--masters", "local[1]"]))
    assert "taxogen[spark]" in line


def test_given_store_and_archive_then_refused_before_spark_starts(tmp_path) -> None:
    line = _one_line_error(runner.invoke(app, ["spark", "sanitize", "in.jsonl", str(tmp_path / "o"), "--store", str(tmp_path),
                                               "--store-archive", "s.tar.gz"]))
    assert "not both" in line
