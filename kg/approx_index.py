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
from functools import lru_cache

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
    k = min(max_edits(length, threshold) + 1, max(length, 1))
    base, extra = divmod(length, k)
    out, start = [], 0
    for i in range(k):
        size = base + (1 if i >= k - extra else 0)
        out.append((start, size))
        start += size
    return tuple(out)


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
    db.execute("DROP TABLE IF EXISTS temp.segs_raw")
    db.execute("CREATE TEMP TABLE segs_raw (h INTEGER NOT NULL, id INTEGER NOT NULL)")
    rows: list[tuple[int, int]] = []
    total = 0
    for key_id, name in names:
        rows.extend(name_rows(key_id, name))
        if len(rows) >= batch:
            db.executemany("INSERT INTO temp.segs_raw VALUES (?, ?)", rows)
            total += len(rows)
            rows.clear()
    if rows:
        db.executemany("INSERT INTO temp.segs_raw VALUES (?, ?)", rows)
        total += len(rows)
    db.execute("DROP TABLE IF EXISTS segs")
    db.execute(SCHEMA)
    db.execute("INSERT OR IGNORE INTO segs SELECT h, id FROM temp.segs_raw ORDER BY h, id")
    db.execute("DROP TABLE temp.segs_raw")
    return total


def candidates(db: sqlite3.Connection, key: str, threshold: float) -> list[str]:
    """Names that may be within ``threshold`` of ``key`` (every one that is, and a few more)."""
    hashes = probe_hashes(key, threshold)
    if not hashes:
        return []
    out: list[str] = []
    for i in range(0, len(hashes), 4000):  # under SQLite's bound on query parameters
        part = hashes[i : i + 4000]
        marks = ",".join("?" * len(part))
        out += [k for (k,) in db.execute(f"SELECT key FROM keys WHERE id IN (SELECT id FROM segs WHERE h IN ({marks}))", part)]
    return out
