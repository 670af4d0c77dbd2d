"""Dense documents: one document repeated, sanitized as one, every mention replaced."""

from engine.config import EngineConfig
from engine.engine import Engine
from engine.scale.dense import bench_dense, dense_document
from engine.types import EntityType as T, IdentifierType as I, Mention


def test_given_a_document_then_dense_copies_hold_the_same_spans():
    text = "Ada Lovelace was born in London in 1815."
    ms = [Mention(0, 12, T.PERSON, I.DIRECT), Mention(25, 31, T.LOC, I.QUASI), Mention(35, 39, T.DATETIME, I.QUASI)]
    big, out = dense_document(text, ms, 7)
    assert len(out) == 7 and big.count(text) == 3
    assert [big[m.start:m.end] for m in out] == [text[m.start:m.end] for m in ms] * 2 + ["Ada Lovelace"]


def test_given_sample_graph_then_bench_dense_reports_every_size(sample_kg, tmp_path):
    import json

    doc = {"doc_id": "d", "text": "Ada Lovelace was born in London in 1815. She lived in Paris.", "annotations": {"a": {"entity_mentions": [
        {"entity_mention_id": "m1", "span_text": "Ada Lovelace", "start_offset": 0, "end_offset": 12, "entity_type": "PERSON", "identifier_type": "DIRECT"},
        {"entity_mention_id": "m2", "span_text": "London", "start_offset": 25, "end_offset": 31, "entity_type": "LOC", "identifier_type": "QUASI"},
        {"entity_mention_id": "m3", "span_text": "1815", "start_offset": 35, "end_offset": 39, "entity_type": "DATETIME", "identifier_type": "QUASI"},
        {"entity_mention_id": "m4", "span_text": "Paris", "start_offset": 54, "end_offset": 59, "entity_type": "LOC", "identifier_type": "QUASI"},
    ]}}}
    path = tmp_path / "wr.json"
    path.write_text(json.dumps([doc]))
    eng = Engine.from_store(sample_kg, EngineConfig(model="none"))
    report = bench_dense(eng, path, 400, steps=(40, 4000))
    assert [r["mentions"] for r in report["sizes"]] == [40, 400]
    assert all(r["replacements"] == r["mentions"] and r["errors"] == 0 for r in report["sizes"])
