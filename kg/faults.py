"""A fault-injecting HTTP proxy for SPARQL endpoints, for tests and ``taxogen bench endpoint``.

It listens on 127.0.0.1 only and forwards requests to an upstream endpoint, except when
its plan says otherwise. A plan is a list of actions consumed one per request (then
``pass`` forever):

===================  ===========================================================
``pass``             forward the request unchanged
``slow:S``           wait S seconds, then forward (past the client's timeout)
``429:S``            answer 429 Too Many Requests with ``Retry-After: S``
``500`` / ``503``    answer that status
``truncate``         forward, but cut the JSON body in half
``timeout-in-200``   answer 200 with WDQS's partial body ending in a TimeoutException
``reset``            close the connection without an answer
===================  ===========================================================
"""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_WDQS_TIMEOUT_BODY = (
    b'{\n  "head" : {\n    "vars" : [ "item" ]\n  },\n  "results" : {\n    "bindings" : [ {\n'
    b"SPARQL-QUERY: queryStr=SELECT ...\njava.util.concurrent.TimeoutException\n\tat java.util.concurrent.FutureTask.get"
)


class FaultProxy:
    """Proxy to ``upstream`` with a plan of faults; ``url`` is where clients connect."""

    def __init__(self, upstream: str, plan: list[str] | None = None) -> None:
        self.upstream = upstream
        self.plan = list(plan or [])
        self.requests = 0
        self.actions: list[str] = []
        self.user_agents: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                proxy.handle(self, None)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                proxy.handle(self, self.rfile.read(length))

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/query"

    def start(self) -> "FaultProxy":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "FaultProxy":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def set_plan(self, plan: list[str]) -> None:
        with self._lock:
            self.plan = list(plan)

    def _next(self) -> str:
        with self._lock:
            self.requests += 1
            action = self.plan.pop(0) if self.plan else "pass"
            self.actions.append(action)
            return action

    def handle(self, h: BaseHTTPRequestHandler, body: bytes | None) -> None:
        """Answer one request (``body``: a POST's, None for a GET) as the next action of the plan says."""
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.user_agents.append(h.headers.get("User-Agent", ""))
        try:
            self._act(h, body)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _act(self, h: BaseHTTPRequestHandler, body: bytes | None) -> None:
        action = self._next()
        if action == "reset":
            h.close_connection = True
            h.connection.close()
            return
        if action.startswith("429:"):
            return self._reply(h, 429, b"Too Many Requests", {"Retry-After": action.split(":", 1)[1]})
        if action in ("500", "503"):
            return self._reply(h, int(action), b"upstream error (injected)")
        if action == "timeout-in-200":
            return self._reply(h, 200, _WDQS_TIMEOUT_BODY, {"Content-Type": "application/sparql-results+json"})
        if action.startswith("slow:"):
            time.sleep(float(action.split(":", 1)[1]))
        status, headers, payload = self._forward(h, body)
        if action == "truncate":
            payload = payload[: len(payload) // 2]
        self._reply(h, status, payload, {"Content-Type": headers.get("Content-Type", "application/sparql-results+json")})

    def _forward(self, h: BaseHTTPRequestHandler, body: bytes | None):
        target = self.upstream + (h.path[len("/query"):] if h.path.startswith("/query") else "")
        req = urllib.request.Request(target, data=body, method=h.command)
        for name in ("Content-Type", "Accept", "User-Agent"):
            if h.headers.get(name):
                req.add_header(name, h.headers[name])
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, dict(resp.headers), resp.read()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers or {}), exc.read()

    @staticmethod
    def _reply(h: BaseHTTPRequestHandler, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            h.send_response(status)
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(payload)))
            h.end_headers()
            h.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass
