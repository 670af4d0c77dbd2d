"""taxogen.engine: link spans, build candidate ladders, rank them, sanitize documents."""

from engine.config import EndpointSettings, EngineConfig
from engine.doc import Doc, DocMention, SanitizeOptions, SanitizeResult
from engine.engine import Engine
from engine.errors import (
    ConfigError, InputError, KGError, LinkingError, QueryError, RankerError, SanitizerError, UnknownComponentError,
    VerifierError,
)
from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.generate.sources.registry import SourceRegistry
from engine.select.policy import SelectionPolicy
from engine.version import __version__
from engine.indices import register_engine_indices
from engine.types import (
    MASK, Candidate, Choice, EntityType, IdentifierType, Ladder, Link, LinkMethod, Mention, Replacement,
    ScoredCandidate, Selection, Skipped, Span,
)

register_engine_indices()  # every store build writes the indices the engine reads (kg.derived)

__all__ = [
    "MASK", "Candidate", "CandidateSource", "Choice", "ConfigError", "Doc", "DocMention", "DocumentState", "EndpointSettings", "Engine",
    "EngineConfig", "EntityType", "IdentifierType", "InputError", "KGError", "Ladder", "Link", "LinkMethod",
    "LinkingError", "Mention", "QueryError", "RankerError", "Replacement", "SanitizeOptions", "SanitizeResult", "SanitizerError",
    "ScoredCandidate", "Selection", "SelectionPolicy", "Skipped", "SourceRegistry", "SourceResult", "Span", "UnknownComponentError", "VerifierError",
    "__version__",
]
