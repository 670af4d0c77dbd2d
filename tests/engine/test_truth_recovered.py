"""True rungs the truth rules used to drop with the false ones, and the false ones they still drop."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.types import MASK, EntityType
from tests.conftest import candidate_labels, tiny_store

EDGES = [
    # a legislator holds a seat (ontology/reader_rules.ttl: no professional nor worker), still a person
    ("Q486839", "P279", "Q4175034"), ("Q4175034", "P279", "Q82955"),    # member of parliament ⊂ legislator ⊂ politician
    ("Q82955", "P279", "Q702269"), ("Q702269", "P279", "Q215627"),      # politician ⊂ professional ⊂ person
    ("Q81096", "P279", "Q702269"),                                      # engineer ⊂ professional
    # a city: its first walk reaches "administrative territorial entity", a side branch "human settlement"
    ("Q100", "P31", "Q515"), ("Q515", "P279", "Q56061"), ("Q515", "P279", "Q486972"), ("Q486972", "P279", "Q2221906"),
    # a university: a side branch through "research institute" (false of most universities)
    ("Q200", "P31", "Q3918"), ("Q3918", "P279", "Q2385804"), ("Q3918", "P279", "Q9000001"), ("Q9000001", "P279", "Q43229"),
    # a Commonwealth realm: Wikidata puts it under kingdom
    # an officer holds a position; Wikidata's officer ⊂ leader is not read as "is a" (reader_rules.ttl)
    ("Q61022630", "P279", "Q4164871"), ("Q61022630", "P279", "Q1251441"), ("Q1251441", "P279", "Q215627"),
    ("Q664", "P31", "Q202686"), ("Q664", "P31", "Q6256"), ("Q202686", "P279", "Q417175"), ("Q417175", "P279", "Q7275"),
]
LABELS = {
    "Q486839": "member of parliament", "Q4175034": "legislator", "Q82955": "politician", "Q702269": "professional",
    "Q215627": "person", "Q81096": "engineer",
    "Q100": "Testville", "Q515": "city", "Q56061": "administrative territorial entity", "Q486972": "human settlement",
    "Q2221906": "geographic location",
    "Q200": "Testville University", "Q3918": "university", "Q2385804": "educational institution", "Q9000001": "research institute",
    "Q43229": "organization",
    "Q61022630": "officer", "Q4164871": "position", "Q1251441": "leader",
    "Q664": "New Zealand", "Q202686": "Commonwealth realm", "Q6256": "country", "Q417175": "kingdom", "Q7275": "state",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


def test_given_office_holder_then_person_above_the_disjoint_class_is_offered(engine):
    mp = candidate_labels(engine, "member of parliament", EntityType.DEM)
    assert "person" in mp  # was dropped: the walk stopped at "professional"
    assert "professional" not in mp  # still: a member of parliament is no professional
    assert mp[:2] == ["legislator", "politician"]


def test_given_profession_then_professional_and_person_kept(engine):
    assert candidate_labels(engine, "engineer", EntityType.DEM) == ["professional", "person", MASK]


def test_given_place_then_place_classes_of_side_branches_fill_the_ladder(engine):
    town = candidate_labels(engine, "Testville", EntityType.LOC)
    assert town[:2] == ["city", "administrative area"]  # the first walk, as before (Q56061 under its plain name: tg:labelOverride)
    assert {"human settlement", "geographic location"} <= set(town)  # the longest walk's place classes, after


def test_given_organisation_then_side_branches_stay_out(engine):
    uni = candidate_labels(engine, "Testville University", EntityType.ORG)
    assert "research institute" not in uni and "organization" not in uni
    assert uni == ["university", "educational institution", MASK]


def test_given_commonwealth_realm_then_no_kingdom(engine):
    nz = candidate_labels(engine, "New Zealand", EntityType.LOC)
    assert "Commonwealth realm" in nz and "country" in nz
    assert "kingdom" not in nz


def test_given_role_walk_over_an_edge_not_read_as_is_a_then_its_holder_is_still_a_person(engine):
    officer = candidate_labels(engine, "wildlife officer", EntityType.DEM)
    assert "leader" not in officer  # still: the edge officer → leader is not walked
    assert officer == ["officer", "position", "person", MASK]  # person: whoever holds a role is one
    # a class that is no role keeps nothing reached only over the edge
    song = Engine.from_store(tiny_store([("Q7366", "P279", "Q482"), ("Q482", "P279", "Q215627")],
                                        {"Q7366": "song", "Q482": "poetry", "Q215627": "person"}, shipped_overlay=True))
    assert candidate_labels(song, "song", EntityType.MISC) == [MASK]


def test_given_role_qualifying_a_noun_then_no_person(engine):
    rank = "Wessel was a Sturmführer, the lowest commissioned officer rank of the SA."
    assert "person" not in candidate_labels(engine, "officer", EntityType.DEM, context=rank)
    assert "person" in candidate_labels(engine, "officer", EntityType.DEM, context="He was an officer in the army.")


def test_given_homonym_with_more_than_person_then_it_goes_first():
    # "the manager of the Athletics": the manager class gives only "person" (its walk passes
    # manager → leader of organisation, not read as "is a"); the head coach, also called
    # manager, is a coach
    edges = [("Q2462658", "P31", "Q28640"), ("Q2462658", "P279", "Q25713832"), ("Q25713832", "P279", "Q215627"),
             ("Q3246315", "P279", "Q41583"), ("Q41583", "P31", "Q28640")]
    labels = {"Q2462658": "manager", "Q28640": "profession", "Q25713832": "leader of organisation", "Q215627": "person",
              "Q3246315": "head coach", "Q41583": "coach"}
    eng = Engine.from_store(tiny_store(edges, labels, [("Q3246315", "manager")], shipped_overlay=True))
    named = "In 1883, he was named the manager of the Philadelphia Athletics."
    assert candidate_labels(eng, "manager", EntityType.MISC, context=named)[0] == "coach"
