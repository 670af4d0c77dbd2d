"""The HTTP API (FastAPI). Build it with :func:`create_app`; run it with ``taxogen serve``.

Routes: ``GET /health``, ``GET /sources``, ``POST /generalize`` (one span → its
candidates in rung order, as ``taxogen generalize`` lists them, each with the ranker's
score), ``POST /sanitize`` (a document → the sanitized text with every replacement;
without ``mentions`` the spans are detected), ``POST /detect`` (raw text → spans),
OpenAPI docs at ``/docs`` (Swagger UI served from the package, no CDN: ``fastapi-offline``).

Input is validated by :mod:`engine.io.contract`, the same code the command line uses.
Every error answer has one shape, ``{"detail": "<one line>", "position": <where or null>}``
(404 adds ``known``), and never contains the submitted text: request bodies above
``max_body_bytes`` get 413, a Content-Type other than JSON 415, invalid JSON or input
422; unknown components 404; other engine failures 500.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.io.docio import result_to_dict
from engine.engine import Engine
from engine.errors import InputError, SanitizerError, UnknownComponentError
from engine.text.document_kind import COURT
from engine.types import MASK
from engine.io.contract import LIMITS, document_text, parse_generalize_request, parse_json, parse_sanitize_request

DEFAULT_MAX_BODY = 1_000_000


class MentionIn(BaseModel):
    """Documents a mention for OpenAPI; validation is :func:`engine.io.contract.parse_mention`."""

    start: int = Field(..., ge=0, description="Offset of the first character (Python string index, a JSON integer).")
    end: int = Field(..., gt=0, description="Offset after the last character (a JSON integer).")
    entity_type: str = Field(..., description="PERSON, DATETIME, QUANTITY, CODE, LOC, ORG, DEM or MISC.")
    identifier_type: str = Field("QUASI", description="DIRECT, QUASI or NO_MASK.")
    entity_id: str | None = None
    related: list[str] = Field(default_factory=list)
    id: str | None = None
    span_text: str | None = Field(None, description="If given, must equal the text between the offsets.")


class SanitizeIn(BaseModel):
    """Documents the body of POST /sanitize; validation is :func:`engine.io.contract.parse_sanitize_request`."""

    text: str = Field(..., max_length=LIMITS["text_chars"])
    # leave "mentions" out to have the spans detected; [] means nothing to mask
    mentions: list[MentionIn] | None = Field(None, max_length=LIMITS["mentions"],
                                             description="Spans to mask (may be empty); absent: detected from the text.")
    overlap: Literal["merge", "reject"] = "merge"
    readability: bool = True
    with_originals: bool = False
    alternatives: int = Field(5, ge=0, le=50)
    k: int | None = Field(None, ge=0, le=LIMITS["k"], description="Privacy guard: generalize until at least k persons of the store fit (0 only measures; default privacy.k).")
    selection: Literal["meaning", "annotators"] | None = Field(
        None, description="meaning: the most meaningful rung the guard allows; annotators: the ranker's first choice, *** included (default privacy.selection).")
    min_truth: float | None = Field(None, ge=0, le=1, description="The verifier's operating point: rungs whose P(true) is below it are dropped (default: the config's min_truth, else the verifier's).")


class DetectIn(BaseModel):
    """Documents the body of POST /detect."""

    text: str = Field(..., max_length=LIMITS["text_chars"])
    all: bool = Field(False, description="Also return the spans decided NO_MASK.")


class GeneralizeIn(BaseModel):
    """Documents the body of POST /generalize; validation is :func:`engine.io.contract.parse_generalize_request`."""

    span: str = Field(..., min_length=1, max_length=LIMITS["span_chars"])
    entity_type: str
    identifier_type: str = "QUASI"
    context: str | None = Field(None, max_length=LIMITS["context_chars"])
    rank: bool = True
    min_truth: float | None = Field(None, ge=0, le=1, description="The verifier's operating point (default: the config's min_truth, else the verifier's).")


class CandidateOut(BaseModel):
    label: str
    level: int
    source: str
    score: float | None = None
    qid: str | None = None
    path: str | None = None
    rule: str | None = None
    truth: float | None = Field(None, description="The verifier's P(true) of the rung (absent: no verifier, or a type it does not weigh).")


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


def _error(status: int, detail: str, position: str | None = None, **extra: Any) -> JSONResponse:
    """The one error shape of the API."""
    return JSONResponse(status_code=status, content={"detail": detail, "position": position, **extra})


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline_refs(defs[node["$ref"].rsplit("/", 1)[1]], defs)
        return {k: _inline_refs(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def _body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI ``requestBody`` (self-contained) for a route that validates its JSON body with the contract."""
    schema = model.model_json_schema()
    schema = _inline_refs(schema, schema.get("$defs", {}))
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


