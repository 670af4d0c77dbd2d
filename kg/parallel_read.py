"""One ``SELECT … WHERE x IN (…)`` spread over several read-only connections at once.

An approximate lookup at 1/10 of Wikidata reads a few hundred posting lists and up to
~1,300 candidate names, each on its own page of the index: on a cold page cache (this
machine's kernel evicts pages idle for ~30 s) one random page read costs ~0.1 ms, and
SQLite reads one page at a time, so the key fetch alone took 30–40 ms. Split over
:data:`WORKERS` connections in threads (SQLite releases the GIL while it reads), the disk
serves several reads at once: 2,000 random rows of the 1/10 index, cold, took 162 ms on
one connection and 48 ms on eight.

Small requests run on the caller's connection (a thread hand-off costs more than the reads
it would spread). The pool is created on first use and again in a forked child (threads do
not survive ``fork``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

#: Connections (and threads) reading at once.
WORKERS = 8
#: Values per part below which a request is not split.
MIN_PART = 48
#: SQLite's bound on host parameters, with room to spare.
MAX_PARAMS = 4000


class ParallelReader:
    """Runs ``SELECT … WHERE column IN (?, …)`` over parts of a list of values, on ``workers``
    connections opened by ``connect`` (each thread its own)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], *, workers: int = WORKERS) -> None:
        self._connect = connect
        self.workers = max(1, workers)
        self._local = threading.local()
        self._pool: ThreadPoolExecutor | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def _connection(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None or getattr(self._local, "pid", 0) != os.getpid():
            db = self._local.db = self._connect()
            self._local.pid = os.getpid()
        return db

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="taxogen-index-read")
                self._pid = os.getpid()
            return self._pool

    def rows(self, db: sqlite3.Connection, sql: str, values: Sequence[Any]) -> list[tuple]:
        """Rows of ``sql`` (holding one ``{marks}`` placeholder for the ``IN`` list) over ``values``:
        on ``db`` when they are few, else in parts on the pool's connections."""
        values = list(values)
        parts = min(self.workers, len(values) // MIN_PART)
        if parts <= 1:
            return run_in(db, sql, values)
        size = -(-len(values) // parts)
        chunks = [values[i : i + size] for i in range(0, len(values), size)]
        out: list[tuple] = []
        for found in self._executor().map(lambda part: run_in(self._connection(), sql, part), chunks):
            out += found
        return out

    def close(self) -> None:
        """Stop the threads (connections close with them)."""
        if self._pool is not None and self._pid == os.getpid():
            self._pool.shutdown(wait=True)
        self._pool = None


def run_in(db: sqlite3.Connection, sql: str, values: list[Any]) -> list[tuple]:
    """Rows of ``sql`` over ``values`` on ``db``, in parts under SQLite's bound on parameters."""
    out: list[tuple] = []
    for i in range(0, len(values), MAX_PARAMS):
        part = values[i : i + MAX_PARAMS]
        out += db.execute(sql.format(marks=",".join("?" * len(part))), part).fetchall()
    return out
