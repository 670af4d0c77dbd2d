"""``Linker.rank_ancestors``: the ranking's view of an item's ancestors, from a memo per (node, hops).

It must equal the plain breadth-first walk (``Linker.ancestors``) intersected with the
classes ranking asks about, on any graph: cycles, shared ancestors, several paths of
different lengths to one class, P31 and P279 mixed, whatever was asked before.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.generate.linking import RANK_CLASSES, LabelIndex, Linker

_ANCHORS = sorted(RANK_CLASSES)[:6]
_NODES = [f"Q{9000 + i}" for i in range(1, 13)] + _ANCHORS


class _Graph:
    """A taxonomy view holding only ``parents``."""

    def __init__(self, edges: list[tuple[str, str, str]]) -> None:
        self.up: dict[tuple[str, str], list[str]] = defaultdict(list)
        for s, p, o in edges:
            if o not in self.up[(s, p)]:
                self.up[(s, p)].append(o)

    def parents(self, qid: str, prop: str) -> list[str]:
        return self.up.get((qid, prop), [])


def _linker(edges: list[tuple[str, str, str]]) -> Linker:
    return Linker(LabelIndex({}, {}, {}, {}, {}), _Graph(edges))  # type: ignore[arg-type]


_edge = st.tuples(st.sampled_from(_NODES), st.sampled_from(["P31", "P279"]), st.sampled_from(_NODES))


@settings(max_examples=300, deadline=None)
@given(edges=st.lists(_edge, max_size=40), order=st.lists(st.tuples(st.sampled_from(_NODES), st.integers(1, 7)), max_size=12))
def test_given_any_graph_then_rank_ancestors_equal_the_walk_cut_to_rank_classes(edges, order) -> None:
    fast, plain = _linker(edges), _linker(edges)
    for qid, hops in order:  # earlier questions must not change later answers
        assert fast.rank_ancestors(qid, hops) == plain.ancestors(qid, hops) & RANK_CLASSES
    for qid in _NODES:
        for hops in (3, 6):
            assert fast.rank_ancestors(qid, hops) == plain.ancestors(qid, hops) & RANK_CLASSES


def test_given_an_anchor_seven_hops_up_then_it_is_out_of_reach_and_six_is_in() -> None:
    chain = [f"Q{9000 + i}" for i in range(1, 8)] + [_ANCHORS[0]]
    edges = [(a, "P279", b) for a, b in pairwise(chain)]
    linker = _linker(edges)
    assert linker.rank_ancestors("Q9002") == {_ANCHORS[0]}  # 6 hops
    assert linker.rank_ancestors("Q9001") == frozenset()  # 7 hops
    # a shorter second path brings it back in reach
    linker2 = _linker(edges + [("Q9001", "P31", "Q9005")])
    assert linker2.rank_ancestors("Q9001") == {_ANCHORS[0]}
