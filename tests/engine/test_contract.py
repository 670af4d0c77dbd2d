"""One input contract: the HTTP API (real uvicorn) and the CLI (typer) accept and reject the same inputs,
with the same one-line messages, and no error ever quotes the submitted text."""

import json
import re

import httpx
import pytest

pytest.importorskip("fastapi", reason="needs the [server] extra")
from typer.testing import CliRunner

from engine.api import create_app
from engine.cli import app
from engine.config import EngineConfig
from engine.engine import Engine
from tests.engine.live import uvicorn_server

pytestmark = pytest.mark.server
runner = CliRunner()
SECRET = "Ingrid Sølberg"
TEXT = f"{SECRET} was born in Oslo in 1980."
OSLO = TEXT.index("Oslo")


@pytest.fixture(scope="module")
def engine(sample_kg):
    return Engine.from_store(sample_kg, EngineConfig(model="none"))


@pytest.fixture(scope="module")
def base_url(engine):
    with uvicorn_server(create_app(engine, max_body_bytes=1_000_000)) as url:
        yield url


@pytest.fixture
def cfg(tmp_path):
    p = tmp_path / "first-rung.toml"
    p.write_text('[taxogen]\nmodel = "none"\n')
    return p


def cli_sanitize(tmp_path, cfg, *docs, extra=()):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    res = runner.invoke(app, ["sanitize", str(src), "--out", str(out), "--no-progress", "--config", str(cfg), *extra])
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    return res, rows


def mention(start=OSLO, end=OSLO + 4, etype="LOC", **kw):
    return {"start": start, "end": end, "entity_type": etype, **kw}


BAD_DOCUMENTS = {
    "float offset": ({"text": TEXT, "mentions": [mention(end=float(OSLO + 4))]}, "end must be an integer"),
    "string offset": ({"text": TEXT, "mentions": [mention(start=str(OSLO))]}, "start must be an integer"),
    "boolean offset": ({"text": TEXT, "mentions": [mention(start=True)]}, "start must be an integer"),
    # a document without the key is detected; an explicit null is still an error
    "mentions null": ({"text": TEXT, "mentions": None}, "'mentions' must be a list of spans"),
    "mentions not a list": ({"text": TEXT, "mentions": {"start": 0}}, "'mentions' must be a list"),
    "span_text mismatch": ({"text": TEXT, "mentions": [mention(span_text="Bergen")]}, "span_text does not match"),
    "repeated mention": ({"text": TEXT, "mentions": [mention(), mention()]}, "mention #1: repeats mention #0"),
    "empty range": ({"text": TEXT, "mentions": [mention(end=OSLO)]}, "not a non-empty range"),
    "outside text": ({"text": TEXT, "mentions": [mention(end=999)]}, "not a non-empty range"),
    "unknown type": ({"text": TEXT, "mentions": [mention(etype=SECRET)]}, "unknown entity type"),
    "unknown identifier": ({"text": TEXT, "mentions": [mention(identifier_type=SECRET)]}, "unknown identifier type"),
    "text not a string": ({"text": [SECRET], "mentions": []}, "'text' must be a string"),
}


