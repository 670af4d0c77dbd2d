"""TAB's own measures of masked spans on a tiny hand-made judgment (fast: no spaCy model)."""

from __future__ import annotations

from engine.io.wikireplace import WRMention
from engine.types import EntityType, IdentifierType
from taxogen_tools.evaluation.tab_measures import MaskedText, entities, tab_measures

TEXT = "The applicant, Mr Olaf Brenner, lives in Tarvik. Olaf Brenner complained to the Court."


def _mention(part: str, etype: EntityType, ident: IdentifierType, entity: str, nth: int = 0) -> WRMention:
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(part, start + 1)
    return WRMention("doc", "annotator1", f"{entity}-{start}", part, start, start + len(part), etype, ident, entity, (), {}, {}, False)


MENTIONS = [
    _mention("Olaf Brenner", EntityType.PERSON, IdentifierType.DIRECT, "person"),
    _mention("Tarvik", EntityType.LOC, IdentifierType.QUASI, "town"),
    _mention("Olaf Brenner", EntityType.PERSON, IdentifierType.DIRECT, "person", nth=1),
    _mention("Court", EntityType.ORG, IdentifierType.NO_MASK, "court"),
]


def _at(part: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(part, start + 1)
    return start, start + len(part)


def _measures(masked: list[tuple[int, int]]) -> dict:
    return tab_measures([MaskedText(TEXT, None, entities(MENTIONS), masked)])


def test_given_every_mention_to_mask_masked_and_nothing_else_then_recall_and_precision_are_one():
    r = _measures([_at("Olaf Brenner"), _at("Tarvik"), _at("Olaf Brenner", 1)])
    assert (r["entity_recall"], r["entity_recall_direct"], r["entity_recall_quasi"]) == (1.0, 1.0, 1.0)
    assert r["token_precision"] == 1.0 and r["masked_tokens"] == 5


def test_given_part_of_one_mention_unmasked_then_its_entity_is_not_protected():
    first, second = _at("Olaf Brenner"), _at("Olaf Brenner", 1)
    r = _measures([first, (second[0], second[0] + len("Olaf")), _at("Tarvik")])
    assert r["entity_recall_direct"] == 0.0  # "Brenner" of the second mention is left
    assert r["entity_recall_quasi"] == 1.0
    assert r["entity_recall"] == 0.5
    assert r["mention_recall"] == round(2 / 3, 4)


def test_given_punctuation_and_spaces_left_unmasked_then_the_mention_still_counts():
    start, end = _at("Olaf Brenner")
    r = _measures([(start, start + 4), (start + 5, end), _at("Tarvik"), _at("Olaf Brenner", 1)])
    assert r["entity_recall"] == 1.0


def test_given_a_masked_role_and_court_then_token_precision_counts_their_tokens_as_wrong():
    r = _measures([_at("applicant"), _at("Olaf Brenner"), _at("Tarvik"), _at("Olaf Brenner", 1), _at("Court")])
    # 7 masked tokens, 5 of them inside an annotated DIRECT or QUASI span (the NO_MASK "Court" is not)
    assert r["masked_tokens"] == 7
    assert r["token_precision"] == round(5 / 7, 4)
    assert r["entity_recall"] == 1.0


def test_given_a_span_wider_than_the_mention_then_its_extra_tokens_are_imprecise():
    start, end = _at("Mr Olaf Brenner")
    r = _measures([(start, end), _at("Tarvik"), _at("Olaf Brenner", 1)])
    assert r["masked_tokens"] == 6
    assert r["token_precision"] == round(5 / 6, 4)
