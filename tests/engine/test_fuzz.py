"""Property-based fuzzing (hypothesis, bounded) of the HTTP API (real uvicorn) and the JSONL reader.

Random bodies, offsets of every JSON type, unicode (combining marks, emoji, surrogates
escaped in JSON), random types and junk bytes. Properties: no 500, no traceback, no
submitted text in any error answer or bad-record message, and in every 200 answer each
masked mention lies inside a replaced region (everything outside the regions is the
original text, so no masked span survives).
"""

from __future__ import annotations

import json

import httpx
import pytest

pytest.importorskip("fastapi", reason="needs the [server] extra")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.api import create_app
from engine.config import EngineConfig
from engine.io.docio import BadRecord, DocRecord, read_documents
from engine.engine import Engine
from engine.types import EntityType, IdentifierType
from tests.engine.live import uvicorn_server

pytestmark = [pytest.mark.server, pytest.mark.slow]  # ~30 s for the bounded runs below
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

TYPES = [t.value for t in EntityType] + [t.value.lower() for t in EntityType]
IDENTS = [t.value for t in IdentifierType]
CHARS = st.characters(codec="utf-8", categories=("L", "M", "N", "P", "S", "Zs", "Cc"))
WORDS = st.sampled_from(["Oslo", "Ada Lovelace", "geologist", "1980", "18 July 1980", "Norwegian", "Jose\u0301", "👨‍👩‍👧", "e\u0301"])


SECRET = "Sølberg"


@st.composite
def texts(draw) -> str:
    """Random unicode text that always holds a recognisable personal name."""
    parts = draw(st.lists(st.one_of(WORDS, st.text(CHARS, max_size=12), st.just(" ")), max_size=12))
    parts.insert(draw(st.integers(0, len(parts))), SECRET)
    return "".join(parts)


def json_values(max_leaves: int = 6):
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                        st.text(CHARS, max_size=10))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                        max_leaves=max_leaves)


@st.composite
def offsets(draw, n: int):
    good = st.integers(0, max(n, 0))
    return draw(st.one_of(good, good, good, st.integers(-3, n + 3), st.floats(0, n + 1), good.map(str), st.booleans(), st.none()))


@st.composite
def mentions(draw, text: str):
    n = len(text)
    m = {"start": draw(offsets(n)), "end": draw(offsets(n)),
         "entity_type": draw(st.one_of(st.sampled_from(TYPES), st.sampled_from(TYPES), st.text(CHARS, max_size=8), json_values(2)))}
    if draw(st.booleans()):
        m["identifier_type"] = draw(st.one_of(st.sampled_from(IDENTS), st.sampled_from(IDENTS), st.text(CHARS, max_size=8)))
    if draw(st.integers(0, 4)) == 0 and isinstance(m["start"], int) and isinstance(m["end"], int):
        m["span_text"] = draw(st.one_of(st.just(text[m["start"]:m["end"]]), st.text(CHARS, max_size=6)))
    for key in draw(st.lists(st.sampled_from(["entity_id", "related", "id", "junk"]), max_size=2, unique=True)):
        m[key] = draw(json_values(2))
    return m


@st.composite
def sanitize_bodies(draw):
    text = draw(texts())
    body = {"text": text, "mentions": draw(st.lists(mentions(text), max_size=5))}
    for key in draw(st.lists(st.sampled_from(["overlap", "readability", "with_originals", "alternatives", "text", "mentions"]),
                             max_size=2, unique=True)):
        body[key] = draw(st.one_of(json_values(3), st.sampled_from(["merge", "reject"]), st.integers(-1, 60)))
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values())
    return body


OUR_CHARS = set("–…")  # the only non-ASCII characters our own messages use


def recognisable(s: str) -> bool:
    """Long enough, and with a character no message of ours contains: cannot match by coincidence."""
    return len(s.strip()) >= 6 and any(ord(c) > 127 and c not in OUR_CHARS for c in s)


