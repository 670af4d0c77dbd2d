"""The sentence rules out a wrong sense (:mod:`engine.generate.sense`) and a city is no
council nor constituency (``owl:disjointWith`` in ``ontology/reader_rules.ttl``): each
rule pinned to the truth-set span and sentence it was found on, on a tiny graph of the
seed store's real Wikidata facts. The seed holds one sense of each name only (the film
"Titanic", the town "Blackpool", "Cardinals" as the St. Louis baseball club)."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.teams import plays_for
from engine.types import EntityType, Span
from tests.conftest import candidate_labels as labels, tiny_store

EDGES = [
    # Titanic, the film
    ("Q44578", "P31", "Q11424"), ("Q44578", "P31", "Q229390"), ("Q229390", "P279", "Q11424"),
    ("Q11424", "P279", "Q2431196"), ("Q2431196", "P279", "Q17537576"),
    # Blackpool, the town; Wales, a country
    ("Q170377", "P31", "Q3957"), ("Q170377", "P17", "Q145"), ("Q145", "P31", "Q6256"),
    ("Q25", "P31", "Q6256"), ("Q25", "P31", "Q3336843"), ("Q25", "P17", "Q145"),
    # the St. Louis Cardinals and the Philadelphia Athletics, baseball teams
    ("Q504309", "P31", "Q13027888"), ("Q504339", "P31", "Q13027888"),
    ("Q13027888", "P279", "Q847017"), ("Q13027888", "P279", "Q12973014"), ("Q847017", "P279", "Q988108"),
    ("Q12973014", "P279", "Q327245"), ("Q988108", "P279", "Q43229"),
    # sports
    ("Q5369", "P279", "Q216048"), ("Q5372", "P279", "Q216048"), ("Q216048", "P279", "Q349"),
    ("Q542", "P279", "Q212434"), ("Q212434", "P279", "Q349"),
    # Haifa and Honolulu
    ("Q41621", "P31", "Q515"), ("Q41621", "P31", "Q15284"), ("Q41621", "P31", "Q3505887"), ("Q3505887", "P279", "Q486972"),
    ("Q18094", "P31", "Q62049"), ("Q18094", "P31", "Q192611"), ("Q18094", "P31", "Q1549591"), ("Q192611", "P279", "Q56061"),
]
LABELS = {
    "Q44578": "Titanic", "Q11424": "film", "Q229390": "3D film", "Q2431196": "audiovisual work", "Q17537576": "creative work",
    "Q170377": "Blackpool", "Q3957": "town", "Q145": "United Kingdom", "Q6256": "country", "Q25": "Wales",
    "Q3336843": "constituent part of the United Kingdom",
    "Q504309": "St. Louis Cardinals", "Q504339": "Philadelphia Athletics", "Q13027888": "baseball team",
    "Q847017": "sports club", "Q12973014": "sports team", "Q988108": "club", "Q327245": "team", "Q43229": "organization",
    "Q5369": "baseball", "Q5372": "basketball", "Q216048": "team sport", "Q349": "sport", "Q542": "athletics",
    "Q212434": "Olympic sport",
    "Q41621": "Haifa", "Q515": "city", "Q15284": "municipality", "Q3505887": "city council", "Q486972": "human settlement",
    "Q18094": "Honolulu", "Q62049": "county seat", "Q192611": "constituency", "Q1549591": "big city",
    "Q56061": "administrative territorial entity",
}
ALIASES = [("Q504309", "Cardinals")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, ALIASES, shipped_overlay=True))


# --- a noun of a wreck after the name: not a work ------------------------------------------
def test_given_the_titanic_bodies_then_not_the_film(engine):
    ctx = ("He is also a contributing researcher with Encyclopedia Titanica, specializing in Canada's role in retrieving "
           "the Titanic bodies from the sea and their burials in three Halifax graveyards.")
    assert labels(engine, "Titanic", EntityType.MISC, ctx) == ["***"]
    assert "film" in labels(engine, "Titanic", EntityType.MISC, "She was cast in Titanic in 1996.")
    assert "film" in labels(engine, "Titanic", EntityType.MISC, "Titanic was released in 1997.")


# --- played for a team: not a town ----------------------------------------------------------
def test_given_played_for_blackpool_then_not_the_town(engine):
    ctx = ("He played five league games for Blackpool (four in 1919-20 and one in 1920-21) and left the club in 1921 "
           "to join newly promoted Nelson.")
    assert labels(engine, "Blackpool", EntityType.LOC, ctx) == ["***"]
    assert "town" in labels(engine, "Blackpool", EntityType.LOC, "He was born in Blackpool in 1898.")


def test_given_appearances_for_a_country_then_the_country_stays(engine):
    assert "country" in labels(engine, "Wales", EntityType.LOC, "Moseley made eleven appearances for Wales.")


# --- the team's sport ---------------------------------------------------------------------------
def test_given_basketball_for_the_cardinals_then_not_the_baseball_club(engine):
    ctx = ("Youngest son Alan attends Michigan State University, and oldest son Matt attends Ball State University "
           "where he plays basketball for the Cardinals.")
    assert labels(engine, "Cardinals", EntityType.ORG, ctx) == ["***"]
    assert "baseball team" in labels(engine, "Cardinals", EntityType.ORG, "He played baseball for the Cardinals from 1990.")
    assert "baseball team" in labels(engine, "Cardinals", EntityType.ORG, "He pitched for the Cardinals.")


def test_given_a_sport_in_the_name_itself_then_not_a_sport_of_the_sentence(engine):
    ctx = ("Born in Philadelphia and a graduate of Girard College, he began playing with the Philadelphia Athletics "
           "in 1875 when the team was in the National Association.")
    assert "baseball team" in labels(engine, "Philadelphia Athletics", EntityType.ORG, ctx)


def test_given_sentences_then_plays_for():
    assert plays_for(Span("Blackpool", EntityType.LOC, context="He played five league games for Blackpool (four in 1919-20)"))
    assert plays_for(Span("Cardinals", EntityType.ORG, context="where he plays basketball for the Cardinals."))
    assert plays_for(Span("Wales", EntityType.LOC, context="Moseley made eleven appearances for Wales."))
    assert plays_for(Span("Nelson", EntityType.ORG, context="He signed with Nelson in 1921."))
    assert not plays_for(Span("Blackpool", EntityType.LOC, context="He was born in Blackpool and played for Nelson."))
    assert not plays_for(Span("Paris", EntityType.LOC, context="He played in Paris. He left for Paris."))
    philadelphia = "Born in Philadelphia, he began playing with the Philadelphia Athletics in 1875."
    assert not plays_for(Span("Philadelphia", EntityType.LOC, context=philadelphia))


# --- a city is no council nor constituency ---------------------------------------------------------
def test_given_haifa_then_no_city_council(engine):
    got = labels(engine, "Haifa", EntityType.LOC, "He is Professor of Computer Science at the Technion in Haifa, Israel.")
    assert {"city", "municipality"} <= set(got) and "city council" not in got


def test_given_honolulu_then_no_constituency(engine):
    got = labels(engine, "Honolulu", EntityType.LOC, "He served as the Consul-General in Honolulu.")
    assert {"county seat", "big city"} <= set(got) and "constituency" not in got


# --- with a homonym of the right sense, the sentence picks it ----------------------------------
HOMONYM_EDGES = EDGES + [
    ("Q224164", "P31", "Q17156793"), ("Q17156793", "P279", "Q12973014"),  # Arizona Cardinals, an American football team
    ("Q41323", "P279", "Q216048"),                                          # American football, a team sport
    ("Q25173", "P31", "Q697175"), ("Q697175", "P279", "Q11446"),            # Titanic (RMS Titanic), an ocean liner, a ship
]
HOMONYM_LABELS = LABELS | {"Q224164": "Arizona Cardinals", "Q17156793": "American football team", "Q41323": "American football",
                           "Q25173": "Titanic", "Q697175": "ocean liner", "Q11446": "ship"}


@pytest.fixture(scope="module")
def homonyms() -> Engine:
    aliases = ALIASES + [("Q224164", "Cardinals"), ("Q25173", "RMS Titanic")]
    return Engine.from_store(tiny_store(HOMONYM_EDGES, HOMONYM_LABELS, aliases, shipped_overlay=True))


def test_given_a_sport_and_two_teams_then_the_team_of_that_sport(homonyms):
    got = labels(homonyms, "Cardinals", EntityType.ORG, "He played American football for the Cardinals from 1990.")
    assert "American football team" in got and "baseball team" not in got
    assert "baseball team" in labels(homonyms, "Cardinals", EntityType.ORG, "He played baseball for the Cardinals from 1990.")


def test_given_a_wreck_noun_and_a_ship_homonym_then_the_ship(homonyms):
    got = labels(homonyms, "Titanic", EntityType.MISC, "She wrote a history of the Titanic survivors.")
    assert "ship" in got and "film" not in got
    # no wreck noun: the film and the ship are equally likely (no prominence in a store without
    # sitelinks), so the name gets only what both are, here nothing (engine.generate.homonyms)
    cast = labels(homonyms, "Titanic", EntityType.MISC, "She was cast in Titanic in 1996.")
    assert "film" not in cast and "ship" not in cast
