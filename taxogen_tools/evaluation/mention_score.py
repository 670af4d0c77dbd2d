"""One annotated mention as the end-to-end evaluation scores it (:mod:`taxogen_tools.evaluation.sanitize_eval`)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.types import MASK
from taxogen_tools.evaluation.labels import canonical, canonical_set


@dataclass(frozen=True, slots=True)
class MentionScore:
    """One annotated mention: what the annotators chose and what the reader got."""

    doc_id: str
    entity_type: str
    span: str
    majority: str
    chosen: tuple[str, ...]
    output: str
    ladder: tuple[str, ...]
    #: (annotators matching the others' majority, annotators); (0, 0) below 3 annotators
    votes: tuple[int, int] = (0, 0)
    #: rungs the leak guard removed from this mention's ladder
    skipped: tuple[str, ...] = ()
    #: why the ladder holds only ``***`` (its generation's reason), else ""
    mask_rule: str = ""
    #: rungs passed over as a category of roles in a role's slot (engine.select.role_slot)
    passed_over: tuple[str, ...] = ()

    @property
    def agrees(self) -> bool:
        return canonical(self.output) == canonical(self.majority)

    @property
    def agrees_any(self) -> bool:
        return canonical(self.output) in canonical_set(self.chosen)

    @property
    def in_ladder(self) -> bool:
        return canonical(self.majority) in canonical_set(self.ladder) or self.majority == MASK
