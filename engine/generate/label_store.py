"""The linker's label index over a store's ``index/labels.sqlite`` (see :mod:`kg.index`).

:class:`SqliteLabelIndex` offers what :class:`engine.generate.linking.Linker` asks of
:class:`engine.generate.linking.LabelIndex` — ``lookup`` (exact label, then alias), ``demonyms``,
``main_label``, ``labels``, ``add``, ``approximate`` — from SQLite, opened read-only, so
start-up reads nothing and memory does not grow with the number of labels:

- exact, alias, normalised, contained and demonym lookups: one B-tree lookup each
  (``names (key, kind, qid)``);
- approximate (normalised edit distance below a threshold): the segment index
  (:mod:`kg.approx_index`) yields every name that can be within the threshold in a few
  B-tree seeks, and rapidfuzz computes the distance of each. Indices written before it
  hold an FTS5 trigram index instead, read as follows. The q-gram lemma bounds the
  edit distance ``d`` a candidate of a key of ``n`` characters can have (``d < t·(n+d)``)
  and says that such a candidate shares at least ``n - 2 - 3d`` of the key's ``n - 2``
  trigrams; it misses at most ``3d`` distinct trigrams, so of ``3d + 1`` disjoint groups of
  the key's trigrams it holds every trigram of at least one. The FTS5 trigram index
  answers that OR of ANDs (groups of 2–3 trigrams, one rare each, when the key is long
  enough; else the ``3d + 1`` rarest single trigrams) within the length window, and
  rapidfuzz computes the distance on the few candidates.

Labels added at run time (remote fallback) are kept in memory on top.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import pyoxigraph as ox
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from kg.approx_index import PieceIndex, candidates, max_edits
from kg.parallel_read import ParallelReader, run_in
from kg.index import ALIAS, DEMONYM, LABEL, LABELS_DB, require_index
from kg.text import fold
from kg.indexed import CACHE_GRAPH_PREFIX
from kg.store import KGStore
from kg.vocab import RDFS_LABEL, SKOS_ALT, WDT, local_id, qid_number
from engine.types import LinkMethod

_CACHE = 50_000


class _Cache(OrderedDict):
    def put(self, key, value):
        self[key] = value
        if len(self) > _CACHE:
            self.popitem(last=False)
        return value


class _Names:
    """``.get(key, default)`` of the items named ``key`` (one kind), sorted by Q-number."""

    def __init__(self, index: "SqliteLabelIndex", kind: int) -> None:
        self._index, self._kind = index, kind
        self.added: dict[str, list[str]] = {}

    def get(self, key: str, default: Iterable[str] = ()) -> list[str] | Iterable[str]:
        found = self._index.items_named(key, self._kind)
        extra = self.added.get(key)
        if extra:
            found = sorted(set(found) | set(extra), key=qid_number)
        return found if found else default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and bool(self.get(key))

    def items(self) -> Iterator[tuple[str, list[str]]]:
        """Every (name, items) pair: a pass over the whole table (prefer ``names_of`` per item)."""
        rows = self._index.name_rows(self._kind)
        for key, group in groupby(rows, key=itemgetter(0)):
            yield key, sorted({f"Q{q}" for _, q in group} | set(self.added.get(key, ())), key=qid_number)
        for key, extra in self.added.items():
            if not self._index.items_named(key, self._kind):
                yield key, sorted(set(extra), key=qid_number)

    def __getitem__(self, key: str) -> list[str]:
        found = self.get(key)
        if not found:
            raise KeyError(key)
        return list(found)


class _MainLabels:
    """``.get(qid, default)``: the item's main label."""

    def __init__(self, index: "SqliteLabelIndex") -> None:
        self._index = index
        self.added: dict[str, str] = {}

    def get(self, qid: str, default: str | None = None) -> str | None:
        row = self._index.stored_main_label(qid)
        if row is not None:
            return row[0]
        return self.added.get(qid, default)

    def setdefault(self, qid: str, text: str) -> str:
        current = self.get(qid)
        if current is None:
            self.added[qid] = text
            return text
        return current

    def __contains__(self, qid: object) -> bool:
        return isinstance(qid, str) and self.get(qid) is not None


