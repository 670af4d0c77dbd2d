"""Named sets of classes: the classes a part of the engine asks about, read by name from the
shipped ontology (``ontology/class_sets.ttl``, query ``queries/class_sets.rq``).

A set (``tg:ClassSet``) lists its classes and may include other sets or the roots of a kind;
a kind of class (``tg:ClassKind``, ``ontology/entity_types.ttl``) reads as its root classes.
Every module asks this one source: link ranking its anchors per entity type, the gazetteer
its kinds of entry, the index (``kg build``) the classes it marks, the rules the single
classes they name.

>>> sorted(class_set("countryClasses"))
['Q3624078', 'Q6256']
>>> named_class("kindLanguage")
'Q34770'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import KGError
from kg.store import KGStore
from kg.vocab import TG, local_id


@dataclass(frozen=True, slots=True)
class ClassSet:
    """One named set: its classes, and what reads it."""

    name: str
    classes: frozenset[str]
    #: the entity type whose link ranking prefers an item below one of the classes (``tg:linkAnchorFor``)
    link_type: str | None = None
    #: the kind the gazetteer gives an item below one of the classes, and its precedence (lowest first)
    gazetteer_kind: str | None = None
    precedence: int | None = None


@dataclass(frozen=True)
class ClassSets:
    """The named sets of classes (and the kinds' roots), by local name."""

    sets: Mapping[str, ClassSet] = field(default_factory=dict)

    @classmethod
    def from_store(cls, kg: KGStore) -> "ClassSets":
        """The sets of ``kg``'s overlay graph."""
        members: dict[str, set[str]] = {}
        info: dict[str, tuple[str | None, str | None, int | None]] = {}
        for row in kg.select("class_sets"):
            name = row["set"].removeprefix(TG)
            members.setdefault(name, set())
            if row.get("member") is not None:
                members[name].add(local_id(row["member"]))
            precedence = row.get("precedence")
            info[name] = (row.get("linkType"), row.get("gazetteerKind"), int(precedence) if precedence is not None else None)
        return cls({n: ClassSet(n, frozenset(m), *info[n]) for n, m in members.items()})

    @classmethod
    def load(cls, paths: Iterable[str | Path] | None = None) -> "ClassSets":
        """The sets of Turtle files (default: the shipped ``ontology/*.ttl``)."""
        kg = KGStore.in_memory()
        kg.load_overlay(list(paths) if paths is not None else None)
        return cls.from_store(kg)

    def classes(self, name: str) -> frozenset[str]:
        """The classes of set (or kind) ``name``; raises :class:`KGError` when there is none of that name."""
        found = self.sets.get(name)
        if found is None:
            raise KGError(f"no class set or kind named {name!r} in the ontology; known: {', '.join(sorted(self.sets))}")
        return found.classes

    def one(self, name: str) -> str:
        """The only class of set (or kind) ``name``; raises :class:`KGError` when it holds another number."""
        classes = self.classes(name)
        if len(classes) != 1:
            raise KGError(f"class set {name!r} holds {len(classes)} classes, not one")
        return next(iter(classes))

    def link_anchors(self) -> dict[str, frozenset[str]]:
        """Entity type name ("LOC") → the classes its link ranking prefers an item below."""
        out: dict[str, frozenset[str]] = {}
        for s in self.sets.values():
            if s.link_type is not None:
                out[s.link_type] = out.get(s.link_type, frozenset()) | s.classes
        return out

    def gazetteer_kinds(self) -> tuple[tuple[str, frozenset[str]], ...]:
        """The gazetteer's kinds and their classes, by precedence (the first above an item names it)."""
        kinds = sorted((s.precedence if s.precedence is not None else 1 << 30, s.gazetteer_kind, s.classes)
                       for s in self.sets.values() if s.gazetteer_kind is not None)
        return tuple((kind, classes) for _, kind, classes in kinds)


@functools.lru_cache(maxsize=1)
def shipped() -> ClassSets:
    """The sets of the shipped ontology (read once per process)."""
    return ClassSets.load()


def class_set(name: str) -> frozenset[str]:
    """The classes of the shipped set (or kind) ``name``."""
    return shipped().classes(name)


def named_class(name: str) -> str:
    """The one class of the shipped set ``name``."""
    return shipped().one(name)


__all__ = ["ClassSet", "ClassSets", "class_set", "named_class", "shipped"]
