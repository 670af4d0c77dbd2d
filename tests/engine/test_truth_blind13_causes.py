"""Rules for causes of false class replacements blind readers found in truth-set batch
received-blind-13: a side named by the noun after it ("the Wales side") or scored against
("187 against England"), a university named like the club a footballer played for, a
lieutenant's rank; and the later head of a name of two names only after a place's name.
Pinned on tiny graphs of the seed store's real Wikidata facts."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.sources.base import DocumentState
from engine.generate.teams import in_team_slot
from engine.generate.truth import TruthFilter
from engine.generate.truth_text import later_head, span_words
from engine.types import EntityType, Span
from tests.conftest import tiny_store

EDGES = [
    ("Q12973014", "P279", "Q327245"), ("Q327245", "P279", "Q43229"), ("Q2736", "P279", "Q349"), ("Q1081491", "P279", "Q349"),
    ("Q49116", "P31", "Q3918"), ("Q3918", "P279", "Q43229"),
]
LABELS = {
    "Q12973014": "sports team", "Q327245": "team", "Q43229": "organization", "Q349": "sport",
    "Q2736": "association football", "Q1081491": "football", "Q49116": "Dartmouth College", "Q3918": "university",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    # Wikidata keeps "Aberdeen" as an alias of Dartmouth College
    return Engine.from_store(tiny_store(EDGES, LABELS, [("Q2736", "football"), ("Q49116", "Aberdeen")], shipped_overlay=True))


@pytest.mark.parametrize("sentence,span", [
    ("His highest Test score, 187 against England at the Eden Gardens, remained a record.", "England"),
    ("He was part of the Wales side that won the Grand Slam in 2005.", "Wales"),
])
def test_given_a_side_scored_against_or_called_a_side_then_team_slot(sentence: str, span: str) -> None:
    assert in_team_slot(Span(span, EntityType.ORG, context=sentence))


def test_given_a_document_about_sport_then_an_alias_a_player_played_for_is_no_university(engine: Engine) -> None:
    sentence = "He was a Scottish footballer who played as a centre-forward, mainly for Kilmarnock and Aberdeen."
    got = engine.candidates(Span("Aberdeen", EntityType.ORG, context=sentence), state=DocumentState(text=sentence)).labels
    assert "university" not in got and got[0] == "sports team"
    studied = "She studied law at Aberdeen."
    assert "university" in engine.candidates(Span("Aberdeen", EntityType.ORG, context=studied), state=DocumentState(text=studied)).labels


def test_given_a_lieutenants_rank_then_not_the_rank_it_names() -> None:
    assert TruthFilter.negated_by_modifier("lieutenant colonel", "colonel")
    assert not TruthFilter.negated_by_modifier("first lieutenant", "lieutenant")


def test_given_a_name_of_two_names_then_the_later_heads_it_only_after_a_place() -> None:
    places, classes = {"the philippines", "philippines", "malawi", "japan"}.__contains__, {"college", "arts", "affairs"}.__contains__
    assert later_head(span_words("University of the Philippines College of Medicine"), places, classes) == 4
    assert later_head(span_words("Faculty of Fine Arts of the University of Tehran"), places, classes) is None
    assert later_head(span_words("Ministry of Foreign Affairs of Japan"), places, classes) is None
    assert later_head(span_words("Architectural Institute of Japan Prize"), places, classes) is None
