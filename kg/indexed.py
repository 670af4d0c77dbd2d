"""The taxonomy view over a store's derived indices (:mod:`kg.index`), opened memory-mapped.

:class:`IndexedTaxonomy` answers the same questions as :class:`kg.chains.PreloadedTaxonomy`
(``parents``, ``label``, ``values``, ``children_count``, ``instance_count``, additions
fetched remotely) without reading the graph into Python: class edges, counts and labels
come from memory-mapped arrays, an item's own statements (its P31, P17, P131, …) and the
labels of non-class items from the Oxigraph store, on demand, with a bounded cache.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
import pyoxigraph as ox

from kg.index import GRAPH_DIR, LABELS_DB, require_index
from kg.marks import UNKNOWN_COUNT, Marks
from kg.store import KGStore
from kg.vocab import DEGREE_PROPS, RDFS_LABEL, TAXONOMY_PROPS, WD, WDT, is_entity_id, local_id, qid_number

CACHE_GRAPH_PREFIX = "urn:taxogen:cache:"
_CACHE_SIZE = 100_000


def _num(qid: str) -> int:
    return int(qid[1:]) if qid[:1] == "Q" and is_entity_id(qid) else -1


class _LRU(OrderedDict):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key, value) -> None:
        self[key] = value
        if len(self) > self.size:
            self.popitem(last=False)


class _Counts:
    """``.get(qid, default)`` over a per-node count array (plus remote additions)."""

    def __init__(self, view: "IndexedTaxonomy", array: np.ndarray) -> None:
        self._view, self._array = view, array
        self.added: dict[str, int] = {}

    def get(self, qid: str, default: int = 0) -> int:
        i = self._view.node(qid)
        base = int(self._array[i]) if i >= 0 else 0
        extra = self.added.get(qid, 0)
        return base + extra if (i >= 0 or extra) else default

    def __getitem__(self, qid: str) -> int:
        return self.get(qid, 0)


class _Labels:
    """``.get(qid)`` of the view's labels (mapping-like; iterates over labelled class nodes)."""

    def __init__(self, view: "IndexedTaxonomy") -> None:
        self._view = view

    def get(self, qid: str, default: str | None = None) -> str | None:
        label = self._view.label(qid)
        return default if label is None else label

    def __contains__(self, qid: object) -> bool:
        return isinstance(qid, str) and self._view.label(qid) is not None

    def __getitem__(self, qid: str) -> str:
        label = self._view.label(qid)
        if label is None:
            raise KeyError(qid)
        return label

    def __iter__(self) -> Iterator[str]:
        return self._view.labelled()


