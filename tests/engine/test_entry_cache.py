"""The gazetteer's entries as an index derived from a store (engine.detect.entry_cache)."""

from __future__ import annotations

from engine.detect.entry_cache import GAZETTEER_INDEX, entries_version, read_entries, write_entries
from engine.detect.gazetteer import GazetteerEntry
from engine.types import EntityType as E

ENTRIES = [GazetteerEntry("Oslo", "Q585", E.LOC, "place"), GazetteerEntry("geologist", "Q520549", E.DEM, "occupation")]


def test_given_written_entries_then_reading_them_gives_the_same_entries(tmp_path):
    assert write_entries(tmp_path / "gazetteer", ENTRIES) == 2
    assert read_entries(tmp_path / "gazetteer") == ENTRIES
    assert [p.name for p in tmp_path.iterdir()] == ["gazetteer"]  # no partial file left


def test_given_other_hops_then_the_version_differs_and_the_registered_index_has_the_default():
    assert entries_version(4) != entries_version() == GAZETTEER_INDEX.version
