"""The adversary's background knowledge: the persons of a store and their quasi-identifiers.

Every human of the store (``wdt:P31 wd:Q5``) gets a dense integer id. For each indexed
property and each *anchor* the index holds a roaring bitmap (pyroaring) of the persons
having a value of that property at or below the anchor:

- item values (P106 occupation, P27 citizenship, P19/P20 birth/death place, P69
  educated at, P463 member of, P102 party, P140 religion, P172 ethnic group, P21 sex
  or gender, P39 position held, P166 award received): the value itself, every class
  above it (``P31``/``P279`` then ``P279*``: "geologist" is also filed under "earth
  scientist", "scientist", "profession"…), every container above it
  (``P131``/``P17``/``P361`` transitively: a birthplace in Oslo is also a birthplace
  in Norway) and the classes of those containers (born in Omaha, Nebraska: also born
  in "a state of the United States");
- dates (P569 birth, P570 death): ``year:1980``, ``decade:1980`` and ``century:20``
  (the same ``year // 100 + 1`` convention as the DATETIME ladders);
- names: ``name`` → one bitmap per folded token of a person's English labels and aliases.

Closures are resolved once, when the index is built, so a query is a handful of bitmap
unions and intersections — no SPARQL at document time. The index is built with two
named queries (``privacy_persons``, ``privacy_person_facts``) plus the edge queries,
when the store is built (``kg build``, ``taxogen kg index``: :data:`PRIVACY_INDEX`, an index
derived from the store, :mod:`kg.derived`); a run reads it (:meth:`Background.for_store`).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

from pyroaring import BitMap, FrozenBitMap

from kg.derived import DerivedIndex
from kg.store import KGStore
from kg.vocab import TYPE_PROPS, WDT, local_id
from engine.generate.linking import fold

#: Item-valued properties of the background, in report order.
ITEM_PROPS: tuple[str, ...] = ("P106", "P27", "P19", "P20", "P69", "P463", "P102", "P140", "P172", "P21", "P39", "P166")
#: Date-valued properties (``xsd:dateTime`` literals kept by ``kg build``).
DATE_PROPS: tuple[str, ...] = ("P569", "P570")
#: Pseudo-property of name tokens.
NAME = "name"
#: Edges that make a value "at or below" an anchor.
CLASS_STEP = TYPE_PROPS
CONTAINER_PROPS = ("P131", "P17", "P361")
INDEX_VERSION = 2

PROPERTY_LABELS = {
    "P106": "occupation", "P27": "citizenship", "P19": "birthplace", "P20": "place of death", "P69": "educated at",
    "P463": "member of", "P102": "political party", "P140": "religion", "P172": "ethnic group", "P21": "sex or gender",
    "P39": "position held", "P166": "award received", "P569": "birth date", "P570": "death date", NAME: "name",
    "P119": "burial place",  # read from cues; the background does not hold it
}

_YEAR = re.compile(r"^(-?\d{1,6})-\d\d-\d\d")
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def date_anchors(year: int) -> tuple[str, str, str]:
    """``year:Y``, ``decade:D`` and ``century:C`` of a year (C = Y // 100 + 1, as the ladders say)."""
    return f"year:{year}", f"decade:{year // 10 * 10}", f"century:{year // 100 + 1}"


def name_tokens(text: str) -> list[str]:
    """Folded word tokens of a name (the unit of name constraints)."""
    return _TOKEN.findall(fold(text))


@dataclass
class BackgroundStats:
    """How big the index is and how long it took."""

    persons: int = 0
    facts: int = 0
    keys: int = 0
    entries: int = 0
    bitmap_bytes: int = 0
    build_seconds: float = 0.0
    loaded_from: str | None = None
    coverage: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


class Background:
    """Bitmaps of persons per (property, anchor); see the module docstring.

    Build with :meth:`build`; :meth:`for_store` reads the one derived when the store was built.
    """

    def __init__(self, persons: list[str], bitmaps: dict[tuple[str, str], FrozenBitMap], stats: BackgroundStats,
                 full_names: dict[str, tuple[int, ...]] | None = None) -> None:
        self.persons = persons
        self.person_id = {q: i for i, q in enumerate(persons)}
        self.bitmaps = bitmaps
        self.stats = stats
        self.everyone = FrozenBitMap(range(len(persons)))
        self.full_names = full_names or {}
        self.coverage: dict[str, FrozenBitMap] = {}
        by_prop: dict[str, list[FrozenBitMap]] = defaultdict(list)
        for (prop, anchor), bm in bitmaps.items():
            if prop not in DATE_PROPS or anchor.startswith("century:"):
                by_prop[prop].append(bm)
        for prop in ITEM_PROPS + DATE_PROPS + (NAME,):
            self.coverage[prop] = FrozenBitMap(BitMap.union(*by_prop[prop])) if by_prop.get(prop) else FrozenBitMap()
        self.stats.coverage = {p: len(bm) for p, bm in self.coverage.items()}
        self._cache: dict[tuple[tuple[str, ...], tuple[str, ...]], FrozenBitMap] = {}

    # --- queries ---------------------------------------------------------------------------
    def covered(self, prop: str) -> bool:
        """Whether any person of the store has a value of ``prop``."""
        return bool(self.coverage.get(prop))

    def matching(self, props: Iterable[str], anchors: Iterable[str]) -> FrozenBitMap:
        """Persons with a value of any of ``props`` at or below any of ``anchors``."""
        key = (tuple(props), tuple(anchors))
        hit = self._cache.get(key)
        if hit is None:
            parts = [self.bitmaps[(p, a)] for p in key[0] for a in key[1] if (p, a) in self.bitmaps]
            hit = FrozenBitMap(BitMap.union(*parts)) if parts else FrozenBitMap()
            if len(self._cache) > 100_000:
                self._cache.clear()
            self._cache[key] = hit
        return hit

    def named(self, name: str) -> tuple[str, ...]:
        """Q-ids of the persons whose English label or alias is exactly ``name`` (folded)."""
        return tuple(self.persons[i] for i in self.full_names.get(fold(name), ()))

    # --- building --------------------------------------------------------------------------
    @classmethod
    def build(cls, kg: KGStore) -> "Background":
        """Read persons, facts and edges from ``kg`` and resolve every closure once."""
        t0 = time.perf_counter()
        persons: list[str] = []
        pid: dict[str, int] = {}
        names: dict[tuple[str, str], BitMap] = defaultdict(BitMap)
        full_names: dict[str, list[int]] = defaultdict(list)
        for row in kg.select("privacy_persons"):
            q = local_id(row["person"])
            i = pid.get(q)
            if i is None:
                i = pid[q] = len(persons)
                persons.append(q)
            if isinstance(row.get("name"), str):
                for tok in name_tokens(row["name"]):
                    names[(NAME, tok)].add(i)
                key = fold(row["name"])
                if i not in full_names[key]:
                    full_names[key].append(i)
        edges: dict[str, dict[str, list[str]]] = {p: defaultdict(list) for p in CLASS_STEP + CONTAINER_PROPS}
        for row in kg.select("taxonomy_edges"):
            prop = local_id(row["prop"])
            if prop in edges:
                edges[prop][local_id(row["child"])].append(local_id(row["parent"]))
        for prop in ("P131", "P17"):
            for row in kg.select("property_edges", prop=WDT + prop):
                if isinstance(row["o"], str) and row["o"].startswith("http"):
                    edges[prop][local_id(row["s"])].append(local_id(row["o"]))
        closure = _Closure(edges)
        raw: dict[tuple[str, str], BitMap] = defaultdict(BitMap)
        facts = 0
        for prop in ITEM_PROPS + DATE_PROPS:
            for row in kg.select("privacy_person_facts", prop=WDT + prop):
                i = pid.get(local_id(row["person"]))
                value = row["value"]
                if i is None or not isinstance(value, str):
                    continue
                if prop in DATE_PROPS:
                    m = _YEAR.match(value.lstrip("+"))
                    if not m:
                        continue
                    anchors: Iterable[str] = date_anchors(int(m.group(1)))
                elif value.startswith("http"):
                    anchors = closure.ancestors(local_id(value))
                else:
                    continue
                facts += 1
                for a in anchors:
                    raw[(prop, a)].add(i)
        raw.update(names)
        bitmaps = {k: FrozenBitMap(v) for k, v in raw.items()}
        stats = BackgroundStats(
            persons=len(persons), facts=facts, keys=len(bitmaps), entries=sum(len(b) for b in bitmaps.values()),
            bitmap_bytes=sum(len(b.serialize()) for b in bitmaps.values()),
            build_seconds=round(time.perf_counter() - t0, 3),
        )
        return cls(persons, bitmaps, stats, {k: tuple(v) for k, v in full_names.items()})

    @classmethod
    def for_store(cls, kg: KGStore) -> "Background":
        """The store's index: for an on-disk store the one derived when it was built
        (:data:`PRIVACY_INDEX`; :class:`kg.errors.KGError`, one line naming ``taxogen kg
        index``, when it has none of this version); built here for an in-memory store."""
        if kg.path is None:
            return cls.build(kg)
        from kg.derived import derived_file

        return cls.load(derived_file(kg, PRIVACY_INDEX.name))

    # --- persistence -----------------------------------------------------------------------
    def save(self, path: Path, stamp: str = "") -> None:
        """Write the index (JSON header line, then the serialized bitmaps), atomically."""
        keys = list(self.bitmaps)
        blobs = [self.bitmaps[k].serialize() for k in keys]
        header = {
            "version": INDEX_VERSION, "stamp": stamp, "persons": self.persons,
            "keys": [[p, a, len(b)] for (p, a), b in zip(keys, blobs)],
            "full_names": self.full_names, "stats": self.stats.to_dict(),
        }
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            fh.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
            for b in blobs:
                fh.write(b)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, stamp: str | None = None) -> "Background":
        """Read an index written by :meth:`save`; ``ValueError`` when it is stale or foreign."""
        t0 = time.perf_counter()
        data = path.read_bytes()
        nl = data.index(b"\n")
        header = json.loads(data[:nl])
        if header.get("version") != INDEX_VERSION or (stamp is not None and header.get("stamp") != stamp):
            raise ValueError(f"{path}: index from another build")
        pos = nl + 1
        bitmaps: dict[tuple[str, str], FrozenBitMap] = {}
        for prop, anchor, size in header["keys"]:
            bitmaps[(prop, anchor)] = FrozenBitMap.deserialize(data[pos : pos + size])
            pos += size
        stats = BackgroundStats(**{k: v for k, v in header["stats"].items() if k in BackgroundStats.__dataclass_fields__})
        stats.build_seconds, stats.loaded_from = round(time.perf_counter() - t0, 3), str(path)
        return cls(header["persons"], bitmaps, stats, {k: tuple(v) for k, v in header["full_names"].items()})


