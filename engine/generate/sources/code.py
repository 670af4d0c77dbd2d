"""CODE spans (identifiers, numbers of documents…): nothing but the mask is safe."""

from __future__ import annotations

from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.types import Span


class CodeSource(CandidateSource):
    """CODE → only ``***``."""

    name = "code"

    def generate(self, span: Span, state: DocumentState) -> SourceResult:
        return SourceResult([], reason="codes are always masked")
