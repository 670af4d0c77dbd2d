"""A name a document about sport speaks of as a team is a sports team; the country a side
plays for or against is its national side. Pinned on a tiny graph of the seed store's real
Wikidata facts."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.sources.base import DocumentState
from engine.generate.teams import in_team_slot
from engine.types import EntityType, Span
from tests.conftest import tiny_store

EDGES = [
    ("Q12973014", "P279", "Q327245"), ("Q327245", "P279", "Q43229"), ("Q1194951", "P279", "Q12973014"),
    ("Q41425", "P279", "Q349"), ("Q2736", "P279", "Q349"), ("Q5372", "P279", "Q349"), ("Q1081491", "P279", "Q349"), ("Q3312129", "P279", "Q349"),
    ("Q664", "P31", "Q6256"), ("Q664", "P31", "Q3624078"),
    ("Q93347", "P31", "Q515"), ("Q93347", "P17", "Q225"),
    ("Q23666", "P31", "Q6266"), ("Q10962", "P279", "Q349"),
]
LABELS = {
    "Q12973014": "sports team", "Q327245": "team", "Q43229": "organization", "Q1194951": "national sports team",
    "Q349": "sport", "Q2736": "association football", "Q5372": "basketball", "Q1081491": "football",
    "Q3312129": "track and field", "Q41425": "ballet",
    "Q664": "New Zealand", "Q6256": "country", "Q3624078": "sovereign state", "Q93347": "Mostar", "Q515": "city",
    "Q225": "Bosnia and Herzegovina", "Q23666": "Great Britain", "Q6266": "nation", "Q10962": "rugby league",
}
ALIASES = [("Q2736", "football"), ("Q3312129", "track")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, ALIASES, shipped_overlay=True))


def ladder(engine: Engine, text: str, sentence: str, document: str) -> list[str]:
    return engine.candidates(Span(text, EntityType.ORG, context=sentence), state=DocumentState(text=document)).labels


@pytest.mark.parametrize("sentence,span", [
    ("He played for Velež Mostar for most of his career.", "Velež Mostar"),
    ("who plays as midfielder for Myanmar national football team and Yadanarbon.", "Yadanarbon"),
    ("He played for Genoa, Roma and Lazio.", "Lazio"),
    ("making his début on December 29 against Neath RFC.", "Neath RFC"),
    ("Moseley moved from Pontypool to Newport RFC for the 1990/91 season.", "Newport RFC"),
    ("He spent the 1996/97 season at West Hartlepool RFC.", "West Hartlepool RFC"),
    ("he split the season between the Athletics and the Providence Grays.", "Providence Grays"),
    ("He made his debut in Serie A on 15 April 1995 with Genoa against Cagliari.", "Genoa"),
    ("Moseley joined Pontypool RFC in 1983, spending nine seasons at the club.", "Pontypool RFC"),
    ("He made his debut in a One Day International between Sri Lanka and Pakistan in 1994.", "Sri Lanka"),
    ("He made his debut in a One Day International between Sri Lanka and Pakistan in 1994.", "Pakistan"),
])
def test_given_a_sentence_that_speaks_of_a_team_then_team_slot(sentence: str, span: str) -> None:
    assert in_team_slot(Span(span, EntityType.ORG, context=sentence))


@pytest.mark.parametrize("sentence,span", [
    ("He joined the Labour Party in 1983.", "Labour Party"),
    ("He played for Genoa and studied at Bocconi University.", "Bocconi University"),
    ("He moved to the BBC.", "BBC"),
    ("He campaigned against the Poll Tax Union.", "Poll Tax Union"),
    ("playing with the Philadelphia Athletics", "Philadelphia"),
    ("He missed most of the 1918 season while serving with the United States Army in France.", "United States Army"),
])
def test_given_other_slots_then_no_team_slot(sentence: str, span: str) -> None:
    assert not in_team_slot(Span(span, EntityType.ORG, context=sentence))


def test_given_a_document_about_sport_then_an_unknown_name_played_for_is_a_sports_team(engine: Engine) -> None:
    sentence = "He played for Velež Mostar for most of his career."
    got = ladder(engine, "Velež Mostar", sentence, "Muhamed Mujić was a Bosnian footballer. " + sentence)
    assert got[:2] == ["sports team", "team"]
    # "played for" speaks of an orchestra or a band as well: without a sport, nothing; a one-word
    # alias of a sport ("track") is no sport's name ("track 11" of an album)
    assert ladder(engine, "Velež Mostar", sentence, "Muhamed Mujić was a Bosnian violinist. " + sentence) == ["***"]
    ballet = "He joined the Ballets Russes for its first Paris season in 1909."  # ballet is no sport to a reader
    assert ladder(engine, "Ballets Russes", ballet, "He was a ballet dancer. " + ballet) == ["***"]
    album = "His album's track 11 was an instrumental. "
    assert ladder(engine, "Velež Mostar", sentence, album + sentence) == ["***"]


def test_given_a_country_a_side_plays_against_then_its_national_side(engine: Engine) -> None:
    sentence = "He played in a Test against New Zealand in 1955."
    got = ladder(engine, "New Zealand", sentence, "He was a basketball player. " + sentence)
    assert got[0] == "national sports team" and "sovereign state" not in got and "country" not in got
    selected = "She was selected for New Zealand at the 1988 Summer Olympics."
    assert ladder(engine, "New Zealand", selected, "She was a basketball player. " + selected)[0] == "national sports team"
    embassy = "He was ambassador of New Zealand."
    assert "country" in ladder(engine, "New Zealand", embassy, "He was a basketball player. " + embassy)


def test_given_a_nation_a_side_plays_for_then_no_nation(engine: Engine) -> None:
    """"caps for Great Britain": the rugby league side, not the nation Wikidata files the island as."""
    sentence = "Entwistle won 14 caps for Great Britain, touring Australia in 1958."
    assert "nation" not in ladder(engine, "Great Britain", sentence, "He was a rugby league footballer. " + sentence)
    assert "nation" in ladder(engine, "Great Britain", "Great Britain joined the treaty.", "He was a rugby league footballer.")
