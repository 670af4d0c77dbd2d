"""The rank and select stages: the ranker's scores of each ladder, and the rung the selection
policy shows for each entity before the privacy guard.

- **rank**: each entity's first mention gets its :class:`engine.select.features.RankItem`
  (span, sentence, candidates, document facts); every item whose order can change the
  policy's choice (:meth:`engine.select.policy.SelectionPolicy.ranks`) is scored by the
  LightGBM ranker on sentence-embedding features, all documents in one batch; the others keep
  their ladder's order (scored ``n, n-1, …, 1``, as without a ranker). A failure masks every
  mention of the batch it hit (fail closed).
- **select**: the policy's choice for each entity (:meth:`SelectionPolicy.choose`), the rung
  the privacy guard starts from.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from kg.vocab import TAXONOMY_PROPS
from engine.doc import Doc, SanitizeOptions
from engine.generate.sources.datetime import stands_for_a_number
from engine.select.features import EMBEDDING_GROUPS, FeatureBuilder, GraphStats, RankCandidate, RankItem
from engine.select.policy import SelectionPolicy
from engine.types import MASK, Candidate, Ladder, LinkMethod, Span

log = logging.getLogger(__name__)

#: How the ranker reads a link method.
_LINK_METHOD = {
    LinkMethod.EXACT: "exact", LinkMethod.ALIAS: "exact", LinkMethod.NORMALISED: "exact",
    LinkMethod.DEMONYM: "exact", LinkMethod.CONTAINED: "contained", LinkMethod.APPROXIMATE: "approximate",
}


def rank_item(span: Span, candidates: Ladder | Sequence[Candidate], context: str | None = None, *, span_start: int | None = None,
              **document: float) -> RankItem:
    """The ranker's view of a span and its candidates.

    ``span_start`` is the span's offset in ``context`` (default: its first occurrence
    there); ``document`` holds optional ``doc_*`` facts (:class:`engine.select.features.DocumentFacts`).
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
            stands_for_a_number(c.source, c.rule),
        )
        for c in cands
    )
    sentence = context if context is not None else (span.context or span.text)
    start = span_start if span_start is not None else sentence.find(span.text)
    return RankItem(
        span=span.text, entity_type=span.entity_type, identifier_type=span.identifier_type,
        sentence=sentence, candidates=rank_cands, span_start=start, **document,
    )


class RankStage:
    """Scores the ladders with the ranker.

    ``model``: the ranker's directory, ``"shipped"``, or ``"none"`` (ladder order);
    ``embedder``: builds the sentence embedder of a model name on first need (the ranker's
    :attr:`~engine.select.ranker.Ranker.embedding_model`; without a ranker ``embedding_model``,
    the one rankers are trained on); ``graph_stats``: builds the
    per-label graph facts on first need."""

    name = "rank"

    def __init__(self, model: str, embedder: Callable[[str], object], graph_stats: Callable[[], GraphStats], *,
                 embedding_model: str = "static-MiniLM-L6-v2") -> None:
        self.model = model
        self.training_embedding_model = embedding_model
        self._make_embedder = embedder
        self._make_graph_stats = graph_stats
        self._ranker = None
        self._ranker_loaded = False
        self._embedder = None
        self._graph_stats: GraphStats | None = None

    # --- what the ranker needs, built on first use -----------------------------------------
    @property
    def ranker(self):
        """The ranker of ``model`` (loaded on first use; ``None`` for ``"none"``)."""
        if not self._ranker_loaded:
            from engine.select.ranker import Ranker, shipped_model_dir

            self._ranker = None if self.model == "none" else Ranker.load(shipped_model_dir() if self.model == "shipped" else Path(self.model))
            self._ranker_loaded = True
        return self._ranker

    @ranker.setter
    def ranker(self, ranker) -> None:
        self._ranker, self._ranker_loaded = ranker, True

    @property
    def embedder(self):
        """The sentence embedder (loaded on first use)."""
        if self._embedder is None:
            self._embedder = self._make_embedder(self.embedding_model)
        return self._embedder

    @property
    def embedding_model(self) -> str:
        """The sentence model the ranker's features come from (without a ranker: the one
        rankers are trained on, ``embedding_model`` of the config)."""
        return self.ranker.embedding_model if self.ranker is not None else self.training_embedding_model

    @embedder.setter
    def embedder(self, embedder) -> None:
        self._embedder = embedder

    @property
    def loaded_embedder(self):
        """The embedder if one is loaded or set, else ``None`` (reading this loads nothing)."""
        return self._embedder

    @property
    def graph_stats(self) -> GraphStats:
        if self._graph_stats is None:
            self._graph_stats = self._make_graph_stats()
        return self._graph_stats

    # --- scoring -------------------------------------------------------------------------
    def score(self, items: Sequence[RankItem]) -> list[list[float]]:
        """Scores of many items' candidates at once (one embedding batch; ladder order without a ranker)."""
        ranker = self.ranker
        if ranker is None:
            return [[float(len(it.candidates) - i) for i in range(len(it.candidates))] for it in items]
        embedder = self.embedder if set(EMBEDDING_GROUPS) & set(ranker.groups) else None
        if embedder is not None and getattr(embedder, "model_name", ranker.embedding_model) != ranker.embedding_model:
            from engine.errors import RankerError

            raise RankerError(f"the ranker's features come from {ranker.embedding_model}, the embedder runs {embedder.model_name}")
        builder = FeatureBuilder(
            embedder,
            groups=ranker.groups,
            graph=self.graph_stats if "graph" in ranker.groups else None,
            prior=ranker.prior,
        )
        from engine.select.ranker import split_scores

        X, sizes = builder.build(list(items))
        return [[float(v) for v in part] for part in split_scores(ranker.score(X), sizes)]

    @staticmethod
    def attach_items(doc: Doc) -> list[int]:
        """Give every entity's first mention that has a ladder its :class:`RankItem`; their indices."""
        out = []
        for k in doc.firsts():
            m = doc.mentions[k]
            if m.failed or m.ladder is None:
                continue
            span = doc.span(k)
            m.rank_item = rank_item(span, m.ladder, span.context, span_start=m.start - m.sentence[0],
                                    **doc.facts.fields(m.entity_type, m.start))
            out.append(k)
        return out

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        policy = SelectionPolicy(options.selection)
        owners = []
        for doc in docs:
            for k in self.attach_items(doc):
                m = doc.mentions[k]
                if policy.ranks(m.ladder):
                    owners.append((doc, k))
                else:
                    n = len(m.rank_item.candidates)
                    m.scores = [float(n - i) for i in range(n)]
        if not owners:
            return
        try:
            scores = self.score([doc.mentions[k].rank_item for doc, k in owners])
        except Exception as exc:  # fail closed: every ranked span becomes ***
            log.exception("ranking failed")
            for doc, k in owners:
                doc.fail(k, f"ranking failed ({type(exc).__name__}: {exc}); span {k} masked")
            return
        for (doc, k), sc in zip(owners, scores):
            doc.mentions[k].scores = sc


class SelectStage:
    """The selection policy's rung for each entity, before the privacy guard."""

    name = "select"

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        policy = SelectionPolicy(options.selection)
        for doc in docs:
            for k in doc.firsts():
                doc.mentions[k].choice = policy.choose(doc, k)
