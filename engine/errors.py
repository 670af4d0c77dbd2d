"""Errors of the engine. The whole tree (``kg`` errors included)::

    SanitizerError
    ├── KGError > QueryError, DumpError, EndpointError     (kg.errors)
    ├── ConfigError            bad or missing configuration (carries .path / .key)
    ├── LinkingError           a span could not be linked (carries .span)
    ├── RankerError            ranker model missing, unreadable or of another schema (.path)
    ├── VerifierError          verifier model missing, unreadable or of another schema (.path)
    ├── InputError             a document or mention is invalid (carries .position)
    └── UnknownComponentError  a registry has no component of that name (.name, .known)
"""

from __future__ import annotations

from kg.errors import DumpError, EndpointError, KGError, QueryError, SanitizerError


class ConfigError(SanitizerError):
    """Configuration is invalid or missing; never silently replaced by defaults."""

    def __init__(self, message: str, *, path: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.path, self.key = path, key


class LinkingError(SanitizerError):
    """A span could not be linked to the graph."""

    def __init__(self, message: str, *, span: str | None = None) -> None:
        super().__init__(message)
        self.span = span


class RankerError(SanitizerError):
    """A ranker model is missing, unreadable or was trained with another feature schema."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class VerifierError(SanitizerError):
    """A verifier model is missing, unreadable or reads features this code does not compute."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class InputError(SanitizerError):
    """A document or mention is invalid (bad offsets, overlaps, unknown entity type…)."""

    def __init__(self, message: str, *, position: str | None = None) -> None:
        super().__init__(message)
        self.position = position


class UnknownComponentError(SanitizerError):
    """A registry was asked for a name it does not hold."""

    def __init__(self, message: str, *, name: str | None = None, known: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.name, self.known = name, known


__all__ = [
    "ConfigError", "DumpError", "EndpointError", "InputError", "KGError", "LinkingError",
    "QueryError", "RankerError", "SanitizerError", "UnknownComponentError",
]
