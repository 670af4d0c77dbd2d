"""What the privacy guard reports of a document: k before and after, and each move it made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.privacy.anonymity import LOWER_BOUND_NOTE
from engine.privacy.disclosure import Constraint


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "target_k": self.target_k, "k_before": self.k_before, "k_after": self.k_after, "reached": self.reached,
            "climbs": [c.to_dict() for c in self.climbs],
            "descents": [c.to_dict() for c in self.descents],
            "constraints": [c.to_dict() for c in self.constraints],
            "uncounted": [c.to_dict() for c in self.uncounted],
            "subject_in_store": self.subject_in_store, "subject_in_set": self.subject_in_set,
            "note": self.note,  # not the seconds: a document's output is the same on every run
        }
