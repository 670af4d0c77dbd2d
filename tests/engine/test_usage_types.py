"""Entity types from how a name is used in its sentence (engine.detect.usage_types)."""

from __future__ import annotations

from engine.detect.spans import DetectedSpan
from engine.detect.usage_types import usage_retype, usage_type
from engine.types import EntityType as E
from tests.factories import detected_span


span = detected_span


def types(text: str, spans: list[DetectedSpan]) -> list[E]:
    return [s.entity_type for s in usage_retype(text, spans)]


def test_a_state_or_a_team_acting_is_an_organisation_a_place_having_a_role_is_not():
    text = "It ended India's military engagement. Canada's role grew. Mexico’s participation rose. Michigan's 5th district."
    spans = [span(text, w, E.LOC) for w in ("India", "Canada", "Mexico", "Michigan")]
    assert types(text, spans) == [E.ORG, E.LOC, E.ORG, E.LOC]


def test_a_team_in_a_match_and_a_place_coordinated_with_a_club_are_teams():
    text = "He debuted with Genoa against Cagliari. Lazio was relegated. He moved from Pontypool to Newport RFC. He lives in Rome."
    spans = [span(text, "Genoa", E.PERSON, gaz_kind="place"), span(text, "Cagliari", E.LOC), span(text, "Lazio", E.LOC),
             span(text, "Pontypool", E.LOC), span(text, "Newport RFC", E.ORG), span(text, "Rome", E.LOC)]
    assert types(text, spans) == [E.ORG, E.LOC, E.ORG, E.ORG, E.ORG, E.LOC]
    # a person linked elsewhere is no team, nor a place joined to a body that is no club
    text = "Smith against Jones. He went from Leeds to the University of York."
    spans = [span(text, "Smith", E.PERSON, sources=("ner", "coref")), span(text, "Leeds", E.LOC),
             span(text, "University of York", E.ORG)]
    assert types(text, spans)[:2] == [E.PERSON, E.ORG]  # "University" is an organisation's head word


def test_ordinals_numbering_a_body_are_part_of_its_name_and_a_count_stays_a_quantity():
    text = "He sat in the 1st, 2nd, 3rd, 4th and 5th parliaments of the 4th republic. He won 4th place. His fourth album."
    spans = [span(text, "1st, 2nd, 3rd,", E.DATETIME), span(text, "4th", E.QUANTITY), span(text, "5th", E.QUANTITY),
             span(text, "4th", E.QUANTITY, nth=1), span(text, "4th", E.QUANTITY, nth=2), span(text, "fourth", E.QUANTITY)]
    assert types(text, spans) == [E.MISC, E.MISC, E.MISC, E.MISC, E.QUANTITY, E.QUANTITY]


def test_a_year_read_as_an_event_is_a_date_and_nothing_else_becomes_one():
    text = "during the 1991 Rugby World Cup and the Five Nations"
    assert usage_type(text, span(text, "1991", E.MISC, sources=("ner", "rule"))) is E.DATETIME
    assert usage_type(text, span(text, "Five Nations", E.MISC)) is None


def test_an_acronym_keeps_its_bracketed_type_and_a_list_of_places_takes_in_a_person_typed_member():
    text = "He was a Teachta Dála (TD) and later a TD. Cities like Kathmandu, Pokhara, Chitwan and Lumbini."
    spans = [span(text, "Teachta Dála", E.DEM), span(text, "TD", E.DEM), span(text, "TD", E.LOC, nth=1, sources=("gazetteer",)),
             span(text, "Kathmandu", E.LOC), span(text, "Pokhara", E.LOC), span(text, "Chitwan", E.LOC),
             span(text, "Lumbini", E.PERSON)]
    assert types(text, spans) == [E.DEM, E.DEM, E.DEM, E.LOC, E.LOC, E.LOC, E.LOC]


def test_a_retyped_span_keeps_its_boundaries_and_the_layers_type():
    text = "It ended India's military engagement."
    (s,) = usage_retype(text, [span(text, "India", E.LOC)])
    assert (s.start, s.end, s.entity_type, s.retyped_from) == (9, 14, E.ORG, E.LOC)
