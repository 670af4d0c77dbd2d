"""The anonymity set: persons of the store consistent with every disclosed constraint.

Semantics (closed world over the store): a person belongs to the set when, for every
*counted* constraint, the store records a value of one of its properties at or below one
of its anchors. A constraint is *uncounted* when the store holds no value of any of its
properties (the shared seed has no birth or death dates, for instance), when it is a
*soft* constraint (from a NO_MASK span) that no person matches, or when it names a class
(a rung's class, not an item) that no fact of the store reaches: it is listed, not applied.

With a store that is a sample of Wikidata every member of the set is a person Wikidata
also holds with those facts, so k = |set| is a **lower bound** on the number of people
an adversary holding Wikidata would have to tell apart — for the properties the store
covers. Uncounted constraints are outside that guarantee and reported as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from pyroaring import BitMap, FrozenBitMap

from engine.privacy.background import Background
from engine.privacy.disclosure import Constraint

LOWER_BOUND_NOTE = (
    "k counts the persons of the store consistent with every disclosed constraint it can evaluate; "
    "the store is a sample of Wikidata, so k is a lower bound (for the properties it covers)"
)


@dataclass(frozen=True, slots=True)
class AnonymitySet:
    """A set of persons and the constraints that made it."""

    members: FrozenBitMap
    counted: tuple[Constraint, ...] = ()
    uncounted: tuple[Constraint, ...] = ()

    @property
    def k(self) -> int:
        return len(self.members)


@dataclass
class Subject:
    """The person a document is about, as far as the store can tell."""

    name_mentions: int = 0
    candidates: tuple[str, ...] = ()  # Q-ids whose label or alias is the subject's name
    in_set: tuple[str, ...] = field(default_factory=tuple)

    @property
    def in_store(self) -> bool:
        return bool(self.candidates)


def counted_props(background: Background, constraint: Constraint) -> tuple[str, ...]:
    """The properties of ``constraint`` the store has any value for."""
    return tuple(p for p in constraint.props if background.covered(p))


def constraint_members(background: Background, constraint: Constraint) -> FrozenBitMap | None:
    """Persons satisfying one constraint (``None`` when it cannot be counted)."""
    props = counted_props(background, constraint)
    if not props:
        return None
    members = background.matching(props, constraint.anchors)
    if (constraint.soft or constraint.of_class) and not members:
        return None  # a NO_MASK span, or a class, that nothing the background holds reaches (see engine.privacy.disclosure)
    return members


def anonymity_set(background: Background, constraints: Iterable[Constraint]) -> AnonymitySet:
    """Intersect the members of every countable constraint (everyone when there is none)."""
    counted: list[Constraint] = []
    uncounted: list[Constraint] = []
    parts: list[FrozenBitMap] = []
    for c in constraints:
        members = constraint_members(background, c)
        if members is None:
            uncounted.append(c)
        else:
            counted.append(c)
            parts.append(members)
    if not parts:
        return AnonymitySet(background.everyone, (), tuple(uncounted))
    parts.sort(key=len)
    acc = BitMap(parts[0])
    for p in parts[1:]:
        acc &= p
        if not acc:
            break
    return AnonymitySet(FrozenBitMap(acc), tuple(counted), tuple(uncounted))


def locate_subject(background: Background, names: Iterable[str], members: FrozenBitMap | None = None) -> Subject:
    """The store's persons named like the subject, and which of them are in ``members``."""
    seen: list[str] = []
    n = 0
    for name in names:
        n += 1
        for q in background.named(name):
            if q not in seen:
                seen.append(q)
    inside = tuple(q for q in seen if members is not None and background.person_id[q] in members)
    return Subject(n, tuple(seen), inside)
