"""A careful client for remote SPARQL endpoints (SPARQLWrapper underneath).

Etiquette and faults, all configured by :class:`EndpointConfig`:

- a descriptive User-Agent on every request, a per-query timeout;
- at most ``max_concurrent`` queries in flight (a semaphore shared by the client's users);
- HTTP 429 and 503 with ``Retry-After``: wait as told (capped by ``max_wait_s``);
- 5xx, connection errors and timeouts: exponential backoff with full jitter, at most
  ``max_retries`` retries;
- a body that is not the promised JSON (truncated, or a 200 carrying an error message
  such as WDQS's ``TimeoutException``) is an error, never an empty answer;
- a circuit breaker: after ``breaker_threshold`` consecutive failed queries the client
  refuses to call the endpoint for ``breaker_cooldown_s`` seconds, then lets one query
  through to probe it;
- ``offline=True`` refuses every call.

Every refusal or final failure raises :class:`kg.errors.EndpointError`; the caller decides
what to fall back to. :attr:`SparqlClient.stats` counts requests, retries, failures,
refusals and time spent.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
import urllib.error
from dataclasses import dataclass, field
from typing import Any, Callable

from kg.errors import EndpointError
from kg.queries import NamedQuery, load_query, render

DEFAULT_USER_AGENT = "taxogen/0.1 (knowledge-graph text sanitization; https://taxogen.dev/contact)"
#: The one default per-query timeout of an endpoint client, in seconds: ``kg extract`` with a
#: URL and the engine's remote fallback (``taxogen.endpoint.timeout_s``) both use it.
DEFAULT_TIMEOUT_S = 20.0
_BODY_ERRORS = ("TimeoutException", "QueryTimeoutException", "java.util.concurrent", "Query timeout")


@dataclass(frozen=True, slots=True)
class EndpointConfig:
    """How to talk to one SPARQL endpoint (the engine's settings extend it:
    :class:`engine.config.EndpointSettings`)."""

    url: str
    user_agent: str = DEFAULT_USER_AGENT
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = 3
    backoff_base_s: float = 0.5
    backoff_max_s: float = 20.0
    max_wait_s: float = 60.0
    max_concurrent: int = 2
    breaker_threshold: int = 5
    breaker_cooldown_s: float = 60.0
    offline: bool = False


@dataclass
class ClientStats:
    """What the client did so far."""

    queries: int = 0
    requests: int = 0
    retries: int = 0
    throttled: int = 0
    failures: int = 0
    refused: int = 0
    seconds: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


class _Retryable(Exception):
    def __init__(self, kind: str, wait: float | None = None, status: int | None = None) -> None:
        super().__init__(kind)
        self.kind, self.wait, self.status = kind, wait, status


class SparqlClient:
    """Runs named queries against a remote endpoint with retries, limits and a breaker."""

    def __init__(
        self,
        config: EndpointConfig,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.stats = ClientStats()
        self._sleep, self._clock = sleep, clock
        self._rng = rng or random.Random()
        self._slots = threading.BoundedSemaphore(max(1, config.max_concurrent))
        self._lock = threading.Lock()
        self._consecutive_failures = 0
        self._open_until = 0.0

    # --- public -------------------------------------------------------------------------
    def select(self, name: str, *, limit: int | None = None, offset: int | None = None, **bindings: Any) -> list[dict[str, Any]]:
        """Run ``queries/<name>.rq`` remotely with ``bindings``; rows as ``{var: value}``."""
        return self.run(load_query(name), bindings, limit=limit, offset=offset)

    def select_cells(self, name: str, *, limit: int | None = None, offset: int | None = None, **bindings: Any) -> list[dict[str, dict]]:
        """Like :meth:`select`, but each value is the SPARQL JSON cell (``type``, ``value``, ``xml:lang``…)."""
        text = render(load_query(name), bindings, limit=limit, offset=offset)
        return self.run_text(text, name=name, cells=True)

    def run(self, query: NamedQuery, bindings: dict[str, Any] | None = None, *, limit: int | None = None, offset: int | None = None) -> list[dict[str, Any]]:
        text = render(query, bindings or {}, limit=limit, offset=offset)
        return self.run_text(text, name=query.name)

    @property
    def circuit_open(self) -> bool:
        return self._clock() < self._open_until

    def run_text(self, text: str, *, name: str = "query", cells: bool = False) -> list[dict[str, Any]]:
        """Run SPARQL text (already rendered) with the full retry/breaker policy."""
        cfg = self.config
        self.stats.queries += 1
        if cfg.offline:
            self.stats.refused += 1
            raise EndpointError(f"offline mode: not calling {cfg.url} for {name}", endpoint=cfg.url)
        if self.circuit_open:
            self.stats.refused += 1
            raise EndpointError(
                f"circuit open for {cfg.url} ({self._open_until - self._clock():.0f} s left) after repeated failures",
                endpoint=cfg.url,
            )
        start = self._clock()
        attempt = 0
        try:
            while True:
                try:
                    rows = self._once(text, cells)
                except _Retryable as exc:
                    self.stats.errors[exc.kind] = self.stats.errors.get(exc.kind, 0) + 1
                    if attempt >= cfg.max_retries:
                        self._record_failure()
                        raise EndpointError(
                            f"{name}: {exc.kind} from {cfg.url} after {attempt + 1} attempts",
                            endpoint=cfg.url, status=exc.status,
                        ) from None
                    attempt += 1
                    self.stats.retries += 1
                    if exc.wait is not None:
                        self.stats.throttled += 1
                        delay = min(exc.wait, cfg.max_wait_s)
                    else:
                        delay = self._rng.uniform(0, min(cfg.backoff_max_s, cfg.backoff_base_s * 2 ** (attempt - 1)))
                    self._sleep(delay)
                    continue
                except EndpointError:
                    self._record_failure()
                    raise
                with self._lock:
                    self._consecutive_failures = 0
                return rows
        finally:
            self.stats.seconds += self._clock() - start

    # --- internals ----------------------------------------------------------------------
    def _record_failure(self) -> None:
        with self._lock:
            self.stats.failures += 1
            self._consecutive_failures += 1
            if self._consecutive_failures >= self.config.breaker_threshold:
                self._open_until = self._clock() + self.config.breaker_cooldown_s
                self._consecutive_failures = 0

    def _once(self, text: str, cells: bool = False) -> list[dict[str, Any]]:
        from SPARQLWrapper import JSON, POST, SPARQLWrapper
        from SPARQLWrapper.SPARQLExceptions import EndPointInternalError, EndPointNotFound, QueryBadFormed, Unauthorized

        cfg = self.config
        client = SPARQLWrapper(cfg.url, agent=cfg.user_agent)
        client.setQuery(text)
        client.setMethod(POST)
        client.setReturnFormat(JSON)
        client.setTimeout(int(max(1, cfg.timeout_s)))
        with self._slots:
            self.stats.requests += 1
            try:
                response = client.query().response
                body = response.read()
            except urllib.error.HTTPError as exc:
                retry_after = _retry_after(exc.headers.get("Retry-After") if exc.headers else None)
                if exc.code in (429, 503) and retry_after is not None:
                    raise _Retryable(f"HTTP {exc.code}", retry_after, exc.code) from None
                if exc.code == 429 or exc.code >= 500:
                    raise _Retryable(f"HTTP {exc.code}", None, exc.code) from None
                raise EndpointError(f"HTTP {exc.code} from {cfg.url}", endpoint=cfg.url, status=exc.code) from None
            except EndPointInternalError:
                raise _Retryable("HTTP 500", None, 500) from None
            except (QueryBadFormed, EndPointNotFound, Unauthorized) as exc:
                raise EndpointError(f"{type(exc).__name__} from {cfg.url}: {str(exc)[:300]}", endpoint=cfg.url) from None
            except (socket.timeout, TimeoutError):
                raise _Retryable("timeout") from None
            except (urllib.error.URLError, ConnectionError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                if isinstance(reason, (socket.timeout, TimeoutError)):
                    raise _Retryable("timeout") from None
                raise _Retryable("connection error") from None
        return _parse_results(body, cells)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


def _parse_results(body: bytes, cells: bool = False) -> list[dict[str, Any]]:
    """Rows of a SPARQL JSON results body; a broken or error-carrying body is retryable."""
    text = body.decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        kind = "error inside 200 body" if any(m in text for m in _BODY_ERRORS) else "truncated or invalid JSON"
        raise _Retryable(kind) from None
    if any(m in text[-2000:] for m in _BODY_ERRORS) and "results" not in data:
        raise _Retryable("error inside 200 body")
    if "boolean" in data:
        return [{"ask": bool(data["boolean"])}]
    try:
        names = data["head"]["vars"]
        bindings = data["results"]["bindings"]
    except (KeyError, TypeError):
        raise _Retryable("unexpected JSON shape") from None
    if cells:
        return [{n: b.get(n) for n in names} for b in bindings]
    rows = []
    for b in bindings:
        row: dict[str, Any] = {}
        for n in names:
            cell = b.get(n)
            if cell is None:
                row[n] = None
            elif cell.get("datatype", "").endswith(("#integer", "#int", "#long")):
                row[n] = int(cell["value"])
            else:
                row[n] = cell["value"]
        rows.append(row)
    return rows
