"""``POST /generalize`` lists a span's rungs in the order ``taxogen generalize`` prints them
(ladder order, specific to general), each with the ranker's score."""

import json

import pytest

pytest.importorskip("fastapi", reason="needs the [server] extra")
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from engine.api import create_app
from engine.cli import app
from engine.config import EngineConfig
from engine.engine import Engine
from engine.types import ScoredCandidate

REQUEST = {"span": "geologist", "entity_type": "DEM"}


def cli_labels() -> list[str]:
    res = CliRunner().invoke(app, ["generalize", REQUEST["span"], "--type", REQUEST["entity_type"], "--json"])
    assert res.exit_code == 0, res.output
    return [c["label"] for c in json.loads(res.output)["candidates"]]


def http_candidates(engine: Engine) -> list[dict]:
    with TestClient(create_app(engine)) as client:
        r = client.post("/generalize", json=REQUEST)
    assert r.status_code == 200, r.text
    return r.json()["candidates"]


def test_given_scores_against_rung_order_then_http_keeps_rung_order_like_the_cli(sample_kg, monkeypatch):
    engine = Engine.from_store(sample_kg, EngineConfig(model="none"))
    rank = engine.rank

    def general_first(span, ladder, context=None):  # a ranker preferring the most general rung
        ranked = rank(span, ladder, context)
        return sorted((ScoredCandidate(r.candidate, float(r.candidate.level)) for r in ranked), key=lambda r: -r.score)

    monkeypatch.setattr(engine, "rank", general_first)
    got = http_candidates(engine)
    labels = [c["label"] for c in got]
    assert labels == cli_labels() and len(labels) > 2
    assert [c["score"] for c in got] == [float(c["level"]) for c in got]  # each rung keeps its own score
    assert [c["level"] for c in got] == sorted(c["level"] for c in got)


def test_given_the_default_ranker_off_then_http_and_cli_list_the_same_rungs(sample_kg):
    got = http_candidates(Engine.from_store(sample_kg, EngineConfig(model="none")))
    assert [c["label"] for c in got] == cli_labels()
    assert all(c["score"] is not None for c in got)


@pytest.mark.slow
def test_given_the_shipped_ranker_then_http_and_cli_list_the_same_rungs(sample_kg):
    got = http_candidates(Engine.from_store(sample_kg, EngineConfig(model="shipped")))
    assert [c["label"] for c in got] == cli_labels()
    assert all(c["score"] is not None for c in got)
