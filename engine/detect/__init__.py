"""Raw text in: detect the personal spans of a document and decide which to mask.

Layers (one module each): spaCy NER (:mod:`.ner`), a gazetteer from the knowledge graph
(:mod:`.gazetteer`), rules for dates, quantities and codes (:mod:`.rules`); their spans
are merged (:mod:`.merge`), the mentions of one person linked (:mod:`.coref.persons`),
and a classifier decides DIRECT / QUASI / NO_MASK (:mod:`.decide`).

The engine's detect stage (:mod:`engine.detect.stage`) runs the detector over raw texts;
``taxogen detect`` prints what it finds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

import numpy as np

from engine.detect.candidates import CandidateFinder, Candidates
from engine.detect.decide import Decider
from engine.detect.features import FEATURES, span_features
from engine.detect.gazetteer import Gazetteer, GazetteerEntry, store_entries
from engine.detect.graph_types import GraphTyper
from engine.detect.ner import DEFAULT_MODEL
from engine.detect.spans import DetectedSpan
from engine.types import Mention

if TYPE_CHECKING:  # pragma: no cover
    from kg.store import KGStore

__all__ = ["Detector", "DetectedSpan", "Gazetteer", "GazetteerEntry", "store_entries"]


class Detector:
    """Candidate finder + masking decider over one gazetteer."""

    def __init__(self, finder: CandidateFinder, decider: Decider | None = None, *,
                 degree: Mapping[str, int] | None = None, threshold: float | None = None) -> None:
        self.finder = finder
        self._decider = decider
        self.degree = degree or {}
        self.threshold = threshold

    @classmethod
    def from_entries(cls, entries: Iterable[GazetteerEntry], *, degree: Mapping[str, int] | None = None,
                     model: str = DEFAULT_MODEL, decider: Decider | str | Path | None = None,
                     typer: GraphTyper | None = None) -> "Detector":
        """A detector whose gazetteer holds ``entries`` (any iterable of ``(label, item, type, kind)``);
        ``typer`` types the spans the graph knows (:mod:`engine.detect.graph_types`)."""
        dec = decider if isinstance(decider, Decider) or decider is None else Decider.load(decider)
        return cls(CandidateFinder(Gazetteer(entries), model=model, typer=typer), dec, degree=degree)

    @classmethod
    def from_store(cls, kg: "KGStore", taxonomy=None, **kwargs) -> "Detector":
        """A detector whose gazetteer is read from ``kg`` (``taxonomy``: the engine's view, to reuse).

        An on-disk store with indices (``index/``, written by ``kg build``) gives the
        gazetteer the entries derived from them when it was built
        (:mod:`engine.detect.entry_cache`: nothing is computed here; :class:`KGError`, one
        line naming ``taxogen kg index``, when the store has none of this version); an
        in-memory store gives them from the named queries ``all_labels`` and ``all_demonyms``.
        """
        from kg.chains import PreloadedTaxonomy
        from kg.index import has_index

        if kg.path is not None and has_index(kg.path) and taxonomy is not None and not isinstance(taxonomy, PreloadedTaxonomy):
            from kg.derived import derived_file

            from engine.detect.entry_cache import GAZETTEER_INDEX, read_entries
            from engine.detect.index_feed import IndexDegree

            entries = read_entries(derived_file(kg, GAZETTEER_INDEX.name))
            return cls.from_entries(entries, degree=IndexDegree(taxonomy),
                                    typer=GraphTyper.from_taxonomy(taxonomy), **kwargs)

        taxonomy = taxonomy if isinstance(taxonomy, PreloadedTaxonomy) else PreloadedTaxonomy.from_store(kg)
        kwargs.setdefault("typer", GraphTyper.from_taxonomy(taxonomy))
        degree = {q: taxonomy.children_count.get(q, 0) + taxonomy.instance_count.get(q, 0)
                  for q in set(taxonomy.children_count) | set(taxonomy.instance_count)}
        return cls.from_entries(store_entries(kg, taxonomy), degree=degree, **kwargs)

    @property
    def decider(self) -> Decider:
        if self._decider is None:
            self._decider = Decider.load()
        return self._decider

    def candidates(self, text: str) -> Candidates:
        return self.finder.find(text)

    def features(self, cands: Candidates) -> np.ndarray:
        return np.asarray(span_features(cands.text, cands.doc, cands.spans, self.degree), dtype=np.float64).reshape(-1, len(FEATURES))

    def decide(self, cands: Candidates) -> list[DetectedSpan]:
        return self.decider.decide(cands.spans, self.features(cands), self.threshold)

    def detect(self, text: str) -> list[DetectedSpan]:
        """Every candidate span of ``text`` with its decision (``identifier_type``, ``score``)."""
        if not text.strip():
            return []
        return self.decide(self.candidates(text))

    def detect_many(self, texts: list[str]) -> list[list[DetectedSpan]]:
        return [spans for _, spans in self.detect_parsed(texts)]

    def detect_parsed(self, texts: list[str]) -> list[tuple[object, list[DetectedSpan]]]:
        """Each text's spaCy parse and its candidate spans with their decisions (the texts go
        through spaCy in batches)."""
        return [(c.doc, self.decide(c) if c.text.strip() else []) for c in self.finder.find_many(texts)]

    def mentions(self, text: str) -> list[Mention]:
        """The spans to mask, as engine mentions (persons share one ``entity_id``)."""
        return [s.to_mention() for s in self.detect(text) if s.masked]

