"""An ambiguous name keeps only the rungs every competing sense holds."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.homonyms import competing, homonyms_of, shared_rungs
from engine.types import MASK, Candidate, Link, LinkMethod
from tests.conftest import place_ladder, tiny_store

EDGES = [
    ("Q350", "P31", "Q1187811"), ("Q350", "P31", "Q515"), ("Q350", "P17", "Q145"),    # Cambridge, England: college town, city
    ("Q900010", "P31", "Q3957"), ("Q900010", "P17", "Q664"),                          # Cambridge, New Zealand: town
    ("Q1187811", "P279", "Q515"), ("Q515", "P279", "Q486972"), ("Q3957", "P279", "Q486972"),
    ("Q145", "P31", "Q6256"), ("Q664", "P31", "Q6256"),
    ("Q900011", "P31", "Q515"), ("Q900011", "P17", "Q145"),                           # Selby: one sense only
]
LABELS = {
    "Q350": "Cambridge", "Q900010": "Cambridge", "Q1187811": "college town", "Q515": "city", "Q3957": "town",
    "Q486972": "human settlement", "Q145": "United Kingdom", "Q664": "New Zealand", "Q6256": "country",
    "Q900011": "Selby",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


ladder = place_ladder


def test_given_two_senses_then_only_the_rungs_both_hold(engine):
    got = ladder(engine, "Cambridge")
    assert "human settlement" in got
    assert not {"college town", "city", "city in the United Kingdom"} & set(got)


def test_given_the_document_names_the_country_of_one_sense_then_its_whole_ladder(engine):
    got = ladder(engine, "Cambridge", frozenset({"Q145"}))
    assert "college town" in got or "city in the United Kingdom" in got


def test_given_one_sense_then_its_whole_ladder(engine):
    assert "city in the United Kingdom" in ladder(engine, "Selby")


def test_given_a_sense_far_less_prominent_then_it_does_not_compete():
    first = Link("Q84", "London", LinkMethod.EXACT, "London", 1.0)
    ontario = Link("Q92561", "London", LinkMethod.EXACT, "London", 1.0)
    kentucky = Link("Q1", "London", LinkMethod.EXACT, "London", 1.0)
    counts = {"Q84": 617, "Q92561": 5, "Q1": 80}
    assert competing(first, [ontario, kentucky], lambda qids: [counts[q] for q in qids]) == [kentucky]


def test_given_links_then_homonyms_are_the_same_name_by_the_same_method():
    first = Link("Q1", "Victoria", LinkMethod.EXACT, "Victoria", 1.0)
    same = Link("Q2", "Victoria", LinkMethod.EXACT, "victoria", 1.0)
    alias = Link("Q3", "Victoria State", LinkMethod.ALIAS, "Victoria", 1.0)
    part = Link("Q4", "Victoria", LinkMethod.CONTAINED, "Victoria", 1.0)
    assert homonyms_of(first, [first, same, alias, part]) == [same]
    assert homonyms_of(part, [first, same]) == []


def test_given_a_sense_the_store_says_nothing_of_then_it_does_not_constrain():
    rungs = [Candidate("city", source="P31", qid="Q515"), Candidate("human settlement", source="P31", qid="Q486972")]
    known = Link("Q2", "X", LinkMethod.EXACT, "X", 1.0)
    unknown = Link("Q3", "X", LinkMethod.EXACT, "X", 1.0)

    def holds(other: Link, rung: Candidate) -> bool | None:
        return None if other is unknown else rung.qid == "Q486972"

    assert [c.label for c in shared_rungs(rungs, [unknown, known], holds)] == ["human settlement"]
    assert shared_rungs(rungs, [unknown], holds) == rungs
    assert MASK not in [c.label for c in rungs]
