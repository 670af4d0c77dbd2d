"""Homonyms the store gives no country: "Toledo" in a Spanish cyclist's biography is the
Spanish city, not the city in Ohio whose class ("city of the United States") says where it
lies, and a nationality the text leaves unmasked ("a Spanish cyclist") says where the
document is (engine/generate/context.py)."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.context import countries_named_by_classes, document_state, prefer_in_document
from engine.types import EntityType, Link, LinkMethod, Span
from tests.conftest import tiny_store

EDGES = [
    ("Q49239", "P31", "Q1093829"),                              # Toledo, Ohio: city of the United States, no P17
    ("Q5836", "P31", "Q515"), ("Q5836", "P17", "Q29"),          # Toledo, Spain: city, in Spain
    ("Q29", "P31", "Q6256"), ("Q30", "P31", "Q6256"),           # Spain, United States: countries
    ("Q1093829", "P279", "Q515"),
]
LABELS = {"Q49239": "Toledo", "Q5836": "Toledo", "Q29": "Spain", "Q30": "United States", "Q6256": "country",
          "Q515": "city", "Q1093829": "city of the United States"}


@pytest.fixture(scope="module")
def engine() -> Engine:
    import pyoxigraph as ox

    kg = tiny_store(EDGES, LABELS, shipped_overlay=True)
    kg.raw.load(b'<http://www.wikidata.org/entity/Q29> <http://www.wikidata.org/prop/direct/P1549> "Spanish"@en .',
                format=ox.RdfFormat.N_TRIPLES)
    return Engine.from_store(kg)


def test_given_a_class_label_ending_with_a_country_then_the_item_lies_there(engine):
    assert countries_named_by_classes(engine.linker, "Q49239") == {"Q30"}
    assert countries_named_by_classes(engine.linker, "Q5836") == frozenset()  # "city" names no country


def test_given_a_document_in_spain_then_the_spanish_toledo_comes_first(engine):
    ohio = Link("Q49239", "Toledo", LinkMethod.EXACT, "Toledo", 1.0)
    spain = Link("Q5836", "Toledo", LinkMethod.EXACT, "Toledo", 1.0)
    named = lambda q: countries_named_by_classes(engine.linker, q)  # noqa: E731
    assert prefer_in_document([ohio, spain], frozenset({"Q29"}), engine.linker.taxonomy, named)[0] is spain
    assert prefer_in_document([ohio, spain], frozenset({"Q30"}), engine.linker.taxonomy, named)[0] is ohio
    # without the classes' countries nothing says the first link lies elsewhere
    assert prefer_in_document([ohio, spain], frozenset({"Q29"}), engine.linker.taxonomy)[0] is ohio


def test_given_an_unmasked_demonym_in_the_text_then_the_document_lies_in_its_country(engine):
    text = "Bahamontes was a Spanish cyclist. He grew up in Toledo, where he sold fruit."
    assert document_state(engine.linker, [Span("Toledo", EntityType.LOC)], text).countries == {"Q29"}
    assert document_state(engine.linker, [Span("Toledo", EntityType.LOC)], "He grew up in Toledo.").countries == frozenset()
