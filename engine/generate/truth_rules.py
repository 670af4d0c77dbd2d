"""The truth rules' data: kinds of class, what each entity type allows and forbids, and the
reader rules (edges not read as "is a", homonym head nouns, disjoint classes), read from
``ontology/entity_types.ttl`` and ``ontology/reader_rules.ttl`` (see :mod:`engine.generate.truth`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kg.class_sets import class_set, named_class
from kg.vocab import TG, local_id
from engine.types import EntityType

#: The class offered for a demonym read as a nationality (``ontology/class_sets.ttl``).
NATIONALITY = named_class("nationalityClass")
FORMER = "kindFormer"
TIME_BOUND = "kindTimeBound"
REGIME = "kindRegime"
ROLE = "kindRole"
#: Kinds that mark a class for a rule of their own; they say nothing of what a type allows.
MARKER_KINDS = frozenset({TIME_BOUND, REGIME, ROLE})
PERSON_ATTRIBUTE = "kindPersonAttribute"
#: The kinds of places, organisations, structures and works (``ontology/entity_types.ttl``).
PLACE, ORGANIZATION, STRUCTURE, WORK = "kindPlace", "kindOrganization", "kindStructure", "kindWork"
#: Genre and music genre: a work's title names none by its head word ("Muskogee Blues").
GENRES = class_set("genreClasses")
#: Kinds of things and of people, not of fields: what a field of study is never read as
#: ("studied sculpture" is no visual artwork, "studied pharmacy" no organization, "a degree in
#: civil engineering" no degree in a profession).
THING_KINDS = frozenset({WORK, ORGANIZATION, STRUCTURE, PLACE, PERSON_ATTRIBUTE})


def rule_files() -> list[Path]:
    """The shipped vocabulary and truth-rule files (``ontology/taxogen.ttl``, ``entity_types.ttl``, ``reader_rules.ttl``)."""
    from kg.store import overlay_paths

    return [p for p in overlay_paths() if p.name in ("taxogen.ttl", "entity_types.ttl", "reader_rules.ttl")]


@dataclass(frozen=True, slots=True)
class TypeRule:
    """Kinds of class an entity type allows, and kinds its linked item must not have."""

    entity_type: EntityType
    allows: frozenset[str]
    forbids: frozenset[str] = frozenset()
    #: every class offered belongs to an allowed kind (a direct class of the item may also belong to none)
    strict: bool = False
    #: kinds a class of which only (no other kind) is not taken from the span's head noun
    not_from_head: frozenset[str] = frozenset()
    #: an item the store gives classes, none of them of a kind, is no referent of the type
    kinded_items: bool = False


@dataclass(frozen=True)
class TruthRules:
    """Kinds (kind name → root classes) and the rule of each entity type."""

    kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    types: dict[EntityType, TypeRule] = field(default_factory=dict)
    #: (child, parent) class edges not read as "is a" (``ontology/reader_rules.ttl``)
    not_is_a: frozenset[tuple[str, str]] = frozenset()
    #: classes never taken from a span's head noun alone
    homonym_heads: frozenset[str] = frozenset()
    #: (A, B): nothing is both an A and a B (``owl:disjointWith`` in ``ontology/reader_rules.ttl``)
    disjoint: frozenset[tuple[str, str]] = frozenset()
    #: head noun → kinds, for a class that belongs to no kind (``tg:headNoun``)
    head_kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    #: kind → classes whatever holds a class of the kind is an instance of (``tg:holderClass``: a role's holder is a person)
    holders: dict[str, frozenset[str]] = field(default_factory=dict)
    #: kinds whose items are not generalized by a whole they are part of (``tg:partOfNotIsA``: a war of a larger war)
    part_not_whole: frozenset[str] = frozenset()
    #: head word → classes it names as a span's head noun (``tg:headWord``: "authority" → government agency)
    head_words: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, paths: Iterable[str | Path] | None = None) -> "TruthRules":
        """Read the rules from Turtle files (default: the shipped ``ontology/entity_types.ttl``)."""
        from kg.store import KGStore

        kg = KGStore.in_memory()
        kg.load_overlay(list(paths) if paths is not None else rule_files())
        kinds: dict[str, set[str]] = {}
        heads: dict[str, set[str]] = {}
        holders: dict[str, set[str]] = {}
        allows: dict[EntityType, set[str]] = {}
        forbids: dict[EntityType, set[str]] = {}
        part_not_whole: set[str] = set()
        strict: set[EntityType] = set()
        kinded_items: set[EntityType] = set()
        not_from_head: dict[EntityType, set[str]] = {}
        for row in kg.select("type_rules"):
            kind = row["kind"].removeprefix(TG)
            if str(row.get("relation")) == "partOfNotIsA":
                part_not_whole.add(kind)
                continue
            if str(row.get("relation")) == "strict":
                strict.add(EntityType.parse(row["entityType"]))
                continue
            if str(row.get("relation")) == "kindedItems":
                kinded_items.add(EntityType.parse(row["entityType"]))
                continue
            if str(row.get("relation")) == "notFromHead":
                not_from_head.setdefault(EntityType.parse(row["entityType"]), set()).add(kind)
                continue
            if row.get("root") is not None:
                kinds.setdefault(kind, set()).add(local_id(row["root"]))
                continue
            if row.get("head") is not None:
                heads.setdefault(str(row["head"]), set()).add(kind)
                continue
            if row.get("holder") is not None:
                holders.setdefault(kind, set()).add(local_id(row["holder"]))
                continue
            etype = EntityType.parse(row["entityType"])
            table = allows if row["relation"] == "allows" else forbids
            table.setdefault(etype, set()).add(kind)
            allows.setdefault(etype, set())
        types = {t: TypeRule(t, frozenset(a), frozenset(forbids.get(t, ())), t in strict, frozenset(not_from_head.get(t, ())),
                          t in kinded_items)
                 for t, a in allows.items()}
        edges: set[tuple[str, str]] = set()
        disjoint: set[tuple[str, str]] = set()
        homonyms: set[str] = set()
        head_words: dict[str, set[str]] = {}
        for row in kg.select("reader_rules"):
            if row.get("word") is not None:
                head_words.setdefault(str(row["word"]).lower(), set()).add(local_id(row["child"]))
            elif row.get("homonym") is not None:
                homonyms.add(local_id(row["homonym"]))
            elif row.get("child") is not None and row.get("parent") is not None:
                pair = (local_id(row["child"]), local_id(row["parent"]))
                (disjoint if str(row.get("relation")) == "disjoint" else edges).add(pair)
        return cls({k: frozenset(v) for k, v in kinds.items()}, types, frozenset(edges), frozenset(homonyms), frozenset(disjoint),
                   {h: frozenset(k) for h, k in heads.items()}, {k: frozenset(v) for k, v in holders.items()},
                   frozenset(part_not_whole), {w: frozenset(c) for w, c in head_words.items()})
