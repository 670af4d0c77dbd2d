"""The engine facade: span → link → chains → candidates → features → rank → replacement."""

from __future__ import annotations

import functools
import warnings
from pathlib import Path
from typing import Any, Callable, TypeVar

from kg.chains import ChainIndex, open_taxonomy
from kg.starter import default_store
from kg.store import KGStore
from kg.vocab import TAXONOMY_PROPS
from engine.generate.candidates import CandidateGenerator
from engine.config import EngineConfig
from engine.generate.label_store import open_label_index
from engine.generate.linking import Linker
from engine.generate.sources.base import DocumentState
from engine.generate.sources.graph import GraphSource
from engine.generate.sources.registry import SourceRegistry, rule_sources
from engine.generate.truth import TruthFilter, TruthRules
from engine.select.features import EMBEDDING_GROUPS, FeatureBuilder, GraphStats, RankCandidate, RankItem
from engine.types import GRAPH_TYPES, MASK, Candidate, EntityType, IdentifierType, Ladder, LinkMethod, ScoredCandidate, Selection, Span

_LINK_METHOD = {
    LinkMethod.EXACT: "exact", LinkMethod.ALIAS: "exact", LinkMethod.NORMALISED: "exact",
    LinkMethod.DEMONYM: "exact", LinkMethod.CONTAINED: "contained", LinkMethod.APPROXIMATE: "approximate",
}


_F = TypeVar("_F", bound=Callable[..., Any])


def _knowing(method: _F) -> _F:
    """Run an engine method with the engine's packs and rules current (:mod:`engine.knowledge`)."""

    @functools.wraps(method)
    def run(self: "Engine", *args: Any, **kwargs: Any) -> Any:
        with self.knowledge.active():
            return method(self, *args, **kwargs)

    return run  # type: ignore[return-value]


class StaleOverlayWarning(UserWarning):
    """A store's overlay (pruning rules, labels) may be older than the shipped ontology the
    truth rules read: ladders and types then follow two versions of the rules."""