def submitted_strings(value, out=None) -> list[str]:
    """Every recognisable string value of a body."""
    out = [] if out is None else out
    if isinstance(value, str):
        if recognisable(value):
            out.append(value)
    elif isinstance(value, list):
        for v in value:
            submitted_strings(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            submitted_strings(v, out)
    return out


@pytest.fixture(scope="module")
def engine(sample_kg):
    return Engine.from_store(sample_kg, EngineConfig(model="none"))


@pytest.fixture(scope="module")
def base_url(engine):
    with uvicorn_server(create_app(engine, max_body_bytes=50_000)) as url:
        yield url


@pytest.fixture(scope="module")
def client(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as c:
        yield c


def check_answer(body, r: httpx.Response) -> None:
    assert r.status_code in (200, 413, 415, 422), (r.status_code, r.text[:300])
    assert "Traceback" not in r.text and 'File "' not in r.text
    if r.status_code != 200:
        assert SECRET not in r.text
        err = r.json()
        assert set(err) == {"detail", "position"} and "\n" not in err["detail"]
        for s in submitted_strings(body):
            assert s not in r.text, f"error answer quotes submitted text {s!r}: {r.text[:300]}"
        return
    out = r.json()
    text = body["text"]
    # outside the changed regions the answer is the original text, region by region
    pos_new = pos_old = 0
    for new_start, new_end, orig_start, orig_end in out["segments"]:
        assert out["text"][pos_new:new_start] == text[pos_old:orig_start]
        pos_new, pos_old = new_end, orig_end
    assert out["text"][pos_new:] == text[pos_old:]
    regions = [(s[2], s[3]) for s in out["segments"]]
    for m in body["mentions"]:
        if str(m.get("identifier_type", "QUASI")).upper() == "NO_MASK":
            continue
        assert any(a <= m["start"] and m["end"] <= b for a, b in regions), f"masked mention {m} outside every replaced region"
    for rep in out["replacements"]:
        if not rep["kept"]:
            original = text[rep["start"]:rep["end"]]
            assert out["text"][rep["new_start"]:rep["new_end"]].strip().lower() != original.strip().lower() or not original.strip()
            assert "original" not in rep


@FUZZ
@given(body=sanitize_bodies())
def test_fuzz_sanitize_endpoint(client, body):
    r = client.post("/sanitize", content=json.dumps(body, ensure_ascii=False).encode("utf-8"),
                    headers={"content-type": "application/json"})
    check_answer(body, r)


@FUZZ
@given(body=st.one_of(st.fixed_dictionaries({"span": st.one_of(texts(), json_values(2)),
                                             "entity_type": st.one_of(st.sampled_from(TYPES), json_values(1))},
                                            optional={"context": st.one_of(texts(), json_values(1)),
                                                      "identifier_type": st.one_of(st.sampled_from(IDENTS), json_values(1)),
                                                      "rank": json_values(1)}),
                      json_values()))
def test_fuzz_generalize_endpoint(client, body):
    r = client.post("/generalize", json=body)
    assert r.status_code in (200, 404, 415, 422), (r.status_code, r.text[:300])
    assert "Traceback" not in r.text
    if r.status_code != 200:
        for s in submitted_strings(body):
            assert s not in r.text


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=200), ctype=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded", ""]))
def test_fuzz_raw_bytes_and_content_types(base_url, raw, ctype):
    r = httpx.post(f"{base_url}/sanitize", content=raw, headers={"content-type": ctype} if ctype else {})
    assert r.status_code in (200, 415, 422), r.text[:200]
    assert "Traceback" not in r.text and len(r.content) < 300
    text = raw.decode("utf-8", "ignore")
    if recognisable(text):
        assert text not in r.text


@FUZZ
@given(lines=st.lists(st.one_of(sanitize_bodies().map(lambda b: json.dumps(b, ensure_ascii=False).encode("utf-8")),
                                st.binary(max_size=60)), min_size=1, max_size=6))
def test_fuzz_jsonl_reader(tmp_path_factory, engine, lines):
    path = tmp_path_factory.mktemp("fuzz") / "in.jsonl"
    path.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n")
    records = list(read_documents(path))  # never raises
    bodies = []
    for line in lines:
        try:
            bodies.append(json.loads(line))
        except ValueError:
            pass
    secrets = submitted_strings(bodies)
    for rec in records:
        if isinstance(rec, BadRecord):
            assert rec.position.startswith("in.jsonl:") and rec.position not in rec.reason and "\n" not in rec.reason
            for s in secrets:
                assert s not in rec.reason, f"bad-record message quotes submitted text {s!r}"
        else:
            assert isinstance(rec, DocRecord)
            engine.sanitize(rec.text, rec.mentions)  # what the contract accepts, the engine accepts
