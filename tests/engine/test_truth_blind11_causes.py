"""Rules for causes of false class replacements blind readers found in truth-set batch
received-blind-11: a role's whole that is no role ("pastor" → "Christianity"), a person class
for a title or grade ("an officer of the Order of …"), a genre where a field is studied, a
head noun a reader hears in another sense ("state of emergency"), a name made of two
institutions' names ("University of … College of Medicine"), a fictional character for an
organisation, and Wikidata edges a reader rejects. Pinned on tiny graphs of the seed
store's real Wikidata facts."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.truth_text import later_head, span_words
from engine.types import EntityType
from tests.conftest import candidate_labels as labels, tiny_store

EDGES = [
    # pastor: a Christian occupation, part of Christianity; Catholicism, a religion, part of it too
    ("Q152002", "P31", "Q63188683"), ("Q152002", "P279", "Q4504549"), ("Q152002", "P361", "Q5043"),
    ("Q63188683", "P279", "Q12737077"), ("Q4504549", "P279", "Q12737077"),
    ("Q1841", "P31", "Q9174"), ("Q1841", "P361", "Q5043"), ("Q5043", "P31", "Q9174"),
    # officer: a position, whose holder is a person
    ("Q61022630", "P279", "Q4164871"), ("Q4164871", "P279", "Q16686448"), ("Q215627", "P279", "Q16686448"),
    # folklore: a genre and an academic discipline
    ("Q36192", "P279", "Q483394"), ("Q36192", "P279", "Q11862829"),
    # state: the polity (a place) and a condition the seed keeps without a class; a clan
    ("Q7275", "P279", "Q56061"),
    # universities
    ("Q3918", "P279", "Q38723"), ("Q189004", "P279", "Q38723"), ("Q1020", "P31", "Q6256"), ("Q38723", "P279", "Q2385804"), ("Q2385804", "P279", "Q43229"),
    # Spirou: the store knows the character
    ("Q721050", "P31", "Q95074"),
    # a concentration camp, over prison, is a government building and a building in Wikidata
    ("Q152081", "P279", "Q40357"), ("Q40357", "P279", "Q16831714"), ("Q40357", "P279", "Q13226383"),
    ("Q16831714", "P279", "Q41176"), ("Q41176", "P279", "Q811979"), ("Q40357", "P279", "Q43229"),
    # curator: a museologist (a humanities scholar) and a museum professional
    ("Q674426", "P31", "Q28640"), ("Q674426", "P279", "Q10333969"), ("Q674426", "P279", "Q47090899"),
    ("Q10333969", "P279", "Q16727193"), ("Q47090899", "P279", "Q28640"), ("Q16727193", "P279", "Q28640"),
]
LABELS = {
    "Q152002": "pastor", "Q63188683": "Christian religious occupation", "Q4504549": "religious servant",
    "Q12737077": "occupation", "Q5043": "Christianity", "Q1841": "Catholicism", "Q9174": "religion",
    "Q61022630": "officer", "Q4164871": "position", "Q16686448": "artificial entity", "Q215627": "person",
    "Q36192": "folklore", "Q483394": "genre", "Q11862829": "academic discipline",
    "Q7275": "state", "Q56061": "administrative territorial entity", "Q3505845": "state", "Q211503": "clan",
    "Q3918": "university", "Q189004": "college", "Q1020": "Malawi", "Q6256": "country", "Q38723": "higher education institution", "Q2385804": "educational institution",
    "Q43229": "organization", "Q721050": "Spirou", "Q95074": "fictional character",
    "Q152081": "concentration camp", "Q40357": "prison", "Q16831714": "government building", "Q41176": "building",
    "Q13226383": "facility", "Q811979": "architectural structure",
    "Q674426": "curator", "Q10333969": "museologist", "Q47090899": "museum professional",
    "Q16727193": "humanities scholar", "Q28640": "profession",
}
ALIASES = [("Q1841", "Catholic")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, ALIASES, shipped_overlay=True))


def test_given_a_role_part_of_a_religion_then_not_the_religion(engine: Engine) -> None:
    got = labels(engine, "pastor", EntityType.DEM, "He served as a pastor in Bergen.")
    assert "Christianity" not in got and "religious servant" in got
    # a follower's religion is part of another: said of the follower
    assert "follower of Christianity" in labels(engine, "Catholic", EntityType.DEM, "She was a devout Catholic.")


def test_given_a_title_or_grade_then_no_person(engine: Engine) -> None:
    made = "She was made an officer of the Order of the Three Stars in 2004."
    assert "person" not in labels(engine, "officer", EntityType.MISC, made)


def test_given_a_studied_subject_then_no_genre(engine: Engine) -> None:
    studied = labels(engine, "folklore", EntityType.MISC, "She studied Irish and folklore at University College Dublin.")
    assert "genre" not in studied and "academic discipline" in studied
    assert "genre" in labels(engine, "folklore", EntityType.MISC, "Her stories drew on folklore.")


def test_given_a_head_noun_a_reader_hears_in_another_sense_then_not_taken(engine: Engine) -> None:
    assert "state" not in labels(engine, "state of emergency", EntityType.MISC, "He was detained under the state of emergency.")
    assert "clan" in labels(engine, "Sima clan", EntityType.ORG, "She married into the Sima clan.")


def test_given_a_name_of_two_institutions_then_the_later_is_its_head(engine: Engine) -> None:
    assert "university" not in labels(engine, "University of Malawi College of Medicine", EntityType.ORG,
                                      "He trained at the University of Malawi College of Medicine.")
    assert "university" in labels(engine, "University of Malawi", EntityType.ORG, "He trained at the University of Malawi.")
    places, classes = {"philippines", "são paulo"}.__contains__, {"college", "university", "history"}.__contains__
    assert later_head(span_words("University of the Philippines College of Medicine"), places, classes) == 4
    assert later_head(span_words("Polytechnic School of the University of São Paulo"), places, classes) is None
    assert later_head(span_words("Museum of Archaeology, Anthropology and History of Peru"), places, classes) is None


def test_given_an_organisation_named_after_a_character_then_no_character(engine: Engine) -> None:
    assert "fictional character" not in labels(engine, "Spirou", EntityType.ORG, "It was published in Spirou magazine.")
    assert "fictional character" in labels(engine, "Spirou", EntityType.MISC, "The hero Spirou first appeared in 1938.")


def test_given_wikidata_edges_a_reader_rejects_then_not_walked(engine: Engine) -> None:
    camp = labels(engine, "concentration camp", EntityType.LOC, "He was held in a concentration camp.")
    assert "prison" in camp and "government building" not in camp and "building" not in camp
    curator = labels(engine, "curator", EntityType.DEM, "She was a curator of birds at the museum.")
    assert "museum professional" in curator and "museologist" not in curator and "humanities scholar" not in curator
