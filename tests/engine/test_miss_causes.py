"""Each missed mention of ``evaluate sanitize`` gets one cause (taxogen_tools.evaluation.miss_causes)."""

from taxogen_tools.evaluation.miss_causes import (
    BLANKET, LEAK, NO_CLASS, NO_ITEM, NO_RUNG, OTHER_RUNGS, PARTIAL, RANK_CLASS_FOR_MASK, RANK_MASK_FOR_OFFERED,
    RANK_OTHER, WRONG_TYPE, blanket_groups, cause_of, miss_causes,
)
from taxogen_tools.evaluation.sanitize_eval import MentionScore


def ms(doc="d", typ="LOC", majority="city", output="***", ladder=("***",), votes=(0, 0), skipped=(), rule=""):
    return MentionScore(doc, typ, "x", majority, (majority,), output, tuple(ladder), votes, tuple(skipped), rule)


def test_given_agreement_then_no_cause():
    assert cause_of(ms(majority="city", output="city", ladder=("city", "***")), set()) is None


def test_given_single_annotator_masking_every_date_of_a_document_then_blanket():
    dates = [ms(typ="DATETIME", majority="***", output="date in the 1970s"), ms(typ="DATETIME", majority="***", output="***")]
    assert blanket_groups(dates) == {("d", "DATETIME")}
    assert cause_of(dates[0], blanket_groups(dates)) == BLANKET


def test_given_one_masked_date_or_several_annotators_then_not_blanket():
    assert blanket_groups([ms(typ="DATETIME", majority="***")]) == set()
    multi = [ms(typ="DATETIME", majority="***", votes=(8, 9)), ms(typ="DATETIME", majority="***", votes=(9, 9))]
    assert blanket_groups(multi) == set()
    assert cause_of(ms(typ="DATETIME", majority="***", output="date in the 1970s"), set()) == RANK_CLASS_FOR_MASK


def test_given_offered_choice_missed_then_ranker_causes():
    assert cause_of(ms(majority="city", output="***", ladder=("***", "city")), set()) == RANK_MASK_FOR_OFFERED
    assert cause_of(ms(majority="city", output="big city", ladder=("big city", "city", "***")), set()) == RANK_OTHER


def test_given_choice_not_offered_then_ladder_causes():
    assert cause_of(ms(majority="U.S. state", skipped=("U.S. state",)), set()) == LEAK
    assert cause_of(ms(rule="no item of the graph matches 'Hermosillo'"), set()) == NO_ITEM
    assert cause_of(ms(rule="no linked item fits ORG"), set()) == NO_CLASS
    assert cause_of(ms(rule="only part of the span links (Q42448 (Sheffield))"), set()) == PARTIAL
    assert cause_of(ms(rule="Q30 (United States of America) is not a ORG"), set()) == WRONG_TYPE
    assert cause_of(ms(majority="town", ladder=("***", "big city")), set()) == OTHER_RUNGS


def test_given_mentions_then_counts_per_cause_and_type_and_ranker_share():
    mc = miss_causes([ms(), ms(majority="city", output="***", ladder=("***", "city")), ms(majority="city", output="city", ladder=("city",))])
    assert mc.to_dict() == {RANK_MASK_FOR_OFFERED: {"LOC": 1}, NO_RUNG: {"LOC": 1}}
    assert mc.ranker_share() == 1 / 3
