"""Reader rules (ontology/reader_rules.ttl): class edges not read as "is a", homonym head nouns."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.truth import TruthRules
from engine.types import MASK
from kg.overlay import validate_overlay
from tests.conftest import tiny_store

EDGES = [
    ("Q7366", "P279", "Q482"), ("Q482", "P279", "Q7725634"),          # song ⊂ poetry ⊂ literary work (Wikidata)
    ("Q7366", "P279", "Q2188189"), ("Q2188189", "P279", "Q838948"),   # song ⊂ musical work ⊂ work of art
    ("Q7725634", "P279", "Q838948"),
    ("Q2937293", "P279", "Q4189293"), ("Q4189293", "P279", "Q4991371"),  # captain ⊂ military rank ⊂ military personnel
    ("Q189004", "P279", "Q2385804"), ("Q2385804", "P279", "Q43229"),    # college ⊂ educational institution ⊂ organization
    ("Q3918", "P279", "Q2385804"),                                      # university ⊂ educational institution
    ("Q42178", "P279", "Q30461"), ("Q30461", "P279", "Q48352"),         # vice president ⊂ president ⊂ head of state
    ("Q42178", "P279", "Q599151"),                                      # vice president ⊂ official
]
LABELS = {
    "Q7366": "song", "Q482": "poetry", "Q7725634": "literary work", "Q2188189": "musical work", "Q838948": "work of art",
    "Q2937293": "captain", "Q4189293": "military rank", "Q4991371": "military personnel",
    "Q189004": "college", "Q2385804": "educational institution", "Q43229": "organization", "Q3918": "university",
    "Q42178": "vice president", "Q30461": "president", "Q48352": "head of state", "Q599151": "official",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, [("Q3918", "college")], shipped_overlay=True))


def labels(engine: Engine, span: str, etype: str) -> list[str]:
    return engine.candidates(span, etype).labels


def test_shipped_reader_rules_load_and_validate():
    rules = TruthRules.load()
    assert ("Q7366", "Q482") in rules.not_is_a          # song → poetry
    assert ("Q13226383", "Q121359") in rules.not_is_a   # facility → infrastructure
    assert {"Q189004", "Q2937293"} <= rules.homonym_heads
    assert validate_overlay() == []


def test_given_edge_not_read_as_is_a_then_nothing_reached_only_through_it_is_offered(engine):
    song = labels(engine, "song", "MISC")
    assert "poetry" not in song and "literary work" not in song
    # work of art is also reached through musical work: kept
    assert song == ["musical work", "work of art", MASK]
    assert labels(engine, "Horst Wessel Song", "MISC") == ["song", "musical work", "work of art", MASK]


def test_given_vice_president_then_nothing_above_president(engine):
    vp = labels(engine, "vice president", "DEM")
    assert "president" not in vp and "head of state" not in vp
    assert "official" in vp


def test_given_homonym_head_noun_then_no_class_from_the_name(engine):
    # no class of a homonym (a captain's rank); a person's attribute reads only as its head word itself
    assert labels(engine, "club captain", "DEM") == ["captain", MASK]
    # "college" is a homonym in a name, in every sense (also as an alias of university)
    assert labels(engine, "Electoral College", "ORG") == [MASK]
    # a head noun that is no homonym still names its class
    assert labels(engine, "Madurai Kamaraj University", "ORG")[0] == "university"
