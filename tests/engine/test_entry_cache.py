"""The gazetteer entries' disk cache (engine.detect.entry_cache)."""

from __future__ import annotations

import os

from engine.detect.entry_cache import cached_entries
from engine.detect.gazetteer import GazetteerEntry
from engine.types import EntityType as E

ENTRIES = [GazetteerEntry("Oslo", "Q585", E.LOC, "place"), GazetteerEntry("geologist", "Q520549", E.DEM, "occupation")]


def test_entries_are_read_once_then_from_the_cache_and_again_when_the_index_changes(tmp_path):
    index = tmp_path / "index"
    index.mkdir()
    (index / "labels.sqlite").write_bytes(b"x")
    calls = []

    def read():
        calls.append(1)
        return iter(ENTRIES)

    cache = tmp_path / "cache"
    assert cached_entries(index, read, directory=cache) == ENTRIES
    assert cached_entries(index, read, directory=cache) == ENTRIES
    assert len(calls) == 1 and len(list(cache.iterdir())) == 1
    (index / "labels.sqlite").write_bytes(b"rebuilt")  # a rebuilt index: a new key
    os.utime(index / "labels.sqlite", ns=(1, 1))
    assert cached_entries(index, read, directory=cache) == ENTRIES
    assert len(calls) == 2


def test_an_unwritable_or_corrupt_cache_is_skipped(tmp_path):
    index = tmp_path / "index"
    index.mkdir()
    (index / "labels.sqlite").write_bytes(b"x")
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    assert cached_entries(index, lambda: iter(ENTRIES), directory=blocked / "sub") == ENTRIES
    cache = tmp_path / "cache"
    cached_entries(index, lambda: iter(ENTRIES), directory=cache)
    for p in cache.iterdir():
        p.write_bytes(b"corrupt")
    assert cached_entries(index, lambda: iter(ENTRIES), directory=cache) == ENTRIES
