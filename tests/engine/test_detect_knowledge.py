"""Detection reads its words from the packs and its rules are named components (engine.detect.*)."""

from __future__ import annotations

from engine.detect.context_types import context_retype
from engine.detect.features import DEPS, NER_LABELS, POS, PREV_WORDS
from engine.detect.rules import rule_spans
from engine.knowledge import Knowledge, registered_rules
from engine.types import EntityType as E
from tests.factories import detected_span

span = detected_span

# The vocabularies the shipped decider (engine/models/detect/) was trained with: a categorical
# feature is the place of its value in them, so the packs must keep these lists as they are.
TRAINED_POS = ("NOUN", "PROPN", "ADJ", "NUM", "VERB", "ADV", "ADP", "DET", "PRON", "AUX", "CCONJ", "PUNCT", "X", "SYM", "PART",
               "SPACE", "INTJ", "SCONJ")
TRAINED_DEPS = ("nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "compound", "amod", "conj", "npadvmod", "nmod", "poss",
                "ROOT", "dep", "nummod", "prep")
TRAINED_PREV_WORDS = ("in", "at", "of", "born", "from", "for", "by", "with", "the", "a", "an", "and", "to", "as", "on", "since",
                      "until", "(", ",", "his", "her", "was", "is", "became", "named", "won", "–", "-")
TRAINED_RULE_LABELS = tuple(f"{t}{i}" for t in ("datetime", "quantity", "code") for i in range(8))


def test_given_the_shipped_packs_then_the_feature_vocabularies_are_the_trained_deciders() -> None:
    assert POS.in_order() == TRAINED_POS
    assert DEPS.in_order() == TRAINED_DEPS
    assert PREV_WORDS.in_order() == TRAINED_PREV_WORDS
    assert NER_LABELS[-(len(TRAINED_RULE_LABELS) + 5):-5] == TRAINED_RULE_LABELS
    assert NER_LABELS[-5:] == ("propn", "acronym", "quoted", "noun", "compound")


def test_given_the_detection_modules_then_their_rules_are_registered_for_the_detect_stage() -> None:
    rules = {n: r for n, r in registered_rules().items() if r.module.startswith("engine.detect")}
    assert {"date-expressions", "place-named-before", "team-named-after-place", "person-titles"} <= set(rules)
    assert {r.stage for r in rules.values()} == {"detect"}
    assert rules["team-named-after-place"].pack == "sport" and rules["field-of-study-before"].pack == "biography"


def test_given_the_sport_pack_off_then_a_place_after_what_a_player_does_stays_a_place() -> None:
    text = "Over six years he earned thirty caps for Ireland."
    spans = [span(text, "Ireland", E.LOC)]
    assert [s.entity_type for s in context_retype(text, spans)] == [E.ORG]
    with Knowledge(("core", "biography")).active():
        assert [s.entity_type for s in context_retype(text, spans)] == [E.LOC]


def test_given_a_detection_rule_switched_off_then_its_spans_are_not_found() -> None:
    text = "Write to ada@example.org before 12 March 1987."
    assert [(s.text, s.entity_type) for s in rule_spans(text)] == [("ada@example.org", E.CODE), ("12 March 1987", E.DATETIME)]
    with Knowledge().with_rules_off(["code-expressions"]).active():
        assert [s.text for s in rule_spans(text)] == ["12 March 1987"]


def test_given_the_sport_pack_off_then_a_season_is_no_part_of_a_date_and_goals_no_unit() -> None:
    text = "In the 1990/91 season he scored 14 goals."
    assert [s.text for s in rule_spans(text)] == ["1990/91 season", "14 goals"]
    with Knowledge(("core", "biography")).active():
        assert [s.text for s in rule_spans(text)] == ["1990/91", "14"]
