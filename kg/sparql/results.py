"""SPARQL 1.1 query results: content negotiation between JSON, XML, CSV and TSV (SELECT,
ASK) and Turtle, N-Triples, RDF/XML (CONSTRUCT, DESCRIBE).

pyoxigraph's own serializers write the bodies (in Rust, in 8 KiB chunks, which lets the
endpoint check its time and size limits while a result is written).
"""

from __future__ import annotations

import pyoxigraph as ox

# format name → media type; the first is the default
RESULT_TYPES: dict[str, str] = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
}
_RESULT_ALIASES = {
    "application/sparql-results+json": "json", "application/json": "json",
    "application/sparql-results+xml": "xml", "application/xml": "xml", "text/xml": "xml",
    "text/csv": "csv", "text/tab-separated-values": "tsv",
}
GRAPH_TYPES: dict[str, tuple[str, ox.RdfFormat]] = {
    "turtle": ("text/turtle", ox.RdfFormat.TURTLE),
    "ntriples": ("application/n-triples", ox.RdfFormat.N_TRIPLES),
    "rdfxml": ("application/rdf+xml", ox.RdfFormat.RDF_XML),
}
_GRAPH_ALIASES = {
    "text/turtle": "turtle", "application/x-turtle": "turtle", "application/n-triples": "ntriples",
    "text/plain": "ntriples", "application/rdf+xml": "rdfxml", "application/xml": "rdfxml",
}
_FORMAT_PARAM = {"json": "json", "xml": "xml", "csv": "csv", "tsv": "tsv", "turtle": "turtle", "ttl": "turtle",
                 "ntriples": "ntriples", "nt": "ntriples", "rdfxml": "rdfxml"}


class NotAcceptable(ValueError):
    """No result format the client accepts (HTTP 406)."""


def negotiate(accept: str | None, format_param: str | None, *, graph: bool) -> str:
    """The format name for a result: ``format=`` (as WDQS takes it) wins, then ``Accept``."""
    names = GRAPH_TYPES if graph else RESULT_TYPES
    aliases = _GRAPH_ALIASES if graph else _RESULT_ALIASES
    if format_param:
        key = format_param.strip().lower()
        name = _FORMAT_PARAM.get(key) or aliases.get(key)
        if name in names:
            return name
        raise NotAcceptable(f"unknown format {format_param!r}; known: {', '.join(names)}")
    if not accept or not accept.strip():
        return next(iter(names))
    ranges = []
    for pos, part in enumerate(accept.split(",")):
        media, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for p in params:
            if p.startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        ranges.append((-q, pos, media.lower()))
    for negq, _, media in sorted(ranges):
        if negq == 0:
            continue
        if media in aliases:
            return aliases[media]
        if media in ("*/*", "application/*", "text/*"):
            return next(iter(names))
    raise NotAcceptable(f"none of the accepted types ({accept}) is served; use one of "
                        + ", ".join(GRAPH_TYPES[n][0] if graph else RESULT_TYPES[n] for n in names))


def results_format(fmt: str) -> ox.QueryResultsFormat:
    """pyoxigraph's serializer for a SELECT/ASK format name."""
    return {"json": ox.QueryResultsFormat.JSON, "xml": ox.QueryResultsFormat.XML,
            "csv": ox.QueryResultsFormat.CSV, "tsv": ox.QueryResultsFormat.TSV}[fmt]


def graph_format(fmt: str) -> ox.RdfFormat:
    """pyoxigraph's serializer for a CONSTRUCT/DESCRIBE format name."""
    return GRAPH_TYPES[fmt][1]


def media_type(fmt: str, *, graph: bool) -> str:
    """The Content-Type of a format name."""
    return GRAPH_TYPES[fmt][0] if graph else RESULT_TYPES[fmt]