@pytest.mark.parametrize("name", list(BAD_DOCUMENTS))
def test_given_bad_document_then_http_422_and_cli_bad_record_say_the_same_without_the_text(name, base_url, tmp_path, cfg):
    body, fragment = BAD_DOCUMENTS[name]
    r = httpx.post(f"{base_url}/sanitize", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert set(r.json()) == {"detail", "position"} and fragment in detail
    assert "Sølberg" not in r.text and "Ingrid" not in r.text and "Bergen" not in r.text
    res, rows = cli_sanitize(tmp_path, cfg, body)
    lines = res.output.splitlines()
    assert f"bad record in.jsonl:1: {detail}" in lines, res.output
    assert res.exit_code == 1 and rows == [] and "Traceback" not in res.output  # all-bad input fails
    assert "Sølberg" not in res.output and "Bergen" not in res.output
    assert "error: no document of in.jsonl was sanitized (every record was bad or left out); no output written for it" in lines
    assert not (tmp_path / "out.jsonl").exists()


def test_given_good_document_then_http_and_cli_give_the_same_result(base_url, tmp_path, cfg):
    body = {"id": "d", "text": TEXT, "mentions": [mention(0, len(SECRET), "PERSON", identifier_type="DIRECT"), mention(),
                                                  mention(TEXT.index("1980"), TEXT.index("1980") + 4, "DATETIME")]}
    r = httpx.post(f"{base_url}/sanitize", json=body)
    assert r.status_code == 200, r.text
    res, rows = cli_sanitize(tmp_path, cfg, body)
    assert res.exit_code == 0 and rows[0]["text"] == r.json()["text"]
    assert SECRET not in r.json()["text"] and "Oslo" not in r.json()["text"]


@pytest.mark.parametrize("span", ["", "   "])
def test_given_empty_span_then_generalize_is_refused_by_http_and_cli(span, base_url):
    r = httpx.post(f"{base_url}/generalize", json={"span": span, "entity_type": "LOC"})
    assert r.status_code == 422 and r.json() == {"detail": "span is empty", "position": None}
    res = runner.invoke(app, ["generalize", span, "--type", "LOC"])
    assert res.exit_code == 1 and res.output == "error: span is empty\n"


def test_given_mention_ending_inside_a_grapheme_then_the_accent_is_masked_too(base_url, tmp_path, cfg):
    text = "Jose\u0301 Garcia lives in Oslo."
    body = {"id": "g", "text": text, "mentions": [{"start": 0, "end": 4, "entity_type": "PERSON", "identifier_type": "DIRECT"}]}
    r = httpx.post(f"{base_url}/sanitize", json=body)
    res, rows = cli_sanitize(tmp_path, cfg, body)
    for out in (r.json(), rows[0]):
        assert out["text"] == "PERSON 1 Garcia lives in Oslo."
        assert (out["replacements"][0]["start"], out["replacements"][0]["end"]) == (0, 5)


def test_given_overlapping_mentions_then_merge_is_reported_and_words_stay_whole(base_url, tmp_path, cfg):
    text = "Ada Lovelace was born on 18 July 1980."
    ms = [{"start": 0, "end": 12, "entity_type": "PERSON", "identifier_type": "DIRECT"},
          {"start": 20, "end": 30, "entity_type": "DATETIME"},  # "n on 18 Ju": starts inside "born"
          {"start": 25, "end": 37, "entity_type": "DATETIME"}]
    body = {"id": "o", "text": text, "mentions": ms}
    r = httpx.post(f"{base_url}/sanitize", json=body)
    res, rows = cli_sanitize(tmp_path, cfg, body)
    for out in (r.json(), rows[0]):
        assert not re.search(r"\bbor[^n]", out["text"]) and out["text"].startswith("PERSON 1 was ")
        merged = [rep for rep in out["replacements"] if "merged overlapping mentions #1, #2 into 17–37" in rep.get("note", "")]
        assert len(merged) == 1 and (merged[0]["start"], merged[0]["end"]) == (17, 37)
    assert "note in.jsonl:1: merged overlapping mentions #1, #2 into 17–37" in res.output


def test_given_duplicate_document_ids_then_the_second_is_a_bad_record(tmp_path, cfg):
    doc = {"id": "same", "text": TEXT, "mentions": [mention()]}
    res, rows = cli_sanitize(tmp_path, cfg, doc, doc)
    assert res.exit_code == 0 and len(rows) == 1
    assert "bad record in.jsonl:2: duplicate document id (first at in.jsonl:1)" in res.output


def test_given_body_over_the_limit_or_wrong_content_type_then_answer_never_holds_the_text(engine):
    with uvicorn_server(create_app(engine, max_body_bytes=20_000)) as url:
        big = {"text": (SECRET + " ") * 3000, "mentions": []}
        r = httpx.post(f"{url}/sanitize", json=big)
        assert r.status_code == 413 and SECRET not in r.text and len(r.content) < 200
        r = httpx.post(f"{url}/sanitize", content=json.dumps({"text": TEXT, "mentions": []}), headers={"content-type": "text/plain"})
        assert r.status_code == 415 and SECRET not in r.text and r.json()["detail"] == "Content-Type must be application/json"
        r = httpx.post(f"{url}/sanitize", content=f'{{"text": "{SECRET}", "mentions": [', headers={"content-type": "application/json"})
        assert r.status_code == 422 and SECRET not in r.text and r.json()["detail"].startswith("invalid JSON")


def test_given_text_over_the_character_limit_then_422_names_the_limit_not_the_text(base_url):
    r = httpx.post(f"{base_url}/sanitize", json={"text": "é" * 200_001, "mentions": []})
    assert r.status_code == 422 and r.json()["detail"] == "text has 200,001 characters; the limit is 200,000"


def test_given_docs_page_then_swagger_assets_come_from_the_server_itself(base_url):
    html = httpx.get(f"{base_url}/docs").text
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and all(a.startswith("/") for a in assets), assets
    for a in assets:
        r = httpx.get(base_url + a)
        assert r.status_code == 200 and len(r.content) > 100
    spec = httpx.get(f"{base_url}/openapi.json").json()
    body = spec["paths"]["/sanitize"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["required"]) == {"text"} and "$ref" not in json.dumps(body)  # no mentions → detected
    m = body["properties"]["mentions"]
    items = m.get("items") or next(v["items"] for v in m["anyOf"] if v.get("type") == "array")
    assert items["properties"]["start"]["type"] == "integer"
