"""Spans that join two names, split into their names.

NER reads a run of capitalised words as one name: "Luis Ocaña and Merckx", "Jock Stein for
Celtic", "South Africa's Hendrick Ramaala", "Liverpool and London". Shown whole, a person span
becomes one "PERSON 5" that counts two people as one or a football club as a person, and its
words ("Celtic") are then taken for parts of a person's name wherever else they occur; a place
span that lists places gets no class true of both. Two rules:

- ``person-span-joins-two-names`` splits a person-typed span at its first joint that leaves a
  name on both sides (``detect_persons.joined_names``). The left name stays a person, the right
  takes the type of its joint (``detect_persons.joint_right_types``: "and" another person,
  "for" a team or an employer, "of" a place), and a name the document types elsewhere on its
  own keeps that type. After a possessive only a name of two words or more is split off ("St
  Patrick's Day", "King's College" are one name); "of" splits off a place only after a full
  name ("Archbishop John Aggey of Lagos"; "Catherine of Aragon", "Duke of Grafton" are one); a
  name after "a" or "an" is a role and stays whole ("served as a Riksdag Ledamot for Uppsala").
  Applied after the rules of :mod:`engine.detect.retype` (which read "Deep Shadows and
  Brilliant Highlights (2001)" as one work) and before the person linker.
- ``place-span-joins-two-places`` splits a place-typed span that lists places
  (``detect_places.list_joint``) into one span each, when every part is a place (a country or a
  town of GeoNames, or a name the graph knows only as places) and the whole is none ("Bosnia
  and Herzegovina" stays one). Applied after the graph's types.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Iterable

from engine.detect.coref.persons import name_words
from engine.detect.spans import DetectedSpan
from engine.generate.sources.gazetteer import GEONAMES, SETTLEMENT_SIZES
from engine.knowledge import pattern, rule, table
from engine.types import EntityType

if TYPE_CHECKING:  # pragma: no cover
    from engine.detect.graph_types import GraphTyper

_JOINT = pattern("detect_persons.joined_names")
_NOT_IN_NAME = re.compile(r"[,;()]")
_INDEFINITE = pattern("detect_persons.article_before_a_role")
_LIST_JOINT = pattern("detect_places.list_joint")
_ARTICLE = pattern("detect_places.leading_article")
_RIGHT_TYPE = table("detect_persons.joint_right_types")


@rule("person-span-joins-two-names", stage="detect", types=(EntityType.PERSON, EntityType.ORG), pack="core", off=None,
      purpose="one person-typed span joining two names ('Luis Ocaña and Merckx', 'Jock Stein for Celtic', 'South Africa's Hendrick Ramaala', 'Archbishop John Aggey of Lagos') is two spans, the right typed by its joint")
def split_joined_name(text: str, span: DetectedSpan) -> list[DetectedSpan] | None:
    """The two names of ``span`` in ``text``, or None when it joins none."""
    if span.entity_type is not EntityType.PERSON or _NOT_IN_NAME.search(span.text):
        return None
    if _INDEFINITE.search(text, max(0, span.start - 4), span.start):
        return None  # "served as a Riksdag Ledamot for Uppsala": a role (person-read-role)
    for m in _JOINT.finditer(span.text):
        left, right, joint = span.text[:m.start()], span.text[m.end():], m.group().strip().replace("’", "'")
        if not left[:1].isupper():
            continue
        if joint == "'s" and len(right.split()) < 2:
            continue  # "St Patrick's Day": one name
        if joint == "of" and len(name_words(left)) < 2:
            continue  # "Catherine of Aragon", "Duke of Grafton": one name
        return [span.with_(end=span.start + m.start(), text=left, retyped_from=None),
                span.with_(start=span.start + m.end(), text=right, entity_type=EntityType.parse(_RIGHT_TYPE[joint]),
                           entity_id=None, ner_label=None, retyped_from=None)]
    return None


def joined_names_split(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` of ``text`` with every person-typed span that joins two names split (the module docstring)."""
    typed = {s.text: s.entity_type for s in spans if s.entity_type is not EntityType.PERSON}
    out: list[DetectedSpan] = []
    for s in spans:
        parts = split_joined_name(text, s)
        # a name the document types elsewhere keeps that type ("Rail Band", an organisation on its own)
        out += [p.with_(entity_type=typed[p.text]) if p.text in typed else p for p in parts] if parts else [s]
    return out


@rule("place-span-joins-two-places", stage="detect", types=(EntityType.LOC,), pack="core", off=None,
      purpose="one place-typed span listing places ('Liverpool and London', 'Finland and Germany') is a span for each, when each is a place and the whole is none ('Bosnia and Herzegovina' stays one)")
def split_joined_places(span: DetectedSpan, is_place: Callable[[str], bool]) -> list[DetectedSpan] | None:
    """A span for each place ``span`` lists, or None when it lists none (``is_place``: a name is a place)."""
    if span.entity_type is not EntityType.LOC or not _LIST_JOINT.search(span.text) or is_place(span.text):
        return None
    parts, at = [], 0
    for m in [*_LIST_JOINT.finditer(span.text), None]:
        end = m.start() if m else len(span.text)
        raw = span.text[at:end]
        lead = len(raw) - len(raw.lstrip())
        article = _ARTICLE.match(raw[lead:])  # "the Netherlands": the name without its article, as NER reads it
        lead += article.end() if article else 0
        name = raw[lead:].strip()
        if name:
            parts.append((span.start + at + lead, name))
        at = m.end() if m else at
    if len(parts) < 2 or not all(is_place(n) for _, n in parts):
        return None
    return [span.with_(start=a, end=a + len(n), text=n, entity_id=f"loc-{n.casefold()}", retyped_from=None) for a, n in parts]


def joined_places_split(spans: list[DetectedSpan], is_place: Callable[[str], bool]) -> list[DetectedSpan]:
    """``spans`` with every place-typed span that lists places split (``place-span-joins-two-places``)."""
    out: list[DetectedSpan] = []
    for s in spans:
        parts = split_joined_places(s, is_place)
        out += parts if parts else [s]
    return out


def place_names(typer: "GraphTyper | None", lookup: Callable[[str], Iterable[str]] | None) -> Callable[[str], bool]:
    """Whether a name is a place: a country or a town (GeoNames), or a name whose items in the
    graph are all places (a region, a continent)."""
    town = SETTLEMENT_SIZES["town"]

    def is_place(name: str) -> bool:
        if GEONAMES.names_a_place(name, town):
            return True
        if typer is None or lookup is None:
            return False
        return typer.items_type(lookup(name.casefold())) is EntityType.LOC

    return is_place
