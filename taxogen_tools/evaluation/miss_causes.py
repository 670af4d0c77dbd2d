"""Why a replacement differs from the annotators' majority: one cause per missed mention.

``evaluate sanitize`` scores agreement; this module says where the disagreements come
from, so that a reader can tell what the ranker could still win from what the ladders or
the annotation put out of reach. Each annotated mention whose output differs from the
majority gets exactly one cause, tried in this order:

The annotators' choice is ``***``:

- ``annotator masked every mention of the type``: a document with one annotator, who chose
  ``***`` for every mention of this entity type (at least :data:`MIN_BLANKET` of them) —
  a habit of that annotator, not something the text shows;
- ``ranker: a rung where the annotator chose ***``.

The annotators' choice is offered by our ladder:

- ``a category of roles in the role's slot``: "profession" for "lawyer" in "she is a
  lawyer" (:mod:`engine.select.role_slot`: it would read "she is a profession");
- ``ranker: *** where the choice is offered``;
- ``ranker: another rung``.

The annotators' choice is not offered:

- ``leak guard removed it``: the choice was on the ladder but would reveal another masked
  mention (the issue forbids it);
- ``span links to no item of the store``, ``linked item has no class of its type``,
  ``only part of the span links``, ``linked item is not of the span's type`` (an ORG
  span linked to a country): the ladder holds only ``***``, for the reason its generation
  gave — mostly the store lacks the item or its classes;
- ``ladder offers other rungs``: classes were offered, the annotators' was not among them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Iterable

from taxogen_tools.evaluation.labels import canonical, canonical_set
from engine.types import MASK

from taxogen_tools.evaluation.mention_score import MentionScore

#: A document's mentions of one type count as masked by habit from this many on.
MIN_BLANKET = 2

BLANKET = "annotator masked every mention of the type"
RANK_CLASS_FOR_MASK = "ranker: a rung where the annotator chose ***"
RANK_MASK_FOR_OFFERED = "ranker: *** where the choice is offered"
RANK_OTHER = "ranker: another rung"
ROLE_SLOT = "a category of roles in the role's slot"
LEAK = "leak guard removed it"
NO_ITEM = "span links to no item of the store"
NO_CLASS = "linked item has no class of its type"
PARTIAL = "only part of the span links"
WRONG_TYPE = "linked item is not of the span's type"
OTHER_RUNGS = "ladder offers other rungs"
NO_RUNG = "no rung offered (other reason)"

#: Every cause, in the order the report prints them.
CAUSES = (BLANKET, RANK_CLASS_FOR_MASK, ROLE_SLOT, RANK_MASK_FOR_OFFERED, RANK_OTHER, LEAK, NO_ITEM, NO_CLASS, PARTIAL, WRONG_TYPE, OTHER_RUNGS, NO_RUNG)
#: The causes a better ranker could remove; the others are the ladders' or the annotation's.
RANKER_CAUSES = frozenset({RANK_CLASS_FOR_MASK, RANK_MASK_FOR_OFFERED, RANK_OTHER})

_REASONS = (("no item of the graph matches", NO_ITEM), ("no linked item fits", NO_CLASS), ("only part of the span links", PARTIAL))


def ladder_cause(mask_rule: str) -> str:
    """The cause of a ladder holding only ``***``, from the rule its generation gave."""
    for prefix, cause in _REASONS:
        if mask_rule.startswith(prefix):
            return cause
    if " is not a " in mask_rule:  # "Q30 (United States of America) is not a ORG"
        return WRONG_TYPE
    return NO_RUNG


def blanket_groups(mentions: Iterable["MentionScore"]) -> set[tuple[str, str]]:
    """(document, type) pairs annotated by one annotator who chose ``***`` for every one of
    at least :data:`MIN_BLANKET` mentions."""
    groups: dict[tuple[str, str], list[MentionScore]] = defaultdict(list)
    for m in mentions:
        groups[(m.doc_id, m.entity_type)].append(m)
    return {k for k, ms in groups.items()
            if len(ms) >= MIN_BLANKET and all(m.votes == (0, 0) and m.majority == MASK for m in ms)}


def cause_of(m: "MentionScore", blanket: set[tuple[str, str]]) -> str | None:
    """The cause of ``m``'s disagreement with the majority; ``None`` when it agrees."""
    if m.agrees:
        return None
    if m.majority == MASK:
        return BLANKET if (m.doc_id, m.entity_type) in blanket else RANK_CLASS_FOR_MASK
    if canonical(m.majority) in canonical_set(m.passed_over):
        return ROLE_SLOT
    if m.in_ladder:
        return RANK_MASK_FOR_OFFERED if m.output == MASK else RANK_OTHER
    if canonical(m.majority) in canonical_set(m.skipped):
        return LEAK
    if all(label == MASK for label in m.ladder):
        return ladder_cause(m.mask_rule)
    return OTHER_RUNGS


@dataclass(frozen=True, slots=True)
class MissCauses:
    """Missed mentions per cause and entity type."""

    counts: dict[str, Counter]  # cause → type → missed mentions
    mentions: int

    def total(self, cause: str) -> int:
        return sum(self.counts.get(cause, Counter()).values())

    def ranker_share(self) -> float:
        """Share of all mentions missed for a cause a better ranker could remove."""
        return sum(self.total(c) for c in RANKER_CAUSES) / self.mentions if self.mentions else 0.0

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {c: dict(sorted(self.counts[c].items())) for c in CAUSES if c in self.counts}


def miss_causes(mentions: list["MentionScore"]) -> MissCauses:
    """Count each missed mention of ``mentions`` under its cause (see the module docstring)."""
    blanket = blanket_groups(mentions)
    counts: dict[str, Counter] = defaultdict(Counter)
    for m in mentions:
        cause = cause_of(m, blanket)
        if cause is not None:
            counts[cause][m.entity_type] += 1
    return MissCauses(dict(counts), len(mentions))
