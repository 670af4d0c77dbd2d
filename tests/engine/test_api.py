"""HTTP API through a real uvicorn server on 127.0.0.1."""

import json

import httpx
import pytest

pytest.importorskip("fastapi", reason="needs the [server] extra")

from engine.api import create_app
from engine.config import EngineConfig
from engine.engine import Engine
from tests.engine.live import uvicorn_server

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def base_url(sample_kg):
    engine = Engine.from_store(sample_kg, EngineConfig(model="none"))
    with uvicorn_server(create_app(engine, max_body_bytes=20_000)) as url:
        yield url


def test_given_health_and_sources_then_ok(base_url):
    h = httpx.get(f"{base_url}/health").json()
    assert h["status"] == "ok" and h["triples"] > 500
    s = httpx.get(f"{base_url}/sources").json()
    assert s["routes"]["LOC"] == "graph" and "person" in s["sources"]
    assert httpx.get(f"{base_url}/openapi.json").json()["info"]["title"] == "taxogen"


def test_given_span_when_generalize_then_ranked_candidates(base_url):
    r = httpx.post(f"{base_url}/generalize", json={"span": "geologist", "entity_type": "DEM"})
    assert r.status_code == 200
    body = r.json()
    labels = [c["label"] for c in body["candidates"]]
    assert "earth scientist" in labels and "***" in labels
    assert body["links"][0]["qid"] == "Q520549"
    assert all(c["score"] is not None for c in body["candidates"])


def test_given_unicode_text_then_offsets_are_code_points_and_nothing_leaks(base_url):
    text = "Ingrid 🎓 Sølberg moved to Zürich in 2015 — “naïve” café."
    z = text.index("Zürich")
    p = text.index("Ingrid")
    body = {"text": text, "mentions": [
        {"start": p, "end": text.index(" moved"), "entity_type": "PERSON", "identifier_type": "DIRECT"},
        {"start": z, "end": z + len("Zürich"), "entity_type": "LOC"},
        {"start": text.index("2015"), "end": text.index("2015") + 4, "entity_type": "DATETIME"},
    ]}
    r = httpx.post(f"{base_url}/sanitize", content=json.dumps(body, ensure_ascii=False).encode("utf-8"),
                   headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 200, r.text
    out = r.json()
    assert "Sølberg" not in out["text"] and "Zürich" not in out["text"] and "2015" not in out["text"]
    assert out["text"].startswith("PERSON 1 moved to") and out["text"].endswith("— “naïve” café.")
    assert all("original" not in rep for rep in out["replacements"])


def test_given_malformed_json_then_422_with_message(base_url):
    r = httpx.post(f"{base_url}/sanitize", content=b'{"text": "abc", "mentions": [', headers={"content-type": "application/json"})
    assert r.status_code == 422 and "json" in r.text.lower()


@pytest.mark.parametrize(
    "mention,fragment",
    [
        ({"start": 5, "end": 50, "entity_type": "LOC"}, "inside the text"),
        ({"start": 3, "end": 3, "entity_type": "LOC"}, "non-empty"),
        ({"start": -1, "end": 3, "entity_type": "LOC"}, "inside the text"),
        ({"start": 0, "end": 3, "entity_type": "PLANET"}, "unknown entity type"),
        ({"start": 0, "end": 3, "entity_type": "LOC", "identifier_type": "SECRET"}, "unknown identifier type"),
        ({"start": "zero", "end": 3, "entity_type": "LOC"}, "integer"),
    ],
)
def test_given_wrong_mentions_then_422_with_message(base_url, mention, fragment):
    r = httpx.post(f"{base_url}/sanitize", json={"text": "Oslo is nice.", "mentions": [mention]})
    assert r.status_code == 422 and fragment in r.text


def test_given_overlap_reject_then_422(base_url):
    body = {"text": "Percy Parke Lewis", "overlap": "reject", "mentions": [
        {"start": 0, "end": 11, "entity_type": "PERSON"}, {"start": 6, "end": 17, "entity_type": "PERSON"}]}
    r = httpx.post(f"{base_url}/sanitize", json=body)
    assert r.status_code == 422 and "overlaps" in r.json()["detail"]


def test_given_oversized_body_then_413_declared_or_streamed(base_url):
    big = {"text": "x" * 30_000, "mentions": []}
    r = httpx.post(f"{base_url}/sanitize", json=big)
    assert r.status_code == 413

    def chunks():
        payload = json.dumps(big).encode()
        for i in range(0, len(payload), 4096):
            yield payload[i : i + 4096]

    r = httpx.post(f"{base_url}/sanitize", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_given_unknown_type_in_generalize_then_422(base_url):
    r = httpx.post(f"{base_url}/generalize", json={"span": "x", "entity_type": "PLANET"})
    assert r.status_code == 422
