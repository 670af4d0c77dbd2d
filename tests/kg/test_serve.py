"""`taxogen kg serve`: the store read-only over the SPARQL protocol on 127.0.0.1.

Every server these tests start is stopped by SIGTERM and checked to leave no process and
no listening port behind.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="taxogen kg serve needs the [server] extra")

from kg import build_from_dump
from tests.conftest import FIXTURES, ROOT
from tests.servers import free_port, wait_http

pytestmark = pytest.mark.server


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def port_is_free(port: int) -> bool:
    """Nothing listens on ``port`` (connections in TIME_WAIT do not count, as for any server)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            s.listen(1)
        except OSError:
            return False
    return True


@contextmanager
def kg_serve(*args: str, port: int | None = None):
    """``taxogen kg serve`` in a subprocess; stopped with SIGTERM and checked: nothing left behind."""
    port = port or free_port()
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "kg", "serve", "--port", str(port), *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_http(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D", timeout=60)
        yield port, proc
    finally:
        below = descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AssertionError("kg serve did not stop on SIGTERM within 15 s")
        left = [p for p in below if alive(p)]
        for p in left:
            os.kill(p, signal.SIGKILL)
        assert not left, f"kg serve left child processes {left}"


def http_query(port: int, query: str, accept: str = "application/sparql-results+json") -> tuple[int, bytes]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}/query", data=urllib.parse.urlencode({"query": query}).encode(),
                                 headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_given_store_when_kg_serve_then_shipped_queries_answer_over_http(tmp_path):
    store = tmp_path / "s"
    build_from_dump(FIXTURES / "dump_sample.nt", store, progress=False)
    with kg_serve("--store", str(store)) as (port, _):
        # a maintainer binds ?item with a VALUES block when sending the file over HTTP
        from kg.queries import load_query, render

        status, body = http_query(port, render(load_query("chain_edges_p279"), {"item": "Q520549"}))
        assert status == 200
        parents = {r["parent"]["value"].rsplit("/", 1)[1] for r in json.loads(body)["results"]["bindings"]}
        assert {"Q11424604", "Q901", "Q215627"} <= parents
        update = urllib.request.Request(f"http://127.0.0.1:{port}/update", data=b"update=DROP ALL", method="POST")
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(update, timeout=10)
        assert err.value.code == 403
        assert json.loads(http_query(port, "ASK { wd:Q520549 wdt:P279 wd:Q11424604 }")[1]) == {"head": {}, "boolean": True}


def test_given_sigterm_then_port_is_free_and_no_child_is_left():
    port = free_port()
    with kg_serve(port=port) as (_, proc):
        assert not port_is_free(port)
        below = descendants(proc.pid)
        assert below == set(), f"kg serve started child processes: {below}"
        pid = proc.pid
    # uvicorn shuts down gracefully, then re-raises SIGTERM so the exit status says why it stopped
    assert proc.returncode in (0, -signal.SIGTERM), proc.stderr.read().decode()
    assert b"Traceback" not in proc.stderr.read()
    assert not alive(pid)
    deadline = time.monotonic() + 5
    while not port_is_free(port) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert port_is_free(port), f"port {port} still in use after SIGTERM"
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


SSRF_QUERIES = [
    "SELECT * WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ ?s ?p ?o FILTER EXISTS {{ service silent <{url}> {{ ?s ?p ?o }} }} }} LIMIT 1",
    "SELECT ?s WITH {{ SELECT ?s WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }} }} AS %q WHERE {{ INCLUDE %q }}",
    "PREFIX x: <{base}> SELECT * WHERE {{ SERVICE x:sparql {{ ?s ?p ?o }} "
    "SERVICE wikibase:label {{ bd:serviceParam wikibase:language 'en' }} }}",
    "SELECT * FROM <{url}> WHERE {{ ?s ?p ?o }} LIMIT 1",
]


@pytest.mark.slow
def test_given_service_to_a_local_listener_then_400_and_the_listener_sees_no_connection():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.5)  # the 400 comes back first, so a connection would already be waiting
    base = f"http://127.0.0.1:{listener.getsockname()[1]}/"
    try:
        with kg_serve() as (port, _):
            for template in SSRF_QUERIES:
                status, body = http_query(port, template.format(url=base + "sparql", base=base))
                if "FROM" in template:
                    assert status == 200  # FROM names a graph of the store; it never fetches
                else:
                    assert status == 400 and b"is not allowed" in body, (template, status, body)
                with pytest.raises(socket.timeout):
                    conn, _ = listener.accept()
                    conn.close()
                    raise AssertionError(f"the endpoint connected to the listener for {template}")
        # control: the same listener does see the endpoint when its IRI is allow-listed
        with kg_serve("--allow-service", base + "sparql") as (port, _):
            import threading

            seen: list[bytes] = []

            def accept_one() -> None:
                conn, _ = listener.accept()
                seen.append(conn.recv(4096))
                conn.close()

            listener.settimeout(10)
            t = threading.Thread(target=accept_one)
            t.start()
            status, _ = http_query(port, SSRF_QUERIES[0].format(url=base + "sparql", base=base))
            t.join(timeout=10)
            assert seen and seen[0].startswith(b"POST /sparql")
    finally:
        listener.close()


@pytest.mark.slow
def test_given_port_in_use_then_kg_serve_fails_with_one_line():
    with kg_serve() as (port, _):
        res = subprocess.run([sys.executable, "-m", "engine.cli", "kg", "serve", "--port", str(port)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert res.returncode == 1 and "cannot listen on 127.0.0.1" in res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_given_missing_store_then_kg_serve_fails_clearly(tmp_path):
    res = subprocess.run([sys.executable, "-m", "engine.cli", "kg", "serve", "--store", str(tmp_path / "none")], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 1 and "no taxogen store" in res.stderr
