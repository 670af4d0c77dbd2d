"""Per core on unseen documents: bfloat16 embeddings (where native), nothing embedded
for mentions offering only ***, the bench's headline."""

import json

import numpy as np
import pytest

from engine.config import ConfigError, EngineConfig
from engine.select.embeddings import Embedder, cpu_has_native_bf16, resolve_precision
from engine.select.features import DEFAULT_GROUPS, FeatureBuilder, RankCandidate, RankItem
from engine.types import MASK, EntityType, IdentifierType


class _HashEmbedder:
    """Deterministic unit vectors per text, counting what it was asked to embed."""

    def __init__(self):
        self.asked: list[str] = []

    def encode(self, texts):
        self.asked += list(texts)
        out = [np.random.default_rng(abs(hash(t)) % 2**32).normal(size=8) for t in texts]
        return np.array([v / np.linalg.norm(v) for v in out]).reshape(len(texts), 8)

    def encode_labels(self, labels):
        return self.encode(labels)

    def encode_windows(self, windows):
        return self.encode([w[0] for w in windows]), self.encode([f"{w[0]}\x00span {w[1]}-{w[2]}" for w in windows])


def _items():
    masked = RankItem("Acme Holdings", EntityType.ORG, IdentifierType.QUASI, "She worked for Acme Holdings in 1990.",
                      (RankCandidate(MASK, "mask"),), span_start=15)
    linked = RankItem("Oslo", EntityType.LOC, IdentifierType.QUASI, "She moved to Oslo in 1990.",
                      (RankCandidate("capital", "P31"), RankCandidate("city in Norway", "P31"), RankCandidate(MASK, "mask")), span_start=13)
    return masked, linked


def test_given_a_mention_offering_only_mask_then_nothing_of_it_is_embedded_and_its_embedding_columns_are_zero():
    masked, linked = _items()
    emb = _HashEmbedder()
    builder = FeatureBuilder(emb, groups=DEFAULT_GROUPS)
    X, sizes = builder.build([masked, linked])
    assert sizes == [1, 3]
    assert "Acme Holdings" not in emb.asked and not any("Acme" in t for t in emb.asked) and MASK not in emb.asked
    emb_cols = [j for j, n in enumerate(builder.names) if n.startswith(("cos_", "mention_best"))]
    assert emb_cols and (X[0, emb_cols] == 0).all()
    # the other mention's rows are those it gets alone, and the masked row equals one built with every vector known
    alone, _ = FeatureBuilder(_HashEmbedder(), groups=DEFAULT_GROUPS).build([linked])
    assert np.array_equal(X[1:], alone)
    structure_only, _ = FeatureBuilder(None, groups=("structure", "graph", "document")).build([masked])
    rest = [j for j in range(len(builder.names)) if j not in emb_cols]
    assert np.array_equal(X[0, rest], structure_only[0])


def test_given_the_full_embedding_group_then_a_mask_only_mention_is_still_compared():
    masked, _ = _items()
    emb = _HashEmbedder()
    FeatureBuilder(emb, groups=("structure", "embedding")).build([masked])
    assert "Acme Holdings" in emb.asked  # cos_sentence of *** in place depends on the context


def test_given_cpu_flags_then_native_bf16_is_detected(tmp_path):
    yes, no = tmp_path / "yes", tmp_path / "no"
    yes.write_text("processor\t: 0\nflags\t\t: fpu sse avx512f avx512_bf16 amx_tile\n")
    no.write_text("processor\t: 0\nflags\t\t: fpu sse avx2 fma\n")
    assert cpu_has_native_bf16(yes) and not cpu_has_native_bf16(no)
    assert not cpu_has_native_bf16(tmp_path / "absent")


def test_given_precisions_then_resolved_or_rejected():
    assert resolve_precision("float32") == "float32" and resolve_precision("bfloat16") == "bfloat16"
    assert resolve_precision("auto") == ("bfloat16" if cpu_has_native_bf16() else "float32")
    with pytest.raises(ValueError):
        resolve_precision("int8")
    with pytest.raises(ConfigError):
        EngineConfig(embedding_precision="fp16")
    assert EngineConfig.load(env={"TAXOGEN_EMBEDDING_PRECISION": "float32"}).embedding_precision == "float32"