class SqliteLabelIndex:
    """Folded labels, aliases and demonyms of a store, looked up in ``index/labels.sqlite``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = self._connect()
        prom = self.path.parent / "prominence.npy"
        if prom.is_file():
            self._prom_qid = np.load(self.path.parent / "prominence_qid.npy", mmap_mode="r")
            self._prominence = np.load(prom, mmap_mode="r")
        else:
            self._prom_qid, self._prominence = np.zeros(0, np.int64), np.zeros(0, np.int32)
        self.labels = _Names(self, LABEL)
        self.aliases = _Names(self, ALIAS)
        self.demonyms = _Names(self, DEMONYM)
        self.main_label = _MainLabels(self)
        self._name_cache: _Cache = _Cache()
        self._main_cache: _Cache = _Cache()
        self._freq_cache: _Cache = _Cache()
        self._reader = ParallelReader(self._connect)
        self._pieces = PieceIndex(self._db, self._reader) if PieceIndex.present(self._db) else None
        self._segments = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'segs'").fetchone() is not None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        db.execute("PRAGMA query_only = 1")
        return db

    @classmethod
    def from_store(cls, kg: KGStore) -> "SqliteLabelIndex":
        """Open the label index of ``kg`` (raises :class:`KGError` with the fix when missing)
        and add the names held in its remote-cache graphs (answers fetched earlier)."""
        index = cls(require_index(kg) / LABELS_DB)
        kinds = {RDFS_LABEL: "label", SKOS_ALT: "alias", WDT + "P1549": "demonym"}
        for graph in kg.raw.named_graphs():
            if not (isinstance(graph, ox.NamedNode) and graph.value.startswith(CACHE_GRAPH_PREFIX)):
                continue
            for quad in kg.raw.quads_for_pattern(None, None, None, graph):
                kind = kinds.get(quad.predicate.value)
                s, o = quad.subject, quad.object
                if kind is None or not isinstance(o, ox.Literal) or not isinstance(s, ox.NamedNode):
                    continue
                qid = local_id(s.value)
                if kind == "demonym":
                    items = index.demonyms.added.setdefault(fold(o.value), [])
                    if qid not in items:
                        items.append(qid)
                elif qid.startswith("Q"):
                    index.add(qid, o.value, kind)
        return index

    # --- reads ----------------------------------------------------------------------------
    def items_named(self, key: str, kind: int) -> list[str]:
        """The items (Q-ids, sorted by number) with the folded name ``key`` of ``kind`` in the table (cached)."""
        ck = (key, kind)
        if ck in self._name_cache:
            return self._name_cache[ck]
        rows = self._db.execute("SELECT qid FROM names WHERE key = ? AND kind = ? ORDER BY qid", (key, kind)).fetchall()
        out: list[str] = []
        for (q,) in rows:
            if not out or out[-1] != f"Q{q}":
                out.append(f"Q{q}")
        return self._name_cache.put(ck, out)

    def name_rows(self, kind: int) -> Iterator[tuple[str, int]]:
        """Every ``(folded name, Q-number)`` row of ``kind`` in the table, by name then number."""
        return self._db.execute("SELECT key, qid FROM names WHERE kind = ? ORDER BY key, qid", (kind,))

    def names_with_word(self, word: str) -> list[tuple[str, str]]:
        """``(folded label, item)`` of every label holding the folded ``word`` as a whole
        word, found through the labels' full-text index (``name_words``), cached per word."""
        ck = ("word", word)
        if ck in self._name_cache:
            return self._name_cache[ck]
        if any(ch.isalnum() for ch in word):
            # the phrase of the word's tokens: every label holding the word, and a few more
            # ("st." also finds "st louis"), which the whole-word test below leaves out
            phrase = '"' + word.replace('"', '""') + '"'
            rows = self._db.execute(
                "SELECT n.key, n.qid FROM name_words JOIN names AS n ON n.rowid = name_words.rowid "
                "WHERE name_words MATCH ? AND n.kind = ?", (phrase, LABEL)).fetchall()
        else:  # no token to search for ("&"): read the labels
            rows = self._db.execute("SELECT key, qid FROM names WHERE kind = ? AND instr(key, ?) > 0", (LABEL, word)).fetchall()
        found = [(key, f"Q{q}") for key, q in rows if word in key.split()]
        found += [(key, q) for key, items in self.labels.added.items() if word in key.split() for q in items]
        return self._name_cache.put(ck, found)

    def stored_main_label(self, qid: str) -> tuple[str] | None:
        """The row ``(main label,)`` of ``qid`` in the table, or None (cached)."""
        if qid in self._main_cache:
            return self._main_cache[qid]
        if qid[:1] != "Q" or not qid[1:].isdigit():
            return None
        row = self._db.execute("SELECT text FROM main WHERE qid = ?", (int(qid[1:]),)).fetchone()
        return self._main_cache.put(qid, row)

    def names_of(self, qid: str) -> list[tuple[str, str]]:
        """The folded names of ``qid`` as ``(name, kind)``, kind ``label``, ``alias`` or ``demonym``."""
        if qid[:1] != "Q" or not qid[1:].isdigit():
            return []
        kinds = {LABEL: "label", ALIAS: "alias", DEMONYM: "demonym"}
        out = [(k, kinds[kind]) for k, kind in self._db.execute("SELECT key, kind FROM names WHERE qid = ?", (int(qid[1:]),))]
        for table, kind in ((self.labels, "label"), (self.aliases, "alias"), (self.demonyms, "demonym")):
            out += [(k, kind) for k, items in table.added.items() if qid in items and (k, kind) not in out]
        return out

    def main_labels(self, qids: list[str]) -> dict[str, str]:
        """The main label of each of ``qids`` that has one: the ones not cached read in one
        query, in Q-number order (instead of one query per item)."""
        missing = sorted({int(q[1:]) for q in qids if q[:1] == "Q" and q[1:].isdigit() and q not in self._main_cache})
        if missing:
            found = dict(run_in(self._db, "SELECT qid, text FROM main WHERE qid IN ({marks})", missing))
            for n in missing:
                self._main_cache.put(f"Q{n}", (found[n],) if n in found else None)
        out: dict[str, str] = {}
        for q in qids:
            label = self.main_label.get(q)
            if label is not None:
                out[q] = label
        return out

    def prominences(self, qids: list[str]) -> list[int]:
        """``prominence`` of each of ``qids``."""
        return [self.prominence(q) for q in qids]

    def prominence(self, qid: str) -> int:
        """Sitelinks (or incoming statements) of ``qid``; 0 when unknown."""
        if qid[:1] != "Q" or not qid[1:].isdigit():
            return 0
        n = int(qid[1:])
        i = int(np.searchsorted(self._prom_qid, n))
        return int(self._prominence[i]) if i < self._prom_qid.size and int(self._prom_qid[i]) == n else 0

    def lookup(self, key: str) -> list[tuple[str, LinkMethod]]:
        out = [(q, LinkMethod.EXACT) for q in self.labels.get(key, ())]
        seen = {q for q, _ in out}
        out += [(q, LinkMethod.ALIAS) for q in self.aliases.get(key, ()) if q not in seen]
        return out

    def add(self, qid: str, text: str, kind: str = "label") -> None:
        """Add a label or alias (e.g. fetched remotely), kept in memory."""
        key = fold(text)
        table = self.labels if kind == "label" else self.aliases
        items = table.added.setdefault(key, [])
        if qid not in items:
            items.append(qid)
        if kind == "label":
            self.main_label.setdefault(qid, text)

    # --- approximate ----------------------------------------------------------------------
    def _gram_freqs(self, grams: list[str]) -> dict[str, int]:
        """Names holding each trigram (one query for the ones not cached)."""
        missing = [g for g in grams if g not in self._freq_cache]
        if missing:
            found = dict(self._db.execute(f"SELECT g, c FROM grams WHERE g IN ({','.join('?' * len(missing))})", missing).fetchall())
            for g in missing:
                self._freq_cache.put(g, int(found.get(g, 0)))
        return {g: self._freq_cache[g] for g in grams}

    def approximate(self, key: str, threshold: float, limit: int = 5) -> list[tuple[float, str]]:
        """Names within ``threshold`` normalised edit distance of ``key``, best first: ``(distance, name)``."""
        if self._pieces is not None or self._segments:
            n = len(key)
            d_max = max_edits(n, threshold)
            cands = self._pieces.candidates(key, threshold) if self._pieces is not None else candidates(self._db, key, threshold)
            cands += [k for table in (self.labels, self.aliases) for k in table.added if abs(len(k) - n) <= d_max]
            found = process.extract(key, cands, scorer=Levenshtein.normalized_distance, score_cutoff=threshold, limit=None)
            return sorted({(d, cand) for cand, d, _ in found if d < threshold})[:limit]
        return self._approximate_fts(key, threshold, limit)

    def _approximate_fts(self, key: str, threshold: float, limit: int = 5) -> list[tuple[float, str]]:
        """The same from an FTS5 trigram index (indices written before the segment index)."""
        n = len(key)
        d_max = 0
        while d_max + 1 < threshold * (n + d_max + 1):
            d_max += 1
        grams = sorted({key[i : i + 3] for i in range(n - 2)})
        if not grams:
            return []
        freq = self._gram_freqs(grams)
        pool = sorted(grams, key=lambda g: (freq[g], g))
        m = 3 * d_max + 1  # a name within d_max edits misses at most 3·d_max of the key's trigrams
        size = min(3, len(pool) // m)
        if size >= 2:
            # m disjoint groups (one rare trigram each, then commoner ones): a match holds every
            # trigram of at least one group, and an AND of trigrams is far more selective
            groups = [pool[i::m][:size] for i in range(m)]
        else:
            groups = [[g] for g in pool[:m]]
        groups = [g for g in groups if all(freq[t] > 0 for t in g)]
        extra = [k for table in (self.labels, self.aliases) for k in table.added if abs(len(k) - n) <= d_max]
        if not groups and not extra:
            return []
        cands = list(extra)
        if groups:
            expr = " OR ".join("(" + " AND ".join('"' + t.replace('"', '""') + '"' for t in g) + ")" for g in groups)
            lo, hi = self._db.execute("SELECT min(lo), max(hi) FROM lengths WHERE n BETWEEN ? AND ?", (n - d_max, n + d_max)).fetchone()
            if lo is not None:
                cands += [
                    k for (k,) in self._db.execute(
                        "SELECT k.key FROM approx JOIN keys k ON k.id = approx.rowid "
                        "WHERE approx MATCH ? AND approx.rowid BETWEEN ? AND ?",
                        (expr, lo, hi),
                    )
                ]
        found = process.extract(key, cands, scorer=Levenshtein.normalized_distance, score_cutoff=threshold, limit=None)
        best = sorted({(d, cand) for cand, d, _ in found if d < threshold})
        return best[:limit]


def open_label_index(kg: KGStore):
    """The linker's label index: ``index/labels.sqlite`` of an on-disk store (:class:`KGError`
    when it has none), every label read into memory for an in-memory store."""
    if kg.path is None:
        from engine.generate.linking import LabelIndex

        return LabelIndex.from_store(kg)
    return SqliteLabelIndex.from_store(kg)
