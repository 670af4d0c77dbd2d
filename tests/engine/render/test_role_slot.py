"""A category of roles ("occupation", "profession", …) never stands for a DEM mention in a
role's slot: the next rung is used and ``skipped`` says why (engine.select.role_slot)."""

import pytest

from engine.select.role_slot import ROLE_SLOT_REASON, category_in_role_slot
from engine.types import Candidate, EntityType as T


@pytest.mark.parametrize("before, label, passed_over", [
    ("To date, he is the only person to have served as both ", "occupation", True),
    ("She is a ", "profession", True),
    ("He held the ", "position", False),       # "the position of …": the role as a thing
    ("He changed his ", "profession", False),  # a possessive
    ("She is a ", "lawyer", False),            # a role, not a category of roles
])
def test_given_slot_then_category_passed_over_only_where_it_stands_for_the_role(before, label, passed_over):
    reason = category_in_role_slot(Candidate(label, "P31"), T.DEM, before)
    assert (reason is not None) is passed_over
    if reason:
        assert ROLE_SLOT_REASON in reason


def test_given_other_entity_type_then_never_passed_over():
    assert category_in_role_slot(Candidate("position", "P31"), T.MISC, "She is a ") is None


def test_given_served_as_both_then_next_rung_and_skipped_reason(sample_kg, monkeypatch):
    from engine.config import EngineConfig
    from engine.engine import Engine
    from engine.types import MASK, Candidate as C, Ladder, Mention

    engine = Engine.from_store(sample_kg, EngineConfig(model="none"))
    text = "He served as both Vice President and President."

    def candidates(span, *args, **kwargs):
        labels = ["occupation", "politician"] if span.text == "Vice President" else ["position"]
        cands = tuple(C(label, "P31", level=i + 1) for i, label in enumerate(labels))
        return Ladder(span, cands + (C(MASK, "mask", level=len(labels) + 1),))

    monkeypatch.setattr(engine.generator, "ladder", candidates)
    monkeypatch.setattr(engine.pipeline["rank"], "score", lambda items: [[float(len(it.candidates) - i) for i in range(len(it.candidates))] for it in items])
    vp, p = text.index("Vice President"), text.rindex("President")
    r = engine.sanitize(text, [Mention(vp, vp + 14, T.DEM), Mention(p, p + 9, T.DEM)])
    assert r.text == "He served as both politician and ***."
    assert [(s.label, ROLE_SLOT_REASON in s.reason) for s in r.skipped] == [("occupation", True), ("position", True)]


def test_given_former_before_a_role_then_person_is_passed_over():
    cand = Candidate("person", "P279", qid="Q215627")
    assert category_in_role_slot(cand, T.DEM, "She is a Norwegian former ", " and politician.") is not None
    assert category_in_role_slot(cand, T.DEM, "She is a Norwegian ", " and politician.") is None
    assert category_in_role_slot(Candidate("athlete", "P279"), T.DEM, "a former ", "") is None


def test_given_as_before_a_role_then_person_is_passed_over():
    cand = Candidate("person", "P279", qid="Q215627")
    assert category_in_role_slot(cand, T.DEM, "He worked as a ", " for TV Azteca.") is not None
    assert category_in_role_slot(cand, T.DEM, "He married a ", " from Lima.") is None
