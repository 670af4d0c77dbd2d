"""The class a qualified rung names before its place (engine/generate/qualified.py)."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.qualified import qualified_head
from engine.types import MASK
from tests.conftest import tiny_store

EDGES = [
    ("Q1061", "P31", "Q13390680"), ("Q13390680", "P279", "Q56061"),          # Gujarat: state of India
    ("Q668", "P31", "Q6256"),                                                  # India, a country
    ("Q7275", "P279", "Q56061"),                                               # state ⊂ administrative territorial entity
    ("Q65", "P31", "Q1093829"), ("Q1093829", "P279", "Q515"),                  # Los Angeles: city of the United States ⊂ city
    ("Q515", "P279", "Q56061"), ("Q30", "P31", "Q6256"),
    ("Q8889", "P31", "Q9990002"), ("Q9990002", "P279", "Q56061"),             # a "member of the Test Parliament" …
    ("Q9990003", "P31", "Q43229"), ("Q9990004", "P279", "Q56061"),            # … of an institution, no place; "member" a class
]
LABELS = {
    "Q1061": "Gujarat", "Q13390680": "state of India", "Q56061": "administrative territorial entity", "Q668": "India",
    "Q6256": "country", "Q7275": "state", "Q65": "Los Angeles", "Q1093829": "city of the United States", "Q515": "city",
    "Q30": "United States", "Q8889": "Testville", "Q9990002": "member of the Test Parliament", "Q9990003": "Test Parliament",
    "Q9990004": "member", "Q43229": "organization",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


def test_qualified_head_reads_the_kind_before_the_place():
    assert qualified_head("state of the United States") == ("state", "United States")
    assert qualified_head("city in Norway") == ("city", "Norway")
    assert qualified_head("big city") is None
    assert qualified_head("Order of Lenin") is None  # a name, not a class label


def test_given_a_class_qualified_by_a_place_then_its_head_follows_it(engine):
    assert engine.candidates("Gujarat", "LOC").labels[:2] == ["state of India", "state"]


def test_given_the_head_already_in_the_ladder_then_it_is_not_repeated(engine):
    labels = engine.candidates("Los Angeles", "LOC").labels
    assert labels.count("city") == 1 and labels.index("city") > labels.index("city of the United States")


def test_given_an_institution_after_of_then_no_head(engine):
    assert "member" not in engine.candidates("Testville", "LOC").labels
    assert engine.candidates("Testville", "LOC").labels[-1] == MASK
