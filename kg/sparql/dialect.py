"""The WDQS dialect's vocabulary: its predeclared prefixes, the extensions taxogen refuses, its errors."""

from __future__ import annotations

import re

from kg.errors import QueryError
from kg.vocab import RDFS_LABEL
from kg.vocab import SCHEMA_DESC as SCHEMA_DESCRIPTION
from kg.vocab import SKOS_ALT as SKOS_ALTLABEL

WDQS_PREFIXES: dict[str, str] = {
    "wd": "http://www.wikidata.org/entity/",
    "wds": "http://www.wikidata.org/entity/statement/",
    "wdv": "http://www.wikidata.org/value/",
    "wdref": "http://www.wikidata.org/reference/",
    "wdt": "http://www.wikidata.org/prop/direct/",
    "wdtn": "http://www.wikidata.org/prop/direct-normalized/",
    "wdno": "http://www.wikidata.org/prop/novalue/",
    "wdata": "http://www.wikidata.org/wiki/Special:EntityData/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "psv": "http://www.wikidata.org/prop/statement/value/",
    "psn": "http://www.wikidata.org/prop/statement/value-normalized/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "pqv": "http://www.wikidata.org/prop/qualifier/value/",
    "pqn": "http://www.wikidata.org/prop/qualifier/value-normalized/",
    "pr": "http://www.wikidata.org/prop/reference/",
    "prv": "http://www.wikidata.org/prop/reference/value/",
    "prn": "http://www.wikidata.org/prop/reference/value-normalized/",
    "wikibase": "http://wikiba.se/ontology#",
    "bd": "http://www.bigdata.com/rdf#",
    "bds": "http://www.bigdata.com/rdf/search#",
    "gas": "http://www.bigdata.com/rdf/gas#",
    "hint": "http://www.bigdata.com/queryHints#",
    "mwapi": "https://www.mediawiki.org/ontology#API/",
    "schema": "http://schema.org/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "prov": "http://www.w3.org/ns/prov#",
    "cc": "http://creativecommons.org/ns#",
    "geo": "http://www.opengis.net/ont/geosparql#",
    "ontolex": "http://www.w3.org/ns/lemon/ontolex#",
    "dct": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
}

#: Label kinds of the label service (``?xLabel``, ``?xDescription``, ``?xAltLabel``) and their predicates.
LABEL_KINDS = {"Label": RDFS_LABEL, "Description": SCHEMA_DESCRIPTION, "AltLabel": SKOS_ALTLABEL}

WIKIBASE = WDQS_PREFIXES["wikibase"]
BD = WDQS_PREFIXES["bd"]
WD = WDQS_PREFIXES["wd"]
LABEL_SERVICE = WIKIBASE + "label"

# WDQS extensions taxogen cannot run, by SERVICE IRI or predicate namespace, with the
# name a 400 answer gives them.
UNSUPPORTED_SERVICES: dict[str, str] = {
    WIKIBASE + "mwapi": "SERVICE wikibase:mwapi (MediaWiki API service)",
    WIKIBASE + "around": "SERVICE wikibase:around (geographic search)",
    WIKIBASE + "box": "SERVICE wikibase:box (geographic search)",
    WDQS_PREFIXES["gas"] + "service": "SERVICE gas:service (graph-analysis service)",
    BD + "sample": "SERVICE bd:sample (sampling service)",
    BD + "slice": "SERVICE bd:slice (slice service)",
    WDQS_PREFIXES["bds"] + "search": "SERVICE bds:search (full-text search)",
}
UNSUPPORTED_NAMESPACES: dict[str, str] = {
    WDQS_PREFIXES["bds"]: "bds: full-text search predicates",
    WDQS_PREFIXES["gas"]: "gas: graph-analysis predicates",
    WDQS_PREFIXES["mwapi"]: "mwapi: MediaWiki API parameters",
}
HINT_NS = WDQS_PREFIXES["hint"]
#: A language tag the label service accepts ("en", "pt-br").
LANGUAGE_TAG = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")


class WdqsError(QueryError):
    """A query uses WDQS or SPARQL features the endpoint refuses (answered with 400)."""

    def __init__(self, message: str, *, feature: str) -> None:
        super().__init__(message, query="request")
        self.feature = feature


class UnsupportedFeature(WdqsError):
    """A WDQS/Blazegraph extension taxogen cannot run; ``feature`` names it."""


class ServiceNotAllowed(WdqsError):
    """A ``SERVICE`` clause names an IRI outside the configured allow-list."""


class ReadOnlyError(WdqsError):
    """The text is a SPARQL update; the endpoint is read-only (answered with 403)."""
