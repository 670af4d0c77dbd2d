import pytest

from kg import ChainIndex, KGStore, build_from_triples
from kg.extract import extract_subtaxonomy
from kg.queries import load_query, render
from kg.remote import EndpointConfig, SparqlClient

pytestmark = pytest.mark.server


def test_given_root_then_extraction_from_a_real_endpoint_builds_a_store_with_its_chains(sample_endpoint, tmp_path):
    client = SparqlClient(EndpointConfig(url=sample_endpoint, timeout_s=10))
    lines = list(extract_subtaxonomy(client, ["Q901"], page_size=25))
    assert len(lines) == len(set(lines)) > 25  # several pages, no duplicates
    report = build_from_triples(iter(lines), tmp_path / "s", source=sample_endpoint, progress=False)
    assert report.triples == len(lines)
    kg = KGStore.read_only(tmp_path / "s")
    ladder = ChainIndex(kg).chains("Q520549").ladders["P279"].first
    assert [r.label for r in ladder][:2] == ["earth scientist", "scientist"]
    assert client.stats.requests >= 3 and client.stats.failures == 0


def test_given_bindings_then_rendered_text_carries_them_only_in_a_values_block():
    q = load_query("label_lookup")
    text = render(q, {"label": 'x" } UNION { ?s ?p ?o } #'}, limit=5, offset=10)
    assert text.count("VALUES (?label)") == 1
    assert '"x\\" } UNION { ?s ?p ?o } #"@en' in text
    assert text.rstrip().endswith("LIMIT 5\nOFFSET 10")


def test_given_endpoint_option_then_cli_builds_the_store(sample_endpoint, tmp_path):
    from typer.testing import CliRunner

    from engine.cli import app

    res = CliRunner().invoke(app, ["kg", "build", "--endpoint", sample_endpoint, "--roots", "Q515", "--store", str(tmp_path / "s"), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert KGStore.read_only(tmp_path / "s").select("label_lookup", label="city")
