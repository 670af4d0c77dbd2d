"""A class does not stand for a span a superlative or "first" picks out (engine/select/superlative.py)."""

from __future__ import annotations

import pytest

from engine.select.policy import PICKED_OUT, SelectionPolicy
from engine.select.superlative import picked_out
from engine.types import Candidate, EntityType, IdentifierType, Mention


@pytest.mark.parametrize("before, word", [
    ("She became one of the first women ", "first"),
    ("He became the youngest ", "youngest"),
    ("aide-de-camp to the first ", "first"),
    ("It was her only ", "only"),
])
def test_given_a_determiner_and_a_picking_word_before_the_span_then_it_is_picked_out(before, word):
    assert picked_out(before) == word


@pytest.mark.parametrize("before", [
    "her first album, ",                       # the phrase ended
    "the first national park in ",             # a preposition: another phrase
    "Youngest son Ryan attends ",              # a name stands between
    "PERSON 1 first arrived in the ",          # an adverb, no determiner
    "He worked as an ",
])
def test_given_no_picking_word_in_the_spans_phrase_then_nothing(before):
    assert picked_out(before) is None


def test_given_a_picked_out_span_then_a_class_rung_is_refused_and_a_placeholder_is_not():
    text = "She became one of the first women engineers in Maharashtra."
    start = text.index("engineers")
    mention = Mention(start, start + len("engineers"), EntityType.DEM, IdentifierType.QUASI)
    refusal = SelectionPolicy.refusal(Candidate("worker", "P279", qid="Q327055"), "engineers", mention, text)
    assert refusal is not None and PICKED_OUT in refusal
    assert SelectionPolicy.refusal(Candidate("***", "mask"), "engineers", mention, text) is None