async def json_body(request: Request) -> Any:
    """The request's JSON body; :class:`InputError` (→ 415/422) without quoting it."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json" and not (ctype.startswith("application/") and ctype.endswith("+json")):
        raise _UnsupportedMedia("Content-Type must be application/json")
    return parse_json(await request.body())


class _UnsupportedMedia(InputError):
    """The body is not declared as JSON (415)."""


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
    body = json.dumps({"detail": f"request body larger than {limit} bytes", "position": None}).encode()
    await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def create_app(engine: Engine | None = None, *, max_body_bytes: int = DEFAULT_MAX_BODY) -> FastAPI:
    """The FastAPI application over ``engine`` (default: ``Engine.from_config()``)."""
    engine = engine or Engine.from_config()
    lock = threading.Lock()  # the engine's caches are shared; one request at a time uses it
    app = FastAPIOffline(title="taxogen", version="0.1.0", description=(
        "Knowledge-graph backed generalization of personal spans. Limits: request body "
        f"{max_body_bytes:,} bytes, text {LIMITS['text_chars']:,} characters, {LIMITS['mentions']:,} mentions, "
        f"span {LIMITS['span_chars']:,} characters, context {LIMITS['context_chars']:,} characters. "
        "Errors never repeat the submitted text."))

    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError) -> JSONResponse:
        return _error(415 if isinstance(exc, _UnsupportedMedia) else 422, str(exc), exc.position)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or None
        return _error(422, f"{where + ': ' if where else ''}{first.get('msg', 'invalid request')}", where)  # never 'input'

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(UnknownComponentError)
    async def _unknown(request: Request, exc: UnknownComponentError) -> JSONResponse:
        return _error(404, str(exc), known=list(exc.known))

    @app.exception_handler(SanitizerError)
    async def _engine_error(request: Request, exc: SanitizerError) -> JSONResponse:
        return _error(500, f"engine error ({type(exc).__name__})")

    @app.get("/health")
    def health() -> dict[str, Any]:
        return {
            "status": "ok",
            "store": str(engine.kg.path) if engine.kg.path else "sample",
            "triples": len(engine.kg),
            "model": engine.config.model,
            "verifier": engine.config.verifier if engine.verifier is not None else "none",
            "min_truth": engine.min_truth(),
            "min_truth_court": engine.min_truth(kind=COURT),
        }

    @app.get("/sources")
    def sources() -> dict[str, Any]:
        return {"sources": engine.sources.names(), "routes": engine.sources.routes()}

    @app.post("/generalize", response_model=GeneralizeOut, openapi_extra=_body_schema(GeneralizeIn))
    async def generalize(request: Request) -> GeneralizeOut:
        req = parse_generalize_request(await json_body(request))

        def run() -> GeneralizeOut:
            with lock:
                ladder, verdicts = engine.weighed_candidates(req.span, req.entity_type, context=req.context,
                                                             identifier_type=req.identifier_type, min_truth=req.min_truth)
                scores: dict[int, float] = {}
                if req.rank:  # the ranker's score per rung; the rungs stay in ladder order, as `taxogen generalize` prints them
                    scores = {id(r.candidate): r.score for r in engine.rank(ladder.span, ladder, req.context)}
            return GeneralizeOut(
                span=req.span, entity_type=ladder.span.entity_type.value, reason=ladder.reason,
                links=[LinkOut(qid=l.qid, label=l.label, method=l.method.value, score=l.score) for l in ladder.links],
                candidates=[
                    CandidateOut(label=c.label, level=c.level, source=c.source, score=scores.get(id(c)), qid=c.qid, path=c.path, rule=c.rule,
                                 truth=None if verdicts is None or c.label == MASK else verdicts[i])
                    for i, c in enumerate(ladder.candidates)
                ],
            )

        return await run_in_threadpool(run)

    @app.post("/sanitize", openapi_extra=_body_schema(SanitizeIn))
    async def sanitize(request: Request) -> dict[str, Any]:
        req = parse_sanitize_request(await json_body(request))

        def run() -> dict[str, Any]:
            with lock:
                # no "mentions" key → detect the spans of the raw text
                mentions = engine.detect_mentions(req.text) if req.mentions is None else req.mentions
                result = engine.sanitize(req.text, mentions, overlap=req.overlap, readability=req.readability,
                                         alternatives=req.alternatives, k=req.k, selection=req.selection, min_truth=req.min_truth)
            return result_to_dict("request", result, with_originals=req.with_originals)

        return await run_in_threadpool(run)

    @app.post("/detect", openapi_extra=_body_schema(DetectIn))
    async def detect(request: Request) -> dict[str, Any]:
        """The spans of a raw text with their masking decision."""
        body = await json_body(request)
        if not isinstance(body, dict):
            raise InputError("the body must be a JSON object")
        text = document_text(body)
        show_all = body.get("all", False)
        if not isinstance(show_all, bool):
            raise InputError("all must be true or false")

        def run() -> dict[str, Any]:
            with lock:
                spans = engine.detect(text)
            return {"spans": [s.to_dict() for s in spans if show_all or s.masked]}

        return await run_in_threadpool(run)

    return _wrap(app, max_body_bytes)


def _wrap(app: FastAPI, limit: int) -> FastAPI:
    app.add_middleware(_BodyLimit, limit=limit)
    return app
