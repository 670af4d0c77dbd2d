"""Composed rungs of a class the item is through its classes (GraphSource.with_composed)."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.types import MASK
from tests.conftest import tiny_store

EDGES = [
    ("Q65", "P31", "Q1093829"), ("Q65", "P17", "Q30"), ("Q30", "P31", "Q6256"),       # Los Angeles: city of the US
    # city of the US ⊂ city, and ⊂ a class with a lower Q-number: the first walk goes there, not to city
    ("Q1093829", "P279", "Q515"), ("Q1093829", "P279", "Q123"),
    ("Q900", "P31", "Q13218391"), ("Q900", "P17", "Q20"), ("Q20", "P31", "Q6256"),    # a (made-up) charter city in Norway
    ("Q13218391", "P279", "Q1093829"),
    ("Q901", "P31", "Q1549591"), ("Q901", "P17", "Q20"),
]
LABELS = {
    "Q65": "Los Angeles", "Q1093829": "city of the United States", "Q515": "city", "Q30": "United States",
    "Q6256": "country", "Q900": "Charterville", "Q13218391": "charter city", "Q1549591": "big city", "Q20": "Norway",
    "Q901": "Bergen", "Q123": "settlement",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


def test_given_city_through_a_subclass_then_city_in_country_and_city_are_offered(engine):
    assert engine.candidates("Charterville", "LOC").labels == ["charter city", "city of the United States", "city in Norway", "city", "settlement", MASK]


def test_given_composed_label_rewording_a_rung_then_only_the_class_is_added(engine):
    # "city in the United States" (the gazetteer's) says what "city of the United States" says
    assert engine.candidates("Los Angeles", "LOC").labels == ["city of the United States", "city in Northern America", "city in the Americas",
                                                              "city", "settlement", MASK]


def test_given_org_span_then_no_place_class_is_added(engine):
    assert "city" not in engine.candidates("Bergen", "ORG").labels
