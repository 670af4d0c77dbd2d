"""Rules written after a blind batch of class replacements a reader receives in invented biographies."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.select.role_slot import category_in_role_slot, label_head
from engine.types import Candidate, EntityType
from tests.conftest import candidate_labels, tiny_store

EDGES = [
    ("Q3488547", "P279", "Q180958"), ("Q180958", "P279", "Q38723"), ("Q38723", "P279", "Q2385804"),  # faculty of law ⊂ faculty ⊂ HEI
    ("Q1155838", "P279", "Q36180"), ("Q1155838", "P279", "Q1930187"),                              # correspondent ⊂ writer, journalist
    ("Q166542", "P31", "Q11862829"), ("Q166542", "P31", "Q189533"),                                # international relations
    ("Q900020", "P31", "Q9174"), ("Q9174", "P279", "Q7257"),                                       # a faith → religion ⊂ ideology
]
LABELS = {
    "Q3488547": "faculty of law", "Q180958": "faculty", "Q38723": "higher education institution",
    "Q2385804": "educational institution", "Q1155838": "correspondent", "Q36180": "writer", "Q1930187": "journalist",
    "Q166542": "international relations", "Q11862829": "academic discipline", "Q189533": "academic degree",
    "Q900020": "Zoroastrianism", "Q9174": "Relajación", "Q7257": "ideology", "Q39594": "bay",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


def test_given_a_faculty_then_no_higher_education_institution(engine):
    got = candidate_labels(engine, "Faculty of Law", EntityType.ORG, "She taught at the Faculty of Law.")
    assert "higher education institution" not in got


def test_given_a_correspondent_then_journalist_not_writer(engine):
    got = candidate_labels(engine, "correspondent", EntityType.DEM, "She was a correspondent.")
    assert "writer" not in got and "journalist" in got


def test_given_a_field_filed_as_a_degree_too_then_no_degree(engine):
    got = candidate_labels(engine, "international relations", EntityType.MISC, "He studied international relations.")
    assert "academic degree" not in got


def test_given_the_misspelt_label_of_religion_then_the_override(engine):
    assert engine.chains.label("Q9174") == "religion"


def test_given_a_town_named_after_a_bay_then_no_bay(engine):
    assert "bay" not in candidate_labels(engine, "Homa Bay", EntityType.LOC, "She was born in Homa Bay.")


def test_given_a_category_of_activity_in_a_role_slot_then_refused():
    craft = Candidate("craft", source="P31", qid="Q2207288")
    assert category_in_role_slot(craft, EntityType.DEM, "She is a ") is not None
    assert label_head("title of honor") == "title" and label_head("filmmaking occupation") == "occupation"
    job = Candidate("profession", source="P31", qid="Q28640")
    assert category_in_role_slot(job, EntityType.DEM, "His ") is None             # "his profession"
    assert category_in_role_slot(job, EntityType.DEM, "married the ", " Erik Lindqvist") is not None  # a role before a name


def test_given_a_museum_named_by_its_head_noun_then_no_building():
    kg = tiny_store([("Q33506", "P279", "Q41176"), ("Q33506", "P279", "Q43229"), ("Q41176", "P279", "Q811979")],
                    {"Q33506": "museum", "Q41176": "building", "Q43229": "organization", "Q811979": "architectural structure"}, shipped_overlay=True)
    got = candidate_labels(Engine.from_store(kg), "Larco Museum", EntityType.ORG, "She directed the Larco Museum.")
    assert got[0] == "museum" and "building" not in got


def test_given_a_place_name_that_is_also_an_alias_of_a_colour_then_no_colour():
    kg = tiny_store([("Q208045", "P279", "Q943"), ("Q103725", "P17", "Q189")],
                    {"Q208045": "gold", "Q943": "yellow", "Q103725": "Hafnarfjörður", "Q189": "Iceland"},
                    aliases=[("Q208045", "Hafnarfjörður")], shipped_overlay=True)
    got = candidate_labels(Engine.from_store(kg), "Hafnarfjörður", EntityType.LOC, "She lives in Hafnarfjörður.")
    assert "yellow" not in got and got[0] == "place in Iceland"
