"""The annotators' class mapped onto our ladder through the graph ("train on what is served").

When the annotators' majority choice of a mention is a class our ladder does not offer
("country in Central Europe", "public university"), the served ladder may still offer a
generalization of it ("country", "university"). :func:`ancestor_rung` finds the offered
rung whose item is the nearest ``P279`` ancestor of the annotators' class (the class's
items are found by label in the store's label index; for a composed label "X in Y" /
"X of Y" its head "X" is looked up too). Served training then labels the mention with that
rung instead of leaving it out — so the ranker sees the mentions for which annotators
chose a class, not only those for which they chose ``***`` or a class we happen to offer.

Only generalizations are used (the offered rung is an ancestor of the chosen class): a
more specific rung would reveal more than the annotators chose to. Matching by embedding
similarity was tried in an earlier round and was within noise.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence

from engine.generate.linking import fold
from engine.types import MASK, Candidate

#: How many ``P279`` steps up from the annotators' class are searched.
MAX_DEPTH = 8
_COMPOSED = re.compile(r"\s+(?:in|of)\s+")

Parents = Callable[[str, str], Iterable[str]]
Lookup = Callable[[str], Iterable[str]]


def class_items(label: str, lookup: Lookup) -> set[str]:
    """Items named ``label`` (or, for a composed label "X in Y", named "X")."""
    names = {label, _COMPOSED.split(label, maxsplit=1)[0]}
    return {q for name in names if name.strip() for q in lookup(fold(name))}


def superclass_depths(qid: str, parents: Parents, max_depth: int = MAX_DEPTH) -> dict[str, int]:
    """``qid`` and its ``P279`` ancestors with their distance (breadth first)."""
    depth = {qid: 0}
    frontier = [qid]
    for d in range(1, max_depth + 1):
        nxt = []
        for node in frontier:
            for p in parents(node, "P279"):
                if p not in depth:
                    depth[p] = d
                    nxt.append(p)
        frontier = nxt
    return depth


def ancestor_rung(label: str, candidates: Sequence[Candidate], parents: Parents, lookup: Lookup) -> int | None:
    """Index of the offered rung nearest above the annotators' class ``label``, or None.

    A rung qualifies when its item (``Candidate.qid``) is a ``P279`` ancestor (or the same
    item) of an item named ``label``; ``***`` and rungs without an item never do.
    """
    if label == MASK:
        return None
    best: tuple[int, int] | None = None
    for q in sorted(class_items(label, lookup)):
        depths = superclass_depths(q, parents)
        for i, c in enumerate(candidates):
            if c.is_mask or not c.qid or c.qid not in depths:
                continue
            if best is None or (depths[c.qid], i) < best:
                best = (depths[c.qid], i)
    return best[1] if best else None


def engine_lookups(engine) -> tuple[Parents | None, Lookup | None]:
    """``parents`` and label ``lookup`` over an engine's store (class graph, label index);
    ``(None, None)`` without a preloaded class graph (chain mode ``sparql``): no mapping."""
    view = getattr(engine.chains, "view", None)
    if view is None:
        return None, None
    labels = engine.linker.index.labels

    def lookup(key: str) -> Iterable[str]:
        return labels.get(key, ())

    return view.parents, lookup
