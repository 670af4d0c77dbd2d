"""How often annotators chose a class label when it was offered: a learned prior per label.

Whether a reader is told "a country" or ``***`` depends a good deal on the class: across
the training documents annotators name some classes whenever they are offered ("country",
"university") and mask others. The rest of the features do not carry that: a candidate's
own columns say how specific the class is and how well it fits the span, not how often
people chose it. This prior gives the ranker, for each rung of a LOC/ORG/MISC ladder,
the smoothed share of training mentions where that label was offered and chosen, and how
often it was offered:

    rate = (chosen + SMOOTHING × BASE_RATE) / (offered + SMOOTHING)

Covered types (:data:`PRIOR_TYPES`): dates, people and quantities have rule rungs whose
labels hold the span's own digits, so a label recurs too rarely to count (with them the
DATETIME agreement fell in CV). DEM is left out for the reader: with it the ranker picks
"profession" for occupations, which annotators often chose but which reads badly in the
occupation's slot ("He is a profession of Computer Science", "former profession, singer,
and model"; 9 of the 27 sentences it changed in the seed output); put it back once such
rungs are rendered readably.

Feature group ``prior`` (columns :data:`PRIOR_COLUMNS`). The counts come from the
*training* documents only and travel with the model (``ranker.json``); while training,
each row sees the counts without its own document (a document's annotator would
otherwise vouch for their own choices). ``***`` and rungs of other types get
``(-1, 0)``. Measured in the 5-fold CV of ``evaluate sanitize`` (docs/evaluation.md).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from engine.types import MASK, EntityType

PRIOR_COLUMNS = ["label_prior_rate", "label_prior_log_offered"]
SMOOTHING = 2.0
BASE_RATE = 0.1
PRIOR_TYPES = frozenset({EntityType.LOC, EntityType.ORG, EntityType.MISC})
#: The columns of ``***`` and of rungs the prior does not cover.
NEUTRAL = (-1.0, 0.0)


def _key(entity_type: EntityType, label: str) -> str:
    return f"{entity_type.value}\t{label.casefold()}"


@dataclass
class LabelPrior:
    """Chosen/offered counts per (entity type, label) of graph-type rungs."""

    chosen: Counter = field(default_factory=Counter)
    offered: Counter = field(default_factory=Counter)
    #: the same counts per document (training only, for leave-own-document-out rows)
    by_doc: dict[str, tuple[Counter, Counter]] = field(default_factory=dict)

    @classmethod
    def from_items(cls, items: Sequence[Any]) -> "LabelPrior":
        """Counts of labelled items (``.item``: a RankItem with its document in ``group``,
        ``.gold_index``: the annotators' rung)."""
        prior = cls()
        docs: dict[str, tuple[Counter, Counter]] = defaultdict(lambda: (Counter(), Counter()))
        for it in items:
            ri = it.item
            if ri.entity_type not in PRIOR_TYPES:
                continue
            c, o = docs[ri.group]
            for j, cand in enumerate(ri.candidates):
                if cand.label == MASK:
                    continue
                k = _key(ri.entity_type, cand.label)
                o[k] += 1
                c[k] += j == it.gold_index
        for c, o in docs.values():
            prior.chosen.update(c)
            prior.offered.update(o)
        prior.by_doc = dict(docs)
        return prior

    def fields(self, entity_type: EntityType, label: str, exclude_doc: str | None = None) -> tuple[float, float]:
        """(smoothed rate, log(1 + offered)) of a rung; ``exclude_doc`` leaves that document's counts out."""
        if label == MASK or entity_type not in PRIOR_TYPES:
            return NEUTRAL
        k = _key(entity_type, label)
        c, o = self.chosen.get(k, 0), self.offered.get(k, 0)
        if exclude_doc is not None and exclude_doc in self.by_doc:
            dc, do = self.by_doc[exclude_doc]
            c, o = c - dc.get(k, 0), o - do.get(k, 0)
        return (c + SMOOTHING * BASE_RATE) / (o + SMOOTHING), float(np.log1p(o))

    def fill(self, X: np.ndarray, items: Sequence[Any], columns: Sequence[int], *, own_document_out: bool) -> None:
        """Write the prior columns of ``items``' rows of ``X`` in place (rows in item order)."""
        row = 0
        for it in items:
            ri = getattr(it, "item", it)
            doc = ri.group if own_document_out else None
            for cand in ri.candidates:
                X[row, columns[0]], X[row, columns[1]] = self.fields(ri.entity_type, cand.label, doc)
                row += 1

    def to_dict(self) -> dict[str, dict[str, int]]:
        """What a saved model keeps (totals only)."""
        return {"chosen": {k: v for k, v in sorted(self.chosen.items()) if v}, "offered": dict(sorted(self.offered.items()))}

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, int]]) -> "LabelPrior":
        return cls(Counter(data.get("chosen", {})), Counter(data.get("offered", {})))
