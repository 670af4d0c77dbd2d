"""The record every detection layer produces: a typed character span with its evidence."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.types import EntityType, IdentifierType, Mention


@dataclass(frozen=True, slots=True)
class DetectedSpan:
    """A span found in raw text, before or after the masking decision.

    ``sources`` names the layers that found it (``ner``, ``gazetteer``, ``rule``,
    ``coref``, ``title``); ``ner_label`` is spaCy's OntoNotes label, ``gaz_kind`` the
    gazetteer class kind (occupation, nationality, language, …) and ``items`` the store
    items whose label or alias matched. ``identifier_type`` and ``score`` (probability
    that the span must be masked) are set by :mod:`engine.detect.decide`.
    """

    start: int
    end: int
    text: str
    entity_type: EntityType
    sources: frozenset[str] = frozenset()
    ner_label: str | None = None
    gaz_kind: str | None = None
    items: tuple[str, ...] = ()
    entity_id: str | None = None
    identifier_type: IdentifierType | None = None
    score: float | None = None
    inner: tuple[str, ...] = field(default=(), compare=False)  # kinds/types of merged-in shorter spans
    retyped_from: EntityType | None = field(default=None, compare=False)  # the merged type before engine.detect.retype

    def with_(self, **changes) -> "DetectedSpan":
        return replace(self, **changes)

    @property
    def masked(self) -> bool:
        return self.identifier_type in (IdentifierType.DIRECT, IdentifierType.QUASI)

    def to_mention(self) -> Mention:
        """The engine's :class:`Mention` of this span (NO_MASK when undecided)."""
        return Mention(self.start, self.end, self.entity_type, self.identifier_type or IdentifierType.NO_MASK, self.entity_id)

    def to_dict(self) -> dict:
        d = {
            "start": self.start, "end": self.end, "text": self.text, "entity_type": self.entity_type.value,
            "identifier_type": self.identifier_type.value if self.identifier_type else None,
            "sources": sorted(self.sources),
        }
        if self.score is not None:
            d["score"] = round(self.score, 4)
        if self.entity_id:
            d["entity_id"] = self.entity_id
        if self.ner_label:
            d["ner_label"] = self.ner_label
        if self.gaz_kind:
            d["gazetteer"] = self.gaz_kind
        if self.items:
            d["items"] = list(self.items[:5])
        return d
