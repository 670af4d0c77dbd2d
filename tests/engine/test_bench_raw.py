"""taxogen bench raw: taxogen beside Presidio on the same raw documents, one run (taxogen_tools.bench.raw)."""

from __future__ import annotations

import pytest

from taxogen_tools.bench.raw import bench_raw, format_raw


@pytest.mark.slow
def test_bench_raw_runs_both_systems_on_one_core_and_prints_the_ratios(wikireplace_path):
    pytest.importorskip("presidio_analyzer")
    report = bench_raw(wikireplace_path, limit=3)
    for name in ("presidio", "taxogen"):
        r = report["systems"][name]
        assert "error" not in r, r
        assert r["documents"] == 2 and r["documents_per_second"] > 0 and r["first_document_seconds"] > 0
    q = report["ratios"]
    t, p = report["systems"]["taxogen"], report["systems"]["presidio"]
    assert q["documents_per_second_taxogen_over_presidio"] == round(t["documents_per_second"] / p["documents_per_second"], 2)
    text = format_raw(report)
    assert "taxogen / Presidio" in text and "documents/s" in text
