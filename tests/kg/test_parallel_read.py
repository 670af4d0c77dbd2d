"""Reads spread over connections return what one connection returns."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from kg.parallel_read import MIN_PART, ParallelReader, run_in


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "k.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL)")
        db.executemany("INSERT INTO keys VALUES (?, ?)", [(i, f"name {i}") for i in range(20_000)])
    return path


def _reader(path: Path) -> ParallelReader:
    return ParallelReader(lambda: sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False), workers=4)


SQL = "SELECT id, key FROM keys WHERE id IN ({marks})"


@pytest.mark.parametrize("n", [0, 1, MIN_PART - 1, 2 * MIN_PART, 9_000])
def test_given_any_number_of_values_then_rows_equal_one_connection(db_path: Path, n: int) -> None:
    ids = list(range(3, 3 + 2 * n, 2))  # some beyond the table: no row
    main = sqlite3.connect(db_path, check_same_thread=False)
    reader = _reader(db_path)
    try:
        assert sorted(reader.rows(main, SQL, ids)) == sorted(run_in(main, SQL, ids))
        assert len(run_in(main, SQL, ids)) == sum(1 for i in ids if i < 20_000)
    finally:
        reader.close()


def _child(path: str, queue) -> None:  # pragma: no cover - runs in the forked child
    (reader,) = _SHARED
    main = sqlite3.connect(path, check_same_thread=False)  # a connection must not cross fork
    queue.put(len(reader.rows(main, SQL, list(range(5_000)))))


_SHARED: tuple = ()


def test_given_a_forked_child_then_it_reads_on_its_own_threads(db_path: Path) -> None:
    global _SHARED
    main = sqlite3.connect(db_path, check_same_thread=False)
    reader = _reader(db_path)
    assert len(reader.rows(main, SQL, list(range(5_000)))) == 5_000  # the parent's pool exists
    _SHARED = (reader,)
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child, args=(str(db_path), queue))
    child.start()
    child.join(60)
    assert child.exitcode == 0 and queue.get(timeout=5) == 5_000
    reader.close()
