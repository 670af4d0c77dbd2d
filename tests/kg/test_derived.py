"""Indices derived from a store: built with it, read at run time, refused in one line when missing (kg.derived)."""

from __future__ import annotations

import json

import pytest

from kg import derived
from kg.derived import DerivedIndex, build_derived, derived_file
from kg.errors import KGError
from kg.store import KGStore


@pytest.fixture
def words_index(monkeypatch):
    """A registered index that writes the store's triple count (the registry restored after)."""
    monkeypatch.setattr(derived, "_REGISTERED", {})
    index = DerivedIndex("words", "1", lambda kg, path: path.write_text(str(len(kg))), "word")
    derived.register(index)
    return index


def _store(tmp_path) -> KGStore:
    import pyoxigraph as ox

    (tmp_path / "store" / "index").mkdir(parents=True)
    return KGStore(ox.Store(str(tmp_path / "store" / "oxigraph")), path=tmp_path / "store")


def test_given_a_built_index_then_its_file_is_read_and_the_manifest_names_its_version(tmp_path, words_index):
    kg = _store(tmp_path)
    seconds = build_derived(kg)
    assert set(seconds) == {"words"}
    assert derived_file(kg, "words").read_text() == "0"
    assert json.loads((tmp_path / "store" / "index" / "derived.json").read_text()) == {"words": "1"}


def test_given_a_store_without_the_index_then_one_line_names_the_command_that_builds_it(tmp_path, words_index):
    kg = _store(tmp_path)
    with pytest.raises(KGError) as err:
        derived_file(kg, "words")
    message = str(err.value)
    assert "\n" not in message and "has no word index" in message and f"taxogen kg index --store {kg.path}" in message


def test_given_an_index_of_another_version_then_it_is_refused_until_rebuilt(tmp_path, words_index, monkeypatch):
    kg = _store(tmp_path)
    build_derived(kg)
    derived.register(DerivedIndex("words", "2", words_index.build, "word"))
    with pytest.raises(KGError, match="has an older word index"):
        derived_file(kg, "words")
    build_derived(kg)
    assert derived_file(kg, "words").is_file()


def test_given_new_versions_then_the_digest_changes(words_index):
    before = derived.versions_digest()
    derived.register(DerivedIndex("words", "2", words_index.build))
    assert derived.versions_digest() != before
