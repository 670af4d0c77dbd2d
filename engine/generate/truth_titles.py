"""What the head word of a name does not say it is: several of a class ("the Gulf states"), a
genre for a work's title ("Muskogee Blues"), a person word for a title or award ("Best Actor")."""

from __future__ import annotations

from typing import Any, Protocol

from engine.generate.truth_rules import GENRES, PERSON_ATTRIBUTE, WORK
from engine.generate.truth_text import head_written_lower, is_plural
from engine.knowledge import rule
from engine.types import EntityType, Span


class ClassFacts(Protocol):
    """What these rules ask of the truth filter (:class:`engine.generate.truth.TruthFilter`)."""

    taxonomy: Any

    def class_kinds(self, qid: str) -> frozenset[str]: ...

    def superclasses_of_item(self, qid: str) -> frozenset[str]: ...


@rule("title-head-person-word", stage="ladder", types=("MISC",), off=False,
      purpose="a person word heading a MISC name heads a title or an award category (\"Best Actor\"): no class from it")
def title_person_word(truth: ClassFacts, span: Span, qid: str) -> bool:
    """The class ``qid``, named by the head word of the MISC span, is a person attribute."""
    return span.entity_type is EntityType.MISC and PERSON_ATTRIBUTE in truth.class_kinds(qid)


@rule("title-head-genre", stage="ladder", types=("MISC",), off=False,
      purpose="a capitalised head word of a MISC name names no genre (\"Muskogee Blues\", an album, is no blues)")
def title_genre_word(truth: ClassFacts, span: Span, words: list[str], qid: str) -> bool:
    """The class ``qid``, named by the capitalised head word of the MISC span, is a genre and no
    work (a song stays a song)."""
    return (span.entity_type is EntityType.MISC and bool(truth.superclasses_of_item(qid) & GENRES)
            and WORK not in truth.class_kinds(qid) and not head_written_lower(span.text, words))


@rule("plural-place-head", stage="ladder", types=("LOC",), off=False,
      purpose="a place's name whose head is a class's plural names several (\"the Gulf states\"): no one of the class")
def plural_place_head(truth: ClassFacts, span: Span, qid: str) -> bool:
    """The LOC span is the plural of the label of the class ``qid`` its head word names (an
    event's plural stays one event: "the Gujarat riots", a riot — events are no LOC)."""
    return span.entity_type is EntityType.LOC and is_plural(span.text, truth.taxonomy.label(qid))


def not_a_title_head(truth: ClassFacts, span: Span, words: list[str], qid: str) -> bool:
    """The class ``qid``, named by the head word of the MISC span, is not what the span is: a
    person word heads a title or an award category ("Best Actor"), and a capitalised head
    word names no genre ("Muskogee Blues", an album, is no blues; a song stays a song)."""
    return title_person_word(truth, span, qid) or title_genre_word(truth, span, words, qid)


def not_named_by_head(truth: ClassFacts, span: Span, words: list[str], qid: str) -> bool:
    """The class ``qid`` that the span's head word names is not what the span is: the head
    is its plural in a place's name ("the Gulf states" are several, no one state), or, for a
    MISC span, :func:`not_a_title_head`."""
    return plural_place_head(truth, span, qid) or not_a_title_head(truth, span, words, qid)