class IndexedTaxonomy:
    """Class graph and the items' P31 from memory-mapped arrays; other item statements from the store on demand."""

    def __init__(self, kg: KGStore, index_dir: Path) -> None:
        self.kg = kg
        graph = index_dir / GRAPH_DIR

        def load(name: str) -> np.ndarray:
            return np.load(graph / f"{name}.npy", mmap_mode="r")

        self.nodes = load("nodes")
        self._ptr = {p: load(f"{p}_ptr") for p in TAXONOMY_PROPS}
        self._idx = {p: load(f"{p}_idx") for p in TAXONOMY_PROPS}
        self._label_ptr = load("labels_ptr")
        # P31 of non-class items (written by kg build; indices without these files ask the store)
        self._item_p31 = ((load("item_P31_s"), load("item_P31_o"))
                          if (graph / "item_P31_s.npy").is_file() and (graph / "item_P31_o.npy").is_file() else None)
        size = (graph / "labels.bin").stat().st_size
        self._label_blob = np.memmap(graph / "labels.bin", dtype=np.uint8, mode="r") if size else np.zeros(0, np.uint8)
        self._db = sqlite3.connect(f"file:{index_dir / LABELS_DB}?mode=ro", uri=True, check_same_thread=False)
        self.children_count = _Counts(self, load("subclasses"))
        self.instance_count = _Counts(self, load("instances"))
        self.labels = _Labels(self)
        self._added: dict[str, dict[str, list[str]]] = {}
        self._added_labels: dict[str, str] = {}
        self._values: _LRU = _LRU(_CACHE_SIZE)
        self._parents: _LRU = _LRU(4 * _CACHE_SIZE)
        self._label_cache: _LRU = _LRU(_CACHE_SIZE)
        #: node positions already looked up (a Q-id's position never changes; bounded)
        self._node_of: dict[str, int] = {}
        self.marks = Marks.open(graph)
        self._cache_subjects: set[str] = set()  # items with statements in remote-cache graphs

    @classmethod
    def from_store(cls, kg: KGStore) -> "IndexedTaxonomy":
        """Open the indices of ``kg`` (raises :class:`KGError` when it has none) and add the
        statements and labels of its remote-cache graphs."""
        view = cls(kg, require_index(kg))
        for graph in kg.raw.named_graphs():
            if isinstance(graph, ox.NamedNode) and graph.value.startswith(CACHE_GRAPH_PREFIX):
                for quad in kg.raw.quads_for_pattern(None, None, None, graph):
                    s, p, o = quad.subject, quad.predicate.value, quad.object
                    if not isinstance(s, ox.NamedNode) or not s.value.startswith(WD):
                        continue
                    if p == RDFS_LABEL and isinstance(o, ox.Literal):
                        view.add_label(local_id(s.value), o.value)
                    elif p.startswith(WDT) and isinstance(o, ox.NamedNode) and o.value.startswith(WD):
                        view.add_cached_statement(local_id(s.value), local_id(p), local_id(o.value))
        return view

    # --- nodes ----------------------------------------------------------------------------
    def node(self, qid: str) -> int:
        """Position of ``qid`` among the class nodes, or -1 (remembered: the same Q-ids are
        looked up over and over, each lookup a binary search of the memory-mapped nodes)."""
        hit = self._node_of.get(qid)
        if hit is not None:
            return hit
        n = _num(qid)
        if n < 0 or not self.nodes.size:
            i = -1
        else:
            i = int(np.searchsorted(self.nodes, n))
            i = i if i < self.nodes.size and int(self.nodes[i]) == n else -1
        if len(self._node_of) >= 4 * _CACHE_SIZE:
            self._node_of.clear()
        self._node_of[qid] = i
        return i

    # --- TaxonomyView ---------------------------------------------------------------------
    def parents(self, qid: str, prop: str) -> Sequence[str]:
        key = (qid, prop)
        cached = self._parents.get(key)
        if cached is not None:
            return cached
        i = self.node(qid)
        if i >= 0:
            ptr = self._ptr[prop]
            a, b = int(ptr[i]), int(ptr[i + 1])
            base = [f"Q{v}" for v in self._idx[prop][a:b].tolist()] if b > a else []
        elif prop == "P31" and self._item_p31 is not None:
            n = _num(qid)
            items, types = self._item_p31
            a, b = (int(np.searchsorted(items, n, "left")), int(np.searchsorted(items, n, "right"))) if n >= 0 else (0, 0)
            base = [f"Q{v}" for v in types[a:b].tolist()] if b > a else []
        elif prop == "P31":
            base = self._item_values(qid, prop)
        else:
            base = []
        added = self._added.get(prop, {}).get(qid)
        if added:
            base = sorted(set(base) | set(added), key=qid_number)
        self._parents.put(key, base)
        return base

    def label(self, qid: str) -> str | None:
        if qid in self._added_labels:
            return self._added_labels[qid]
        i = self.node(qid)
        if i >= 0:
            a, b = int(self._label_ptr[i]), int(self._label_ptr[i + 1])
            return bytes(self._label_blob[a:b]).decode("utf-8") if b > a else None
        if qid in self._label_cache:
            return self._label_cache[qid]
        n = _num(qid)
        row = self._db.execute("SELECT text FROM main WHERE qid = ?", (n,)).fetchone() if n >= 0 else None
        label = row[0] if row else None
        self._label_cache.put(qid, label)
        return label

    def values(self, qid: str, prop: str) -> Sequence[str]:
        if prop in TAXONOMY_PROPS:
            return self.parents(qid, prop)
        base = self._item_values(qid, prop)
        added = self._added.get(prop, {}).get(qid)
        return sorted(set(base) | set(added), key=qid_number) if added else base

    def _item_values(self, qid: str, prop: str) -> list[str]:
        key = (qid, prop)
        if key in self._values:
            return self._values[key]
        out: set[str] = set()
        if is_entity_id(qid):
            for quad in self.kg.raw.quads_for_pattern(ox.NamedNode(WD + qid), ox.NamedNode(WDT + prop), None, None):
                if isinstance(quad.object, ox.NamedNode) and quad.object.value.startswith(WD):
                    out.add(local_id(quad.object.value))
        values = sorted(out, key=qid_number)
        self._values.put(key, values)
        return values

    def rank_facts(self, qid: str) -> tuple[int, int] | None:
        """``(mask, degree)`` of ``qid`` from the index's marks (:mod:`kg.marks`): the marked
        classes within six P31/P279 hops above it, and its P31 + P279 + P361 parents plus
        subclasses and instances. ``None`` when the index cannot answer exactly: no marks,
        statements added since the build (remote fallback), or statements of ``qid`` in a
        remote-cache graph."""
        if self.marks is None or self._added or qid in self._cache_subjects:
            return None
        i = self.node(qid)
        if i >= 0:
            degree = sum(int(self._ptr[p][i + 1]) - int(self._ptr[p][i]) for p in DEGREE_PROPS)
            degree += self.children_count.get(qid, 0) + self.instance_count.get(qid, 0)
            return int(self.marks.node_marks[i]), degree
        n = _num(qid)
        if n < 0:
            return None
        mask, count = self.marks.item(n)
        if count == UNKNOWN_COUNT:
            count = len(self.parents(qid, "P31"))
        return mask, count

    def labelled(self) -> Iterator[str]:
        """Every labelled class node (by position), then every other item given a label since."""
        ptr = self._label_ptr
        for i in np.flatnonzero(ptr[1:] > ptr[:-1]):
            yield f"Q{int(self.nodes[i])}"
        yield from (q for q in self._added_labels if self.node(q) < 0)

    # --- additions (remote fallback) -------------------------------------------------------
    def add_statement(self, subject: str, prop: str, value: str) -> bool:
        """Add one item-to-item statement (e.g. fetched remotely); False if already known."""
        if value in self.parents(subject, prop) or value in self.values(subject, prop):
            return False
        self._added.setdefault(prop, {}).setdefault(subject, []).append(value)
        self._values.pop((subject, prop), None)
        self._parents.pop((subject, prop), None)
        if prop == "P279":
            self.children_count.added[value] = self.children_count.added.get(value, 0) + 1
        elif prop == "P31":
            self.instance_count.added[value] = self.instance_count.added.get(value, 0) + 1
        return True

    def add_cached_statement(self, subject: str, prop: str, value: str) -> bool:
        """Add a statement of a remote-cache graph (:meth:`add_statement`) and remember its
        subject: the index's precomputed facts of that item (:meth:`rank_facts`) no longer hold."""
        self._cache_subjects.add(subject)
        return self.add_statement(subject, prop, value)

    def add_label(self, qid: str, label: str) -> None:
        """Give ``qid`` the label ``label`` unless it has one (e.g. fetched remotely)."""
        if self.label(qid) is None:
            self._added_labels[qid] = label
            self._label_cache.pop(qid, None)

    def subjects(self, prop: str) -> list[str]:
        """The classes with at least one ``prop`` edge (those fetched remotely included), by Q-number."""
        ptr = np.asarray(self._ptr[prop])
        found = {f"Q{int(self.nodes[i])}" for i in np.nonzero(ptr[1:] > ptr[:-1])[0]}
        found |= set(self._added.get(prop, {}))
        return sorted(found, key=qid_number)

    @property
    def edge_count(self) -> int:
        return sum(int(self._idx[p].size) for p in TAXONOMY_PROPS) + sum(
            len(v) for table in self._added.values() for v in table.values()
        )
