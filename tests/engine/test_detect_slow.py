"""Raw text in, sanitized text out: detection with the spaCy model, CLI, HTTP and Presidio (slow)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.config import EngineConfig
from engine.engine import Engine
from engine.types import EntityType, IdentifierType

pytestmark = pytest.mark.slow

BIO = ("Ingrid Solberg (born 18 July 1980 in Oslo) is a Norwegian geologist. Solberg studied at the University "
       "of Oslo and worked in London for seven years. In 2015 she moved to Zürich, Switzerland.")


@pytest.fixture(scope="module")
def engine(sample_kg):
    return Engine.from_store(sample_kg, EngineConfig(model="none"))


def test_given_raw_biography_when_detect_then_persons_linked_and_dates_whole(engine):
    spans = engine.detect(BIO)
    masked = {s.text: s for s in spans if s.masked}
    assert masked["Ingrid Solberg"].identifier_type is IdentifierType.DIRECT
    assert masked["Solberg"].entity_id == masked["Ingrid Solberg"].entity_id
    assert masked["18 July 1980"].entity_type is EntityType.DATETIME
    assert {"Oslo", "London", "University of Oslo"} <= set(masked)
    assert all(0 <= s.score <= 1 for s in spans)


def test_given_raw_text_when_sanitized_then_no_name_place_or_date_survives(engine):
    result = engine.sanitize(BIO, engine.detect_mentions(BIO))
    for original in ("Ingrid", "Solberg", "18 July 1980", "Oslo", "London", "Zürich", "2015"):
        assert original not in result.text
    assert "PERSON 1" in result.text and result.text.count("PERSON 1") == 2  # one id for both mentions


def test_given_txt_when_cli_detect_and_sanitize_then_spans_and_sanitized_text(tmp_path):
    src = tmp_path / "bio.txt"
    src.write_text(BIO, encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["detect", str(src), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output.strip().splitlines()[-1])
    assert any(s["text"] == "Ingrid Solberg" and s["identifier_type"] == "DIRECT" for s in doc["spans"])
    out = tmp_path / "out.jsonl"
    res = runner.invoke(app, ["sanitize", str(src), "--out", str(out), "--format", "jsonl", "--no-progress"])
    assert res.exit_code == 0, res.output
    text = json.loads(out.read_text(encoding="utf-8"))["text"]
    assert "Solberg" not in text and "Oslo" not in text


def test_given_missing_file_when_cli_detect_then_exit_1():
    res = CliRunner().invoke(app, ["detect", "no/such/file.txt"])
    assert res.exit_code == 1 and "no such file" in res.output


def test_given_demo_then_starts_from_plain_text_and_sanitizes():
    res = CliRunner().invoke(app, ["demo", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output[res.output.index("{"):])
    assert "Ingrid" not in out["text"] and out["replacements"]
    assert any(r["original"] == "Ingrid Solberg" for r in out["replacements"])


def test_given_http_body_without_mentions_then_detected_and_empty_list_masks_nothing(engine):
    pytest.importorskip("fastapi", reason="needs the [server] extra")
    from fastapi.testclient import TestClient

    from engine.api import create_app

    client = TestClient(create_app(engine))
    detected = client.post("/sanitize", json={"text": BIO}).json()
    assert "Solberg" not in detected["text"] and detected["replacements"]
    nothing = client.post("/sanitize", json={"text": BIO, "mentions": []}).json()
    assert nothing["text"] == BIO and nothing["replacements"] == []
    spans = client.post("/detect", json={"text": BIO}).json()["spans"]
    assert any(s["text"] == "Oslo" for s in spans)


def test_given_presidio_pipeline_when_generalize_operator_then_taxogen_replacements(engine):
    pytest.importorskip("presidio_analyzer")
    from presidio_anonymizer import AnonymizerEngine
    from presidio_anonymizer.entities import OperatorConfig

    from engine.integrations.presidio import GazetteerRecognizer, generalize_operator, offline_analyzer

    analyzer = offline_analyzer(extra_recognizers=(GazetteerRecognizer(engine.detector.finder.gazetteer),))
    results = analyzer.analyze(BIO, language="en")
    found = {BIO[r.start:r.end]: r.entity_type for r in results}
    assert found.get("geologist") == "DEM"  # from taxogen's gazetteer
    assert found.get("Ingrid Solberg") == "PERSON"  # from Presidio's spaCy NER
    anonymizer = AnonymizerEngine()
    anonymizer.add_anonymizer(generalize_operator(engine))
    out = anonymizer.anonymize(BIO, results, operators={"DEFAULT": OperatorConfig("generalize")})
    assert "Oslo" not in out.text and "Ingrid Solberg" not in out.text
    by_entity = {item.entity_type: item.text for item in out.items}
    assert by_entity["PERSON"].startswith("PERSON")
    assert any(item.operator == "generalize" for item in out.items)
    assert "city" in out.text or "municipality" in out.text  # a place became its class, not a mask


def test_given_no_network_when_presidio_analyzer_then_nothing_is_downloaded(monkeypatch):
    pytest.importorskip("presidio_analyzer")
    import socket

    import spacy.cli

    from engine.integrations.presidio import offline_analyzer

    def refuse(*args, **kwargs):
        raise AssertionError("tried to reach the network")

    monkeypatch.setattr(spacy.cli, "download", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    analyzer = offline_analyzer()
    results = analyzer.analyze("Write to ingrid@example.no or visit www.example.org, says Ingrid Solberg.", language="en")
    assert {"EMAIL_ADDRESS", "PERSON"} <= {r.entity_type for r in results}
