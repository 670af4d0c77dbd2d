"""Candidate sources: one module per source, a registry to find them by name."""

from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.generate.sources.registry import SourceRegistry, rule_sources

__all__ = ["CandidateSource", "DocumentState", "SourceRegistry", "SourceResult", "rule_sources"]
