"""Sense rules for causes of false class replacements blind readers found in truth-set batch
received-blind-10: a name the sentence calls something else than the linked item ("the
newspaper ABC"), and a region named after a place and a comma ("Rosario, Santa Fe").
Pinned on a tiny graph of the seed store's real Wikidata facts."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.types import EntityType
from tests.conftest import candidate_labels as labels, tiny_store

EDGES = [
    ("Q3600480", "P31", "Q1616075"), ("Q1616075", "P279", "Q43229"), ("Q11032", "P279", "Q1002697"),
    ("Q1002697", "P279", "Q43229"),
    ("Q44244", "P31", "Q515"), ("Q38555", "P31", "Q515"), ("Q44823", "P31", "Q1048835"), ("Q52535", "P31", "Q515"),
    ("Q52535", "P131", "Q44823"), ("Q44823", "P17", "Q414"), ("Q44244", "P17", "Q414"), ("Q52535", "P17", "Q414"),
    ("Q1048835", "P279", "Q56061"),
]
LABELS = {
    "Q3600480": "ABC", "Q1616075": "television network", "Q43229": "organization", "Q11032": "newspaper",
    "Q1002697": "periodical", "Q44244": "Santa Fe", "Q38555": "Santa Fe", "Q44823": "Santa Fe Province",
    "Q1048835": "political territorial entity", "Q52535": "Rosario", "Q515": "city", "Q414": "Argentina",
    "Q56061": "administrative territorial entity",
}
ALIASES = [("Q44823", "Santa Fe")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, ALIASES, shipped_overlay=True))


def test_given_the_sentence_names_another_class_before_the_name_then_not_the_linked_item(engine: Engine) -> None:
    assert "television network" not in labels(engine, "ABC", EntityType.ORG, "She worked as a typist for the newspaper ABC.")
    assert "television network" in labels(engine, "ABC", EntityType.ORG, "She worked as a typist for ABC.")


def test_given_a_region_after_a_place_and_a_comma_then_the_region_around_it(engine: Engine) -> None:
    got = labels(engine, "Santa Fe", EntityType.LOC, "Born in Rosario, Santa Fe, the son of a dockworker, he left school.")
    # Q1048835 under its plain name (ontology/overlay.ttl: tg:labelOverride)
    assert "political territory" in got and "city" not in got


def test_given_an_item_disjoint_with_a_qualified_rungs_head_then_neither_is_offered() -> None:
    """Budapest, a city with millions of inhabitants, is filed as a "town in Hungary": no town."""
    edges = [("Q1781", "P31", "Q1637706"), ("Q1781", "P31", "Q13218690"), ("Q1637706", "P279", "Q515"),
             ("Q3957", "P279", "Q486972"), ("Q515", "P279", "Q486972"), ("Q28", "P31", "Q6256")]
    names = {"Q1781": "Budapest", "Q1637706": "city with millions of inhabitants", "Q13218690": "town in Hungary",
             "Q3957": "town", "Q515": "city", "Q486972": "human settlement", "Q28": "Hungary", "Q6256": "country"}
    engine = Engine.from_store(tiny_store(edges, names, shipped_overlay=True))
    got = labels(engine, "Budapest", EntityType.LOC, "He was born in Budapest.")
    assert "city with millions of inhabitants" in got and "town in Hungary" not in got and "town" not in got
