"""The SPARQL 1.1 protocol of kg/sparql/endpoint.py on the embedded sample graph (in process)."""

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("starlette", reason="taxogen kg serve needs the [server] extra")
from starlette.testclient import TestClient

from kg.sparql import SparqlSettings, create_app

Q = "SELECT ?c ?cLabel WHERE { wd:Q520549 wdt:P279 ?c SERVICE wikibase:label { bd:serviceParam wikibase:language 'en' } }"
EARTH = "http://www.wikidata.org/entity/Q11424604"


@pytest.fixture(scope="module")
def client(sample_kg):
    with TestClient(create_app(sample_kg)) as c:
        yield c


def test_given_get_and_both_posts_then_same_json_answer(client):
    a = client.get("/sparql", params={"query": Q})
    b = client.post("/query", data={"query": Q})
    c = client.post("/query", content=Q, headers={"Content-Type": "application/sparql-query"})
    for r in (a, b, c):
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/sparql-results+json")
        body = r.json()
        assert body["head"]["vars"] == ["c", "cLabel"]
        assert body["results"]["bindings"] == [{"c": {"type": "uri", "value": EARTH},
                                                "cLabel": {"type": "literal", "value": "earth scientist", "xml:lang": "en"}}]


def test_given_accept_header_or_format_param_then_xml_csv_tsv(client):
    xml = client.get("/query", params={"query": Q}, headers={"Accept": "application/sparql-results+xml"})
    ns = {"s": "http://www.w3.org/2005/sparql-results#"}
    root = ET.fromstring(xml.content)
    assert root.find("s:results/s:result/s:binding[@name='c']/s:uri", ns).text == EARTH
    csv_ = client.get("/query", params={"query": Q}, headers={"Accept": "text/csv"})
    assert list(csv.reader(io.StringIO(csv_.text))) == [["c", "cLabel"], [EARTH, "earth scientist"]]
    tsv = client.get("/query", params={"query": Q, "format": "tsv"})
    assert tsv.text.splitlines() == ["?c\t?cLabel", f'<{EARTH}>\t"earth scientist"@en']
    wdqs = client.get("/query", params={"query": Q, "format": "json"}, headers={"Accept": "text/csv"})
    assert json.loads(wdqs.content)["head"]["vars"] == ["c", "cLabel"]  # format= wins, as on WDQS
    assert client.get("/query", params={"query": Q}, headers={"Accept": "image/png"}).status_code == 406


def test_given_ask_and_construct_then_boolean_and_turtle(client):
    ask = client.get("/query", params={"query": "ASK { wd:Q520549 wdt:P279* wd:Q215627 }"})
    assert ask.json() == {"head": {}, "boolean": True}
    con = client.get("/query", params={"query": "CONSTRUCT { ?c rdfs:label ?l } WHERE { wd:Q520549 wdt:P279 ?c . ?c rdfs:label ?l }"})
    assert con.headers["content-type"].startswith("text/turtle") and "earth scientist" in con.text


def test_given_updates_then_403_and_store_unchanged(client, sample_kg):
    before = len(sample_kg)
    assert client.post("/query", data={"update": "DROP ALL"}).status_code == 403
    assert client.post("/update", data={"update": "DROP ALL"}).status_code == 403
    assert client.post("/query", content="DROP ALL", headers={"Content-Type": "application/sparql-update"}).status_code == 403
    r = client.post("/query", data={"query": "INSERT DATA { <http://e/a> <http://e/b> <http://e/c> }"})
    assert r.status_code == 403 and "read-only" in r.text
    assert len(sample_kg) == before


def test_given_service_or_unsupported_extension_then_400_naming_it(client):
    r = client.get("/query", params={"query": "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }"})
    assert r.status_code == 400 and "SERVICE <http://127.0.0.1:9/sparql> is not allowed" in r.text
    r = client.get("/query", params={"query": 'SELECT * WHERE { SERVICE wikibase:mwapi { bd:serviceParam wikibase:api "Search" } }'})
    assert r.status_code == 400 and "wikibase:mwapi" in r.text
    r = client.get("/query", params={"query": "SELECT ?x WHERE { ?x ?p }"})
    assert r.status_code == 400 and "syntax error" in r.text and "Traceback" not in r.text


def test_given_limits_then_413_400_and_503(sample_kg):
    tight = SparqlSettings(max_result_bytes=20_000, max_query_chars=200, timeout_s=30)
    with TestClient(create_app(sample_kg, tight)) as c:
        assert c.get("/query", params={"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 3"}).status_code == 200
        r = c.get("/query", params={"query": "SELECT * WHERE { ?s ?p ?o }"})  # ~300 kB as JSON
        assert r.status_code == 400 and "larger than 20000 bytes" in r.text
        long = "SELECT * WHERE { ?s ?p ?o } " + "#" * 300
        assert c.get("/query", params={"query": long}).status_code == 413
    with TestClient(create_app(sample_kg, SparqlSettings(timeout_s=1e-6))) as c:
        r = c.get("/query", params={"query": "SELECT * WHERE { ?s ?p ?o }"})
        assert r.status_code == 503 and "timed out" in r.text


def test_given_settings_file_then_sparql_table_is_read_and_unknown_keys_fail(tmp_path):
    from kg.errors import KGError

    f = tmp_path / "t.toml"
    f.write_text('[taxogen.sparql]\ntimeout_s = 5\nservice_allow_list = ["https://query.wikidata.org/sparql"]\n')
    s = SparqlSettings.load(f, overrides={"port": 9999})
    assert (s.timeout_s, s.port, s.host, s.service_allow_list) == (5.0, 9999, "127.0.0.1", ("https://query.wikidata.org/sparql",))
    f.write_text("[taxogen.sparql]\ntimout_s = 5\n")
    with pytest.raises(KGError, match="unknown setting taxogen.sparql.timout_s"):
        SparqlSettings.load(f)
    assert SparqlSettings().service_allow_list == ()


def test_given_one_toml_with_engine_and_sparql_tables_then_both_load(tmp_path):
    from engine.config import EngineConfig

    f = tmp_path / "taxogen.toml"
    f.write_text('[taxogen]\nmax_ladder = 7\n[taxogen.sparql]\nport = 7000\n')
    assert EngineConfig.load(f, env={}).max_ladder == 7
    assert SparqlSettings.load(f).port == 7000


def test_given_graph_parameters_then_they_select_store_graphs(client):
    q = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    overlay = client.get("/query", params={"query": q, "default-graph-uri": "urn:taxogen:overlay"}).json()
    default = client.get("/query", params={"query": q}).json()
    n = [int(r["results"]["bindings"][0]["n"]["value"]) for r in (overlay, default)]
    # the overlay alone is one graph of the store, not the default one (their sizes say nothing:
    # the sample store is about as small as the overlay)
    assert n[0] > 0 and n[1] > 0 and n[0] != n[1]
    assert client.get("/query", params={"query": q, "default-graph-uri": "not an iri"}).status_code == 400


def test_given_sample_graph_then_label_service_bench_compares_equal_rows(sample_kg):
    from taxogen_tools.bench.sparql import bench_label_service

    out = bench_label_service(sample_kg, n=2)
    assert out["same_rows"] is True and out["rows"] > 0
    for key in ("rewrite_only", "rewritten_total", "hand_written", "endpoint_answer_rewritten", "endpoint_answer_hand_written"):
        assert out[key]["n"] == 2 and out[key]["p50_ms"] > 0
