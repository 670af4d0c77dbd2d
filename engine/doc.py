"""The one record a document is while it is sanitized: :class:`Doc`, with a :class:`DocMention`
per mention, filled in by the stages in order (:mod:`engine.pipeline`).

========  ===================================================================================
stage     what it writes
========  ===================================================================================
detect    ``Doc.parse`` (raw text: the spaCy parse, computed once), ``Doc.detected``, the
          mentions (found or given: checked, overlaps merged, grouped into entities, each with
          its sentence), ``Doc.first``, ``Doc.grouped``, ``Doc.facts``
link      ``Doc.state`` (the document's countries …) and ``DocMention.linked`` of each entity's
          first mention
ladder    ``DocMention.ladder``
verify    ``DocMention.verdicts``: P(rung true) of each rung, where a verifier is configured
rank      ``DocMention.rank_item`` and ``DocMention.scores``
select    ``DocMention.choice``: the selection policy's rung, before the guard
guard     ``DocMention.forced`` (rungs the k-anonymity guard moved), ``Doc.privacy``, the final
          ``DocMention.choice`` with leaking rungs withheld, ``Doc.skipped``
render    ``DocMention.replacement`` and ``Doc.result``
========  ===================================================================================

A mention that a stage fails on is masked (``DocMention.failed``, a line in ``Doc.errors``):
the original text never leaks. Later mentions of an entity show the choice of its first one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.generate.sources.base import Linked
from engine.mentions import OverlapPolicy
from engine.text.document_kind import document_kind
from engine.types import (
    Choice, EntityType, IdentifierType, Ladder, Mention, Replacement, Segment, Selection, Skipped, Span,
)

if TYPE_CHECKING:
    from engine.privacy.report import PrivacyReport


@dataclass(frozen=True, slots=True)
class SanitizeOptions:
    """How documents are sanitized (read by the stages).

    ``overlap``: what to do with overlapping mentions; ``readability``: fit each rung to its
    slot; ``alternatives``: how many ranked rungs a replacement lists; ``k``: the privacy
    guard — None off, 0 measures k without moving any span, K moves spans until the
    document's k ≥ K (:mod:`engine.privacy`); ``selection``: which rung the selection policy
    starts from (:class:`engine.types.Selection`); ``min_truth``: the verifier's operating
    point, rungs whose P(true) is below it are dropped (None: the verifier's point for the
    document's kind; :mod:`engine.generate.verifier`).
    """

    overlap: OverlapPolicy = OverlapPolicy.MERGE
    readability: bool = True
    alternatives: int = 5
    k: int | None = None
    selection: Selection = Selection.MEANING
    min_truth: float | None = None


@dataclass(slots=True, eq=False)
class DocMention:
    """One mention of a document and everything the stages decided about it."""

    start: int
    end: int
    entity_type: EntityType
    identifier_type: IdentifierType = IdentifierType.QUASI
    entity_id: str | None = None
    related: tuple[str, ...] = ()
    mention_id: str | None = None
    #: the entity it belongs to (an index into the document's entities) — detect
    entity: int = -1
    #: offsets of its sentence in the document's text — detect
    sentence: tuple[int, int] = (0, 0)
    #: how overlapping input mentions were merged into it — detect
    merged: str = ""
    #: the detector's P(mask), when the text was raw — detect
    detection_score: float | None = None
    #: the items the span may name, best first, each link with its score, and how they were
    #: found (an entity's first mention of a graph type) — link
    linked: Linked | None = None
    #: its ladder (an entity's first mention) — ladder
    ladder: Ladder | None = None
    #: P(rung true), one per rung of the ladder (``***``: 1), where a verifier is configured — verify
    verdicts: tuple[float, ...] | None = None
    #: what the ranker reads, and its scores, one per rung (an entity's first mention) — rank
    rank_item: Any = None
    scores: list[float] | None = None
    #: the rung shown for its entity (an entity's first mention) — select, then guard
    choice: Choice | None = None
    #: the privacy guard's rung, where it moved the entity — guard
    forced: Choice | None = None
    #: a stage failed on it: it is masked — any stage
    failed: bool = False
    #: what the reader sees — render
    replacement: Replacement | None = None

    @classmethod
    def of(cls, m: Mention) -> "DocMention":
        return cls(m.start, m.end, m.entity_type, m.identifier_type, m.entity_id, m.related, m.mention_id)

    def as_mention(self) -> Mention:
        """The caller's view of it (:class:`engine.types.Mention`)."""
        return Mention(self.start, self.end, self.entity_type, self.identifier_type, self.entity_id, self.related, self.mention_id)

    @property
    def masked(self) -> bool:
        return self.identifier_type is not IdentifierType.NO_MASK


@dataclass(eq=False)
class Doc:
    """A document and what the stages decided about it (see the module docstring)."""

    text: str
    #: the mentions given by the caller; ``None`` when the detect stage is to find them
    given: list[Mention] | None = None
    #: the spaCy parse of a raw text (detect); ``None`` when the mentions were given
    parse: Any = None
    #: every candidate span the detector found, masked or not (raw text)
    detected: list[Any] = field(default_factory=list)
    mentions: list[DocMention] = field(default_factory=list)
    #: entity → the index of its first mention, which stands for all of them
    first: dict[int, int] = field(default_factory=dict)
    #: entities the caller grouped (an ``entity_id`` or ``related`` links): persons are numbered by them
    grouped: set[int] = field(default_factory=set)
    #: document-wide facts the ranker reads (:class:`engine.select.features.DocumentFacts`)
    facts: Any = None
    #: what the ladder sources remember across a document (:class:`engine.generate.sources.base.DocumentState`)
    state: Any = None
    errors: list[str] = field(default_factory=list)
    privacy: PrivacyReport | None = None
    skipped: list[Skipped] = field(default_factory=list)
    result: SanitizeResult | None = None

    # --- reading ------------------------------------------------------------------------
    @cached_property
    def kind(self) -> str:
        """The document's kind (:func:`engine.text.document_kind.document_kind`), read once."""
        return document_kind(self.text)

    def first_of(self, k: int) -> int:
        """The index of the first mention of mention ``k``'s entity."""
        return self.first.get(self.mentions[k].entity, k)

    def original(self, k: int) -> str:
        """The text of mention ``k``."""
        m = self.mentions[k]
        return self.text[m.start:m.end]

    def sentence_of(self, k: int) -> str:
        m = self.mentions[k]
        return self.text[m.sentence[0]:m.sentence[1]]

    def span(self, k: int, identifier_type: IdentifierType | None = None) -> Span:
        """Mention ``k`` as a :class:`engine.types.Span` in its sentence."""
        m = self.mentions[k]
        entity_id = f"entity-{m.entity}" if m.entity in self.grouped else None
        return Span(self.text[m.start:m.end], m.entity_type, identifier_type or m.identifier_type, context=self.sentence_of(k),
                    start=m.start, end=m.end, entity_id=entity_id)

    def firsts(self) -> list[int]:
        """The first mention of every masked entity, in text order (the ones that get a ladder)."""
        return sorted(k for k in self.first.values() if self.mentions[k].masked)

    @property
    def entity(self) -> list[int]:
        """The entity of each mention, by index."""
        return [m.entity for m in self.mentions]

    @property
    def ladders(self) -> dict[int, Ladder]:
        """Mention index → ladder, for the mentions that have one."""
        return {k: m.ladder for k, m in enumerate(self.mentions) if m.ladder is not None}

    @property
    def forced_at(self) -> dict[int, Choice]:
        """Mention index → the privacy guard's choice, where it made one."""
        return {k: m.forced for k, m in enumerate(self.mentions) if m.forced is not None}

    def fail(self, k: int, message: str) -> None:
        """Mask mention ``k`` (its entity): a stage failed on it."""
        self.mentions[k].failed = True
        self.errors.append(message)


@dataclass(frozen=True, slots=True)
class SanitizeResult:
    """A sanitized document: the new text, each replacement, readability edits, offset map."""

    text: str
    original: str
    replacements: tuple[Replacement, ...] = ()
    edits: tuple[str, ...] = ()
    segments: tuple[Segment, ...] = ()
    errors: tuple[str, ...] = ()
    privacy: PrivacyReport | None = None  # k before/after and forced climbs, when the guard ran (engine.privacy)
    skipped: tuple[Skipped, ...] = ()

    def original_offset(self, new_offset: int) -> int:
        """The offset in the original text that ``new_offset`` in the new text comes from.

        Inside a changed region the region's original start is returned; elsewhere the
        offset is shifted by the length changes of the regions before it.
        """
        if not 0 <= new_offset <= len(self.text):
            raise ValueError(f"offset {new_offset} outside the sanitized text (0–{len(self.text)})")
        shift = 0
        for seg in self.segments:
            if new_offset < seg.new_start:
                break
            if new_offset < seg.new_end:
                return seg.orig_start
            shift = seg.orig_end - seg.new_end
        return new_offset + shift
