"""taxogen's SPARQL endpoint: the SPARQL 1.1 protocol over a read-only store, WDQS dialect.

Queries run in process on pyoxigraph (measured faster than fronting the Oxigraph server,
see ``taxogen bench kg``), after :func:`kg.sparql.wdqs.prepare` rewrote the WDQS dialect and
refused any ``SERVICE`` outside the allow-list (pyoxigraph itself would fetch it).

Protocol: ``GET /query?query=…``, ``POST /query`` with ``application/x-www-form-urlencoded``
(``query=…``) or ``application/sparql-query``; ``/sparql`` is the same (WDQS's path).
``default-graph-uri`` and ``named-graph-uri`` select graphs of the store. Result formats by
``Accept`` or WDQS's ``format=`` parameter: JSON (default), XML, CSV, TSV; Turtle,
N-Triples, RDF/XML for CONSTRUCT and DESCRIBE. Answers: 400 for a bad query, an unsupported
WDQS extension (naming it), a SERVICE outside the allow-list or a result over ``max_result_bytes``;
403 for updates; 406 for an unknown format; 413 for a query over ``max_query_chars``;
503 when a query runs past ``timeout_s``. Settings: :class:`kg.sparql.config.SparqlSettings`.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pyoxigraph as ox
from pyparsing import ParseException

from kg.errors import QueryError
from kg.sparql.config import SparqlSettings
from kg.sparql.dialect import ReadOnlyError
from kg.sparql.results import NotAcceptable, graph_format, media_type, negotiate, results_format
from kg.sparql.wdqs import PreparedQuery, prepare
from kg.store import KGStore

QUERY_PATHS = ("/query", "/sparql")


class QueryTimeout(QueryError):
    """A query ran past the endpoint's ``timeout_s``."""


class ResultTooLarge(QueryError):
    """A serialized result is larger than the endpoint's ``max_result_bytes``."""


@lru_cache(maxsize=256)
def _prepare_cached(text: str, allow: tuple[str, ...], languages: tuple[str, ...]) -> PreparedQuery:
    return prepare(text, allow=allow, languages=languages)


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP answer: status, media type, body."""

    status: int
    media_type: str
    body: bytes


def _error(status: int, message: str) -> Answer:
    return Answer(status, "text/plain; charset=utf-8", (message.rstrip() + "\n").encode())


class SparqlService:
    """Runs protocol requests against one store with the configured limits (no HTTP here)."""

    def __init__(self, store: KGStore, settings: SparqlSettings | None = None) -> None:
        self.store = store
        self.settings = settings or SparqlSettings()
        self.stopping = threading.Event()

    def prepare(self, text: str) -> PreparedQuery:
        """The WDQS rewrite with this endpoint's allow-list and languages (the last 256 are cached:
        clients such as wdtaxonomy send the same texts again and again)."""
        return _prepare_cached(text, self.settings.service_allow_list, self.settings.languages)

    def answer(self, params: dict[str, list[str]], accept: str | None) -> Answer:
        """Answer one query request (``params`` as from ``parse_qs``) — the whole protocol."""
        if "update" in params:
            return _error(403, "the endpoint is read-only: SPARQL updates are refused")
        texts = params.get("query", [])
        if len(texts) != 1 or not texts[0].strip():
            return _error(400, "give exactly one non-empty 'query' parameter")
        text = texts[0]
        if len(text) > self.settings.max_query_chars:
            return _error(413, f"query has {len(text)} characters; the limit is {self.settings.max_query_chars} "
                               "(taxogen.sparql.max_query_chars)")
        try:
            prepared = self.prepare(text)
        except ReadOnlyError as exc:
            return _error(403, str(exc))
        except QueryError as exc:
            return _error(400, str(exc))
        except ParseException as exc:
            return _error(400, f"SPARQL syntax error: {exc}")
        graph = prepared.form in ("ConstructQuery", "DescribeQuery")
        try:
            fmt = negotiate(accept, (params.get("format") or [None])[0], graph=graph)
        except NotAcceptable as exc:
            return _error(406, str(exc))
        try:
            body = self.run(prepared, fmt, default_graphs=params.get("default-graph-uri", []),
                            named_graphs=params.get("named-graph-uri", []))
        except QueryTimeout as exc:
            return _error(503, str(exc))
        except QueryError as exc:
            return _error(400, str(exc))
        return Answer(200, media_type(fmt, graph=graph) + ("; charset=utf-8" if fmt in ("csv", "tsv", "turtle") else ""), body)

    def run(self, prepared: PreparedQuery, fmt: str, *, default_graphs: list[str] = (), named_graphs: list[str] = ()) -> bytes:
        """Evaluate a prepared query and serialize it, enforcing ``timeout_s`` and ``max_result_bytes``."""
        kwargs: dict[str, Any] = {"prefixes": prepared.prefixes}
        try:
            if default_graphs:
                kwargs["default_graph"] = [ox.NamedNode(g) for g in default_graphs]
            if named_graphs:
                kwargs["named_graphs"] = [ox.NamedNode(g) for g in named_graphs]
        except ValueError as exc:
            raise QueryError(f"default-graph-uri / named-graph-uri: {exc}", query="request") from None
        out = LimitedWriter(self.settings, self.stopping)
        result: Any = None
        try:
            result = self.store.raw.query(prepared.text, **kwargs)
            out.check()
            if isinstance(result, ox.QueryTriples):
                result.serialize(out, format=graph_format(fmt))
            else:
                result.serialize(out, format=results_format(fmt))
        except QueryError:
            raise
        except SyntaxError as exc:
            raise QueryError(f"SPARQL syntax error: {exc}", query="request") from None
        except (ValueError, OSError) as exc:
            if out.error is not None:  # raised by our writer, passed through pyoxigraph
                raise out.error from None
            raise QueryError(f"query failed: {exc}", query="request") from None
        finally:
            # pyoxigraph's result iterators belong to the thread that made them: drop it here,
            # not later from an exception's traceback on another thread
            result = None
        if out.error is not None:
            raise out.error
        return out.getvalue()


class LimitedWriter:
    """A binary sink for pyoxigraph's serializers that stops a result past the time or size limit."""

    def __init__(self, settings: SparqlSettings, stopping: threading.Event) -> None:
        self.settings = settings
        self.stopping = stopping
        self.deadline = time.monotonic() + settings.timeout_s
        self.parts: list[bytes] = []
        self.size = 0
        self.error: QueryError | None = None

    def check(self) -> None:
        if time.monotonic() > self.deadline or self.stopping.is_set():
            self.error = QueryTimeout(f"query timed out after {self.settings.timeout_s:g} s (taxogen.sparql.timeout_s)",
                                      query="request")
            raise self.error

    def write(self, data: bytes) -> int:
        self.size += len(data)
        if self.size > self.settings.max_result_bytes:
            self.error = ResultTooLarge(
                f"the result is larger than {self.settings.max_result_bytes} bytes (taxogen.sparql.max_result_bytes); "
                "add a LIMIT", query="request")
            raise self.error
        self.check()
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        return None

    def getvalue(self) -> bytes:
        return b"".join(self.parts)


