"""taxogen.engine: link spans, build candidate ladders, rank them, sanitize documents."""

from engine.config import EndpointSettings, EngineConfig
from engine.engine import Engine
from engine.errors import (
    ConfigError, InputError, KGError, LinkingError, QueryError, RankerError, SanitizerError, UnknownComponentError,
)
from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.generate.sources.registry import SourceRegistry
from engine.version import __version__
from engine.types import (
    MASK, Candidate, EntityType, IdentifierType, Ladder, Link, LinkMethod, Mention, Replacement, SanitizeResult,
    ScoredCandidate, Skipped, Span,
)

__all__ = [
    "MASK", "Candidate", "CandidateSource", "ConfigError", "DocumentState", "EndpointSettings", "Engine",
    "EngineConfig", "EntityType", "IdentifierType", "InputError", "KGError", "Ladder", "Link", "LinkMethod",
    "LinkingError", "Mention", "QueryError", "RankerError", "Replacement", "SanitizeResult", "SanitizerError",
    "ScoredCandidate", "Skipped", "SourceRegistry", "SourceResult", "Span", "UnknownComponentError", "__version__",
]