def test_given_two_precisions_then_their_disk_cache_keys_differ(tmp_path):
    f32, b16 = Embedder(None, precision="float32"), Embedder(None, precision="bfloat16")
    assert f32._key("Oslo") != b16._key("Oslo")
    assert f32.batch_size == 16 and b16.batch_size == 32
    shared = Embedder.sharing_model(b16)
    assert shared.precision == "bfloat16" and shared._memory == {}


@pytest.mark.slow
def test_given_bfloat16_then_vectors_match_float32():
    texts = ["Percy Parke Lewis", "date in the 1880s", "city in Norway", "She moved to Oslo in 1990 with her family.", "***"]
    a = Embedder(None, precision="float32").encode(texts)
    b = Embedder(None, precision="bfloat16").encode(texts)
    assert b.dtype == np.float32 and b.shape == a.shape
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    assert (np.sum(a * b, axis=1) > 0.999).all()


@pytest.mark.slow
def test_given_sample_graph_then_bench_sanitize_heads_with_unseen_warm_and_their_ratio(sample_kg, tmp_path):
    from taxogen_tools.bench.sanitize import bench_sanitize
    from engine.engine import Engine

    doc = {"doc_id": "d", "text": "Ada Lovelace was born in London in 1815. She lived in Paris.", "annotations": {"a": {"entity_mentions": [
        {"entity_mention_id": "m1", "span_text": "Ada Lovelace", "start_offset": 0, "end_offset": 12, "entity_type": "PERSON", "identifier_type": "DIRECT"},
        {"entity_mention_id": "m2", "span_text": "London", "start_offset": 25, "end_offset": 31, "entity_type": "LOC", "identifier_type": "QUASI"},
        {"entity_mention_id": "m3", "span_text": "1815", "start_offset": 35, "end_offset": 39, "entity_type": "DATETIME", "identifier_type": "QUASI"},
    ]}}}
    path = tmp_path / "wr.json"
    path.write_text(json.dumps([doc, {**doc, "doc_id": "e"}]))
    eng = Engine.from_store(sample_kg, EngineConfig(model="none"))
    out = bench_sanitize(eng, path, batch=2)
    head = out["headline"]
    assert next(iter(out)) == "headline" and out["documents"] == 2
    assert head["unseen_documents_per_cpu_second"] == out["batch_unseen"]["documents_per_cpu_second"] > 0
    assert head["warm_to_unseen_ratio"] == round(head["warm_documents_per_cpu_second"] / head["unseen_documents_per_cpu_second"], 1)
    # the fully cold figure beside it (label table emptied too), and what was kept said
    assert head["cold_documents_per_cpu_second"] == out["batch_cold"]["documents_per_cpu_second"] > 0
    assert "label" in head["kept (label table)"] and "windows" in head["emptied_before_unseen"]


def test_given_a_local_store_then_graph_ladders_are_remembered_and_equal_to_a_fresh_walk(sample_kg):
    from engine.engine import Engine
    from engine.scale import empty_caches
    from engine.generate.sources.base import DocumentState
    from engine.types import Span

    eng = Engine.from_store(sample_kg, EngineConfig(model="none"))
    source = eng.sources.for_type(EntityType.LOC)
    first = eng.candidates(Span("London", EntityType.LOC, IdentifierType.QUASI, context="She lived in London."), state=DocumentState())
    assert first.candidates and source._ladders
    qid, span_key, entity_type, props, _knowledge = next(iter(source._ladders))
    remembered = source.ladder_for(qid, span_key, entity_type, props=props)
    assert remembered == source._ladder_for(qid, span_key, entity_type, props=props)
    remembered.clear()  # a caller's copy: the remembered ladder is untouched
    assert source.ladder_for(qid, span_key, entity_type, props=props) == source._ladder_for(qid, span_key, entity_type, props=props)
    again = eng.candidates(Span("London", EntityType.LOC, IdentifierType.QUASI, context="He left London."), state=DocumentState())
    assert [c.label for c in again.candidates] == [c.label for c in first.candidates]
    empty_caches(eng)
    assert not source._ladders
