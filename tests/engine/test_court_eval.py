"""What counts as a generalization of a court judgment's masked span (taxogen_tools.evaluation.court)."""

from __future__ import annotations

import json

import pytest

from taxogen_tools.evaluation.court import CourtReplacement, judged_shares, not_generalized, reach, sample


@pytest.mark.parametrize(("shown", "rung", "why"), [
    ("***", "***", "masked"), ("", "city", "dropped"), ("DATE", "DATE", "placeholder"), ("GBP X", "GBP X", "placeholder"),
    ("X minutes", "X minutes", "placeholder"), ("a court", "court", ""), ("the 1980s", "date in the 1980s", ""),
    ("under GBP 100", "under GBP 100", ""), ("a town in Denmark", "town in Denmark", ""), ("X-ray clinic", "X-ray clinic", ""),
])
def test_given_what_the_reader_receives_then_whether_it_is_a_generalization(shown, rung, why) -> None:
    assert not_generalized(shown, rung) == why


def _row(t: str, shown: str, n: int = 0) -> CourtReplacement:
    why = not_generalized(shown, shown)
    return CourtReplacement("d", t, "QUASI", f"span{n}", f"sentence {n}", shown, shown, not why, why)


def test_given_rows_then_reach_counts_per_type_and_the_sample_takes_generalizations_only(tmp_path) -> None:
    rows = [_row("ORG", "court", 1), _row("ORG", "***", 2), _row("LOC", "town", 3), _row("QUANTITY", "X", 4)]
    table = reach(rows)
    assert (table["ORG"]["masked"], table["ORG"]["generalized"], table["ORG"]["not"]) == (2, 1, {"masked": 1})
    assert table["ALL"]["share"] == 0.5 and table["MISC"]["share"] is None
    assert {r.span for r in sample(rows, 5)} == {"span1", "span3"}
    judged = tmp_path / "j.jsonl"
    judged.write_text("\n".join(json.dumps(r) for r in [
        {"entity_type": "ORG", "truthful": True, "less_specific": True},
        {"entity_type": "LOC", "truthful": False, "less_specific": True}]), encoding="utf-8")
    shares = judged_shares(judged)
    assert shares["ALL"]["truthful_share"] == 0.5 and shares["ORG"]["less_specific"] == 1
