"""taxogen's SPARQL endpoint (``taxogen kg serve``) and the WDQS dialect it accepts."""

from kg.sparql.config import SparqlSettings
from kg.sparql.endpoint import SparqlService, create_app, serve
from kg.sparql.wdqs import (
    WDQS_PREFIXES, PreparedQuery, ReadOnlyError, ServiceNotAllowed, UnsupportedFeature, WdqsError, prepare,
)

__all__ = [
    "PreparedQuery", "ReadOnlyError", "ServiceNotAllowed", "SparqlService", "SparqlSettings", "UnsupportedFeature",
    "WDQS_PREFIXES", "WdqsError", "create_app", "prepare", "serve",
]
