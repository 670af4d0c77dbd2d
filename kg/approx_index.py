"""Approximate name lookup on disk: a partition (segment) index in SQLite.

Names within ``t`` normalised edit distance of a key (``d / max(len) < t``) are found
exactly, without scanning, by the partition principle (Li et al., *Pass-Join*, VLDB 2011):

- a name ``r`` of length ``l`` can be within ``t`` of a key only with at most
  ``D(l)`` edits, the largest ``d`` with ``d < t·(l + d)`` (:func:`max_edits`);
- ``r`` is cut into ``D(l) + 1`` even segments (:func:`segments`); ``d ≤ D(l)`` edits leave
  at least one segment untouched, and an untouched segment starting at ``p`` in ``r``
  occurs in the key at a position within ``p ± d`` (``d`` edits shift it by at most ``d``);
- so the index holds one row per segment, keyed by a hash of (name length, segment
  number, segment text), and a lookup asks for the key's substrings at those positions
  for every name length in ``n ± d``: a few dozen B-tree seeks
  (``segs (h, id)``, ``WITHOUT ROWID``), whatever the number of names.

Hash collisions only add candidates: rapidfuzz computes the distance of every candidate.
The index is built for one threshold (:data:`APPROX_THRESHOLD`, the linker's); a lookup
with a larger threshold would miss names, so it is refused.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kg.parallel_read import ParallelReader, run_in

#: The normalised edit distance the segment index is built for (the linker's ``approx_threshold``).
APPROX_THRESHOLD = 0.15


def max_edits(n: int, threshold: float) -> int:
    """The most edits a name can be from a string of ``n`` characters and stay below ``threshold``
    (``d < threshold · (n + d)``: the longer string has at most ``n + d`` characters)."""
    d = 0
    while d + 1 < threshold * (n + d + 1):
        d += 1
    return d


@lru_cache(maxsize=4096)
def segments(length: int, threshold: float = APPROX_THRESHOLD) -> tuple[tuple[int, int], ...]:
    """The even partition of a name of ``length`` characters: ``(start, size)`` of its
    ``max_edits(length) + 1`` segments (the last ``length mod k`` one character longer)."""
    return even_partition(length, min(max_edits(length, threshold) + 1, max(length, 1)))


def even_partition(length: int, k: int) -> tuple[tuple[int, int], ...]:
    """``(start, size)`` of ``k`` consecutive parts of ``length`` characters, the last
    ``length mod k`` one character longer."""
    base, extra = divmod(length, k)
    out, start = [], 0
    for i in range(k):
        size = base + (1 if i >= k - extra else 0)
        out.append((start, size))
        start += size
    return tuple(out)


def _load_raw(db: sqlite3.Connection, table: str, rows: Iterable[tuple[int, int]], batch: int) -> int:
    """Rows ``(hash, id)`` written in batches into a fresh temporary table ``table``; their count."""
    db.execute(f"DROP TABLE IF EXISTS temp.{table}")
    db.execute(f"CREATE TEMP TABLE {table} (h INTEGER NOT NULL, id INTEGER NOT NULL)")
    total = 0
    chunk: list[tuple[int, int]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= batch:
            db.executemany(f"INSERT INTO temp.{table} VALUES (?, ?)", chunk)
            total += len(chunk)
            chunk.clear()
    if chunk:
        db.executemany(f"INSERT INTO temp.{table} VALUES (?, ?)", chunk)
        total += len(chunk)
    return total


def seg_hash(length: int, i: int, text: str) -> int:
    """A 63-bit key of (name length, segment number, segment text)."""
    return (((length << 6) | min(i, 63)) << 32) | zlib.crc32(text.encode("utf-8"))


def name_rows(key_id: int, name: str, threshold: float = APPROX_THRESHOLD) -> Iterator[tuple[int, int]]:
    """The index rows ``(hash, id)`` of one name."""
    n = len(name)
    crc = zlib.crc32
    for i, (start, size) in enumerate(segments(n, threshold)):
        yield ((((n << 6) | min(i, 63)) << 32) | crc(name[start : start + size].encode("utf-8"))), key_id


def probe_hashes(key: str, threshold: float, built_for: float = APPROX_THRESHOLD) -> list[int]:
    """The hashes a name within ``threshold`` of ``key`` has at least one of."""
    if threshold > built_for + 1e-12:
        raise ValueError(f"the approximate index was built for a threshold of {built_for}; {threshold} would miss names")
    n = len(key)
    d = max_edits(n, threshold)
    out: set[int] = set()
    for length in range(max(1, n - d), n + d + 1):
        for i, (start, size) in enumerate(segments(length, built_for)):
            for pos in range(max(0, start - d), min(n - size, start + d) + 1):
                out.add(seg_hash(length, i, key[pos : pos + size]))
    return sorted(out)


SCHEMA = "CREATE TABLE IF NOT EXISTS segs (h INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (h, id)) WITHOUT ROWID"


def build_segments(db: sqlite3.Connection, names: Iterable[tuple[int, str]], *, batch: int = 200_000) -> int:
    """Write ``segs`` for ``(id, name)`` pairs (SQLite sorts on disk: memory stays bounded); rows written."""
    total = _load_raw(db, "segs_raw", (r for key_id, name in names for r in name_rows(key_id, name)), batch)
    db.execute("DROP TABLE IF EXISTS segs")
    db.execute(SCHEMA)
    db.execute("INSERT OR IGNORE INTO segs SELECT h, id FROM temp.segs_raw ORDER BY h, id")
    db.execute("DROP TABLE temp.segs_raw")
    return total


def candidates(db: sqlite3.Connection, key: str, threshold: float) -> list[str]:
    """Names that may be within ``threshold`` of ``key`` (every one that is, and a few more)."""
    hashes = probe_hashes(key, threshold)
    return [k for (k,) in run_in(db, "SELECT key FROM keys WHERE id IN (SELECT id FROM segs WHERE h IN ({marks}))", hashes)]


# --- the finer partition, probed at its rarest pieces ------------------------------------------
#: Pieces are at least this many characters long. 2, because with 3, names of 12–17
#: characters got only four or five pieces, and names sharing a common last word
#: (" school", " museum") held two of them, so the count filter (two of four) kept every
#: such name of the length: up to 36,000 candidates at 1/10 of Wikidata, whose keys took
#: about 33 ms to fetch. Two-character pieces give ``2·D + 2`` pieces to more lengths:
#: on 800,000 names of the 1/10 store, candidates p99 3,694 → 347 and lookup p99 4.4 →
#: 1.5 ms for 2.3× the postings read and 30 % more posting bytes. An index records the
#: size it was built with (``piece_meta``) and is probed with it.
MIN_PIECE = 2
#: ``piece_lists (h, c, ids)``: per hash of (name length, piece number, piece text), the
#: number of names and their ids (a packed little-endian uint32 array: a lookup reads a
#: whole posting list as one value, not row by row); ``piece_meta``: the threshold and
#: piece size the index was built for.
PIECES_SCHEMA = """
CREATE TABLE piece_lists (h INTEGER PRIMARY KEY, c INTEGER NOT NULL, ids BLOB NOT NULL);
CREATE TABLE piece_meta (threshold REAL NOT NULL, min_piece INTEGER NOT NULL);
"""


def name_edits(length: int, threshold: float) -> int:
    """The most edits a name of ``length`` characters can be from a key and stay below ``threshold``
    (as rapidfuzz measures it, ``d / max(len) < threshold``, and the longer string has at most
    ``length + d`` characters)."""
    d = 0
    while (d + 1) / (length + d + 1) < threshold:
        d += 1
    return d


def pair_edits(n: int, length: int, threshold: float) -> int:
    """The most edits between a key of ``n`` and a name of ``length`` characters below ``threshold``
    (``-1`` when their lengths alone put them too far apart)."""
    longest = max(n, length)
    e = 0
    while (e + 1) / longest < threshold:
        e += 1
    e = min(e, name_edits(length, threshold))
    return e if abs(n - length) <= e else -1


@lru_cache(maxsize=4096)
def pieces(length: int, threshold: float = APPROX_THRESHOLD, min_piece: int = MIN_PIECE) -> tuple[tuple[int, int], ...]:
    """The even partition of a name of ``length`` characters into ``m`` pieces, ``(start, size)``:
    ``2·D + 2`` pieces (``D`` = :func:`name_edits`) as far as each keeps ``min_piece``
    characters, never fewer than ``D + 1`` (so ``D`` edits leave one piece whole)."""
    d = name_edits(length, threshold)
    return even_partition(length, min(max(d + 1, min(2 * d + 2, length // max(min_piece, 1))), max(length, 1)))


def piece_rows(key_id: int, name: str, threshold: float = APPROX_THRESHOLD, min_piece: int = MIN_PIECE) -> Iterator[tuple[int, int]]:
    """The rows ``(hash, id)`` of one name in ``pieces``."""
    n = len(name)
    crc = zlib.crc32
    for i, (start, size) in enumerate(pieces(n, threshold, min_piece)):
        yield ((((n << 6) | min(i, 63)) << 32) | crc(name[start : start + size].encode("utf-8"))), key_id


def build_pieces(db: sqlite3.Connection, names: Iterable[tuple[int, str]], *, batch: int = 200_000,
                 threshold: float = APPROX_THRESHOLD, min_piece: int = MIN_PIECE) -> int:
    """Write ``pieces``, ``piece_counts`` and ``piece_meta`` for ``(id, name)`` pairs (SQLite sorts
    on disk: memory stays bounded); rows written."""
    rows = (r for key_id, name in names for r in piece_rows(key_id, name, threshold, min_piece))
    total = _load_raw(db, "pieces_raw", rows, batch)
    write_pieces(db, "temp.pieces_raw", threshold=threshold, min_piece=min_piece)
    db.execute("DROP TABLE temp.pieces_raw")
    return total


def write_pieces(db: sqlite3.Connection, raw: str, *, threshold: float = APPROX_THRESHOLD, min_piece: int = MIN_PIECE,
                 chunk: int = 1_000_000) -> None:
    """``piece_lists`` and ``piece_meta`` from a table ``raw (h, id)`` of unsorted rows (SQLite
    sorts on disk; the sorted rows are packed into posting lists chunk by chunk)."""
    db.executescript("DROP TABLE IF EXISTS piece_lists; DROP TABLE IF EXISTS piece_meta;" + PIECES_SCHEMA)
    read = db.cursor()
    read.execute(f"SELECT DISTINCT h, id FROM {raw} ORDER BY h, id")
    carry_h, carry_ids = None, np.zeros(0, np.uint32)
    while True:
        rows = read.fetchmany(chunk)
        if not rows:
            break
        a = np.array(rows, dtype=np.int64)
        h, ids = a[:, 0], a[:, 1]
        if ids.size and int(ids.max()) > np.iinfo(np.uint32).max:
            raise ValueError("more names than the piece index holds (2^32)")
        starts = np.flatnonzero(np.r_[True, h[1:] != h[:-1]])
        ends = np.r_[starts[1:], h.size]
        out = []
        for k, (a0, a1) in enumerate(zip(starts.tolist(), ends.tolist())):
            part = ids[a0:a1].astype("<u4")
            if k == 0 and carry_h is not None and int(h[a0]) == carry_h:
                part = np.concatenate([carry_ids, part])
            elif k == 0 and carry_h is not None:
                out.append((carry_h, int(carry_ids.size), carry_ids.tobytes()))
            if k == len(starts) - 1:
                carry_h, carry_ids = int(h[a0]), part
            else:
                out.append((int(h[a0]), int(part.size), part.tobytes()))
        db.executemany("INSERT INTO piece_lists VALUES (?, ?, ?)", out)
    if carry_h is not None:
        db.execute("INSERT INTO piece_lists VALUES (?, ?, ?)", (carry_h, int(carry_ids.size), carry_ids.tobytes()))
    db.execute("INSERT INTO piece_meta VALUES (?, ?)", (threshold, min_piece))


@dataclass(frozen=True)
class ProbePlan:
    """What a lookup of one key asks: per name length, the edits allowed and, per piece, its hashes."""

    lengths: tuple[tuple[int, int, tuple[tuple[int, ...], ...]], ...]

    def hashes(self) -> list[int]:
        return sorted({h for _, _, groups in self.lengths for g in groups for h in g})


def probe_plan(key: str, threshold: float, built_for: float = APPROX_THRESHOLD, min_piece: int = MIN_PIECE) -> ProbePlan:
    """Per name length that can be within ``threshold`` of ``key``: the edits ``e`` allowed and,
    for each piece of the partition, the hashes of the key's substrings an untouched piece can
    match (a piece starting at ``p`` is shifted by ``x`` with ``|x| + |Δ - x| ≤ e``, ``Δ = n - length``)."""
    if threshold > built_for + 1e-12:
        raise ValueError(f"the approximate index was built for a threshold of {built_for}; {threshold} would miss names")
    n = len(key)
    if not n:
        return ProbePlan(())
    out = []
    lo = max(1, n - name_edits(n, threshold) - 1)
    hi = int(n / max(1e-9, 1 - threshold)) + 2
    for length in range(lo, hi + 1):
        e = pair_edits(n, length, threshold)
        if e < 0:
            continue
        delta = n - length
        x_lo, x_hi = -((e - delta) // 2), (delta + e) // 2
        groups = []
        for i, (start, size) in enumerate(pieces(length, built_for, min_piece)):
            tag = ((length << 6) | min(i, 63)) << 32
            hs = {tag | zlib.crc32(key[p : p + size].encode("utf-8"))
                  for p in range(max(0, start + x_lo), min(n - size, start + x_hi) + 1)}
            groups.append(tuple(sorted(hs)))
        out.append((length, e, tuple(groups)))
    return ProbePlan(tuple(out))


class PieceIndex:
    """Reads ``piece_lists``: per name length, every piece's posting list; a name is a candidate
    when it holds at least ``m - e`` of its ``m`` pieces (``e`` edits touch at most ``e``)."""

    def __init__(self, db: sqlite3.Connection, reader: ParallelReader | None = None) -> None:
        self._db = db
        self._reader = reader  # spreads the posting-list and key reads over connections (cold pages)
        row = db.execute("SELECT threshold, min_piece FROM piece_meta").fetchone()
        self.threshold, self.min_piece = float(row[0]), int(row[1])
        self.last_postings = 0  # postings read by the last lookup (for measurements)

    @staticmethod
    def present(db: sqlite3.Connection) -> bool:
        return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'piece_lists'").fetchone() is not None

    def _rows(self, sql: str, values: list[int]) -> list[tuple]:
        if self._reader is not None:
            return self._reader.rows(self._db, sql, values)
        return run_in(self._db, sql, values)

    def _lists(self, hashes: list[int]) -> dict[int, np.ndarray]:
        rows = self._rows("SELECT h, ids FROM piece_lists WHERE h IN ({marks})", hashes)
        return {h: np.frombuffer(blob, dtype="<u4") for h, blob in rows}

    def candidate_ids(self, key: str, threshold: float) -> np.ndarray:
        """Ids of the names that may be within ``threshold`` of ``key`` (every one that is)."""
        plan = probe_plan(key, threshold, self.threshold, self.min_piece)
        lists = self._lists(plan.hashes())
        out: list[np.ndarray] = []
        total = 0
        for _, e, groups in plan.lengths:
            parts = [lists[h] for g in groups for h in g if h in lists]
            if not parts:
                continue
            ids = np.concatenate(parts)
            total += ids.size
            need = len(groups) - e
            if need <= 1:
                out.append(ids)
                continue
            uniq, counts = np.unique(ids, return_counts=True)
            out.append(uniq[counts >= need])
        self.last_postings = total
        return np.unique(np.concatenate(out)) if out else np.zeros(0, np.uint32)

    def candidates(self, key: str, threshold: float) -> list[str]:
        """Names that may be within ``threshold`` of ``key`` (every one that is, and some more)."""
        ids = self.candidate_ids(key, threshold).tolist()
        return [k for (k,) in self._rows("SELECT key FROM keys WHERE id IN ({marks})", ids)]
