"""How far agreement with the annotators' majority can go: the annotators against each other.

Most WikiReplace mentions have one generalization annotator; 231 of the shared file's
have nine. On those, each annotator's choice is compared with the majority of the other
annotators (leave one out, labels compared by :func:`taxogen_tools.evaluation.labels.canonical`,
ties broken as in :func:`taxogen_tools.evaluation.labels.majority_label`): how often one careful
person matches the others' consensus — the measure ``evaluate selection`` prints for
WikiReplace's own ladders (:func:`taxogen_tools.evaluation.selection.agreement_ceiling`, whose
estimate assumes every choice is offered), here joined with our ladders' ceiling.

That rate bounds what any ranker can expect on a mention labelled by one annotator: even
a ranker that always picks the consensus matches a lone annotator only as often as one
annotator matches the others, and never when the annotator's choice is not in our ladder.
:func:`agreement_estimate` combines the two, per entity type:

    estimate = (multi-annotated mentions whose majority is offered
                + single-annotated mentions × min(their ceiling, one-vs-others rate)) / mentions

It is an optimistic estimate (a perfect consensus ranker; the two losses taken as
overlapping as much as they can), not a proof: the multi-annotated mentions come from a
few documents, and a ranker could in principle guess an annotator's departures from the
consensus.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Mapping, Sequence

from taxogen_tools.evaluation.labels import canonical, majority_label

#: A mention counts as multi-annotated from this many generalization annotators on.
MIN_ANNOTATORS = 3


def one_vs_others(selection: Mapping[str, Sequence[str]]) -> tuple[int, int]:
    """(annotators whose choice equals the others' majority, annotators) of a mention with at
    least :data:`MIN_ANNOTATORS` annotators; ``(0, 0)`` for fewer."""
    voters = {a: label for label, who in selection.items() for a in who}
    if len(voters) < MIN_ANNOTATORS:
        return 0, 0
    agree = 0
    for annotator, label in voters.items():
        others = {lab: [a for a in who if a != annotator] for lab, who in selection.items()}
        consensus = majority_label({lab: who for lab, who in others.items() if who})
        agree += canonical(label) == canonical(consensus or "")
    return agree, len(voters)


@dataclass(frozen=True, slots=True)
class TypeAgreement:
    """One entity type's annotator agreement and the estimate it gives."""

    mentions: int
    multi: int
    one_vs_others: float  # share of annotator choices equal to the others' majority (multi mentions)
    ours_multi: float  # our agreement with the majority on the multi-annotated mentions
    ours_single: float
    ceiling_single: float
    estimate: float

    def to_dict(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in self.__slots__}


def agreement_estimate(mentions: Sequence) -> dict[str, TypeAgreement]:
    """Per entity type and ``ALL``: see the module docstring. ``mentions`` are
    :class:`taxogen_tools.evaluation.sanitize_eval.MentionScore` (``votes`` = :func:`one_vs_others`).
    A type without multi-annotated mentions takes the rate of all types."""
    by_type: dict[str, list] = defaultdict(list)
    for m in mentions:
        by_type[m.entity_type].append(m)
    pooled_agree = sum(m.votes[0] for m in mentions)
    pooled_total = sum(m.votes[1] for m in mentions)
    pooled = pooled_agree / pooled_total if pooled_total else 1.0
    out: dict[str, TypeAgreement] = {}
    sums = defaultdict(float)
    for t, ms in sorted(by_type.items()):
        multi = [m for m in ms if m.votes[1]]
        single = [m for m in ms if not m.votes[1]]
        total = sum(m.votes[1] for m in multi)
        rate = sum(m.votes[0] for m in multi) / total if total else pooled
        ceiling_single = _share(sum(m.in_ladder for m in single), len(single))
        expected = sum(m.in_ladder for m in multi) + len(single) * min(ceiling_single, rate)
        out[t] = TypeAgreement(len(ms), len(multi), round(rate, 4), _share(sum(m.agrees for m in multi), len(multi)),
                               _share(sum(m.agrees for m in single), len(single)), ceiling_single, _share(expected, len(ms)))
        sums["expected"] += expected
        sums["multi_agree"] += sum(m.agrees for m in multi)
        sums["single_agree"] += sum(m.agrees for m in single)
        sums["multi"] += len(multi)
        sums["single"] += len(single)
        sums["single_in"] += sum(m.in_ladder for m in single)
    n = len(mentions)
    out["ALL"] = TypeAgreement(n, int(sums["multi"]), round(pooled, 4), _share(sums["multi_agree"], sums["multi"]),
                               _share(sums["single_agree"], sums["single"]), _share(sums["single_in"], sums["single"]),
                               _share(sums["expected"], n))
    return out


def _share(a: float, b: float) -> float:
    return round(a / b, 4) if b else 0.0
