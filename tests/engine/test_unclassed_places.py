"""A place the store keeps without a class, only with its country, is offered as "place in <country>"."""

from __future__ import annotations

from tests.factories import discloser_of

import pytest

from engine.engine import Engine
from engine.types import MASK, EntityType
from tests.conftest import candidate_labels, tiny_store

EDGES = [
    ("Q748065", "P17", "Q145"), ("Q748065", "P131", "Q25"),   # Caerphilly, the town: no class
    ("Q909119", "P17", "Q145"),                               # Caerphilly, the county borough: no class
    ("Q81551", "P17", "Q43"),                                 # Konya: no class
    ("Q900001", "P17", "Q30"), ("Q900002", "P17", "Q145"),    # two Springfields in two countries, no class
    ("Q585", "P31", "Q515"), ("Q585", "P17", "Q20"),          # Oslo, a city of Norway
    ("Q515", "P279", "Q486972"), ("Q486972", "P279", "Q2221906"),
    ("Q900003", "P17", "Q43"),                                # Anka: no class …
    ("Q900004", "P31", "Q5"),                                 # … and Anka, a person
]
LABELS = {
    "Q748065": "Caerphilly", "Q909119": "Caerphilly", "Q145": "United Kingdom", "Q25": "Wales",
    "Q81551": "Konya", "Q43": "Turkey", "Q900001": "Springfield", "Q900002": "Springfield", "Q30": "United States",
    "Q585": "Oslo", "Q20": "Norway", "Q515": "city", "Q486972": "human settlement", "Q2221906": "geographic location",
    "Q900003": "Anka", "Q900004": "Anka", "Q5": "human",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


def test_given_overlay_then_the_unclassed_rule_is_read_as_such(engine):
    rules = {r.name: r for r in engine.chains.rules.composed}
    assert rules["placeInCountry"].unclassed and rules["placeInCountry"].via == "P17"
    assert not rules["cityInCountry"].unclassed


def test_given_unclassed_place_then_place_in_its_country(engine):
    assert candidate_labels(engine, "Konya", EntityType.LOC) == ["place in Turkey", MASK]
    ladder = engine.candidates("Konya", EntityType.LOC)
    assert ladder.candidates[0].rule == "placeInCountry" and "without a class" in ladder.reason


def test_given_homonyms_in_one_country_then_the_shared_country(engine):
    assert candidate_labels(engine, "Caerphilly", EntityType.LOC) == ["place in the United Kingdom", MASK]


def test_given_homonyms_in_two_countries_then_nothing(engine):
    assert candidate_labels(engine, "Springfield", EntityType.LOC) == [MASK]


def test_given_classed_place_then_its_own_ladder_without_the_unclassed_rung(engine):
    labels = candidate_labels(engine, "Oslo", EntityType.LOC)
    assert "city in Norway" in labels and not any(l.startswith("place in") for l in labels)


def test_given_other_type_then_no_place_rung(engine):
    assert candidate_labels(engine, "Konya", EntityType.ORG) == [MASK]
    assert candidate_labels(engine, "Konya", EntityType.DEM) == [MASK]


def test_given_homonym_of_another_kind_then_the_place_still_names_its_country(engine):
    # a person named Anka is no LOC: the span, a place, can only be the unclassed homonym
    assert candidate_labels(engine, "Anka", EntityType.LOC) == ["place in Turkey", MASK]


def test_given_the_rung_then_it_discloses_the_country_only(engine):
    from engine.privacy.disclosure import Discloser, SpanView

    cand = engine.candidates("Konya", EntityType.LOC).candidates[0]
    view = SpanView(0, 5, EntityType.LOC, "Konya", ("P19",), link_qid="Q81551")
    found = discloser_of(engine).constraints(view, cand.label, cand)
    assert [c.anchors for c in found] == [("Q43",)]


def test_given_a_document_in_other_countries_then_no_place_rung(engine):
    from engine.generate.sources.base import DocumentState
    from engine.types import Span

    def ladder(countries: frozenset[str]) -> list[str]:
        return engine.candidates(Span("Konya", EntityType.LOC), state=DocumentState(countries=countries)).labels

    assert ladder(frozenset({"Q145"})) == [MASK]  # a British document: its Konya may be another place
    assert ladder(frozenset({"Q43", "Q145"})) == ["place in Turkey", MASK]
    # a British document that names Turkey somewhere (an ambiguous name, a nationality) keeps it
    got = engine.candidates(Span("Konya", EntityType.LOC), state=DocumentState(countries=frozenset({"Q145"}), mentioned=frozenset({"Q43"})))
    assert got.labels == ["place in Turkey", MASK]


def test_given_a_country_in_an_organisations_slot_then_its_country_rungs_only():
    kg = tiny_store([("Q142", "P31", "Q6256"), ("Q142", "P31", "Q20181813"), ("Q6256", "P279", "Q1048835")],
                    {"Q142": "France", "Q6256": "country", "Q20181813": "colonial power", "Q1048835": "political territorial entity"},
                    shipped_overlay=True)
    engine = Engine.from_store(kg)
    assert candidate_labels(engine, "France", EntityType.ORG, "He was sent off against France.") == ["country", MASK]
    assert "colonial power" in candidate_labels(engine, "France", EntityType.LOC)


def test_given_an_acronym_in_an_organisations_slot_then_no_country():
    kg = tiny_store([("Q851", "P31", "Q6256")], {"Q851": "Saudi Arabia", "Q6256": "country"}, aliases=[("Q851", "SA")],
                    shipped_overlay=True)
    assert candidate_labels(Engine.from_store(kg), "SA", EntityType.ORG, "He joined the SA in 1926.") == [MASK]


def test_given_a_document_naming_the_region_then_the_place_rung_stays(engine):
    from engine.generate.sources.base import DocumentState
    from engine.types import Span

    # Caerphilly lies in Wales (P131) and in the United Kingdom (P17): a Welsh document keeps it
    got = engine.candidates(Span("Caerphilly", EntityType.LOC), state=DocumentState(countries=frozenset({"Q25"}))).labels
    assert got == ["place in the United Kingdom", MASK]
