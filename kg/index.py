"""Derived indices of a store, written by ``kg build`` and opened (not loaded) at start-up.

A built store directory holds, beside ``oxigraph/``, an ``index/`` directory:

- ``labels.sqlite`` — every English label, alias and demonym, folded (``names``), each
  item's main label (``main``), the distinct folded names numbered by length (``keys``),
  and the piece (partition) index over them that yields candidates for approximate
  matching (``pieces``, ``piece_counts``, ``piece_meta``: :mod:`kg.approx_index`); and
  ``name_words``, an SQLite FTS5 full-text index of the labels' words (contentless, keyed
  by the ``names`` row), which finds every label holding a word ("… Records", "FC …").
  Indices written by earlier versions hold a coarser segment index (``segs``) or an FTS5
  trigram index (``approx``, ``grams``, ``lengths``) instead; both are still read.
- ``graph/*.npy`` — the class graph in compact arrays, opened memory-mapped: the sorted
  Q-numbers of every class node (every subject or object of a P279, P361 or P8225 edge and
  every object of a P31 edge), per property the parents of each node in CSR form (P279,
  P361, P8225, and P31 of nodes), incoming P31/P279 counts and the nodes' labels; and the
  link ranking's marks (:mod:`kg.marks`): which of its classes lie within six hops above
  each class node and each item.
- ``prominence_qid.npy``, ``prominence.npy`` — the prominence prior of the items that have one (sorted Q-numbers, counts).

Per-item statements of other items (an item's P31, P17, P131, …) are read from the
Oxigraph store on demand. The prominence of an item is its sitelink count when the dump
had ``schema:about`` lines, otherwise the number of kept statements pointing at it.

:func:`build_index` writes the indices (bounded memory: edges are streamed in chunks;
SQLite sorts on disk); :func:`has_index` tells whether a store has them; the readers are
:class:`kg.indexed.IndexedTaxonomy` and :class:`engine.generate.label_store.SqliteLabelIndex`.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Iterator

import numpy as np
import pyoxigraph as ox

from kg.approx_index import build_pieces
from kg.errors import KGError
from kg.marks import subject_chunks, write_marks
from kg.procs import replace_directory
from kg.store import KGStore
from kg.vocab import CLASS_PROPS, KEPT_PROPS, TAXONOMY_PROPS

INDEX_DIR = "index"
INDEX_VERSION = 4
LABELS_DB = "labels.sqlite"
GRAPH_DIR = "graph"
SITELINKS_FILE = "sitelinks.i32"
#: Kinds of names in ``labels.sqlite``.
LABEL, ALIAS, DEMONYM = 0, 1, 2
_CHUNK = 1 << 22


@dataclass
class IndexReport:
    """What :func:`build_index` wrote."""

    nodes: int = 0
    edges: dict[str, int] | None = None
    names: int = 0
    keys: int = 0
    segments: int = 0
    marked_items: int = 0
    prominence: str = "incoming"
    seconds: float = 0.0
    bytes: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


def index_path(store_dir: str | Path) -> Path:
    return Path(store_dir) / INDEX_DIR


def has_index(store_dir: str | Path | None) -> bool:
    """True when ``store_dir`` holds indices of the current version."""
    if store_dir is None:
        return False
    meta = index_path(store_dir) / "index.json"
    if not meta.is_file():
        return False
    try:
        return json.loads(meta.read_text(encoding="utf-8")).get("version") == INDEX_VERSION
    except (OSError, ValueError):
        return False


def require_index(kg: KGStore) -> Path:
    """The index directory of an on-disk store; :class:`KGError` with the fix when missing."""
    if kg.path is None or not has_index(kg.path):
        raise KGError(
            f"store {kg.path} has no index (built by an older taxogen); run 'taxogen kg index --store {kg.path}' "
            "or rebuild it with 'taxogen kg build'",
            path=str(kg.path),
        )
    return index_path(kg.path)


# --- building ------------------------------------------------------------------------------
def _read_chunks(path: Path, chunk: int = _CHUNK, dtype=np.int64) -> Iterator[np.ndarray]:
    if not path.is_file() or path.stat().st_size == 0:
        return
    data = np.memmap(path, dtype=dtype, mode="r")
    for i in range(0, data.size, chunk):
        yield np.asarray(data[i : i + chunk])


class _Tally:
    """Counts per Q-number, kept sparse (sorted keys, counts), merged chunk by chunk."""

    def __init__(self) -> None:
        self.keys = np.zeros(0, np.int64)
        self.counts = np.zeros(0, np.int64)

    def add(self, values: np.ndarray) -> None:
        if values.size == 0:
            return
        k, c = np.unique(values, return_counts=True)
        allk = np.concatenate([self.keys, k])
        allc = np.concatenate([self.counts, c])
        self.keys, inv = np.unique(allk, return_inverse=True)
        self.counts = np.bincount(inv, weights=allc, minlength=self.keys.size).astype(np.int64)

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        return self.keys, self.counts


def _csr(nodes: np.ndarray, child: np.ndarray, parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parents per node (sorted by Q-number, no duplicates) as (indptr, parents)."""
    if child.size:
        order = np.lexsort((parent, child))
        child, parent = child[order], parent[order]
        keep = np.ones(child.size, dtype=bool)
        keep[1:] = (child[1:] != child[:-1]) | (parent[1:] != parent[:-1])
        child, parent = child[keep], parent[keep]
    counts = np.bincount(np.searchsorted(nodes, child), minlength=nodes.size) if child.size else np.zeros(nodes.size, np.int64)
    indptr = np.zeros(nodes.size + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return indptr, parent.astype(np.int64)


def index_store(kg: KGStore, *, progress: bool = False) -> IndexReport:
    """(Re)build the indices of an existing on-disk store from its default graph."""
    if kg.path is None:
        raise KGError("only a store directory can hold indices")
    tmp = Path(kg.path) / f".{INDEX_DIR}.dump-{os.getpid()}.nt"
    try:
        kg.raw.dump(output=str(tmp), format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
        return build_index(tmp, kg.path, progress=progress)
    finally:
        tmp.unlink(missing_ok=True)


def build_index(
    nt: str | Path,
    store_dir: str | Path,
    *,
    sitelinks: Path | None = None,
    progress: bool = False,
) -> IndexReport:
    """Write ``store_dir/index`` from the kept N-Triples ``nt`` (replacing an existing one atomically).

    ``sitelinks``: a file of int32 Q-numbers, one per ``schema:about`` line of the dump
    (written by the build's filter); without it (or when it is empty) the prominence is
    the count of incoming statements. Memory stays bounded: statements go to per-property
    files, names to SQLite, in one parallel pass.
    """
    from kg.dump_reader import BlockReader
    from kg.parallel import IndexBlock, extract_block, run_blocks

    t0 = time.perf_counter()
    target = index_path(store_dir)
    work = Path(store_dir) / f".{INDEX_DIR}.building-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    graph = work / GRAPH_DIR
    edges_dir = work / "edges"
    graph.mkdir(parents=True)
    edges_dir.mkdir()
    report = IndexReport(edges={})

    def say(msg: str) -> None:
        if progress:
            print(f"index: {msg} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)

    try:
        db = sqlite3.connect(work / LABELS_DB)
        db.executescript(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = FILE; PRAGMA cache_size = -65536;
            CREATE TABLE names (key TEXT NOT NULL, kind INTEGER NOT NULL, qid INTEGER NOT NULL);
            CREATE TABLE main (qid INTEGER PRIMARY KEY, text TEXT NOT NULL);
            CREATE TABLE keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL, n INTEGER NOT NULL);
            """
        )
        files: dict[str, tuple[IO[bytes], IO[bytes]]] = {}

        def consume(block: IndexBlock) -> None:
            for prop, (s, o) in block.edges.items():
                if prop not in KEPT_PROPS:
                    continue
                if prop not in files:
                    files[prop] = (open(edges_dir / f"{prop}.s", "wb"), open(edges_dir / f"{prop}.o", "wb"))
                s.tofile(files[prop][0])
                o.tofile(files[prop][1])
            if block.names:
                db.executemany("INSERT INTO names VALUES (?, ?, ?)", [(k, kind, q) for k, kind, q, _ in block.names])
                db.executemany("INSERT OR IGNORE INTO main VALUES (?, ?)", [(q, v) for _, kind, q, v in block.names if kind == LABEL])
                report.names += len(block.names)

        run_blocks(iter(BlockReader(nt)), extract_block, consume)
        for fs in files.values():
            fs[0].close()
            fs[1].close()
        say(f"read statements and {report.names} names")

        # 1. class nodes, incoming counts (the prominence fallback)
        incoming = _Tally()
        node_parts: list[np.ndarray] = []
        for prop in sorted(files):
            for o in _read_chunks(edges_dir / f"{prop}.o"):
                incoming.add(o)
                if prop == "P31" or prop in CLASS_PROPS:
                    node_parts.append(np.unique(o))
            if prop in CLASS_PROPS:
                node_parts.extend(np.unique(s) for s in _read_chunks(edges_dir / f"{prop}.s"))
        nodes = np.unique(np.concatenate(node_parts)) if node_parts else np.zeros(0, np.int64)
        del node_parts
        np.save(graph / "nodes.npy", nodes)

        def load(prop: str) -> tuple[np.ndarray, np.ndarray]:
            s_path, o_path = edges_dir / f"{prop}.s", edges_dir / f"{prop}.o"
            if not s_path.is_file():
                return np.zeros(0, np.int64), np.zeros(0, np.int64)
            return np.fromfile(s_path, dtype=np.int64), np.fromfile(o_path, dtype=np.int64)

        # 2. P31 of class nodes, instance counts
        instances = np.zeros(nodes.size, dtype=np.int64)
        p31_s, p31_o = [], []
        item_s, item_o = [], []  # P31 of the other items: their kinds for the detection gazetteer, no store lookup
        for s, o in zip(_read_chunks(edges_dir / "P31.s"), _read_chunks(edges_dir / "P31.o")):
            instances += np.bincount(np.searchsorted(nodes, o), minlength=nodes.size)
            pos = np.minimum(np.searchsorted(nodes, s), max(nodes.size - 1, 0))
            hit = nodes[pos] == s
            p31_s.append(s[hit])
            p31_o.append(o[hit])
            item_s.append(s[~hit])
            item_o.append(o[~hit])
        _save_item_types(graph, item_s, item_o)
        del item_s, item_o
        kept_csr: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for prop in TAXONOMY_PROPS:
            if prop == "P31":
                pair = (np.concatenate(p31_s) if p31_s else np.zeros(0, np.int64),
                        np.concatenate(p31_o) if p31_o else np.zeros(0, np.int64))
            else:
                pair = load(prop)
            indptr, parents = _csr(nodes, *pair)
            if prop in ("P31", "P279"):
                kept_csr[prop] = (indptr, parents)
            np.save(graph / f"{prop}_ptr.npy", indptr)
            np.save(graph / f"{prop}_idx.npy", parents)
            report.edges[prop] = int(parents.size)
            if prop == "P279":
                subclasses = np.bincount(np.searchsorted(nodes, pair[1]), minlength=nodes.size)
                np.save(graph / "subclasses.npy", subclasses.astype(np.int32))
        np.save(graph / "instances.npy", instances.astype(np.int32))
        report.nodes = int(nodes.size)
        del p31_s, p31_o
        say(f"class graph: {nodes.size} nodes")
        # marks: the ranking's classes within six hops above every class node and item
        # the items' P31 as saved above (sorted, each statement once), read back memory-mapped
        items = (np.load(graph / "item_P31_s.npy", mmap_mode="r"), np.load(graph / "item_P31_o.npy", mmap_mode="r"))
        report.marked_items = write_marks(graph, nodes, list(kept_csr.values()), subject_chunks(*items))
        del items
        del kept_csr
        say(f"marks: {report.marked_items} items")

        # 3. prominence: sitelinks when the dump had them, else incoming statements
        prominence = incoming
        if sitelinks is not None and sitelinks.is_file() and sitelinks.stat().st_size:
            prominence = _Tally()
            for chunk in _read_chunks(sitelinks, dtype=np.int32):
                prominence.add(chunk.astype(np.int64))
            report.prominence = "sitelinks"
        keys, counts = prominence.result()
        np.save(work / "prominence_qid.npy", keys)
        np.save(work / "prominence.npy", np.minimum(counts, np.iinfo(np.int32).max).astype(np.int32))
        del incoming, prominence

        # 4. names: B-tree on the folded key, FTS5 trigrams over the distinct keys
        db.executescript(
            """
            CREATE INDEX names_key ON names (key, kind, qid);
            CREATE INDEX names_qid ON names (qid, kind, key);
            INSERT INTO keys (key, n) SELECT key, length(key) AS n FROM names WHERE kind < 2 GROUP BY key ORDER BY n, key;
            CREATE VIRTUAL TABLE name_words USING fts5(key, content='');
            """
        )
        db.execute("INSERT INTO name_words (rowid, key) SELECT rowid, key FROM names WHERE kind = ?", (LABEL,))
        db.commit()
        report.keys = db.execute("SELECT count(*) FROM keys").fetchone()[0]
        # approximate lookup: the piece (partition) index over the distinct names
        report.segments = build_pieces(db, db.execute("SELECT id, key FROM keys"))
        db.commit()
        say(f"labels: {report.names} names, {report.keys} keys")
        _write_node_labels(db, nodes, graph)
        db.commit()
        db.close()
        shutil.rmtree(edges_dir)
        report.seconds = round(time.perf_counter() - t0, 2)
        report.bytes = sum(p.stat().st_size for p in work.rglob("*") if p.is_file())
        (work / "index.json").write_text(json.dumps({"version": INDEX_VERSION, **report.to_dict()}, indent=2), encoding="utf-8")
        replace_directory(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    say("done")
    return report


def _save_item_types(graph: Path, subjects: list[np.ndarray], objects: list[np.ndarray]) -> None:
    """``item_P31_s.npy`` / ``item_P31_o.npy``: the P31 statements of non-class items, sorted by subject
    (read memory-mapped by :meth:`kg.indexed.IndexedTaxonomy.parents`)."""
    s = np.concatenate(subjects) if subjects else np.zeros(0, np.int64)
    o = np.concatenate(objects) if objects else np.zeros(0, np.int64)
    order = np.lexsort((o, s))
    s, o = s[order], o[order]
    if s.size:  # a statement repeated in the dump is one statement (as in the store)
        distinct = np.r_[True, (s[1:] != s[:-1]) | (o[1:] != o[:-1])]
        s, o = s[distinct], o[distinct]
    np.save(graph / "item_P31_s.npy", s)
    np.save(graph / "item_P31_o.npy", o)


def _write_node_labels(db: sqlite3.Connection, nodes: np.ndarray, graph: Path) -> None:
    """Main labels of the class nodes as an offsets array and a UTF-8 blob."""
    db.execute("CREATE TEMP TABLE n (i INTEGER PRIMARY KEY, qid INTEGER NOT NULL)")
    db.executemany("INSERT INTO n VALUES (?, ?)", ((i, int(q)) for i, q in enumerate(nodes)))
    offsets = np.zeros(nodes.size + 1, dtype=np.int64)
    with open(graph / "labels.bin", "wb") as blob:
        for i, text in db.execute("SELECT n.i, m.text FROM n JOIN main m ON m.qid = n.qid ORDER BY n.i"):
            data = text.encode("utf-8")
            blob.write(data)
            offsets[i + 1] = len(data)
    np.cumsum(offsets, out=offsets)
    np.save(graph / "labels_ptr.npy", offsets)
    db.execute("DROP TABLE n")
