"""What the head word of a name does not say it is: several of a class ("the Gulf states"), a
genre for a work's title ("Muskogee Blues"), a person word for a title or award ("Best Actor")."""

from __future__ import annotations

from typing import Any, Protocol

from engine.generate.truth_rules import GENRES, PERSON_ATTRIBUTE, WORK
from engine.generate.truth_text import head_written_lower, is_plural
from engine.types import EntityType, Span


class ClassFacts(Protocol):
    """What these rules ask of the truth filter (:class:`engine.generate.truth.TruthFilter`)."""

    taxonomy: Any

    def class_kinds(self, qid: str) -> frozenset[str]: ...

    def superclasses_of_item(self, qid: str) -> frozenset[str]: ...


def not_a_title_head(truth: ClassFacts, span: Span, words: list[str], qid: str) -> bool:
    """The class ``qid``, named by the head word of the MISC span, is not what the span is: a
    person word heads a title or an award category ("Best Actor"), and a capitalised head
    word names no genre ("Muskogee Blues", an album, is no blues; a song stays a song)."""
    kinds = truth.class_kinds(qid)
    if PERSON_ATTRIBUTE in kinds:
        return True
    return bool(truth.superclasses_of_item(qid) & GENRES) and WORK not in kinds and not head_written_lower(span.text, words)


def not_named_by_head(truth: ClassFacts, span: Span, words: list[str], qid: str) -> bool:
    """The class ``qid`` that the span's head word names is not what the span is: the head
    is its plural in a place's name ("the Gulf states" are several, no one state; an event's
    plural stays one event: "the Gujarat riots", a riot), or, for a MISC
    span, :func:`not_a_title_head`."""
    if span.entity_type is EntityType.LOC and is_plural(span.text, truth.taxonomy.label(qid)):
        return True
    return span.entity_type is EntityType.MISC and not_a_title_head(truth, span, words, qid)