class _Closure:
    """Anchors of a value: itself, its classes (P31/P279 then P279*), its containers and their classes."""

    def __init__(self, edges: dict[str, dict[str, list[str]]], limit: int = 2000) -> None:
        self.edges = edges
        self.limit = limit
        self._memo: dict[str, frozenset[str]] = {}
        self._classes: dict[str, frozenset[str]] = {}

    def _superclasses(self, start: Iterable[str]) -> set[str]:
        out: set[str] = set()
        stack = list(start)
        sub = self.edges["P279"]
        while stack and len(out) < self.limit:
            node = stack.pop()
            if node in out:
                continue
            out.add(node)
            stack.extend(sub.get(node, ()))
        return out

    def _classes_of(self, item: str) -> frozenset[str]:
        hit = self._classes.get(item)
        if hit is None:
            hit = self._classes[item] = frozenset(self._superclasses(self.edges["P31"].get(item, ())))
        return hit

    def ancestors(self, value: str) -> frozenset[str]:
        hit = self._memo.get(value)
        if hit is not None:
            return hit
        out = {value}
        out |= self._superclasses(list(self.edges["P31"].get(value, ())) + list(self.edges["P279"].get(value, ())))
        stack = [value]
        seen = {value}
        while stack and len(seen) < self.limit:
            node = stack.pop()
            for prop in CONTAINER_PROPS:
                for parent in self.edges[prop].get(node, ()):
                    if parent not in seen:
                        seen.add(parent)
                        stack.append(parent)
        out |= seen
        for container in seen - {value}:  # born in Omaha → also born in "a state of the United States"
            out |= self._classes_of(container)
        frozen = frozenset(out)
        self._memo[value] = frozen
        return frozen


def build_privacy_index(kg: KGStore, path: Path) -> None:
    """The index of ``kg``'s persons, written to ``path``."""
    Background.build(kg).save(path)


#: the privacy index as an index derived from a store (registered in :mod:`engine.indices`)
PRIVACY_INDEX = DerivedIndex("privacy", str(INDEX_VERSION), build_privacy_index, "privacy")
