"""The gazetteer's entries of a store, derived when the store is built (:mod:`kg.derived`).

Reading the ~100k names of ``index/labels.sqlite`` and giving each item its kind from the
memory-mapped class graph (:func:`engine.detect.index_feed.index_entries`) takes seconds
(a minute on a loaded machine); the same entries as a pickle of plain tuples load in 0.4 s.
``kg build``, the starter graph's build and ``taxogen kg index`` write them into the
store's ``index/derived/gazetteer`` (:data:`GAZETTEER_INDEX`, registered by the engine
package); a detector only reads them. The index's version covers the kinds' anchors
(``ontology/class_sets.ttl``), so a taxogen whose kinds differ refuses the store in one line,
naming ``taxogen kg index``.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Iterable

from kg.derived import DerivedIndex
from kg.store import KGStore

from engine.detect.gazetteer import KIND_ANCHORS, KIND_ORDER, KIND_TYPE, GazetteerEntry
from engine.types import EntityType

#: bump when the entries' meaning changes without the kind anchors changing
VERSION = 2
#: P31/P279 hops within which an item's kind is looked for
HOPS = 5


def entries_version(hops: int = HOPS) -> str:
    """The version of the entries: :data:`VERSION`, ``hops`` and the kinds' definitions."""
    digest = hashlib.sha1(f"v{VERSION}\x00{hops}\x00{sorted((k, sorted(v)) for k, v in KIND_ANCHORS.items())}"
                          f"\x00{KIND_ORDER}\x00{sorted((k, t.value) for k, t in KIND_TYPE.items())}".encode()).hexdigest()
    return f"{VERSION}-{digest[:12]}"


def write_entries(path: str | Path, entries: Iterable[GazetteerEntry]) -> int:
    """Write ``entries`` to ``path`` (atomically); how many."""
    rows = [(e.label, e.item, e.entity_type.value, e.kind) for e in entries]
    tmp = Path(f"{path}.part-{os.getpid()}")
    with open(tmp, "wb") as f:
        pickle.dump(rows, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)
    return len(rows)


def read_entries(path: str | Path) -> list[GazetteerEntry]:
    """The entries :func:`write_entries` wrote to ``path``."""
    with open(path, "rb") as f:
        rows = pickle.load(f)
    types = {t.value: t for t in EntityType}  # a dict lookup, not an Enum call per entry (~100k)
    return [GazetteerEntry(label, item, types[etype], kind) for label, item, etype, kind in rows]


def build_gazetteer_index(kg: KGStore, path: Path) -> None:
    """The entries of every name of ``kg``'s label index, written to ``path``."""
    from kg.index import index_path
    from kg.indexed import IndexedTaxonomy

    from engine.detect.index_feed import index_entries

    write_entries(path, index_entries(index_path(kg.path), IndexedTaxonomy.from_store(kg), hops=HOPS))


#: the gazetteer's entries as an index derived from a store (registered in :mod:`engine.indices`)
GAZETTEER_INDEX = DerivedIndex("gazetteer", entries_version(), build_gazetteer_index, "gazetteer")
