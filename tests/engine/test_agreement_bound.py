"""The annotators against each other (taxogen_tools.evaluation.agreement_bound)."""

from taxogen_tools.evaluation.agreement_bound import agreement_estimate, one_vs_others
from taxogen_tools.evaluation.sanitize_eval import MentionScore


def test_one_vs_others_compares_each_annotator_with_the_rest():
    # 3 say the decade, 1 masks: each decade voter matches the other three's majority; the masker does not
    sel = {"date in the 2010s": ["a1", "a2", "a3"], "***": ["a4"]}
    assert one_vs_others(sel) == (3, 4)
    # labels are compared canonically ("date in the 2010s" = "the 2010s")
    assert one_vs_others({"the 2010s": ["a1"], "date in the 2010s": ["a2", "a3"]}) == (3, 3)
    # a 2-2 split: without an annotator the others' majority is the other label
    assert one_vs_others({"city": ["a1", "a2"], "***": ["a3", "a4"]}) == (0, 4)


def test_fewer_than_three_annotators_do_not_count():
    assert one_vs_others({"city": ["a1"]}) == (0, 0)
    assert one_vs_others({"city": ["a1"], "***": ["a2"]}) == (0, 0)


def _m(t, majority, output, ladder, votes=(0, 0)):
    return MentionScore("d", t, "x", majority, (majority,), output, ladder, votes)


def test_estimate_takes_the_ceiling_or_the_annotators_rate_whichever_is_lower():
    ms = [
        # two multi-annotated LOC mentions: annotators agree with the others 6 of 8 times
        _m("LOC", "city", "***", ("city", "***"), (3, 4)),
        _m("LOC", "region", "***", ("city", "***"), (3, 4)),  # majority not offered
        # four single-annotated, three of them offered: ceiling 75 %, the same as the annotators' rate
        _m("LOC", "city", "city", ("city", "***")),
        _m("LOC", "***", "***", ("city", "***")),
        _m("LOC", "***", "city", ("city", "***")),
        _m("LOC", "country in Europe", "***", ("country", "***")),
    ]
    est = agreement_estimate(ms)["LOC"]
    assert est.multi == 2 and est.one_vs_others == 0.75
    assert est.ours_single == 0.5 and est.ceiling_single == 0.75
    # 1 offered multi + 4 × min(0.75, 0.75) = 4 of 6
    assert est.estimate == round(4 / 6, 4)
    assert agreement_estimate(ms)["ALL"].estimate == est.estimate


def test_a_type_without_multi_annotated_mentions_takes_the_pooled_rate():
    ms = [_m("LOC", "city", "city", ("city", "***"), (1, 4)),
          _m("ORG", "club", "club", ("club", "***")), _m("ORG", "team", "***", ("team", "***"))]
    org = agreement_estimate(ms)["ORG"]
    assert org.multi == 0 and org.one_vs_others == 0.25
    assert org.estimate == 0.25  # 2 × min(ceiling 1.0, 0.25) of 2