def create_app(store: KGStore, settings: SparqlSettings | None = None):  # -> starlette.applications.Starlette
    """The ASGI application (Starlette, from the ``server`` extra) serving ``store`` over the SPARQL protocol."""
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    service = SparqlService(store, settings)
    pool = ThreadPoolExecutor(max_workers=service.settings.max_concurrent, thread_name_prefix="sparql")

    @asynccontextmanager
    async def lifespan(app):
        yield
        service.stopping.set()
        pool.shutdown(wait=False, cancel_futures=True)

    async def handle(request) -> Response:
        params = urllib.parse.parse_qs(request.url.query, keep_blank_values=True)
        if request.method == "POST":
            ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
            body = (await request.body()).decode("utf-8", errors="replace")
            if ctype == "application/x-www-form-urlencoded":
                for k, v in urllib.parse.parse_qs(body, keep_blank_values=True).items():
                    params.setdefault(k, []).extend(v)
            elif ctype == "application/sparql-query":
                params.setdefault("query", []).append(body)
            elif ctype == "application/sparql-update":
                params["update"] = [body]
            else:
                return Response(f"unsupported Content-Type {ctype!r}\n", status_code=415, media_type="text/plain")
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(pool, service.answer, params, request.headers.get("accept"))
        try:
            ans = await asyncio.wait_for(asyncio.shield(future), timeout=service.settings.timeout_s + 1)
        except asyncio.TimeoutError:
            ans = _error(503, f"query timed out after {service.settings.timeout_s:g} s (taxogen.sparql.timeout_s)")
        except Exception as exc:  # a bug must not leak a traceback: one line, 500
            ans = _error(500, f"internal error: {type(exc).__name__}")
        return Response(ans.body, status_code=ans.status, media_type=ans.media_type)

    async def update(request) -> Response:
        return Response("the endpoint is read-only: SPARQL updates are refused\n", status_code=403, media_type="text/plain")

    async def root(request) -> Response:
        return Response("taxogen SPARQL endpoint (read-only): query at /query or /sparql\n", media_type="text/plain")

    routes = [Route(path, handle, methods=["GET", "POST"]) for path in QUERY_PATHS]
    routes += [Route("/update", update, methods=["GET", "POST"]), Route("/", root, methods=["GET"])]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.service = service
    return app


def serve(store: KGStore, settings: SparqlSettings) -> None:
    """Serve until SIGINT or SIGTERM (uvicorn's graceful shutdown); no child process is started.

    A query still running at shutdown stops at its next result row; if one is stuck in a
    single evaluation step the process exits after 5 s anyway (the store is read-only).
    """
    import uvicorn

    app = create_app(store, settings)
    server = uvicorn.Server(uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning",
                                           lifespan="on", timeout_graceful_shutdown=5))
    server.run()
    deadline = time.monotonic() + 5
    while any(t.name.startswith("sparql") and t.is_alive() for t in threading.enumerate()):
        if time.monotonic() > deadline:
            os._exit(0)
        time.sleep(0.05)
