"""A class does not stand for a span a superlative or "first" picks out.

Generalizing keeps a sentence true when the span can be replaced by anything it is: "she
worked as an engineer" → "as a worker". It does not after "the first", "the only", "the
youngest", "the largest" …: "one of the first women *engineers* in Maharashtra" is true, "one
of the first women workers in Maharashtra" is not; "the youngest *mayor* of Oslo" is not "the
youngest politician". A class rung in such a slot is refused; the span is masked instead.
The picking words and what ends the noun phrase are ``packs/core/select.yaml``.
"""

from __future__ import annotations

import re

from engine.generate.sources.datetime import datetime_ladder
from engine.knowledge import pattern, rule
from engine.types import GRAPH_TYPES, EntityType

#: Words that pick out one or a few of a kind ("first", "only", "youngest", "largest").
_PICKING = pattern("select.picking")
#: What ends the noun phrase read backwards from the span: punctuation, a verb of the clause,
#: a relative word.
_BREAK = pattern("select.phrase_break")
#: What stands before the picking word when it picks out a noun: "the first", "her only",
#: "Norway's largest" ("he first arrived" is an adverb, "Youngest son Ryan" a name's title).
_DETERMINER = pattern("select.picking_determiner")
#: At most this many words between the picking word and the span ("the first [women] engineers").
MAX_WORDS = 4


@rule("picked-out-by-a-superlative", stage="select", types=tuple(t.value for t in GRAPH_TYPES),
      purpose='no class stands for a span a superlative or "first" picks out ("the youngest [mayor]" is not "the youngest politician")')
def picked_out(before: str) -> str | None:
    """The word that picks out the span, when one stands in its noun phrase right before it
    (``before``: the text up to the span), else None."""
    words = re.findall(r"'s|’s|[\w'’-]+|[^\w\s]", before[-80:])
    for i in range(len(words) - 1, max(-1, len(words) - 2 - MAX_WORDS), -1):
        word = words[i]
        if _BREAK.fullmatch(word) or (word[:1].isupper() and i < len(words) - 1 and not _PICKING.fullmatch(word)):
            return None  # the phrase ended, or a name stands between ("Youngest son Ryan")
        if _PICKING.fullmatch(word):
            return word.lower() if i > 0 and _DETERMINER.fullmatch(words[i - 1]) else None
    return None


#: The words before a period that scopes a superlative ("the greatest athletes of the …").
_SUPERLATIVE_PERIOD_BEFORE = pattern("select.superlative_period_before")


@rule("period-of-a-superlative-masked", stage="select", types=(EntityType.DATETIME,),
      purpose='no date rung stands for a period a superlative is scoped to ("one of the greatest athletes of the [twentieth century]" is not "… of the 2nd millennium"): the span is masked')
def period_of_a_superlative(before: str, span: str) -> bool:
    """The period ``span`` after ``before`` (the text up to it) scopes a superlative or "first"
    in its clause: a wider period makes the claim another. A day dates a thing, it scopes no
    superlative ("its leading judgment of [28 April 1999]")."""
    return datetime_ladder(span)[1] not in _DAY_SHAPES and bool(_SUPERLATIVE_PERIOD_BEFORE.search(before[-160:]))


#: The shapes of a date span that name one day (:func:`engine.generate.sources.datetime.datetime_ladder`).
_DAY_SHAPES = ("full-date", "day-month")
