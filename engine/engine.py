"""The engine facade: builds the pipeline (:mod:`engine.pipeline`) from a config and runs it.

:meth:`Engine.sanitize` and :meth:`Engine.sanitize_many` put documents (raw text, or text
with its mentions) through the stages detect → link → ladder → verify → rank → select →
guard → render; :meth:`Engine.candidates`, :meth:`Engine.rank` and :meth:`Engine.detect`
answer for one span or one text. The stages receive what they need when the engine builds
them (the store's linker, chains, truth rules, ranker, privacy index); none of them holds the
engine. Every call runs with the engine's packs and rules current (:mod:`engine.knowledge`).
"""

from __future__ import annotations

import functools
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

from kg.chains import ChainIndex, open_taxonomy
from kg.starter import default_store
from kg.store import KGStore
from engine.config import EngineConfig
from engine.detect.stage import DetectStage
from engine.doc import Doc, SanitizeOptions, SanitizeResult
from engine.generate.candidates import CandidateGenerator
from engine.generate.label_store import open_label_index
from engine.generate.linking import Linker
from engine.generate.sources.base import DocumentState
from engine.generate.sources.gazetteer import GEONAMES
from engine.generate.sources.graph import GraphSource
from engine.generate.sources.registry import SourceRegistry, rule_sources
from engine.generate.stages import LadderStage, LinkStage, VerifyStage
from engine.generate.truth import TruthFilter, TruthRules
from engine.generate.verifier import LadderVerifier, check_min_truth
from engine.mentions import OverlapPolicy
from engine.pipeline import Pipeline
from engine.privacy.disclosure import Discloser
from engine.privacy.stage import GuardStage
from engine.render.stage import RenderStage
from engine.select.features import GraphStats, RankItem
from engine.select.stages import RankStage, SelectStage, rank_item
from engine.text.articles import with_definite_article
from engine.types import GRAPH_TYPES, Candidate, EntityType, IdentifierType, Ladder, Mention, ScoredCandidate, Selection, Span

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

    Build it with :meth:`from_config` (or :meth:`from_store`, or inject the parts for tests).
    ``candidates`` gives the ladder of a span, ``rank`` orders candidates, ``detect`` finds
    the personal spans of a text, ``sanitize`` processes a whole document.
    """

    def __init__(self, *, kg: KGStore, chains: ChainIndex, linker: Linker, sources: SourceRegistry, config: EngineConfig | None = None,
                 ranker: Any = None, truth: TruthFilter | None = None) -> None:
        self.kg = kg
        #: the truth rules over the store's classes (their kinds also tell the privacy guard
        #: which facts of a person a class can be the value of); ``None`` without graph ladders
        self.truth = truth
        self.chains = chains
        self.linker = linker
        self.sources = sources
        self.generator = CandidateGenerator(sources)
        self.config = config or EngineConfig()
        #: the packs of words and patterns, and the rules switched on (:mod:`engine.knowledge`):
        #: the config's, with the rules whose verdicts the verifier weighs switched off (:meth:`use_verifier`)
        self.knowledge = self.config.knowledge()
        self.remote = None  # engine.generate.remote.RemoteFallback when an endpoint is enabled
        self.pipeline = self._build_pipeline()
        self.use_verifier(self._load_verifier())
        if ranker is not None:
            self.pipeline["rank"].ranker = ranker

    def _load_verifier(self):
        """The configured verifier model (``config.verifier``: the shipped one, a directory, or
        ``None`` for "none" and where there are no graph ladders)."""
        if self.config.verifier == "none" or self.truth is None:
            return None
        from engine.generate.verifier import Verifier, shipped_verifier_dir

        return Verifier.load(shipped_verifier_dir() if self.config.verifier == "shipped" else Path(self.config.verifier))

    @property
    def verifier(self) -> LadderVerifier | None:
        """The verifier of rungs over this store (:mod:`engine.generate.verifier`); ``None``
        without one."""
        return self._verifier

    def use_verifier(self, model) -> None:
        """Weigh rungs with ``model`` (a :class:`engine.generate.verifier.Verifier`; ``None``: the
        rules alone decide). The rules whose verdicts it reads are switched off while ladders are
        built and read, switched on, by its features."""
        configured = self.config.knowledge()
        if model is None or self.truth is None:
            self._verifier = self.pipeline["verify"].verifier = None
            self.knowledge = configured
            return
        from engine.generate.verify_features import RungFeatures

        rank = self.pipeline["rank"]
        self._verifier = self.pipeline["verify"].verifier = LadderVerifier(model, RungFeatures(self.truth, self.chains, rules=model.rules,
                                                                              knowledge=configured, embedder=lambda: rank.embedder))
        self.knowledge = configured.with_rules_off(model.rules)

    def _build_pipeline(self) -> Pipeline:
        """The stages over this engine's parts (each gets what it needs, none the engine)."""
        config, kg, linker, chains, truth = self.config, self.kg, self.linker, self.chains, self.truth

        def detector():
            from engine.detect import Detector

            decider = None if config.detect_model == "shipped" else config.detect_model
            return Detector.from_store(kg, linker.taxonomy, model=config.spacy_model, decider=decider)

        def embedder(model_name: str):
            from engine.select.embeddings import Embedder, default_cache_path

            return Embedder(default_cache_path(), precision=config.embedding_precision, model_name=model_name)

        def graph_stats() -> GraphStats:
            return GraphStats.of(linker.taxonomy, chains.rules.never_offer, linker.index)

        def item_names():
            from engine.privacy.leaks import ItemNames

            return ItemNames(linker.index, linker.taxonomy)

        generator, min_truth = self.generator, config.min_truth
        verify = VerifyStage()

        def ladder_of(span: Span) -> Ladder:
            ladder = generator.ladder(span)
            return verify.verifier.verify(ladder, None, min_truth)[0] if verify.verifier is not None else ladder

        def privacy_guard():
            from engine.privacy.background import Background
            from engine.privacy.guard import PrivacyGuard

            return PrivacyGuard(Discloser(chains.rules.composed, linker.taxonomy, linker.index, truth), Background.for_store(kg),
                                linker.index, ladder_of)

        return Pipeline([
            DetectStage(detector), LinkStage(linker, generator), LadderStage(generator), verify,
            RankStage(config.model, embedder, graph_stats, embedding_model=config.embedding_model_name), SelectStage(), GuardStage(privacy_guard, item_names), RenderStage(),
        ])

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
        chains = ChainIndex(kg, mode=config.chain_mode, name_phrase=with_definite_article)
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
            GraphSource(linker, chains, max_ladder=config.max_ladder, remote=remote, truth=truth, gazetteer=GEONAMES),
            entity_types=GRAPH_TYPES,
        )
        engine = cls(kg=kg, chains=chains, linker=linker, sources=sources, config=config, truth=truth)
        engine.remote = remote
        return engine

    # --- one span ----------------------------------------------------------------------------
    def candidates(
        self,
        span: str | Span,
        entity_type: str | EntityType | None = None,
        *,
        context: str | None = None,
        identifier_type: str | IdentifierType | None = None,
        entity_id: str | None = None,
        state: DocumentState | None = None,
        min_truth: float | None = None,
    ) -> Ladder:
        """The ordered replacement candidates of one span, ending with ``***``: with a verifier,
        without the rungs whose P(true) is below ``min_truth`` (default: ``config.min_truth``,
        else the verifier's operating point)."""
        return self.weighed_candidates(span, entity_type, context=context, identifier_type=identifier_type, entity_id=entity_id,
                                       state=state, min_truth=min_truth)[0]

    @_knowing
    def weighed_candidates(
        self,
        span: str | Span,
        entity_type: str | EntityType | None = None,
        *,
        context: str | None = None,
        identifier_type: str | IdentifierType | None = None,
        entity_id: str | None = None,
        state: DocumentState | None = None,
        min_truth: float | None = None,
    ) -> tuple[Ladder, tuple[float, ...] | None]:
        """:meth:`candidates`, and the verifier's P(true) of each rung kept (``None``: no verifier,
        or a type it does not weigh)."""
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
        return self.verify(self.generator.ladder(span, state), state, min_truth=min_truth)

    @_knowing
    def verify(self, ladder: Ladder, state: DocumentState | None = None, *, min_truth: float | None = None
               ) -> tuple[Ladder, tuple[float, ...] | None]:
        """``ladder`` without the rungs the verifier finds below the operating point (``min_truth``,
        default ``config.min_truth``, else the verifier's), and the P(true) of the rungs kept
        (``None``: no verifier, or a type it does not weigh)."""
        if self.verifier is None:
            return ladder, None
        point = self.min_truth(min_truth)
        return self.verifier.verify(ladder, state, point)

    def min_truth(self, value: float | None = None, kind: str = "") -> float | None:
        """The operating point in force: ``value``, else ``config.min_truth``, else the verifier's
        default for a document of ``kind`` (``None`` without a verifier); raises
        :class:`engine.errors.InputError` for a value that is no probability."""
        chosen = self.chosen_min_truth(value)
        if chosen is not None:
            return chosen
        return self.verifier.min_truth_for(kind) if self.verifier is not None else None

    def chosen_min_truth(self, value: float | None = None) -> float | None:
        """The operating point the caller or the configuration chose (``value``, else
        ``config.min_truth``), or ``None``: each document then takes its kind's."""
        if value is not None:
            return check_min_truth(value)
        return self.config.min_truth

    # --- ranking ------------------------------------------------------------------------------
    @property
    def ranker(self):
        """The ranker of ``config.model`` (loaded on first use; ``None`` for ``"none"``)."""
        return self.pipeline["rank"].ranker

    @property
    def embedder(self):
        """The sentence embedder of the ranker (loaded on first use, with the disk cache)."""
        return self.pipeline["rank"].embedder

    @embedder.setter
    def embedder(self, embedder) -> None:
        """Use ``embedder`` from now on (benchmarks swap in one with empty caches; ``None``
        loads the default again on next use)."""
        self.pipeline["rank"].embedder = embedder

    @property
    def embedding_model(self) -> str:
        """The sentence model of the ranker's features (an embedder swapped in must run it)."""
        return self.pipeline["rank"].embedding_model

    @property
    def loaded_embedder(self):
        """The embedder if one is loaded or set, else ``None`` (reading this loads nothing)."""
        return self.pipeline["rank"].loaded_embedder

    @property
    def graph_stats(self) -> GraphStats:
        return self.pipeline["rank"].graph_stats

    @_knowing
    def rank_items(self, items: list[RankItem]) -> list[list[float]]:
        """Scores of many prepared items at once (one embedding batch)."""
        return self.pipeline["rank"].score(items)

    def rank_item(self, item: RankItem) -> list[float]:
        """Scores of one prepared item's candidates (first-rung order without a ranker)."""
        return self.rank_items([item])[0]

    @_knowing
    def rank(self, span: Span, candidates: Ladder | list[Candidate], context: str | None = None) -> list[ScoredCandidate]:
        """Candidates of ``span`` with the ranker's scores, best first."""
        item = rank_item(span, candidates, context)
        ladder_cands = candidates.candidates if isinstance(candidates, Ladder) else tuple(candidates)
        scores = self.rank_item(item)
        ranked = sorted(zip(ladder_cands, scores), key=lambda cs: -cs[1])
        return [ScoredCandidate(c, s) for c, s in ranked]

    @staticmethod
    def rank_item_for(span: Span, candidates: Ladder | list[Candidate], context: str | None = None, *,
                      span_start: int | None = None, **document: float) -> RankItem:
        """The ranker's view of a span and its candidates (:func:`engine.select.stages.rank_item`)."""
        return rank_item(span, candidates, context, span_start=span_start, **document)

    # --- detection (raw text in) ----------------------------------------------------------------
    @property
    def detector(self):
        """The span detector over this engine's store (:mod:`engine.detect`; built on first use)."""
        return self.pipeline["detect"].detector

    @_knowing
    def detect(self, text: str):
        """Every candidate span of a raw ``text`` with its masking decision (``DetectedSpan``)."""
        return self.detector.detect(text)

    @_knowing
    def detect_mentions(self, text: str) -> list[Mention]:
        """The spans of ``text`` to mask, as :class:`Mention` (one ``entity_id`` per person)."""
        return self.detector.mentions(text)

    # --- privacy ------------------------------------------------------------------------------
    @property
    def privacy_guard(self):
        """The k-anonymity guard over this store's persons (index built or read on first use)."""
        return self.pipeline["guard"].guard

    @privacy_guard.setter
    def privacy_guard(self, guard) -> None:
        """Use ``guard`` (e.g. one over a background a benchmark built) instead of building one."""
        self.pipeline["guard"].guard = guard

    @property
    def item_names(self):
        """Every name of every item (labels, aliases, demonyms) for the leak check (built on first use)."""
        return self.pipeline["guard"].item_names

    # --- documents ------------------------------------------------------------------------------
    def options(self, *, overlap: str = "merge", readability: bool = True, alternatives: int = 5, k: int | None = None,
                selection: str | None = None, min_truth: float | None = None) -> SanitizeOptions:
        """Sanitize options with this engine's defaults (``k``: ``privacy.k``, 0 = off; ``selection``:
        ``privacy.selection``; ``min_truth``: :meth:`chosen_min_truth`, else each document's kind's)."""
        k = k if k is not None else (self.config.privacy.k or None)
        chosen = Selection.parse(selection if selection is not None else self.config.privacy.selection)
        return SanitizeOptions(OverlapPolicy(overlap), readability, alternatives, k, chosen, self.chosen_min_truth(min_truth))

    def sanitize(self, text: str, mentions: Sequence[Mention] | None = None, *, overlap: str = "merge", readability: bool = True,
                 alternatives: int = 5, k: int | None = None, selection: str | None = None,
                 min_truth: float | None = None) -> SanitizeResult:
        """Generalize every masked mention of ``text``; ``mentions`` None: detect them first.

        ``k``: generalize until at least k persons of the store fit (default ``privacy.k``;
        0 only measures; see :mod:`engine.privacy`); the report is ``result.privacy``.
        ``selection``: ``meaning`` or ``annotators`` (default ``privacy.selection``).
        ``min_truth``: the verifier's operating point (default :meth:`min_truth`).
        """
        return self.sanitize_many([(text, mentions)], overlap=overlap, readability=readability, alternatives=alternatives,
                                  k=k, selection=selection, min_truth=min_truth)[0]

    def sanitize_many(self, docs: Sequence[tuple[str, Sequence[Mention] | None]], *, overlap: str = "merge", readability: bool = True,
                      alternatives: int = 5, k: int | None = None, selection: str | None = None,
                      min_truth: float | None = None) -> list[SanitizeResult]:
        """Several ``(text, mentions)`` documents in one batch (mentions None: detected)."""
        opts = self.options(overlap=overlap, readability=readability, alternatives=alternatives, k=k, selection=selection,
                            min_truth=min_truth)
        return [d.result for d in self.run([Doc(text, None if ms is None else list(ms)) for text, ms in docs], opts)]

    @_knowing
    def run(self, docs: Sequence[Doc], options: SanitizeOptions | None = None, *, until: str | None = None) -> list[Doc]:
        """Put ``docs`` through the pipeline (``until``: stop after that stage) and return them."""
        return self.pipeline.run(docs, options or self.options(), until=until)
