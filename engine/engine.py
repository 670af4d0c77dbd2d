"""The engine facade: span → link → chains → candidates → features → rank → replacement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kg.chains import ChainIndex, PreloadedTaxonomy
from kg.store import KGStore
from engine.candidates import CandidateGenerator
from engine.config import EngineConfig
from engine.linking import LabelIndex, Linker
from engine.sources.base import DocumentState
from engine.sources.graph import GraphSource
from engine.sources.registry import SourceRegistry, rule_sources
from engine.types import EntityType, IdentifierType, Ladder, Span


class Engine:
    """Generalization engine over one knowledge-graph store.

    Build it with :meth:`from_config` (or inject the parts for tests). ``candidates``
    gives the ladder of a span, ``rank`` orders candidates, ``sanitize`` processes a
    whole document.
    """

    def __init__(self, *, kg: KGStore, chains: ChainIndex, linker: Linker, sources: SourceRegistry, config: EngineConfig | None = None, ranker: Any = None) -> None:
        self.kg = kg
        self.chains = chains
        self.linker = linker
        self.sources = sources
        self.generator = CandidateGenerator(sources)
        self.config = config or EngineConfig()
        self.ranker = ranker

    @classmethod
    def from_config(cls, config: EngineConfig | str | Path | None = None, **overrides: Any) -> "Engine":
        """Build an engine from a config (object, TOML path, or None for file/env/defaults)."""
        if not isinstance(config, EngineConfig):
            config = EngineConfig.load(config, overrides=overrides)
        kg = KGStore.read_only(config.store) if config.store is not None else KGStore.embedded()
        return cls.from_store(kg, config)

    @classmethod
    def from_store(cls, kg: KGStore, config: EngineConfig | None = None) -> "Engine":
        """An engine over an already opened store."""
        config = config or EngineConfig()
        chains = ChainIndex(kg, mode=config.chain_mode)
        taxonomy = chains.view if chains.view is not None else PreloadedTaxonomy.from_store(kg)
        linker = Linker(LabelIndex.from_store(kg), taxonomy)
        sources = rule_sources()
        sources.register(
            GraphSource(linker, chains, max_ladder=config.max_ladder),
            entity_types=(EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC),
        )
        return cls(kg=kg, chains=chains, linker=linker, sources=sources, config=config)

    def candidates(
        self,
        span: str | Span,
        entity_type: str | EntityType | None = None,
        *,
        context: str | None = None,
        identifier_type: str | IdentifierType | None = None,
        entity_id: str | None = None,
        state: DocumentState | None = None,
    ) -> Ladder:
        """The ordered replacement candidates of one span, ending with ``***``."""
        if not isinstance(span, Span):
            if entity_type is None:
                raise TypeError("entity_type is required when span is a string")
            span = Span(
                text=span,
                entity_type=EntityType.parse(entity_type),
                identifier_type=IdentifierType.parse(identifier_type),
                context=context,
                entity_id=entity_id,
            )
        return self.generator.ladder(span, state)
