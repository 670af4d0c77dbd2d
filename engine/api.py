"""The HTTP API (FastAPI). Build it with :func:`create_app`; run it with ``taxogen serve``.

Routes: ``GET /health``, ``GET /sources``, ``POST /generalize`` (one span → ranked
candidates), ``POST /sanitize`` (a document → the sanitized text with every replacement;
without ``mentions`` the spans are detected), ``POST /detect`` (raw text → spans),
OpenAPI docs at ``/docs``. Request bodies above ``max_body_bytes`` get 413; invalid input
gets 422 with a message; unknown components 404; other engine failures 500.
"""

from __future__ import annotations

import threading
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from engine.docio import mention_from_dict, result_to_dict
from engine.engine import Engine
from engine.errors import InputError, SanitizerError, UnknownComponentError

DEFAULT_MAX_BODY = 1_000_000


class MentionIn(BaseModel):
    start: int = Field(..., ge=0, description="Offset of the first character (Python string index).")
    end: int = Field(..., gt=0, description="Offset after the last character.")
    entity_type: str = Field(..., description="PERSON, DATETIME, QUANTITY, CODE, LOC, ORG, DEM or MISC.")
    identifier_type: str = Field("QUASI", description="DIRECT, QUASI or NO_MASK.")
    entity_id: str | None = None
    related: list[str] = Field(default_factory=list)
    id: str | None = None


class SanitizeIn(BaseModel):
    text: str = Field(..., max_length=200_000)
    # issue 13: leave "mentions" out to have the spans detected; [] means nothing to mask
    mentions: list[MentionIn] | None = Field(None, max_length=5_000, description="Spans to mask; absent: detected from the text.")
    overlap: Literal["merge", "reject"] = "merge"
    readability: bool = True
    with_originals: bool = False
    alternatives: int = Field(5, ge=0, le=50)


class DetectIn(BaseModel):
    text: str = Field(..., max_length=200_000)
    all: bool = Field(False, description="Also return the spans decided NO_MASK.")


class GeneralizeIn(BaseModel):
    span: str = Field(..., min_length=1, max_length=1_000)
    entity_type: str
    identifier_type: str = "QUASI"
    context: str | None = Field(None, max_length=10_000)
    rank: bool = True


class CandidateOut(BaseModel):
    label: str
    level: int
    source: str
    score: float | None = None
    qid: str | None = None
    path: str | None = None
    rule: str | None = None


class LinkOut(BaseModel):
    qid: str
    label: str
    method: str
    score: float


class GeneralizeOut(BaseModel):
    span: str
    entity_type: str
    reason: str
    links: list[LinkOut]
    candidates: list[CandidateOut]


def to_mention(m: MentionIn, i: int):
    """API mention → engine :class:`engine.types.Mention` (explicit converter)."""
    return mention_from_dict(m.model_dump(), f"mention #{i}")


class _BodyLimit:
    """ASGI middleware: 413 for bodies larger than ``limit`` bytes, declared or streamed.

    The body is read (up to the limit) before the application sees it, then replayed.
    """

    def __init__(self, app, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or {}).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            return await _too_large(self.limit, send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await _too_large(self.limit, send)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(limit: int, send) -> None:
    body = f'{{"detail":"request body larger than {limit} bytes"}}'.encode()
    await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def create_app(engine: Engine | None = None, *, max_body_bytes: int = DEFAULT_MAX_BODY) -> FastAPI:
    """The FastAPI application over ``engine`` (default: ``Engine.from_config()``)."""
    engine = engine or Engine.from_config()
    lock = threading.Lock()  # the engine's caches are shared; one request at a time uses it
    app = FastAPI(title="taxogen", version="0.1.0", description="Knowledge-graph backed generalization of personal spans.")

    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": str(exc), "position": exc.position})

    @app.exception_handler(UnknownComponentError)
    async def _unknown(request: Request, exc: UnknownComponentError) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": str(exc), "known": list(exc.known)})

    @app.exception_handler(SanitizerError)
    async def _engine_error(request: Request, exc: SanitizerError) -> JSONResponse:
        return JSONResponse(status_code=500, content={"detail": f"{type(exc).__name__}: {exc}"})

    @app.get("/health")
    def health() -> dict[str, Any]:
        return {
            "status": "ok",
            "store": str(engine.kg.path) if engine.kg.path else "embedded sample",
            "triples": len(engine.kg),
            "model": engine.config.model,
        }

    @app.get("/sources")
    def sources() -> dict[str, Any]:
        return {"sources": engine.sources.names(), "routes": engine.sources.routes()}

    @app.post("/generalize", response_model=GeneralizeOut)
    def generalize(req: GeneralizeIn) -> GeneralizeOut:
        with lock:
            ladder = engine.candidates(req.span, req.entity_type, context=req.context, identifier_type=req.identifier_type)
            scores: dict[int, float] = {}
            order = list(ladder.candidates)
            if req.rank:
                ranked = engine.rank(ladder.span, ladder, req.context)
                order = [r.candidate for r in ranked]
                scores = {id(r.candidate): r.score for r in ranked}
        return GeneralizeOut(
            span=req.span, entity_type=ladder.span.entity_type.value, reason=ladder.reason,
            links=[LinkOut(qid=l.qid, label=l.label, method=l.method.value, score=l.score) for l in ladder.links],
            candidates=[
                CandidateOut(label=c.label, level=c.level, source=c.source, score=scores.get(id(c)), qid=c.qid, path=c.path, rule=c.rule)
                for c in order
            ],
        )

    @app.post("/sanitize")
    def sanitize(req: SanitizeIn) -> dict[str, Any]:
        with lock:
            if req.mentions is None:  # issue 13: detect the spans of a raw text
                mentions = engine.detect_mentions(req.text)
            else:
                mentions = [to_mention(m, i) for i, m in enumerate(req.mentions)]
            result = engine.sanitize(req.text, mentions, overlap=req.overlap, readability=req.readability, alternatives=req.alternatives)
        return result_to_dict("request", result, with_originals=req.with_originals)

    @app.post("/detect")
    def detect(req: DetectIn) -> dict[str, Any]:
        """The spans of a raw text with their masking decision (issue 13)."""
        with lock:
            spans = engine.detect(req.text)
        return {"spans": [s.to_dict() for s in spans if req.all or s.masked]}

    return _wrap(app, max_body_bytes)


def _wrap(app: FastAPI, limit: int) -> FastAPI:
    app.add_middleware(_BodyLimit, limit=limit)
    return app
