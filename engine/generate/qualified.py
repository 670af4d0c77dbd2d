"""The class a qualified rung names before its place: "state of the United States" → "state".

A class label that names a class and then the place it lies in ("state of the United
States", "province of China", "municipality of Norway", "city in Norway") says two things:
the kind, and where. The kind alone is also true of the item, and more general, so it is
offered right after the qualified rung. It is what the reader can still be told when the
place must stay hidden: when the document masks "the United States" elsewhere, "state of
the United States" would give it away (:mod:`engine.privacy.leaks`) and "state" does not.

The head is offered only when the store has a class of that label, of a kind the entity
type allows, that the overlay does not bar (``tg:neverOffer``); and only when what follows
"of"/"in" is the name of a place in the store ("member of the European Parliament" names
an institution after "of": no head of it is offered). When the item is disjoint with the
class the head names (``owl:disjointWith``: a city with millions of inhabitants is no town),
neither the head nor the qualified rung is offered ("town in Hungary" for Budapest).
"""

from __future__ import annotations

import re
from typing import Callable

from engine.generate.linking import fold
from engine.generate.truth import TruthFilter
from engine.generate.truth_rules import PLACE
from engine.types import Candidate, EntityType

#: "<head> of|in [the] <place>"
_QUALIFIED = re.compile(r"^(?P<head>[a-z][\w' -]*?) (?:of|in) (?:the )?(?P<place>[A-Z].*)$")


def qualified_head(label: str) -> tuple[str, str] | None:
    """(head, place) of a label written "<head> of|in [the] <Place>", else None."""
    m = _QUALIFIED.match(label)
    return (m.group("head"), m.group("place")) if m else None


def with_unqualified(candidates: list[Candidate], truth: TruthFilter, entity_type: EntityType, never_offer: frozenset[str],
                     label_of: Callable[[str], str | None], max_ladder: int) -> list[Candidate]:
    """``candidates`` with, right after each qualified rung, the class its head names (when
    the ladder lacks it), and after every rung below it ("city" after "city of the United
    States"); the other rungs keep their order; one rung more than ``max_ladder`` at most, so that the most
    general rungs stay for the privacy guard to climb to."""
    shown = {fold(c.label) for c in candidates}
    out = list(candidates)
    for cand in candidates:
        parts = qualified_head(cand.label)
        if parts is None:
            continue
        head, place = parts
        if fold(head) in shown or not _names_place(truth, place):
            continue
        named = [q for q, _ in truth.index.lookup(fold(head)) if truth.is_class(q)]
        if cand.link_qid and any(truth.blocked_for(cand.link_qid) & truth.superclasses(q) for q in named):
            out.remove(cand)  # "town in Hungary" for Budapest, a city with millions: no town (owl:disjointWith)
            continue
        qid = next((q for q in named if q not in never_offer and truth.class_fits(q, entity_type, strict=True)), None)
        if qid is None:
            continue
        label = label_of(qid) or head
        if fold(label) != fold(head):
            continue  # matched by an alias: the store calls the class otherwise
        head_rung = Candidate(label, source=cand.source, qid=qid, path=f"{cand.path or cand.source} (its head)",
                              rule="unqualified", depth=cand.depth + 1, link_qid=cand.link_qid)
        # after the qualified rung and after every rung below the head ("city of the United States")
        at = max(j for j, c in enumerate(out) if c is cand or truth.above(head_rung, c)) + 1
        out.insert(at, head_rung)
        shown.add(fold(head))
    return out[: max(max_ladder + 1, len(candidates))]


def _names_place(truth: TruthFilter, name: str) -> bool:
    """Some item the store names ``name`` is a place."""
    return any(PLACE in truth.item_kinds(q) for q, _ in truth.index.lookup(fold(name)))
