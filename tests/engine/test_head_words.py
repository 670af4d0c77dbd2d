"""Head words (tg:headWord, ontology/reader_rules.ttl): the class a span's head noun names for its
type; a name ending in "Act" is headed by it; a non-subsective modifier keeps only the kinds of
role above its noun."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.types import MASK, EntityType
from tests.conftest import candidate_labels, tiny_store

EDGES = [
    ("Q327333", "P279", "Q43229"), ("Q783794", "P279", "Q43229"), ("Q820655", "P279", "Q47461344"),
    ("Q30185", "P279", "Q2285706"), ("Q2285706", "P279", "Q4164871"), ("Q30185", "P31", "Q294414"),
]
LABELS = {
    "Q327333": "government agency", "Q43229": "organization", "Q783794": "company", "Q820655": "statute",
    "Q47461344": "written work", "Q30185": "mayor", "Q2285706": "head of government", "Q4164871": "position",
    "Q294414": "public office",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


@pytest.mark.parametrize(("span", "etype", "expected"), [
    ("Northvale Water Authority", EntityType.ORG, ["government agency", "organization", MASK]),
    ("Brightwell Instruments GmbH", EntityType.ORG, ["company", "organization", MASK]),
    ("Protection of Wetlands (Conditions and Procedures) Act", EntityType.MISC, ["statute", "written work", MASK]),
])
def test_given_a_head_word_of_a_class_the_type_allows_then_its_ladder(engine, span, etype, expected):
    assert candidate_labels(engine, span, etype) == expected


def test_given_a_head_word_of_a_class_the_type_does_not_allow_then_not_that_class(engine):
    assert "government agency" not in candidate_labels(engine, "public prosecutor", EntityType.DEM)


def test_given_a_deputy_then_neither_the_role_nor_a_superclass_of_it_only_the_kind_of_role(engine):
    got = candidate_labels(engine, "Deputy Mayor", EntityType.DEM)
    assert "mayor" not in got and "head of government" not in got and got[0] in ("public office", "position")
