"""taxogen bench raw: taxogen beside Presidio on the same raw documents, one run (taxogen_tools.bench.raw)."""

from __future__ import annotations

import pytest

from taxogen_tools.bench.raw import SYSTEMS, bench_raw, corpus_texts, format_raw


def test_given_a_wikireplace_file_then_its_texts_are_the_raw_documents(wikireplace_path):
    texts = corpus_texts(wikireplace_path, 3)
    assert len(texts) == 3 and all(isinstance(t, str) and t for t in texts)


@pytest.mark.slow
def test_given_two_corpora_then_every_system_runs_on_one_core_and_the_ratios_take_the_better_presidio(wikireplace_path, seed_store):
    pytest.importorskip("presidio_analyzer")
    report = bench_raw({"biographies": wikireplace_path, "again": wikireplace_path}, store=str(seed_store), limit=3)
    for runs in report["corpora"].values():
        for name in SYSTEMS:
            r = runs[name]
            assert "error" not in r, r
            assert r["documents"] == 2 and r["documents_per_second"] > 0 and r["peak_rss_mb"] > 0
        assert set(runs["taxogen"]["cpu_ms_per_document_by_stage"]) >= {"detect", "rank", "render"}
        q = runs["ratios"]
        best = max(runs["presidio"]["documents_per_second"], runs["presidio-batch"]["documents_per_second"])
        assert q["documents_per_second"] == round(runs["taxogen"]["documents_per_second"] / best, 2)
    first = report["first_document"]
    assert first["taxogen_fresh_cache"]["first_document_seconds"] > 0 and first["ratios"]["taxogen_fresh_cache"] > 0
    text = format_raw(report)
    assert "taxogen / Presidio" in text and "fresh cache directory" in text and "by stage" in text
