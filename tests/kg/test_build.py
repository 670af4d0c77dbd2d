import json
import subprocess
import sys
import textwrap

import pyoxigraph as ox
import pytest

from kg import DumpError, KGError, KGStore, build_from_dump
from kg.store import META_FILE
from tests.conftest import FIXTURES, ROOT

NT = FIXTURES / "dump_sample.nt"
JS = FIXTURES / "dump_sample.json"
P279 = "http://www.wikidata.org/prop/direct/P279"


def test_given_dump_then_store_has_filtered_triples_overlay_and_metadata(tmp_path):
    report = build_from_dump(NT, tmp_path / "s", progress=False)
    assert report.triples == 17 and report.malformed == 3 and report.overlay_triples > 50
    kg = KGStore.read_only(tmp_path / "s")
    stats = kg.stats()
    assert stats.per_predicate[P279] == 4
    assert stats.named_graphs["urn:taxogen:overlay"] == report.overlay_triples
    meta = json.loads((tmp_path / "s" / META_FILE).read_text())
    assert meta["triples"] == 17 and meta["source"].endswith("dump_sample.nt")
    assert not list(tmp_path.glob(".s.building-*"))


def test_given_existing_store_when_build_fails_then_old_store_is_untouched(tmp_path, monkeypatch):
    build_from_dump(JS, tmp_path / "s", progress=False)
    before = KGStore.read_only(tmp_path / "s").stats().per_predicate

    import kg.build

    def boom(*a, **k):
        raise RuntimeError("disk full (simulated)")

    monkeypatch.setattr(kg.build, "_swap_in", boom)
    with pytest.raises(RuntimeError):
        build_from_dump(NT, tmp_path / "s", progress=False)
    assert KGStore.read_only(tmp_path / "s").stats().per_predicate == before
    assert not list(tmp_path.glob(".s.*"))


def test_given_existing_store_when_strict_build_hits_malformed_line_then_old_store_is_kept(tmp_path):
    build_from_dump(JS, tmp_path / "s", progress=False)
    with pytest.raises(DumpError):
        build_from_dump(NT, tmp_path / "s", progress=False, strict=True)
    assert KGStore.read_only(tmp_path / "s").stats().total == 18


def test_given_process_killed_just_before_swap_then_old_store_opens_and_next_build_cleans_up(tmp_path):
    build_from_dump(JS, tmp_path / "s", progress=False)
    script = textwrap.dedent(
        f"""
        import os, kg.build
        kg.build._swap_in = lambda work, target: os._exit(137)
        kg.build.build_from_dump({str(NT)!r}, {str(tmp_path / 's')!r}, progress=False)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT)
    assert proc.returncode == 137
    assert list(tmp_path.glob(".s.building-*")), "the killed build leaves its temporary directory"
    assert KGStore.read_only(tmp_path / "s").stats().total == 18
    build_from_dump(NT, tmp_path / "s", progress=False)
    assert not list(tmp_path.glob(".s.building-*"))
    assert KGStore.read_only(tmp_path / "s").stats().total == 17


def test_given_missing_store_then_clear_error(tmp_path):
    with pytest.raises(KGError, match="no taxogen store"):
        KGStore.read_only(tmp_path / "nothing")


def test_given_missing_dump_then_clear_error(tmp_path):
    with pytest.raises(KGError, match="no such dump"):
        build_from_dump(tmp_path / "missing.nt", tmp_path / "s", progress=False)


@pytest.mark.slow
def test_given_shared_seed_then_counts_per_predicate_match_provenance(seed_store):
    """The seed's counts, plus its class-labels supplement (5,791 labels, 1,576 descriptions)."""
    expected = {
        "P31": 96798, "P279": 54620, "P361": 1406, "P17": 51880, "P131": 53723, "P106": 91236,
        "P27": 22944, "P172": 3003, "P102": 3870, "P69": 14628, "P463": 14431, "P140": 3578,
        "P19": 11792, "P20": 7686, "P1549": 264,
    }
    stats = KGStore.read_only(seed_store).stats().per_predicate
    for prop, n in expected.items():
        assert stats["http://www.wikidata.org/prop/direct/" + prop] == n, prop
    assert stats["http://www.w3.org/2000/01/rdf-schema#label"] == 75449 + 5791
    assert stats["http://www.w3.org/2004/02/skos/core#altLabel"] == 22145
    assert stats["http://schema.org/description"] == 19154 + 1576
    assert sum(stats.values()) == 548607 + 7367


def test_given_labels_file_then_its_statements_are_loaded_with_the_dump_and_recorded(tmp_path):
    labels = tmp_path / "labels.nt"
    labels.write_text('<http://www.wikidata.org/entity/Q41487> <http://www.w3.org/2000/01/rdf-schema#label> "court"@en .\n'
                      '<http://www.wikidata.org/entity/Q41487> <http://example.org/unkept> "x" .\n', encoding="utf-8")
    report = build_from_dump(NT, tmp_path / "s", progress=False, labels=[labels])
    assert report.triples == 18 and report.label_triples == 1
    kg = KGStore.read_only(tmp_path / "s")
    label = next(iter(kg.raw.quads_for_pattern(ox.NamedNode("http://www.wikidata.org/entity/Q41487"),
                                                ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label"), None)))
    assert label.object.value == "court"
    meta = json.loads((tmp_path / "s" / META_FILE).read_text())
    assert meta["labels"] == [str(labels)] and meta["label_triples"] == 1


def test_given_labels_file_not_in_ntriples_then_build_fails_naming_it(tmp_path):
    labels = tmp_path / "labels.json"
    labels.write_text("[]", encoding="utf-8")
    with pytest.raises(DumpError, match="labels.json"):
        build_from_dump(NT, tmp_path / "s", progress=False, labels=[labels])
    assert not (tmp_path / "s").exists()
