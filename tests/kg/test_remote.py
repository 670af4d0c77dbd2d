"""The remote client against a real Oxigraph server behind a fault-injecting proxy."""

import threading
import time

import pytest

from kg.errors import EndpointError
from kg.faults import FaultProxy
from kg.remote import EndpointConfig, SparqlClient

pytestmark = pytest.mark.server


class Sleeps:
    def __init__(self):
        self.calls = []

    def __call__(self, s):
        self.calls.append(s)


def client(url, **kw):
    sleeps = Sleeps()
    cfg = EndpointConfig(url=url, **{"timeout_s": 2, "max_retries": 3, "backoff_base_s": 0.5, **kw})
    return SparqlClient(cfg, sleep=sleeps), sleeps


@pytest.fixture()
def proxy(sample_endpoint):
    with FaultProxy(sample_endpoint) as p:
        yield p


def oslo(c):
    return [r["item"] for r in c.select("remote_label_lookup", text="Oslo")]


def test_given_healthy_endpoint_then_answer_and_user_agent(proxy):
    c, sleeps = client(proxy.url, user_agent="taxogen-test/1 (ops@example.org)")
    assert oslo(c) == ["http://www.wikidata.org/entity/Q585"]
    assert proxy.user_agents[-1] == "taxogen-test/1 (ops@example.org)"
    assert c.stats.requests == 1 and c.stats.retries == 0 and sleeps.calls == []


def test_given_429_with_retry_after_then_waits_as_told(proxy):
    proxy.set_plan(["429:7", "429:2"])
    c, sleeps = client(proxy.url)
    assert oslo(c)
    assert sleeps.calls == [7.0, 2.0] and c.stats.throttled == 2 and c.stats.requests == 3


def test_given_5xx_then_exponential_backoff_with_jitter(proxy):
    proxy.set_plan(["500", "503", "500"])
    c, sleeps = client(proxy.url)
    assert oslo(c)
    assert len(sleeps.calls) == 3
    for attempt, s in enumerate(sleeps.calls):
        assert 0 <= s <= 0.5 * 2**attempt
    assert c.stats.errors == {"HTTP 500": 2, "HTTP 503": 1}


def test_given_slow_response_past_timeout_then_retried(proxy):
    proxy.set_plan(["slow:2.5"])
    c, _ = client(proxy.url, timeout_s=1)
    t0 = time.monotonic()
    assert oslo(c)
    assert c.stats.errors.get("timeout") == 1 and time.monotonic() - t0 < 5


@pytest.mark.parametrize("fault,kind", [("truncate", "truncated or invalid JSON"), ("timeout-in-200", "error inside 200 body")])
def test_given_broken_200_body_then_error_never_empty_answer(proxy, fault, kind):
    proxy.set_plan([fault] * 10)
    c, _ = client(proxy.url, max_retries=2)
    with pytest.raises(EndpointError, match="after 3 attempts"):
        oslo(c)
    assert c.stats.errors == {kind: 3}


def test_given_connection_reset_then_retried(proxy):
    proxy.set_plan(["reset"])
    c, _ = client(proxy.url)
    assert oslo(c) and c.stats.retries == 1


def test_given_repeated_failures_then_circuit_opens_and_later_probes(proxy):
    now = [1000.0]
    cfg = EndpointConfig(url=proxy.url, timeout_s=2, max_retries=0, breaker_threshold=2, breaker_cooldown_s=30)
    c = SparqlClient(cfg, sleep=lambda s: None, clock=lambda: now[0])
    proxy.set_plan(["500"] * 10)
    for _ in range(2):
        with pytest.raises(EndpointError):
            oslo(c)
    sent = proxy.requests
    with pytest.raises(EndpointError, match="circuit open"):
        oslo(c)
    assert proxy.requests == sent and c.stats.refused == 1
    now[0] += 31
    proxy.set_plan([])
    assert oslo(c)  # half-open probe succeeds, breaker closes


def test_given_offline_then_no_request_is_made(proxy):
    c, _ = client(proxy.url, offline=True)
    with pytest.raises(EndpointError, match="offline"):
        oslo(c)
    assert proxy.requests == 0


def test_given_many_threads_then_at_most_max_concurrent_in_flight(proxy):
    proxy.set_plan(["slow:0.3"] * 6)
    c, _ = client(proxy.url, max_concurrent=2)
    threads = [threading.Thread(target=oslo, args=(c,)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert proxy.max_in_flight <= 2 and c.stats.requests == 6


def test_given_client_error_then_not_retried(proxy):
    c, _ = client(proxy.url)
    with pytest.raises(EndpointError, match="QueryBadFormed|HTTP 400"):
        c.run_text("SELECT WHERE { this is not sparql", name="bad")
    assert c.stats.retries == 0
