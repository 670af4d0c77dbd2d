"""Marks: which of a few dozen classes lie within six P31/P279 hops above each item, precomputed.

Link ranking asks of each candidate item only which of a fixed set of classes
(:data:`MARK_CLASSES`: the entity-type anchors, "language", the nationality classes of
``engine.generate.linking``; ``tg:rankedClasses`` in ``ontology/class_sets.ttl``) it
reaches within six hops over P31 and P279. Walking the class graph for that costs little per item, but at full scale a name has dozens of
homonyms, each one read from the store (its P31) and each above hundreds of classes. So
``kg build`` answers it once for every item and keeps the answer as bit masks (bit ``j``:
``MARK_CLASSES[j]``):

- ``graph/marks6.npy``: per class node (``graph/nodes.npy``), the classes within six hops;
- ``graph/item_qid.npy``, ``graph/item_marks.npy``, ``graph/item_p31.npy``: per item
  that has P31 statements and is not a class node (sorted Q-numbers), the classes within
  six hops (its P31 classes and theirs within five), and its number of distinct P31
  classes (the ranking's "degree" of such an item; :data:`UNKNOWN_COUNT` when the item's
  statements were split over blocks and could repeat one another: read it from the store);
- ``graph/marks.json``: :data:`MARK_CLASSES` as written, so a reader with other classes
  knows it cannot use them.

A mask is computed level by level (``reach_h[v] = OR over parents p of bit(p) | reach_{h-1}[p]``),
which is exactly the set the hop-limited breadth-first walk finds, cycles included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from kg.class_sets import class_set
from kg.vocab import qid_number

#: The classes marked (at most 64: one bit each in a uint64), by Q-number: the classes link
#: ranking asks about (``tg:rankedClasses`` in ``ontology/class_sets.ttl``).
MARK_CLASSES: tuple[str, ...] = tuple(sorted(class_set("rankedClasses"), key=qid_number))
#: Hops above an item the marks cover (the linker's ancestor walk).
HOPS = 6
#: ``item_p31`` of an item whose count is not known exactly (its statements were split).
UNKNOWN_COUNT = np.iinfo(np.uint16).max
MARKS_FILE = "marks.json"


def _bits(nodes: np.ndarray, classes: tuple[str, ...]) -> np.ndarray:
    bit = np.zeros(nodes.size, dtype=np.uint64)
    for j, qid in enumerate(classes):
        n = int(qid[1:])
        i = int(np.searchsorted(nodes, n))
        if i < nodes.size and int(nodes[i]) == n:
            bit[i] |= np.uint64(1 << j)
    return bit


def node_marks(nodes: np.ndarray, csr: list[tuple[np.ndarray, np.ndarray]], classes: tuple[str, ...] = MARK_CLASSES,
               hops: int = HOPS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(bit, reach_{hops-1}, reach_hops)`` per class node, over the edges of ``csr`` (``(indptr,
    parent Q-numbers)`` per property, parents being class nodes)."""
    if len(classes) > 64:
        raise ValueError("at most 64 marked classes")
    bit = _bits(nodes, classes)
    child = np.concatenate([np.repeat(np.arange(nodes.size, dtype=np.int64), np.diff(ptr)) for ptr, _ in csr] or [np.zeros(0, np.int64)])
    parent = np.concatenate([np.searchsorted(nodes, idx) for _, idx in csr] or [np.zeros(0, np.int64)])
    order = np.argsort(child, kind="stable")
    child, parent = child[order], parent[order]
    starts = np.flatnonzero(np.r_[True, child[1:] != child[:-1]]) if child.size else np.zeros(0, np.int64)
    owners = child[starts]
    reach = np.zeros(nodes.size, dtype=np.uint64)
    previous = reach
    for _ in range(hops):
        contrib = bit[parent] | reach[parent]
        new = np.zeros(nodes.size, dtype=np.uint64)
        if child.size:
            new[owners] = np.bitwise_or.reduceat(contrib, starts)
        previous, reach = reach, new
    return bit, previous, reach


