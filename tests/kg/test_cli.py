import json

from typer.testing import CliRunner

from engine.cli import app
from tests.conftest import FIXTURES, ROOT

runner = CliRunner()


def test_given_dump_when_build_then_stats_and_chains_work_on_the_store(tmp_path):
    store = tmp_path / "s"
    res = runner.invoke(app, ["kg", "build", "--source", str(FIXTURES / "dump_sample.nt"), "--store", str(store), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "3 malformed" in res.output and "line 11" in res.output
    res = runner.invoke(app, ["kg", "stats", "--store", str(store), "--json"])
    assert json.loads(res.output)["per_predicate"]["http://www.wikidata.org/prop/direct/P279"] == 4
    res = runner.invoke(app, ["kg", "chains", "Q520549", "--store", str(store), "--json"])
    data = json.loads(res.output)
    assert [r["label"] for r in data["ladders"]["P279"]["first"]] == ["earth scientist", "scientist", "person"]


def test_given_strict_build_of_malformed_dump_then_exit_code_1(tmp_path):
    res = runner.invoke(app, ["kg", "build", "--source", str(FIXTURES / "dump_sample.nt"), "--store", str(tmp_path / "s"), "--strict", "--no-progress"])
    assert res.exit_code == 1 and "dump_sample.nt:11" in res.output


def test_given_embedded_default_then_chains_print_ladders():
    res = runner.invoke(app, ["kg", "chains", "Q520549"])
    assert res.exit_code == 0 and "earth scientist" in res.output and "person" in res.output


def test_given_query_file_with_binding_then_rows_in_each_format():
    rq = str(ROOT / "queries" / "label_lookup.rq")
    res = runner.invoke(app, ["kg", "query", rq, "--bind", "label=Oslo", "--format", "json"])
    assert json.loads(res.output)[0]["item"].endswith("/Q585")
    res = runner.invoke(app, ["kg", "query", rq, "--bind", "label=Oslo", "--format", "csv"])
    assert res.output.splitlines()[0] == "label,item,kind"
    res = runner.invoke(app, ["kg", "query", rq, "--bind", "item=Q5"])
    assert res.exit_code == 1 and "not a declared input" in res.output


def test_given_bad_qid_then_exit_code_1():
    res = runner.invoke(app, ["kg", "chains", "Oslo"])
    assert res.exit_code == 1 and "not a Wikidata id" in res.output


def test_given_overlay_command_then_validates_shipped_overlay():
    res = runner.invoke(app, ["kg", "overlay"])
    assert res.exit_code == 0 and "overlay valid" in res.output
