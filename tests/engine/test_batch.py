import json

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.io.docio import AtomicWriter, BadRecord, read_documents

runner = CliRunner()


def write_jsonl(path, records):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")


GOOD = {"id": "d1", "text": "She was born in Oslo in 1980.", "mentions": [
    {"start": 16, "end": 20, "entity_type": "LOC"}, {"start": 24, "end": 28, "entity_type": "DATETIME"}]}
GOOD2 = {**GOOD, "id": "d3"}


def test_given_mixed_records_then_bad_ones_are_reported_with_position(tmp_path):
    src = tmp_path / "in.jsonl"
    write_jsonl(src, [GOOD, "{not json", {"text": "x", "mentions": "none"}, {"text": "abc", "mentions": [{"start": 0, "end": 2}]},
                      {"id": "d4", "text": "no mentions key: detected"}, GOOD2])
    recs = list(read_documents(src))
    bad = [r for r in recs if isinstance(r, BadRecord)]
    assert [b.position for b in bad] == ["in.jsonl:2", "in.jsonl:3", "in.jsonl:4"]
    assert "invalid JSON" in bad[0].reason and "mentions" in bad[1].reason and "entity_type" in bad[2].reason
    assert recs[4].mentions is None


def test_given_file_when_sanitize_then_results_skip_bad_records_and_hide_originals(tmp_path):
    src = tmp_path / "in.jsonl"
    bad_offsets = {"id": "d2", "text": "short", "mentions": [{"start": 0, "end": 99, "entity_type": "LOC"}]}
    write_jsonl(src, [GOOD, bad_offsets, GOOD2])
    out = tmp_path / "out.jsonl"
    res = runner.invoke(app, ["sanitize", str(src), "--out", str(out), "--no-progress", "--config", str(_cfg(tmp_path))])
    assert res.exit_code == 0, res.output
    assert "in.jsonl:2" in res.output and "1 bad record skipped" in res.output
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(lines) == 2 and lines[0]["text"] == "She was born in a city in Norway in the early 1980s."
    assert "original" not in lines[0]["replacements"][0]


def test_given_strict_when_a_record_is_bad_then_exit_1_and_no_output_file(tmp_path):
    src = tmp_path / "in.jsonl"
    write_jsonl(src, [GOOD, "{broken"])
    out = tmp_path / "out.jsonl"
    res = runner.invoke(app, ["sanitize", str(src), "--out", str(out), "--strict", "--no-progress", "--config", str(_cfg(tmp_path))])
    assert res.exit_code == 1 and not out.exists() and not list(tmp_path.glob(".out.jsonl.*"))


def test_given_directory_and_wikireplace_then_one_output_per_file(tmp_path, wikireplace_path):
    d = tmp_path / "docs"
    d.mkdir()
    data = json.loads(wikireplace_path.read_text())[:3]
    (d / "wr.json").write_text(json.dumps(data))
    write_jsonl(d / "more.jsonl", [GOOD])
    res = runner.invoke(app, ["sanitize", str(d), "--out", str(tmp_path / "out"), "--no-progress", "--config", str(_cfg(tmp_path))])
    assert res.exit_code == 0, res.output
    wr = [json.loads(l) for l in (tmp_path / "out" / "wr.jsonl").read_text().splitlines()]
    assert [r["id"] for r in wr] == [doc["doc_id"] for doc in data]
    assert (tmp_path / "out" / "more.jsonl").exists()


def test_given_crash_while_writing_then_old_output_is_intact(tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    with pytest.raises(RuntimeError):
        with AtomicWriter(target) as fh:
            fh.write("half")
            raise RuntimeError("crash")
    assert target.read_text() == "old\n" and len(list(tmp_path.iterdir())) == 1


def _cfg(tmp_path):
    cfg = tmp_path / "first-rung.toml"
    cfg.write_text('[taxogen]\nmodel = "none"\n')
    return cfg
