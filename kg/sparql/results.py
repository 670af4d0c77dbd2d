"""SPARQL 1.1 query results: content negotiation and the JSON, XML, CSV and TSV formats.

Rows are serialized here (not by pyoxigraph) because the endpoint reads them one by one
to enforce its time and size limits before anything is sent.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any, Sequence
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"

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


@dataclass(frozen=True, slots=True)
class Solutions:
    """A SELECT result read in full: variable names and rows of terms (``None`` = unbound)."""

    variables: tuple[str, ...]
    rows: list[tuple[Any, ...]]


def _json_term(term: Any) -> dict[str, str]:
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Literal):
        out = {"type": "literal", "value": term.value}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype is not None and term.datatype.value not in (XSD_STRING, RDF_LANGSTRING):
            out["datatype"] = term.datatype.value
        return out
    return {"type": "literal", "value": str(term)}


def _xml_term(term: Any) -> str:
    if isinstance(term, ox.NamedNode):
        return f"<uri>{escape(term.value)}</uri>"
    if isinstance(term, ox.BlankNode):
        return f"<bnode>{escape(term.value)}</bnode>"
    if isinstance(term, ox.Literal):
        if term.language:
            return f"<literal xml:lang={quoteattr(term.language)}>{escape(term.value)}</literal>"
        if term.datatype is not None and term.datatype.value != XSD_STRING:
            return f"<literal datatype={quoteattr(term.datatype.value)}>{escape(term.value)}</literal>"
        return f"<literal>{escape(term.value)}</literal>"
    return f"<literal>{escape(str(term))}</literal>"


def _csv_value(term: Any) -> str:
    if term is None:
        return ""
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    return term.value if isinstance(term, (ox.NamedNode, ox.Literal)) else str(term)


def serialize_solutions(sol: Solutions, fmt: str) -> bytes:
    """A SELECT result in one of :data:`RESULT_TYPES`."""
    if fmt == "json":
        bindings = [{v: _json_term(t) for v, t in zip(sol.variables, row) if t is not None} for row in sol.rows]
        return json.dumps({"head": {"vars": list(sol.variables)}, "results": {"bindings": bindings}},
                          ensure_ascii=False).encode()
    if fmt == "xml":
        head = "".join(f"<variable name={quoteattr(v)}/>" for v in sol.variables)
        body = "".join(
            "<result>" + "".join(f"<binding name={quoteattr(v)}>{_xml_term(t)}</binding>"
                                 for v, t in zip(sol.variables, row) if t is not None) + "</result>"
            for row in sol.rows
        )
        return ('<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">'
                f"<head>{head}</head><results>{body}</results></sparql>\n").encode()
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\r\n")
        w.writerow(sol.variables)
        w.writerows([_csv_value(t) for t in row] for row in sol.rows)
        return buf.getvalue().encode()
    if fmt == "tsv":
        lines = ["\t".join(f"?{v}" for v in sol.variables)]
        lines += ["\t".join("" if t is None else str(t) for t in row) for row in sol.rows]
        return ("\n".join(lines) + "\n").encode()
    raise NotAcceptable(f"unknown result format {fmt!r}")


def serialize_boolean(value: bool, fmt: str) -> bytes:
    """An ASK result."""
    if fmt == "json":
        return json.dumps({"head": {}, "boolean": value}).encode()
    if fmt == "xml":
        return ('<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/>'
                f"<boolean>{'true' if value else 'false'}</boolean></sparql>\n").encode()
    return ("true\n" if value else "false\n").encode()


def serialize_triples(triples: Sequence[ox.Triple], fmt: str) -> bytes:
    """A CONSTRUCT or DESCRIBE result in one of :data:`GRAPH_TYPES`."""
    return ox.serialize(triples, format=GRAPH_TYPES[fmt][1]) or b""


def media_type(fmt: str, *, graph: bool) -> str:
    """The Content-Type of a format name."""
    return GRAPH_TYPES[fmt][0] if graph else RESULT_TYPES[fmt]
