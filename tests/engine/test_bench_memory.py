"""taxogen bench memory: many raw documents from the corpora's texts, one sanitize run measured."""

import json

import pytest

from taxogen_tools.bench.memory import bench_memory, format_memory, write_documents


def _corpus(tmp_path):
    path = tmp_path / "bios.json"
    path.write_text(json.dumps([{"doc_id": "a", "text": "Ada Lovelace was born in London.", "annotations": {}},
                                {"doc_id": "b", "text": "Alan Turing studied in Cambridge.", "annotations": {}}]), encoding="utf-8")
    return path


def test_given_two_texts_and_five_documents_then_texts_cycle_with_own_ids_and_counters(tmp_path):
    target = tmp_path / "docs.jsonl"
    assert write_documents([_corpus(tmp_path)], 5, target) == 5
    rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [f"doc-{i}" for i in range(5)]
    assert rows[2]["text"].startswith("Ada Lovelace") and rows[2]["text"].endswith("(copy 2)")
    assert all("mentions" not in r for r in rows)  # raw text: spans detected


def test_given_report_then_three_lines_with_the_peak_and_the_tenths():
    report = {"documents": 10000, "seconds": 600.0, "documents_per_second": 16.67, "cpu_seconds": 590.0, "peak_rss_mb": 700.5,
              "rss_mb_at_each_tenth": [500.0, 600.0, None, 650, 650, 650, 651, 652, 652, 653]}
    lines = format_memory(report).splitlines()
    assert len(lines) == 3 and "10,000 raw documents" in lines[0] and "700.5 MB" in lines[1] and " - " in lines[2]


@pytest.mark.slow
def test_given_three_documents_then_the_run_reports_its_peak(tmp_path):
    report = bench_memory([_corpus(tmp_path)], 3, one_core=False)
    assert report["documents"] == 3 and report["peak_rss_mb"] > 50
