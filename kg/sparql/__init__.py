"""taxogen's SPARQL endpoint (``taxogen kg serve``) and the WDQS dialect it accepts."""

from kg.sparql.config import SparqlSettings
from kg.sparql.endpoint import SparqlService, create_app, serve
from kg.sparql.dialect import WDQS_PREFIXES, ReadOnlyError, ServiceNotAllowed, UnsupportedFeature, WdqsError
from kg.sparql.wdqs import PreparedQuery, prepare

__all__ = [
    "PreparedQuery", "ReadOnlyError", "ServiceNotAllowed", "SparqlService", "SparqlSettings", "UnsupportedFeature",
    "WDQS_PREFIXES", "WdqsError", "create_app", "prepare", "serve",
]
