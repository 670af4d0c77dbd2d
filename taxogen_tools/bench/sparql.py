"""Benchmark of the SPARQL endpoint (part of ``taxogen bench kg``).

- ``label_service``: a WDQS query using ``SERVICE wikibase:label`` (rewritten by
  :func:`kg.sparql.wdqs.prepare`, rewrite time included) against the same query written by
  hand in plain SPARQL 1.1, both run in process on pyoxigraph; the rows must agree. Also the
  endpoint's whole answer to each (its rewrite cache makes repeated texts cheaper).
- ``modes``: the two designs for the endpoint, on the same queries: answering in process
  (``in_process_answer_*``: rewrite, evaluate on pyoxigraph, serialize) against fronting
  the Oxigraph server (``fronting_oxigraph_answer_*``: rewrite, forward over HTTP to
  ``oxigraph serve-read-only`` on the same store, read its answer); both without the
  client's own HTTP hop, which is the same for both. Also over HTTP to taxogen's endpoint
  and straight to the Oxigraph server.

Calls are interleaved (one of each per round) so that the load of a shared machine weighs
on every variant alike.
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
    return _interleaved({"f": fn}, n)["f"]


def _interleaved(fns: dict[str, Callable[[], object]], n: int) -> dict[str, list[float]]:
    """Time each function ``n`` times, one call of each per round in rotating order, so that
    the load of a shared machine weighs on all of them alike. One warm-up call each."""
    for fn in fns.values():
        fn()
    names = list(fns)
    out: dict[str, list[float]] = {k: [] for k in names}
    for i in range(n):
        for k in names[i % len(names):] + names[: i % len(names)]:
            t0 = time.perf_counter()
            fns[k]()
            out[k].append((time.perf_counter() - t0) * 1000.0)
    return out


def _rows(kg: KGStore, text: str, prefixes: dict[str, str] | None = None) -> list[tuple[str, str]]:
    res = kg.raw.query(text, prefixes=prefixes) if prefixes else kg.raw.query(text)
    return [(s["item"].value, s["itemLabel"].value) for s in res]


def bench_label_service(kg: KGStore, *, n: int = 50) -> dict:
    """The label-service query rewritten vs the hand-written plain query, in process (interleaved)."""
    p = prepare(LABEL_QUERY)
    rewritten, plain = _rows(kg, p.text, p.prefixes), _rows(kg, PLAIN_QUERY)
    service = SparqlService(kg)

    def run_rewritten() -> None:
        q = prepare(LABEL_QUERY)
        _rows(kg, q.text, q.prefixes)

    times = _interleaved({
        "rewrite_only": lambda: prepare(LABEL_QUERY),
        "rewritten_run_only": lambda: _rows(kg, p.text, p.prefixes),
        "rewritten_total": run_rewritten,
        "hand_written": lambda: _rows(kg, PLAIN_QUERY),
        # the endpoint's whole answer (rewrite, run, JSON); its rewrite cache serves repeated texts
        "endpoint_answer_rewritten": lambda: service.answer({"query": [LABEL_QUERY]}, None),
        "endpoint_answer_hand_written": lambda: service.answer({"query": [PLAIN_QUERY]}, None),
    }, n)
    out: dict = {"query": f"subclasses of {ROOT_CLASS} (P279*) with English labels", "rows": len(plain),
                 "same_rows": sorted(rewritten) == sorted(plain)}
    out.update({k: _stats(v) for k, v in times.items()})
    out["ratio_p50_rewritten_total_vs_hand_written"] = round(out["rewritten_total"]["p50_ms"] / out["hand_written"]["p50_ms"], 2)
    return out


def _http(url: str, query: str) -> bytes:
    req = urllib.request.Request(url, data=urllib.parse.urlencode({"query": query}).encode(),
                                 headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return resp.read()


def bench_modes(kg: KGStore, *, n: int = 30) -> dict:
    """Answering in process vs fronting the Oxigraph server, both servers up, calls interleaved."""
    import uvicorn

    from kg.sparql.endpoint import create_app

    out: dict = {"query": f"subclasses of {ROOT_CLASS} with labels, plain and with the label service"}
    service = SparqlService(kg)
    fns: dict[str, Callable[[], object]] = {
        "in_process_answer_plain": lambda: service.answer({"query": [PLAIN_QUERY]}, None),
        "in_process_answer_wdqs_label": lambda: service.answer({"query": [LABEL_QUERY]}, None),
    }
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(kg, SparqlSettings(port=port)), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    exe = shutil.which("oxigraph")
    proc = None
    try:
        ours = f"http://127.0.0.1:{port}/query"
        wait_http(ours + "?query=ASK%7B%7D")
        fns["taxogen_endpoint_http_plain"] = lambda: _http(ours, PLAIN_QUERY)
        fns["taxogen_endpoint_http_wdqs_label"] = lambda: _http(ours, LABEL_QUERY)
        if exe is not None and kg.path is not None:
            oxi_port = free_port()
            proc = subprocess.Popen([exe, "serve-read-only", "--location", str(kg.path / OXI_DIR), "--bind",
                                     f"127.0.0.1:{oxi_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            oxi = f"http://127.0.0.1:{oxi_port}/query"
            wait_http(oxi + "?query=ASK%7B%7D")

            def fronted(query: str) -> bytes:
                # what a taxogen endpoint fronting the Oxigraph server does: rewrite, then forward
                p = service.prepare(query)  # the same rewrite cache a fronting endpoint would keep
                prologue = "".join(f"PREFIX {k}: <{v}>\n" for k, v in p.prefixes.items())
                return _http(oxi, prologue + p.text)

            fns["fronting_oxigraph_answer_plain"] = lambda: fronted(PLAIN_QUERY)
            fns["fronting_oxigraph_answer_wdqs_label"] = lambda: fronted(LABEL_QUERY)
            fns["oxigraph_server_http_plain"] = lambda: _http(oxi, PLAIN_QUERY)
        else:
            out["oxigraph_server"] = "not measured (needs the 'oxigraph' command and an on-disk store)"
        out.update({k: _stats(v) for k, v in _interleaved(fns, n).items()})
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    if "fronting_oxigraph_answer_plain" in out:
        for name in ("plain", "wdqs_label"):
            out[f"ratio_p50_in_process_vs_fronting_{name}"] = round(
                out[f"in_process_answer_{name}"]["p50_ms"] / out[f"fronting_oxigraph_answer_{name}"]["p50_ms"], 2)
    return out


def bench_endpoint(kg: KGStore, *, n: int = 50) -> dict:
    """Both parts of the endpoint benchmark."""
    return {"label_service": bench_label_service(kg, n=n), "modes": bench_modes(kg, n=max(10, n // 2))}
