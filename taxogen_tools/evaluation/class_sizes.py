"""How many items of the store a replacement still fits: the size of a class, counted once per run.

``n_c`` of a class ``c`` is the number of distinct items below it: its instances and those
of its subclasses, transitively (``?x wdt:P31/wdt:P279* c``), and its subclasses
(``?x wdt:P279+ c``) — a role or a kind of work ("coach", "film genre") has subclasses
rather than instances. ``N`` is the number of items the store types: items with a P31
and the class nodes. A rung reached over "part of" (P361) is not a class: its size is
the number of things part of it, transitively (``?x wdt:P361+ c``). A composed rung
("city in Norway", "country in Europe") fits the items under its class whose value of the
rule's property is the place or a part of it (``wdt:P17 wd:Q20``; ``wdt:P361`` Western
Europe, part of Europe).

Computed from the store's class graph in arrays (the memory-mapped ``index/graph`` of an
on-disk store, :mod:`kg.index`; the preloaded edges of an in-memory store):

- once per run: the reverse P279 and P361 edges (children per class node, CSR) and the
  class-node position of the object of every P31 edge — O(E log V) for E P31 edges and V
  class nodes (milliseconds on the seed store; at the scale of the full dump, about
  120 M P31 edges, some seconds and 8 bytes per P31 edge);
- per class, cached: the classes below it (a breadth-first walk over the reverse edges,
  vectorised) and one pass over the P31 edges' objects (a boolean gather) — the subjects
  are sorted, so distinct items are counted without sorting. On the seed store a class
  takes 0.1–25 ms.

A composed rung's place reads the subjects of one (property, place) pair from the store
(``queries/subjects_with_value.rq``), proportional to the items with that value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np

from kg.store import KGStore
from kg.vocab import WD, WDT, local_id


def _q(qid: str) -> int:
    """The Q-number of ``qid`` (-1 for anything else)."""
    return int(qid[1:]) if qid[:1] == "Q" and qid[1:].isdigit() else -1


@dataclass(frozen=True)
class _Graph:
    """The class graph as arrays: sorted class-node Q-numbers, the children of each node
    over P279 and P361 (CSR by node position), and the P31 edges in two segments whose
    subjects are sorted (other items; class nodes), with their objects' node positions."""

    nodes: np.ndarray
    children: dict[str, tuple[np.ndarray, np.ndarray]]
    p31: tuple[tuple[np.ndarray, np.ndarray], ...]


def _reverse(size: int, parent_pos: np.ndarray, child_pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(parent_pos, kind="stable")
    ptr = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(parent_pos, minlength=size), out=ptr[1:])
    return ptr, child_pos[order].astype(np.int64)


def _positions(nodes: np.ndarray, qnums: np.ndarray) -> np.ndarray:
    """Node positions of ``qnums`` (every value must be a node)."""
    return np.searchsorted(nodes, qnums).astype(np.int64)


def _graph_from_index(kg: KGStore) -> _Graph:
    from kg.index import GRAPH_DIR, require_index

    graph = require_index(kg) / GRAPH_DIR

    def load(name: str) -> np.ndarray:
        return np.load(graph / f"{name}.npy", mmap_mode="r")

    nodes = np.asarray(load("nodes"))
    children = {}
    for prop in ("P279", "P361"):
        ptr, idx = np.asarray(load(f"{prop}_ptr")), np.asarray(load(f"{prop}_idx"))
        child = np.repeat(np.arange(nodes.size, dtype=np.int64), np.diff(ptr))
        children[prop] = _reverse(nodes.size, _positions(nodes, idx), child)
    ptr, idx = np.asarray(load("P31_ptr")), np.asarray(load("P31_idx"))
    node_s = np.repeat(nodes, np.diff(ptr))
    empty = np.zeros(0, dtype=np.int64)
    # items' P31 (indices of older builds lack them: only the class nodes' P31 are counted)
    items = (load("item_P31_s"), _positions(nodes, np.asarray(load("item_P31_o")))) if (graph / "item_P31_s.npy").is_file() else (empty, empty)
    return _Graph(nodes, children, (items, (node_s, _positions(nodes, idx))))


def _graph_from_edges(edges: Mapping[str, Mapping[str, Sequence[str]]]) -> _Graph:
    """The same arrays from preloaded edges (child → parents per property)."""
    pairs = {p: [(_q(c), _q(v)) for c, vs in edges.get(p, {}).items() for v in vs] for p in ("P31", "P279", "P361", "P8225")}
    pairs = {p: [(a, b) for a, b in ps if a >= 0 and b >= 0] for p, ps in pairs.items()}
    node_set = {x for p in ("P279", "P361", "P8225") for e in pairs[p] for x in e} | {b for _, b in pairs["P31"]}
    nodes = np.array(sorted(node_set), dtype=np.int64)
    children = {}
    for prop in ("P279", "P361"):
        arr = np.array(pairs[prop], dtype=np.int64).reshape(-1, 2)
        children[prop] = _reverse(nodes.size, _positions(nodes, arr[:, 1]), _positions(nodes, arr[:, 0]))
    p31 = sorted(pairs["P31"])
    segments = []
    for is_node in (False, True):
        part = np.array([e for e in p31 if (e[0] in node_set) == is_node], dtype=np.int64).reshape(-1, 2)
        segments.append((part[:, 0], _positions(nodes, part[:, 1])))
    return _Graph(nodes, children, tuple(segments))


