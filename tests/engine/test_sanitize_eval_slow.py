"""Slow: served-ladder training and ``evaluate sanitize`` on a few real documents (these
load the embedding model)."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.config import EngineConfig
from engine.engine import Engine
from taxogen_tools.evaluation.labels import canonical
from engine.types import Mention
from taxogen_tools.evaluation.served import prepare_document, served_items
from engine.select.features import ALL_GROUPS, FeatureBuilder
from engine.io.wikireplace import load_wikireplace

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def three_docs(wikireplace_path, tmp_path_factory):
    path = tmp_path_factory.mktemp("wr") / "three.json"
    path.write_text(json.dumps(json.loads(wikireplace_path.read_text())[:3]))
    return path


def test_given_served_items_then_training_sees_the_ladders_and_features_that_serving_ranks(sample_kg, three_docs):
    engine = Engine.from_store(sample_kg, EngineConfig(model="none"))
    docs = load_wikireplace(three_docs)
    served = served_items(engine, docs)
    assert served.items and len(served.items) + sum(served.skipped.values()) == served.annotated
    assert sum(it.mapped for it in served.items) == sum(served.mapped.values())
    for it in served.items:
        assert it.labels[-1] == "***" and 0 <= it.gold_index < len(it.labels)
        if it.mapped:  # the annotators' class is not offered: its nearest offered ancestor, never ***
            assert it.labels[it.gold_index] != "***" and it.votes[it.gold_index] == 0
            continue
        assert it.votes[it.gold_index] > 0 or it.labels[it.gold_index] == "***"
        assert canonical(it.labels[it.gold_index]) == canonical(it.labels[max(range(len(it.votes)), key=it.votes.__getitem__)]) or it.labels[it.gold_index] == "***"
    # the items of a document are those the sanitizer itself prepares for its masked mentions
    doc = docs[0]
    mentions = next(iter(doc.mentions.values()))
    p = prepare_document(engine, doc.text, [Mention(m.start, m.end, m.entity_type, m.identifier_type) for m in mentions])
    ours = [it for it in served.items if it.doc_id == doc.doc_id]
    served_by_span = {(it.item.span, it.item.span_start, it.item.sentence): it for it in ours}
    builder = FeatureBuilder(engine.embedder, groups=ALL_GROUPS, graph=engine.graph_stats)
    matched = 0
    for k, item in ((k, m.rank_item) for k, m in enumerate(p.mentions) if m.rank_item is not None):
        key = (item.span, item.span_start, item.sentence)
        if key in served_by_span:
            matched += 1
            it = served_by_span[key]
            assert it.labels == tuple(p.mentions[k].ladder.labels)
            a, _ = builder.build([item])
            b, _ = builder.build([it.item])
            assert np.allclose(a, b)
    assert matched == len(ours)


def test_given_few_documents_when_evaluate_sanitize_then_figures_print(three_docs):
    res = CliRunner().invoke(app, ["evaluate", "sanitize", "--data", str(three_docs), "--folds", "3", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output[res.output.index("{"):])
    overall = report["per_type"]["ALL"]
    assert overall["mentions"] == report["annotated_mentions"] > 0
    assert 0 <= overall["majority"] <= overall["any"] <= 1 and overall["ceiling"] >= overall["majority"]
    assert report["training"]["ladders"] == "served"
    assert report["readability"]["sentences"] >= report["readability"]["flagged_sentences"]
    res = CliRunner().invoke(app, ["evaluate", "sanitize", "--data", str(three_docs), "--model", "shipped", "--show", "5"])
    assert res.exit_code == 0, res.output
    assert "majority" in res.output and "sample sentences" in res.output and "in-sample" in res.stderr


def test_given_a_show_seed_then_the_sample_is_drawn_from_all_sentences_with_their_sources(three_docs):
    import random

    def examples(*extra):
        res = CliRunner().invoke(app, ["evaluate", "sanitize", "--data", str(three_docs), "--model", "shipped", "--json", *extra])
        assert res.exit_code == 0, res.output
        return json.loads(res.output[res.output.index("{"):])["examples"]

    every = examples("--show", "100000")
    assert len(every) > 4 and all(e["source"] and e["sentence"] for e in every)
    drawn = examples("--show", "4", "--show-seed", "7")
    assert drawn == [every[i] for i in sorted(random.Random(7).sample(range(len(every)), 4))]
