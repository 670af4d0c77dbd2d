"""Errors raised by taxogen.

The tree::

    SanitizerError                 base of every taxogen error
    ├── KGError                    the knowledge graph (store, dumps, overlay)
    │   ├── QueryError             a named SPARQL query failed or got bad bindings
    │   ├── DumpError              a dump line is malformed (strict mode) or unreadable
    │   └── EndpointError          a remote SPARQL endpoint failed
    ├── ConfigError                (engine.errors) bad or missing configuration
    ├── LinkingError               (engine.errors) a span could not be linked
    ├── RankerError                (engine.errors) a ranker model is missing or incompatible
    └── UnknownComponentError      (engine.errors) a registry has no such name

Every error carries its context as keyword-only attributes.
"""

from __future__ import annotations


class SanitizerError(Exception):
    """Base class of every error taxogen raises."""


class KGError(SanitizerError):
    """A knowledge-graph operation failed."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class QueryError(KGError):
    """A named query could not be loaded, bound or executed."""

    def __init__(self, message: str, *, query: str | None = None) -> None:
        super().__init__(message)
        self.query = query


class DumpError(KGError):
    """A dump could not be read, or (strict mode) contains malformed lines."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message, path=path)
        self.line = line


class EndpointError(KGError):
    """A remote SPARQL endpoint failed (timeout, HTTP error, broken body, open circuit)."""

    def __init__(self, message: str, *, endpoint: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.endpoint = endpoint
        self.status = status
