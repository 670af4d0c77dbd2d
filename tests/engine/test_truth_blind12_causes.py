"""Rules for causes of false class replacements blind readers found in truth-set batch
received-blind-12: a demonym before a noun of what a country has ("the Tanzanian border"),
a status a place holds only since recent times ("metropolitan municipality in Turkey",
"archaeological site") in a sentence of older times, and a place after a name ("Royal
Philatelic Society London") that is no head noun. Pinned on tiny graphs of the seed
store's real Wikidata facts."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.truth_text import names_its_country
from engine.types import EntityType
from tests.conftest import candidate_labels as labels, tiny_store

EDGES = [
    ("Q924", "P31", "Q6256"),
    ("Q45301", "P31", "Q515"), ("Q45301", "P31", "Q2716259"), ("Q2716259", "P279", "Q56061"), ("Q515", "P279", "Q486972"),
    ("Q16869", "P31", "Q515"), ("Q16869", "P31", "Q839954"),
]
LABELS = {
    "Q924": "Tanzania", "Q6256": "country", "Q45301": "Trabzon", "Q515": "city", "Q486972": "human settlement",
    "Q2716259": "metropolitan municipality in Turkey", "Q56061": "administrative territorial entity",
    "Q16869": "Constantinople", "Q839954": "archaeological site",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, [("Q45301", "Trebizond")], shipped_overlay=True))


def test_given_a_demonym_before_a_noun_of_a_country_then_no_nationality() -> None:
    assert names_its_country("Tanzanian", "he vaccinated cattle along the Tanzanian border.")
    assert not names_its_country("Tanzanian", "He was a Tanzanian veterinarian.")
    assert not names_its_country("Tanzanian", "The Tanzanian border guards and the Tanzanian farmers met.")


def test_given_a_sentence_of_older_times_then_no_status_of_recent_times(engine: Engine) -> None:
    old = labels(engine, "Trebizond", EntityType.LOC, "His book of 1681 describes harbours from Varna to Trebizond.")
    assert "city" in old and "metropolitan municipality in Turkey" not in old
    assert "metropolitan municipality in Turkey" in labels(engine, "Trebizond", EntityType.LOC, "She was born in Trebizond in 1995.")
    site = labels(engine, "Constantinople", EntityType.LOC, "He studied in Constantinople in 1640.")
    assert "city" in site and "archaeological site" not in site