def _distinct(sorted_values: np.ndarray) -> int:
    return int(sorted_values.size and 1 + np.count_nonzero(np.diff(sorted_values)))


class ClassSizes:
    """``size(qid)``: items under a class (see the module docstring), cached per class."""

    def __init__(self, kg: KGStore, graph: _Graph) -> None:
        self.kg = kg
        self._g = graph
        self._sizes: dict[tuple[str, str], int] = {}
        self._below: dict[tuple[str, str], np.ndarray] = {}
        self.typed = _distinct(np.asarray(graph.p31[0][0])) + int(graph.nodes.size)

    @classmethod
    def for_store(cls, kg: KGStore, taxonomy=None) -> "ClassSizes":
        """From the store's index (on disk) or ``taxonomy``'s preloaded ``edges`` (in memory)."""
        if kg.path is not None:
            return cls(kg, _graph_from_index(kg))
        edges = getattr(taxonomy, "edges", None)
        if edges is None:
            from kg.chains import PreloadedTaxonomy

            edges = PreloadedTaxonomy.from_store(kg).edges
        return cls(kg, _graph_from_edges(edges))

    def node(self, qid: str) -> int:
        """Position of ``qid`` among the class nodes, or -1."""
        n, nodes = _q(qid), self._g.nodes
        i = int(np.searchsorted(nodes, n)) if n >= 0 else -1
        return i if 0 <= i < nodes.size and int(nodes[i]) == n else -1

    def _closure(self, qid: str, prop: str) -> np.ndarray:
        """Boolean mask of the nodes at or below ``qid`` over reverse ``prop`` edges."""
        key = (qid, prop)
        if key in self._below:
            return self._below[key]
        seen = np.zeros(self._g.nodes.size, dtype=bool)
        start = self.node(qid)
        if start >= 0:
            ptr, kids = self._g.children[prop]
            seen[start] = True
            frontier = np.array([start], dtype=np.int64)
            while frontier.size:
                lo, hi = ptr[frontier], ptr[frontier + 1]
                lens = hi - lo
                total = int(lens.sum())
                if not total:
                    break
                offsets = np.repeat(lo - np.concatenate(([0], np.cumsum(lens)[:-1])), lens) + np.arange(total)
                found = np.unique(kids[offsets])
                frontier = found[~seen[found]]
                seen[frontier] = True
        if len(self._below) > 4096:
            self._below.clear()
        self._below[key] = seen
        return seen

    def size(self, qid: str, via: str = "P31") -> int:
        """Items under class ``qid`` (``via="P31"``: instances of it or its subclasses), or
        things part of it (``via="P361"``, itself excluded)."""
        key = (qid, via)
        if key not in self._sizes:
            if via == "P361":
                self._sizes[key] = max(0, int(self._closure(qid, "P361").sum()) - 1)
            else:
                self._sizes[key] = self._count(self._closure(qid, "P279"), self.node(qid))
        return self._sizes[key]

    def _count(self, below: np.ndarray, start: int, wanted: np.ndarray | None = None) -> int:
        """Distinct items whose P31 lies in ``below`` and the classes of ``below`` but
        ``start`` (only those among ``wanted`` Q-numbers, when given)."""
        if start < 0:
            return 0
        (item_s, item_o), (node_s, node_o) = self._g.p31
        items = np.asarray(item_s)[below[item_o]]
        if wanted is not None:
            items = items[np.isin(items, wanted)]
        classes = below.copy()
        classes[start] = False
        classes[_positions(self._g.nodes, np.asarray(node_s)[below[node_o]])] = True
        if wanted is not None:
            classes &= np.isin(self._g.nodes, wanted)
        return _distinct(items) + int(classes.sum())

    def size_with_value(self, qid: str, props: Iterable[str], value: str) -> int:
        """Items under class ``qid`` whose value of one of ``props`` is ``value`` or a part of it (P361+)."""
        props = tuple(props)
        key = (qid, ",".join(props) + "=" + value)
        if key in self._sizes:
            return self._sizes[key]
        places = [value] + [f"Q{int(n)}" for n in self._g.nodes[self._closure(value, "P361")] if f"Q{int(n)}" != value]
        subjects: set[int] = set()
        for place in places:
            for prop in props:
                for row in self.kg.select("subjects_with_value", prop=WDT + prop, value=WD + place):
                    if isinstance(row.get("s"), str) and row["s"].startswith(WD):
                        subjects.add(_q(local_id(row["s"])))
        wanted = np.array(sorted(subjects), dtype=np.int64)
        self._sizes[key] = self._count(self._closure(qid, "P279"), self.node(qid), wanted)
        return self._sizes[key]
