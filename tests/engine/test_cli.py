import json

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def test_given_span_when_generalize_then_ladder_with_provenance_as_json():
    res = runner.invoke(app, ["generalize", "geologist", "--type", "DEM", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    labels = [c["label"] for c in data["candidates"]]
    assert labels[-1] == "***" and "earth scientist" in labels
    assert data["links"][0]["qid"] == "Q520549"


def test_given_context_when_generalize_then_sense_follows_context():
    res = runner.invoke(app, ["generalize", "Norwegian", "--type", "DEM", "--context", "He speaks Norwegian.", "--json"])
    assert json.loads(res.output)["links"][0]["qid"] == "Q9043"


def test_given_bad_type_then_exit_1_with_message():
    res = runner.invoke(app, ["generalize", "x", "--type", "PLANET"])
    assert res.exit_code == 1 and "unknown entity type" in res.output


def test_given_bad_config_then_exit_1(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[taxogen]\nnope = 1\n")
    res = runner.invoke(app, ["generalize", "x", "--type", "LOC", "--config", str(cfg)])
    assert res.exit_code == 1 and "unknown setting" in res.output


def test_given_wikireplace_when_evaluate_generation_then_figures_print(wikireplace_path):
    res = runner.invoke(app, ["evaluate", "generation", "--data", str(wikireplace_path), "--json"])
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data["rules"]["DATETIME"]["mentions"] == 287
    assert data["graph"]["ALL"]["masked"] == 597
