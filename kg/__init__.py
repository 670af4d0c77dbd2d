"""taxogen.kg: the Wikidata taxonomy in a pyoxigraph store, its overlay and its chains."""

from kg.build import BuildReport, build_from_dump, build_from_triples
from kg.class_sets import ClassSet, ClassSets, class_set, named_class
from kg.chains import Chains, ChainIndex, LadderBuilder, PreloadedTaxonomy, PropertyLadders, Rung, SparqlTaxonomy
from kg.dumps import DumpReport, read_dump
from kg.errors import DumpError, EndpointError, KGError, QueryError, SanitizerError
from kg.overlay import ComposedRule, OverlayRules, validate_overlay
from kg.queries import NamedQuery, list_queries, load_query, load_query_file
from kg.store import KGStore, StoreStats

__all__ = [
    "BuildReport", "ChainIndex", "Chains", "ClassSet", "ClassSets", "ComposedRule", "DumpError", "DumpReport", "EndpointError",
    "KGError", "KGStore", "LadderBuilder", "NamedQuery", "OverlayRules", "PreloadedTaxonomy",
    "PropertyLadders", "QueryError", "Rung", "SanitizerError", "SparqlTaxonomy", "StoreStats",
    "build_from_dump", "build_from_triples", "class_set", "list_queries", "load_query", "load_query_file",
    "named_class", "read_dump", "validate_overlay",
]
