"""Class sets (kg/class_sets.py): named sets of classes read from Turtle, the shipped ones
(ontology/class_sets.ttl) and sets written for a test next to the shipped vocabulary."""

from __future__ import annotations

import pytest

from engine.detect.gazetteer import KIND_ORDER, KINDS, KIND_TYPE
from engine.generate.linking import RANK_CLASSES, TYPE_ANCHORS
from engine.types import EntityType
from kg import KGError
from kg.class_sets import ClassSets, class_set, named_class, shipped
from kg.store import overlay_paths

PREFIXES = """@prefix tg: <https://taxogen.dev/ontology#> .
@prefix wd: <http://www.wikidata.org/entity/> .
"""


def sets_of(tmp_path, body: str) -> ClassSets:
    """The sets of the shipped vocabulary and kinds plus a file holding ``body``."""
    path = tmp_path / "sets.ttl"
    path.write_text(PREFIXES + body, encoding="utf-8")
    shipped_rules = [p for p in overlay_paths() if p.name in ("taxogen.ttl", "entity_types.ttl")]
    return ClassSets.load(shipped_rules + [path])


def test_given_set_including_a_set_and_a_kind_then_it_holds_their_classes_and_its_own(tmp_path):
    sets = sets_of(tmp_path, """
tg:inner a tg:ClassSet ; tg:memberClass wd:Q1 , wd:Q2 .
tg:middle a tg:ClassSet ; tg:includesSet tg:inner ; tg:memberClass wd:Q3 .
tg:outer a tg:ClassSet ; tg:includesSet tg:middle , tg:kindLanguage ; tg:memberClass wd:Q4 .
""")
    assert sets.classes("inner") == {"Q1", "Q2"}
    assert sets.classes("outer") == {"Q1", "Q2", "Q3", "Q4", "Q34770"}


def test_given_set_of_one_class_then_named_class_is_it_and_a_set_of_two_is_refused(tmp_path):
    sets = sets_of(tmp_path, """
tg:single a tg:ClassSet ; tg:memberClass wd:Q9174 .
tg:pair a tg:ClassSet ; tg:memberClass wd:Q1 , wd:Q2 .
""")
    assert sets.one("single") == "Q9174"
    assert sets.one("kindLanguage") == "Q34770"
    with pytest.raises(KGError, match="'pair' holds 2 classes"):
        sets.one("pair")


def test_given_unknown_set_name_then_error_names_it(tmp_path):
    with pytest.raises(KGError, match="no class set or kind named 'nowhere'"):
        sets_of(tmp_path, "").classes("nowhere")


def test_given_link_anchor_and_gazetteer_sets_then_read_per_type_and_by_precedence(tmp_path):
    sets = sets_of(tmp_path, """
tg:places a tg:ClassSet ; tg:linkAnchorFor tg:typeLOC ; tg:memberClass wd:Q515 .
tg:late a tg:ClassSet ; tg:gazetteerKind "late" ; tg:precedence 9 ; tg:includesSet tg:places .
tg:early a tg:ClassSet ; tg:gazetteerKind "early" ; tg:precedence 2 ; tg:memberClass wd:Q5 .
""")
    assert sets.link_anchors() == {"LOC": frozenset({"Q515"})}
    assert sets.gazetteer_kinds() == (("early", frozenset({"Q5"})), ("late", frozenset({"Q515"})))


def test_given_shipped_sets_then_the_engine_reads_them_unchanged():
    assert class_set("countryClasses") == {"Q6256", "Q3624078"}
    assert named_class("historicalCountry") == "Q3024240"
    assert set(TYPE_ANCHORS) == {EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC}
    # the gazetteer's places are link ranking's; its organisations three fewer
    assert dict(shipped().gazetteer_kinds())["place"] == TYPE_ANCHORS[EntityType.LOC]
    assert TYPE_ANCHORS[EntityType.ORG] - dict(shipped().gazetteer_kinds())["organisation"] == {"Q1331793", "Q11032", "Q2659904"}
    assert RANK_CLASSES == class_set("rankedClasses")


def test_given_shipped_gazetteer_sets_then_every_kind_is_one_the_trained_detector_knows():
    assert KIND_ORDER == ("position", "occupation", "language", "religion", "ethnic group", "award", "work", "event",
                          "organisation", "place")
    assert set(KIND_ORDER) <= set(KINDS) and set(KINDS) <= set(KIND_TYPE)