class Engine:
    """Generalization engine over one knowledge-graph store.

    Build it with :meth:`from_config` (or inject the parts for tests). ``candidates``
    gives the ladder of a span, ``rank`` orders candidates, ``sanitize`` processes a
    whole document.
    """

    def __init__(self, *, kg: KGStore, chains: ChainIndex, linker: Linker, sources: SourceRegistry, config: EngineConfig | None = None, ranker: Any = None,
                 truth: TruthFilter | None = None) -> None:
        self.kg = kg
        #: the truth rules over the store's classes (their kinds also tell the privacy guard
        #: which facts of a person a class can be the value of); ``None`` without graph ladders
        self.truth = truth
        self.chains = chains
        self.linker = linker
        self.sources = sources
        self.generator = CandidateGenerator(sources)
        self.config = config or EngineConfig()
        #: the packs of words and patterns, and the rules switched on (:mod:`engine.knowledge`)
        self.knowledge = self.config.knowledge()
        self._ranker = ranker
        self._ranker_loaded = ranker is not None
        self._embedder = None
        self._graph_stats: GraphStats | None = None
        self._privacy_guard = None
        self.remote = None  # engine.remote.RemoteFallback when an endpoint is enabled

    @classmethod
    def from_config(cls, config: EngineConfig | str | Path | None = None, **overrides: Any) -> "Engine":
        """Build an engine from a config (object, TOML path, or None for file/env/defaults)."""
        if not isinstance(config, EngineConfig):
            config = EngineConfig.load(config, overrides=overrides)
        if config.store is None:
            kg = default_store()
        elif config.endpoint.enabled:
            kg = KGStore.open(config.store)  # the remote cache writes into the store
        else:
            kg = KGStore.read_only(config.store)
        stale = kg.stale_overlay()
        if stale:
            warnings.warn(f"store {config.store} may hold another overlay than the shipped ontology/ ({stale}): "
                          f"'taxogen kg overlay --store {config.store}' reloads it", StaleOverlayWarning, stacklevel=2)
        return cls.from_store(kg, config)

    @classmethod
    def from_store(cls, kg: KGStore, config: EngineConfig | None = None) -> "Engine":
        """An engine over an already opened store."""
        config = config or EngineConfig()
        chains = ChainIndex(kg, mode=config.chain_mode)
        taxonomy = chains.view if chains.view is not None else open_taxonomy(kg)
        linker = Linker(open_label_index(kg), taxonomy)
        remote = None
        if config.endpoint.enabled:
            from engine.generate.remote import RemoteFallback
            from kg.remote import SparqlClient
            from kg.remote_cache import RemoteTaxonomy

            settings = config.endpoint
            taxonomy_remote = RemoteTaxonomy(
                kg, SparqlClient(settings.client_config()), ttl_s=settings.cache_ttl_s,
                negative_ttl_s=settings.negative_ttl_s, max_depth=chains.rules.max_depth,
            )
            remote = RemoteFallback(taxonomy_remote, linker, chains)
        sources = rule_sources()
        truth = TruthFilter(taxonomy, linker.index, TruthRules.load(), chains.rules)
        sources.register(
            GraphSource(linker, chains, max_ladder=config.max_ladder, remote=remote, truth=truth),
            entity_types=GRAPH_TYPES,
        )
        engine = cls(kg=kg, chains=chains, linker=linker, sources=sources, config=config, truth=truth)
        engine.remote = remote
        return engine

    @_knowing
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

    # --- ranking ------------------------------------------------------------------------
    @property
    def ranker(self):
        """The ranker of ``config.model`` (loaded on first use; ``None`` for ``"none"``)."""
        if not self._ranker_loaded:
            from engine.select.ranker import Ranker, shipped_model_dir

            model = self.config.model
            if model == "none":
                self._ranker = None
            else:
                self._ranker = Ranker.load(shipped_model_dir() if model == "shipped" else Path(model))
            self._ranker_loaded = True
        return self._ranker

    @property
    def embedder(self):
        """The sentence embedder of the ranker (loaded on first use, with the disk cache)."""
        if self._embedder is None:
            from engine.select.embeddings import Embedder, default_cache_path

            self._embedder = Embedder(default_cache_path(), precision=self.config.embedding_precision)
        return self._embedder

    @embedder.setter
    def embedder(self, embedder) -> None:
        """Use ``embedder`` from now on (benchmarks swap in one with empty caches; ``None``
        loads the default again on next use)."""
        self._embedder = embedder

    @property
    def loaded_embedder(self):
        """The embedder if one is loaded or set, else ``None`` (reading this loads nothing)."""
        return self._embedder

    @property
    def item_names(self):
        """Every name of every item (labels, aliases, demonyms) for the leak check (built on first use)."""
        if getattr(self, "_item_names", None) is None:
            from engine.privacy.leaks import ItemNames

            self._item_names = ItemNames(self.linker.index, self.linker.taxonomy)
        return self._item_names

    @property
    def graph_stats(self) -> GraphStats:
        if self._graph_stats is None:
            self._graph_stats = GraphStats.from_engine(self)
        return self._graph_stats

    def rank_item(self, item: RankItem) -> list[float]:
        """Scores of one prepared item's candidates (first-rung order without a ranker)."""
        return self.rank_items([item])[0]

    @_knowing
    def rank_items(self, items: list[RankItem]) -> list[list[float]]:
        """Scores of many prepared items at once (one embedding batch)."""
        ranker = self.ranker
        if ranker is None:
            return [[float(len(it.candidates) - i) for i in range(len(it.candidates))] for it in items]
        builder = FeatureBuilder(
            self.embedder if set(EMBEDDING_GROUPS) & set(ranker.groups) else None,
            groups=ranker.groups,
            graph=self.graph_stats if "graph" in ranker.groups else None,
            prior=ranker.prior,
        )
        from engine.select.ranker import split_scores

        X, sizes = builder.build(items)
        return [[float(v) for v in part] for part in split_scores(ranker.score(X), sizes)]

    @_knowing
    def rank(self, span: Span, candidates: Ladder | list[Candidate], context: str | None = None) -> list[ScoredCandidate]:
        """Candidates of ``span`` with the ranker's scores, best first."""
        item = self.rank_item_for(span, candidates, context)
        ladder_cands = candidates.candidates if isinstance(candidates, Ladder) else tuple(candidates)
        scores = self.rank_item(item)
        ranked = sorted(zip(ladder_cands, scores), key=lambda cs: -cs[1])
        return [ScoredCandidate(c, s) for c, s in ranked]

    def rank_item_for(
        self,
        span: Span,
        candidates: Ladder | list[Candidate],
        context: str | None = None,
        *,
        span_start: int | None = None,
        **document: float,
    ) -> RankItem:
        """The ranker's view of a span and its candidates.

        ``span_start`` is the span's offset in ``context`` (default: its first occurrence
        there); ``document`` holds optional ``doc_*`` facts (:class:`DocumentFacts`).
        """
        links = candidates.links if isinstance(candidates, Ladder) else ()
        cands = candidates.candidates if isinstance(candidates, Ladder) else tuple(candidates)
        if not cands:
            raise ValueError("no candidates to rank")
        method = _LINK_METHOD.get(links[0].method, "exact") if links else "none"
        rank_cands = tuple(
            RankCandidate(
                c.label,
                "mask" if c.label == MASK else (c.source if c.source in TAXONOMY_PROPS else "rule"),
                "none" if c.label == MASK or c.source not in TAXONOMY_PROPS else method,
                c.qid,
            )
            for c in cands
        )
        sentence = context if context is not None else (span.context or span.text)
        start = span_start if span_start is not None else sentence.find(span.text)
        return RankItem(
            span=span.text, entity_type=span.entity_type, identifier_type=span.identifier_type,
            sentence=sentence, candidates=rank_cands, span_start=start, **document,
        )

    # --- detection (raw text in) ----------------------------------------------------------
    @property
    def detector(self):
        """The span detector over this engine's store (:mod:`engine.detect`; built on first use)."""
        if getattr(self, "_detector", None) is None:
            from engine.detect import Detector

            decider = None if self.config.detect_model == "shipped" else self.config.detect_model
            self._detector = Detector.from_store(self.kg, self.linker.taxonomy, model=self.config.spacy_model, decider=decider)
        return self._detector

    @_knowing
    def detect(self, text: str):
        """Every candidate span of a raw ``text`` with its masking decision (``DetectedSpan``)."""
        return self.detector.detect(text)

    @_knowing
    def detect_mentions(self, text: str):
        """The spans of ``text`` to mask, as :class:`Mention` (one ``entity_id`` per person)."""
        return self.detector.mentions(text)

    @property
    def privacy_guard(self):
        """The k-anonymity guard over this store's persons (index built or read on first use)."""
        if self._privacy_guard is None:
            from engine.privacy.background import Background
            from engine.privacy.guard import PrivacyGuard

            self._privacy_guard = PrivacyGuard(self, Background.for_store(self.kg))
        return self._privacy_guard

    @privacy_guard.setter
    def privacy_guard(self, guard) -> None:
        """Use ``guard`` (e.g. one over a background a benchmark built) instead of building one."""
        self._privacy_guard = guard

    # --- documents ----------------------------------------------------------------------
    def sanitize(self, text: str, mentions, *, overlap: str = "merge", readability: bool = True, alternatives: int = 5,
                 k: int | None = None, selection: str | None = None):
        """Generalize every masked mention of ``text`` (see :mod:`engine.pipeline`).

        ``k``: generalize until at least k persons of the store fit (default ``privacy.k``;
        0 only measures; see :mod:`engine.privacy`); the report is ``result.privacy``.
        ``selection``: ``meaning`` or ``annotators`` (default ``privacy.selection``).
        """
        return self.sanitize_many([(text, mentions)], overlap=overlap, readability=readability, alternatives=alternatives,
                                  k=k, selection=selection)[0]

    @_knowing
    def sanitize_many(self, docs, *, overlap: str = "merge", readability: bool = True, alternatives: int = 5,
                      k: int | None = None, selection: str | None = None):
        """Several ``(text, mentions)`` documents, ranked in one batch."""
        from engine.mentions import OverlapPolicy
        from engine.pipeline import DocumentSanitizer, SanitizeOptions

        k = k if k is not None else (self.config.privacy.k or None)
        chosen = Selection.parse(selection if selection is not None else self.config.privacy.selection)
        opts = SanitizeOptions(OverlapPolicy(overlap), readability, alternatives, k, chosen)
        return DocumentSanitizer(self, opts).sanitize_many(list(docs))
