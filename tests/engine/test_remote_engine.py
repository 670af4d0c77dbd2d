"""The engine asks a live endpoint for what its store lacks (Oxigraph server holding the shared seed)."""

import pytest

from engine.config import EndpointSettings, EngineConfig
from engine.engine import Engine
from engine.types import Mention, EntityType as T
from kg import build_from_dump
from kg.faults import FaultProxy
from kg.store import sample_graph_path
from tests.servers import oxigraph_server

pytestmark = [pytest.mark.server, pytest.mark.slow]


@pytest.fixture(scope="module")
def seed_endpoint(tmp_path_factory, seed_path):
    with oxigraph_server([seed_path], tmp_path_factory.mktemp("seed-oxi")) as url:
        yield url


@pytest.fixture()
def local_store(tmp_path):
    store = tmp_path / "local"
    build_from_dump(sample_graph_path(), store, progress=False)
    return store


def engine_for(store, url, **endpoint):
    settings = EndpointSettings(url=url, enabled=True, timeout_s=5, max_retries=1, **endpoint)
    return Engine.from_config(EngineConfig(store=store, model="none", endpoint=settings))


def test_given_span_missing_locally_then_answered_remotely_cached_and_later_local(seed_endpoint, local_store):
    with FaultProxy(seed_endpoint) as proxy:
        eng = engine_for(local_store, proxy.url)
        assert not eng.linker.link(__import__("engine").Span("Bergen", T.LOC))
        ladder = eng.candidates("Bergen", "LOC")
        assert ladder.links and ladder.links[0].qid in {"Q26793", "Q9901", "Q10428388"}
        assert len(ladder.labels) > 1 and "endpoint" in ladder.reason
        asked = proxy.requests
        assert asked >= 2
        again = eng.candidates("Bergen", "LOC")
        assert proxy.requests == asked and again.labels == ladder.labels
        eng.kg.close()
    # the endpoint is gone now; a new engine on the same store answers from the cache
    offline = Engine.from_config(EngineConfig(store=local_store, model="none"))
    local = offline.candidates("Bergen", "LOC")
    assert local.labels == ladder.labels and "endpoint" not in local.reason
    graphs = offline.kg.stats().named_graphs
    assert any(g.startswith("urn:taxogen:cache:127.0.0.1") for g in graphs) and "urn:taxogen:cache-meta" in graphs


def test_given_negative_answer_then_cached_briefly(seed_endpoint, local_store):
    with FaultProxy(seed_endpoint) as proxy:
        eng = engine_for(local_store, proxy.url, negative_ttl_s=3600)
        assert eng.candidates("Zzyzx Quorblat", "LOC").labels == ["***"]
        asked = proxy.requests
        eng.candidates("Zzyzx Quorblat", "LOC")
        assert proxy.requests == asked
        eng.remote.remote.negative_ttl_s = 0  # expired: asked again
        eng.candidates("Zzyzx Quorblat", "LOC")
        assert proxy.requests > asked


def test_given_failing_endpoint_then_sanitization_still_replaces_every_span(seed_endpoint, local_store):
    text = "She moved from Bergen to Trondheim, then to Oslo and Stavanger."
    spans = ["Bergen", "Trondheim", "Oslo", "Stavanger"]
    mentions = [Mention(text.index(s), text.index(s) + len(s), T.LOC) for s in spans]
    with FaultProxy(seed_endpoint, plan=["500"] * 1000) as proxy:
        eng = engine_for(local_store, proxy.url, breaker_threshold=2)
        result = eng.sanitize(text, mentions)
    for s in spans:
        assert s not in result.text
    assert result.errors == ()
    assert eng.remote.remote.client.stats.refused >= 1  # the breaker stopped the calls


def test_given_expired_cache_then_refresh_refetches_it(seed_endpoint, local_store):
    from typer.testing import CliRunner

    from engine.cli import app

    with FaultProxy(seed_endpoint) as proxy:
        eng = engine_for(local_store, proxy.url)
        eng.candidates("Trondheim", "LOC")
        remote = eng.remote.remote
        assert remote.expired() == []
        remote.ttl_s = 0
        assert ("label", "Trondheim") in remote.expired()
        counts = remote.refresh()
        assert counts["refreshed"] == counts["considered"] >= 2 and counts["failed"] == 0
        eng.kg.close()
        res = CliRunner().invoke(app, ["kg", "refresh", "--store", str(local_store), "--endpoint", proxy.url, "--all"])
        assert res.exit_code == 0, res.output
        assert '"refreshed"' in res.output
