"""`taxogen kg serve`: the store read-only over the SPARQL protocol on 127.0.0.1."""

import subprocess
import sys
import urllib.parse
import urllib.request
import json

import pytest

from kg import build_from_dump
from tests.conftest import FIXTURES, ROOT
from tests.servers import free_port, wait_http

pytestmark = pytest.mark.server


def test_given_store_when_kg_serve_then_shipped_queries_answer_over_http(tmp_path):
    store = tmp_path / "s"
    build_from_dump(FIXTURES / "dump_sample.nt", store, progress=False)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "kg", "serve", "--store", str(store), "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D")
        # a maintainer binds ?item with a VALUES block when sending the file over HTTP
        from kg.queries import load_query, render

        text = render(load_query("chain_edges_p279"), {"item": "Q520549"})
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/query", data=urllib.parse.urlencode({"query": text}).encode(),
            headers={"Accept": "application/sparql-results+json"},
        )
        rows = json.loads(urllib.request.urlopen(req, timeout=10).read())["results"]["bindings"]
        parents = {r["parent"]["value"].rsplit("/", 1)[1] for r in rows}
        assert {"Q11424604", "Q901", "Q215627"} <= parents
        update = urllib.request.Request(f"http://127.0.0.1:{port}/update", data=b"update=DROP ALL", method="POST")
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(update, timeout=10)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_given_missing_store_then_kg_serve_fails_clearly(tmp_path):
    res = subprocess.run([sys.executable, "-m", "engine.cli", "kg", "serve", "--store", str(tmp_path / "none")], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 1 and "no taxogen store" in res.stderr