def item_marks(nodes: np.ndarray, bit: np.ndarray, reach_below: np.ndarray,
               chunks: Iterator[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(Q-numbers, marks, P31 counts)`` of the items (not class nodes) with P31 statements,
    from ``(subjects, objects)`` chunks of P31 edges (objects are class nodes)."""
    parts_q, parts_m, parts_c = [], [], []
    for s, o in chunks:
        pos = np.minimum(np.searchsorted(nodes, s), max(nodes.size - 1, 0))
        keep = (nodes[pos] != s) if nodes.size else np.ones(s.size, bool)
        s, o = s[keep], o[keep]
        if not s.size:
            continue
        order = np.lexsort((o, s))
        s, o = s[order], o[order]
        distinct = np.r_[True, (s[1:] != s[:-1]) | (o[1:] != o[:-1])]
        s, o = s[distinct], o[distinct]
        pi = np.searchsorted(nodes, o)
        contrib = bit[pi] | reach_below[pi]
        starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
        parts_q.append(s[starts])
        parts_m.append(np.bitwise_or.reduceat(contrib, starts))
        parts_c.append(np.diff(np.r_[starts, s.size]))
    if not parts_q:
        return np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.uint16)
    q, m, c = np.concatenate(parts_q), np.concatenate(parts_m), np.concatenate(parts_c)
    del parts_q, parts_m, parts_c
    order = np.argsort(q, kind="stable")
    q, m, c = q[order], m[order], c[order]
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    split = np.diff(np.r_[starts, q.size]) > 1  # in more than one chunk: a statement may repeat
    counts = np.minimum(np.add.reduceat(c, starts), UNKNOWN_COUNT - 1).astype(np.uint16)
    counts[split] = UNKNOWN_COUNT
    return q[starts], np.bitwise_or.reduceat(m, starts), counts


def subject_chunks(subjects: np.ndarray, objects: np.ndarray, size: int = 1 << 22) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(subjects, objects)`` edges sorted by subject, in chunks of about ``size`` that never
    split one subject's edges (so :func:`item_marks` counts every item exactly)."""
    start = 0
    while start < subjects.size:
        end = min(start + size, subjects.size)
        if end < subjects.size:  # move the cut to the next subject boundary
            end = int(np.searchsorted(subjects, subjects[end - 1], side="right"))
        yield np.asarray(subjects[start:end]), np.asarray(objects[start:end])
        start = end


def write_marks(graph: Path, nodes: np.ndarray, csr: list[tuple[np.ndarray, np.ndarray]],
                p31_chunks: Iterator[tuple[np.ndarray, np.ndarray]]) -> int:
    """Write the mark files into ``graph``; items marked."""
    bit, below, reach = node_marks(nodes, csr)
    np.save(graph / "marks6.npy", reach)
    q, m, c = item_marks(nodes, bit, below, p31_chunks)
    np.save(graph / "item_qid.npy", q)
    np.save(graph / "item_marks.npy", m)
    np.save(graph / "item_p31.npy", c)
    (graph / MARKS_FILE).write_text(json.dumps({"classes": list(MARK_CLASSES), "hops": HOPS}), encoding="utf-8")
    return int(q.size)


class Marks:
    """The mark files of an index, opened memory-mapped (``None`` from :meth:`open` when absent)."""

    def __init__(self, graph: Path) -> None:
        meta = json.loads((graph / MARKS_FILE).read_text(encoding="utf-8"))
        self.classes: tuple[str, ...] = tuple(meta["classes"])
        self.hops: int = int(meta["hops"])
        self.node_marks = np.load(graph / "marks6.npy", mmap_mode="r")
        self.item_qid = np.load(graph / "item_qid.npy", mmap_mode="r")
        self.item_marks = np.load(graph / "item_marks.npy", mmap_mode="r")
        self.item_p31 = np.load(graph / "item_p31.npy", mmap_mode="r")
        self._sets: dict[int, frozenset[str]] = {}

    @classmethod
    def open(cls, graph: Path) -> Marks | None:
        return cls(graph) if (graph / MARKS_FILE).is_file() else None

    def classes_of(self, mask: int) -> frozenset[str]:
        """The marked classes of a mask."""
        found = self._sets.get(mask)
        if found is None:
            found = frozenset(c for j, c in enumerate(self.classes) if mask >> j & 1)
            if len(self._sets) < 100_000:
                self._sets[mask] = found
        return found

    def item(self, n: int) -> tuple[int, int]:
        """``(mask, P31 count)`` of the item with Q-number ``n`` that is not a class node
        (``(0, 0)``: no P31 statement)."""
        i = int(np.searchsorted(self.item_qid, n))
        if i < self.item_qid.size and int(self.item_qid[i]) == n:
            return int(self.item_marks[i]), int(self.item_p31[i])
        return 0, 0
