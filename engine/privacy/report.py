"""What the privacy guard reports of a document: k before and after, and each move it made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.privacy.anonymity import LOWER_BOUND_NOTE
from engine.privacy.disclosure import Constraint
from engine.types import MASK


@dataclass(frozen=True, slots=True)
class Climb:
    """One move of the guard: a span moved up its ladder to a more general rung (a climb) or
    back down to a more specific one that still keeps k ≥ K (a descent)."""

    start: int
    end: int
    entity_type: str
    identifier_type: str
    from_rung: str
    to_rung: str
    k_before: int
    k_after: int

    def to_dict(self) -> dict:
        return {f: getattr(self, f) for f in self.__slots__}


@dataclass(frozen=True, slots=True)
class PrivacyReport:
    """k of a sanitized document before and after the guard, and why."""

    target_k: int
    k_before: int
    k_after: int
    climbs: tuple[Climb, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    uncounted: tuple[Constraint, ...] = ()
    subject_in_store: bool = False
    subject_in_set: bool = False
    reached: bool = True
    seconds: float = 0.0
    note: str = LOWER_BOUND_NOTE
    descents: tuple[Climb, ...] = ()
    persons: int | None = None  # persons of the store the guard counts among (None: not told)

    @property
    def established(self) -> bool:
        """Whether k says something: the store holds persons, and k reached the target or the
        document's person is among the store's persons (otherwise k counts only strangers)."""
        return self.persons != 0 and (self.reached or self.subject_in_store)

    @property
    def summary(self) -> str:
        """One line: k, whether it could be established, and what the guard did."""
        spans = {(c.start, c.end): c.to_rung for c in self.climbs + self.descents}
        masked = sum(1 for rung in spans.values() if rung == MASK)
        did = (f"the guard generalized {len(spans)} span{'' if len(spans) == 1 else 's'} as far as it could"
               f" ({masked} to {MASK})" if spans else "the guard changed nothing")
        if self.target_k == 0:
            return f"k = {self.k_after} (guard off: measured only)"
        if self.persons == 0:
            return f"k not established: the store holds no persons to count; {did}"
        if self.reached:
            return f"k = {self.k_after} ≥ {self.target_k}: at least {self.target_k} persons of the store fit what the text discloses"
        if not self.subject_in_store:
            return (f"k not established: the person is not in the store, so k = {self.k_after} counts only others "
                    f"who fit (target {self.target_k}); {did}")
        return f"k = {self.k_after} < {self.target_k}: nothing more general was left; {did}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "target_k": self.target_k, "k_before": self.k_before, "k_after": self.k_after, "reached": self.reached,
            "established": self.established, "summary": self.summary,
            "climbs": [c.to_dict() for c in self.climbs],
            "descents": [c.to_dict() for c in self.descents],
            "constraints": [c.to_dict() for c in self.constraints],
            "uncounted": [c.to_dict() for c in self.uncounted],
            "subject_in_store": self.subject_in_store, "subject_in_set": self.subject_in_set,
            "note": self.note,  # not the seconds: a document's output is the same on every run
        }
