"""Benchmark of the SPARQL endpoint (part of ``taxogen bench kg``).

- ``label_service``: a WDQS query using ``SERVICE wikibase:label`` (rewritten by
  :func:`kg.sparql.wdqs.prepare`, rewrite time included) against the same query written by
  hand in plain SPARQL 1.1, both run in process on pyoxigraph; the rows must agree. Also the
  endpoint's whole answer to each (its rewrite cache makes repeated texts cheaper).
- ``modes``: the two designs for the endpoint, on the same queries: answering in process
  (``in_process_answer_*``: rewrite, evaluate on pyoxigraph, serialize) against fronting
  the Oxigraph server (``fronting_oxigraph_answer_*``: rewrite, forward over HTTP to
  ``oxigraph serve-read-only`` on the same store, read its answer); both without the
  client's own HTTP hop, which is the same for both. Also: the plain query evaluated in
  process without serializing, over HTTP to taxogen's endpoint, and straight to the
  Oxigraph server.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from typing import Callable

from kg.oxiserver import free_port, wait_http
from kg.sparql.config import SparqlSettings
from kg.sparql.endpoint import SparqlService
from kg.sparql.wdqs import prepare
from kg.store import OXI_DIR, KGStore

ROOT_CLASS = "Q901"  # scientist: its subclasses and their labels

LABEL_QUERY = """SELECT ?item ?itemLabel WHERE {
  ?item wdt:P279* wd:%s .
  SERVICE wikibase:label { bd:serviceParam wikibase:language "en" . }
}""" % ROOT_CLASS

PLAIN_QUERY = """PREFIX wd: <http://www.wikidata.org/entity/>
PREFIX wdt: <http://www.wikidata.org/prop/direct/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?item ?itemLabel WHERE {
  ?item wdt:P279* wd:%s .
  OPTIONAL { ?item rdfs:label ?label FILTER(LANG(?label) = "en") }
  BIND(COALESCE(?label, STRAFTER(STR(?item), STR(wd:))) AS ?itemLabel)
}""" % ROOT_CLASS


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))], 3),
        "mean_ms": round(statistics.fmean(ordered), 3),
    }


def _timed(fn: Callable[[], object], n: int) -> list[float]:
    fn()  # warm-up
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def _rows(kg: KGStore, text: str, prefixes: dict[str, str] | None = None) -> list[tuple[str, str]]:
    res = kg.raw.query(text, prefixes=prefixes) if prefixes else kg.raw.query(text)
    return [(s["item"].value, s["itemLabel"].value) for s in res]


def bench_label_service(kg: KGStore, *, n: int = 50) -> dict:
    """The label-service query rewritten vs the hand-written plain query, in process."""
    rewritten = _rows(kg, prepare(LABEL_QUERY).text, prepare(LABEL_QUERY).prefixes)
    plain = _rows(kg, PLAIN_QUERY)
    prepare_ms = _timed(lambda: prepare(LABEL_QUERY), n)

    def run_rewritten() -> None:
        p = prepare(LABEL_QUERY)
        _rows(kg, p.text, p.prefixes)

    p = prepare(LABEL_QUERY)
    service = SparqlService(kg)
    return {
        "query": f"subclasses of {ROOT_CLASS} (P279*) with English labels",
        "rows": len(plain),
        "same_rows": sorted(rewritten) == sorted(plain),
        "rewrite_only": _stats(prepare_ms),
        "rewritten_run_only": _stats(_timed(lambda: _rows(kg, p.text, p.prefixes), n)),
        "rewritten_total": _stats(_timed(run_rewritten, n)),
        "hand_written": _stats(_timed(lambda: _rows(kg, PLAIN_QUERY), n)),
        # the endpoint's whole answer (rewrite, run, JSON), the rewrite cached after the first call
        "endpoint_answer_rewritten": _stats(_timed(lambda: service.answer({"query": [LABEL_QUERY]}, None), n)),
        "endpoint_answer_hand_written": _stats(_timed(lambda: service.answer({"query": [PLAIN_QUERY]}, None), n)),
    }


def _http(url: str, query: str) -> bytes:
    req = urllib.request.Request(url, data=urllib.parse.urlencode({"query": query}).encode(),
                                 headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return resp.read()


def bench_modes(kg: KGStore, *, n: int = 30) -> dict:
    """In process (no HTTP), taxogen's endpoint over HTTP, and the Oxigraph server over HTTP."""
    import uvicorn

    from kg.sparql.endpoint import create_app

    out: dict = {"query": f"subclasses of {ROOT_CLASS} with labels (plain SPARQL)"}
    out["in_process_no_http"] = _stats(_timed(lambda: _rows(kg, PLAIN_QUERY), n))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(kg, SparqlSettings(port=port)), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_http(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D")
        out["taxogen_endpoint_http"] = _stats(_timed(lambda: _http(f"http://127.0.0.1:{port}/query", PLAIN_QUERY), n))
        out["taxogen_endpoint_http_wdqs_label"] = _stats(
            _timed(lambda: _http(f"http://127.0.0.1:{port}/query", LABEL_QUERY), n))
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    service = SparqlService(kg)
    for name, query in (("plain", PLAIN_QUERY), ("wdqs_label", LABEL_QUERY)):
        out[f"in_process_answer_{name}"] = _stats(_timed(lambda: service.answer({"query": [query]}, None), n))
    exe = shutil.which("oxigraph")
    if exe is None or kg.path is None:
        out["oxigraph_server_http"] = "not measured (needs the 'oxigraph' command and an on-disk store)"
        return out
    port = free_port()
    proc = subprocess.Popen([exe, "serve-read-only", "--location", str(kg.path / OXI_DIR), "--bind", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/query"
        wait_http(url + "?query=ASK%7B%7D")
        out["oxigraph_server_http"] = _stats(_timed(lambda: _http(url, PLAIN_QUERY), n))

        def fronted(query: str) -> bytes:
            # what a taxogen endpoint fronting the Oxigraph server does: rewrite, then forward
            p = service.prepare(query)  # the same rewrite cache a fronting endpoint would keep
            prologue = "".join(f"PREFIX {k}: <{v}>\n" for k, v in p.prefixes.items())
            return _http(url, prologue + p.text)

        for name, query in (("plain", PLAIN_QUERY), ("wdqs_label", LABEL_QUERY)):
            out[f"fronting_oxigraph_answer_{name}"] = _stats(_timed(lambda: fronted(query), n))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return out


def bench_endpoint(kg: KGStore, *, n: int = 50) -> dict:
    """Both parts of the endpoint benchmark."""
    return {"label_service": bench_label_service(kg, n=n), "modes": bench_modes(kg, n=max(10, n // 2))}
