"""IRIs of the Wikidata and taxogen vocabularies used across the package."""

from __future__ import annotations

import re

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
SCHEMA_DESC = "http://schema.org/description"
TG = "https://taxogen.dev/ontology#"

#: Graph holding the overlay (pruning rules, label overrides, composed generalizations).
OVERLAY_GRAPH = "urn:taxogen:overlay"

#: Taxonomy properties walked to build ladders, in ladder-merge order; also the sources of
#: graph candidates (``Candidate.source``) and their order in output and features.
TAXONOMY_PROPS: tuple[str, ...] = ("P31", "P279", "P8225", "P361")
#: Properties whose edges between class nodes are kept in the index's arrays (a subset of
#: :data:`TAXONOMY_PROPS`: P31 edges leave instances, not class nodes).
CLASS_PROPS: tuple[str, ...] = ("P279", "P361", "P8225")
#: Instance of and subclass of: the edges one step up the class hierarchy.
TYPE_PROPS: tuple[str, ...] = ("P31", "P279")
#: Parent edges counted in an item's degree (the link ranker's prominence feature).
DEGREE_PROPS: tuple[str, ...] = ("P31", "P279", "P361")

#: Person/place attributes kept when present in a dump.
ATTRIBUTE_PROPS: tuple[str, ...] = (
    "P17", "P131", "P106", "P27", "P172", "P102", "P69", "P463", "P140", "P19", "P20", "P1549",
    "P21", "P39", "P166", "P569", "P570",
)

#: Date properties kept with their ``xsd:dateTime`` literal (birth and death dates).
DATE_PROPS: tuple[str, ...] = ("P569", "P570")
XSD_DATETIME = "http://www.w3.org/2001/XMLSchema#dateTime"

KEPT_PROPS: frozenset[str] = frozenset(TAXONOMY_PROPS + ATTRIBUTE_PROPS)
KEPT_PREDICATES: frozenset[str] = frozenset(WDT + p for p in KEPT_PROPS)
TEXT_PREDICATES: frozenset[str] = frozenset({RDFS_LABEL, SKOS_ALT, SCHEMA_DESC})

_QID = re.compile(r"^[QP][1-9][0-9]*$")


def is_entity_id(value: str) -> bool:
    """True when ``value`` is a Wikidata id such as ``Q42`` or ``P31``."""
    return bool(_QID.match(value))


def entity_iri(qid: str) -> str:
    """IRI of a Wikidata entity id; raises ``ValueError`` for anything else."""
    if not is_entity_id(qid):
        raise ValueError(f"not a Wikidata id: {qid!r}")
    return WD + qid


def local_id(iri: str) -> str:
    """``Q42`` for ``http://www.wikidata.org/entity/Q42`` (other IRIs unchanged)."""
    for prefix in (WD, WDT):
        if iri.startswith(prefix):
            return iri[len(prefix):]
    return iri


def qid_number(qid: str) -> int:
    """Numeric part of a Q-id, for deterministic ordering (non-ids sort last)."""
    return int(qid[1:]) if is_entity_id(qid) else 1 << 62
