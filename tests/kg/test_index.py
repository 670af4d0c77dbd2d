"""Derived indices (kg/index.py, kg/indexed.py, engine/generate/label_store.py) and the parallel filter (kg/parallel.py, kg/ntfilter.py, kg/dump_reader.py).

Fast tests build the shipped sample graph into a store (with its indices) and compare every
answer with the in-memory views read from the same graph; slow tests do the same on the seed.
"""

from __future__ import annotations

import gzip
import random
import shutil
from pathlib import Path

import pytest
from rapidfuzz.distance import Levenshtein

from kg import ChainIndex, DumpReport, KGError, KGStore, build_from_dump, read_dump
from kg.chains import PreloadedTaxonomy
from kg.index import has_index, index_store
from kg.indexed import IndexedTaxonomy
from kg.dump_reader import BlockReader
from kg.ntfilter import filter_block
from kg.parallel import parallel_filter, run_blocks
from kg.store import sample_graph_path
from kg.vocab import TAXONOMY_PROPS
from engine.generate.label_store import SqliteLabelIndex, open_label_index
from engine.generate.linking import LabelIndex, Linker
from engine.types import EntityType, Span
from tests.conftest import FIXTURES

NT = FIXTURES / "dump_sample.nt"


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("sample") / "store"
    build_from_dump(sample_graph_path(), target, progress=False)
    return target


def _typos(keys: list[str], n: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    out = []
    for key in rng.sample(keys, min(n, len(keys))):
        i = rng.randrange(1, len(key) - 1)
        out.append(key[:i] + ("q" if key[i] != "q" else "z") + key[i + 1 :])
    return out


def assert_views_agree(kg: KGStore, qids: list[str]) -> None:
    ref = PreloadedTaxonomy.from_store(kg)
    view = IndexedTaxonomy.from_store(kg)
    for q in qids:
        for prop in TAXONOMY_PROPS:
            assert list(view.parents(q, prop)) == list(ref.parents(q, prop)), (q, prop)
        assert view.label(q) == ref.label(q), q
        assert view.children_count.get(q, 0) == ref.children_count.get(q, 0), q
        assert view.instance_count.get(q, 0) == ref.instance_count.get(q, 0), q
        assert list(view.values(q, "P17")) == list(ref.values(q, "P17")), q


def assert_label_indices_agree(kg: KGStore, n_approx: int) -> None:
    ref = LabelIndex.from_store(kg)
    index = SqliteLabelIndex.from_store(kg)
    keys = sorted(set(ref.labels) | set(ref.aliases))
    for key in keys:
        assert index.lookup(key) == ref.lookup(key), key
    for key, items in ref.demonyms.items():
        assert index.demonyms.get(key, ()) == items, key
    for qid, text in list(ref.main_label.items())[:5000]:
        assert index.main_label.get(qid) == text
    words = sorted({w for key in ref.labels for w in key.split()})
    for word in random.Random(5).sample(words, min(300, len(words))) + ["&", "st."]:
        assert sorted(index.names_with_word(word)) == sorted(ref.names_with_word(word)), word  # the full-text index finds them all
    long_keys = [k for k in keys if len(k) >= 8]
    for key in _typos(long_keys, n_approx):
        mine, theirs = index.approximate(key, 0.15), ref.approximate(key, 0.15)
        # the same distances; the same names except among ties at the last distance (the
        # in-memory scan keeps five per length bucket in set order, the index the first by name)
        assert [d for d, _ in mine] == [d for d, _ in theirs], key
        if mine:
            last = mine[-1][0]
            assert {c for d, c in mine if d < last} == {c for d, c in theirs if d < last}, key


# --- fast: the sample graph -------------------------------------------------------------------
def test_given_built_sample_store_then_indices_exist_and_class_graph_matches_the_graph(sample_store: Path) -> None:
    assert has_index(sample_store)
    kg = KGStore.read_only(sample_store)
    ref = PreloadedTaxonomy.from_store(kg)
    qids = sorted(set(ref.labels) | {q for e in ref.edges.values() for q in e})
    assert len(qids) > 200
    assert_views_agree(kg, qids)


def test_given_sample_store_then_label_index_answers_like_the_in_memory_one(sample_store: Path) -> None:
    assert_label_indices_agree(KGStore.read_only(sample_store), n_approx=200)


def test_given_sample_store_then_chains_and_links_match_the_embedded_graph(sample_store: Path, sample_kg: KGStore) -> None:
    on_disk = ChainIndex(KGStore.read_only(sample_store))
    in_memory = ChainIndex(sample_kg)
    assert isinstance(on_disk.view, IndexedTaxonomy) and isinstance(in_memory.view, PreloadedTaxonomy)
    for qid in sorted(in_memory.view.labels):
        assert on_disk.chains(qid).to_dict() == in_memory.chains(qid).to_dict(), qid
    disk_linker = Linker(open_label_index(on_disk.kg), on_disk.view)
    mem_linker = Linker(LabelIndex.from_store(sample_kg), in_memory.view)
    for text in ("geologist", "Oslo", "Norwegian", "the United States", "geologjst", "University of Oslo graduate"):
        span = Span(text=text, entity_type=EntityType.LOC)
        assert [l.qid for l in disk_linker.link(span)] == [l.qid for l in mem_linker.link(span)], text


def test_given_approximate_lookup_then_every_name_within_the_threshold_is_found(sample_store: Path) -> None:
    index = SqliteLabelIndex.from_store(KGStore.read_only(sample_store))
    for d, cand in index.approximate("geologjst", 0.15):
        assert Levenshtein.normalized_distance("geologjst", cand) == d < 0.15
    assert index.approximate("geologjst", 0.15)[0][1] == "geologist"
    assert index.approximate("zzzzzzzzzz", 0.15) == []


def test_given_store_without_index_then_engine_start_fails_with_the_fix_and_kg_index_builds_it(sample_store: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(sample_store, old)
    shutil.rmtree(old / "index")
    kg = KGStore.read_only(old)
    with pytest.raises(KGError, match="taxogen kg index --store"):
        ChainIndex(kg)
    report = index_store(kg)
    assert has_index(old) and report.names > 100
    assert ChainIndex(KGStore.read_only(old)).chains("Q520549").ladders


def test_given_remote_additions_then_indexed_view_and_label_index_serve_them(sample_store: Path) -> None:
    kg = KGStore.read_only(sample_store)
    view = IndexedTaxonomy.from_store(kg)
    assert view.add_statement("Q99999991", "P31", "Q515")
    assert not view.add_statement("Q99999991", "P31", "Q515")
    view.add_label("Q99999991", "Testville")
    assert view.parents("Q99999991", "P31") == ["Q515"] and view.label("Q99999991") == "Testville"
    index = SqliteLabelIndex.from_store(kg)
    index.add("Q99999991", "Testville")
    assert index.lookup("testville")[0][0] == "Q99999991"
    assert index.approximate("testvilke", 0.15)[0][1] == "testville"


def test_given_sitelinks_then_prominence_orders_homonyms(tmp_path: Path) -> None:
    dump = tmp_path / "homonyms.nt"
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    lines = [
        f'<{wd}Q10> <http://www.w3.org/2000/01/rdf-schema#label> "Springfield"@en .',
        f'<{wd}Q20> <http://www.w3.org/2000/01/rdf-schema#label> "Springfield"@en .',
        f"<{wd}Q10> <{wdt}P31> <{wd}Q515> .",
        f"<{wd}Q20> <{wdt}P31> <{wd}Q515> .",
        f'<{wd}Q515> <http://www.w3.org/2000/01/rdf-schema#label> "city"@en .',
    ] + [f"<https://{lang}.wikipedia.org/wiki/Springfield> <http://schema.org/about> <{wd}Q20> ." for lang in ("en", "de", "fr")]
    dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    build_from_dump(dump, tmp_path / "store", progress=False)
    kg = KGStore.read_only(tmp_path / "store")
    index = SqliteLabelIndex.from_store(kg)
    assert index.prominence("Q20") == 3 and index.prominence("Q10") == 0
    assert kg.metadata["index"]["prominence"] == "sitelinks"
    linker = Linker(index, IndexedTaxonomy.from_store(kg))
    assert [l.qid for l in linker.link(Span(text="Springfield", entity_type=EntityType.LOC))] == ["Q20", "Q10"]


# --- the parallel filter --------------------------------------------------------------------
def test_given_fixture_dump_then_parallel_filter_keeps_and_reports_like_the_sequential_reader(tmp_path: Path, monkeypatch) -> None:
    ref_report = DumpReport(str(NT))
    expected = list(read_dump(NT, ref_report))
    monkeypatch.setattr("kg.dump_reader.BLOCK", 256)  # many blocks, several in flight
    monkeypatch.setenv("TAXOGEN_BUILD_WORKERS", "2")
    report = DumpReport(str(NT))
    out = tmp_path / "kept.nt"
    parallel_filter(NT, out, report)
    assert out.read_text(encoding="utf-8").splitlines(keepends=True) == expected
    assert (report.lines, report.kept, report.malformed) == (ref_report.lines, ref_report.kept, ref_report.malformed)
    assert [no for no, _, _ in report.examples] == [no for no, _, _ in ref_report.examples] == [11, 15, 28]


def test_given_tricky_lines_then_block_filter_keeps_exactly_what_the_line_reader_keeps(tmp_path: Path) -> None:
    wd, wdt, label = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/", "http://www.w3.org/2000/01/rdf-schema#label"
    lines = [
        f"<{wd}Q1> <{wdt}P31> <{wd}Q5> .", f"<{wd}Q1> <{wdt}P31> <http://example.org/Q5> .", f"<{wd}Q1> <{wdt}P31> _:b1 .",
        f'<{wd}Q1> <{wdt}P31> "x" .', f'<{wd}Q1> <{wdt}P1549> "x" .', f'<{wd}Q1> <{wdt}P1549> "x"@en .',
        f'<{wd}Q1> <{wdt}P1549> "x"@en-gb .', f'<{wd}Q1> <{wdt}P1549> "x"@EN .', f'<{wd}Q1> <{wdt}P1549> "x"^^<http://a> .',
        f'<{wd}Q1> <{label}> "x"@EN .', f'<{wd}Q1> <{label}> "x"@en-gb .', f'<{wd}Q1> <{label}> "x\\"y"@en .',
        f'<{wd}Q1> <{label}> "x" .', f'_:b <{label}> "x"@en .  # c  ', f'  <{wd}Q1>\t<http://schema.org/description>  "x"@en . \r',
        "# comment", "", "   ", f"<{wd}Q1> <{wdt}P18> <{wd}Q5> .", f"<https://x.org/a> <http://schema.org/about> <{wd}Q1> .",
    ]
    path = tmp_path / "tricky.nt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = list(read_dump(path, DumpReport(str(path))))
    result = filter_block(path.read_bytes())
    assert result.kept.decode("utf-8").splitlines(keepends=True) == expected and result.n_malformed == 0
    assert result.about is not None and result.about.tolist() == [1]


def test_given_gzip_dump_then_external_and_python_decompression_give_the_same_blocks(tmp_path: Path, monkeypatch) -> None:
    gz = tmp_path / "d.nt.gz"
    with gzip.open(gz, "wb") as fh:
        fh.write(NT.read_bytes())
    external = b"".join(BlockReader(gz, block=100))
    monkeypatch.setenv("TAXOGEN_NO_EXTERNAL_DECOMPRESS", "1")
    assert b"".join(BlockReader(gz, block=100)) == external == NT.read_bytes()


def test_given_worker_pool_then_results_come_back_in_order() -> None:
    seen: list[int] = []
    run_blocks(iter([bytes([i]) for i in range(40)]), len, lambda n: seen.append(n), n_workers=2)
    assert seen == [1] * 40


# --- slow: the seed -----------------------------------------------------------------------
@pytest.mark.slow
def test_given_seed_store_then_class_graph_matches_the_preloaded_view(seed_store: Path) -> None:
    kg = KGStore.read_only(seed_store)
    ref = PreloadedTaxonomy.from_store(kg)
    rng = random.Random(11)
    qids = rng.sample(sorted(ref.labels), 3000) + rng.sample(sorted(ref.edges["P279"]), 1000)
    assert_views_agree(kg, qids)


@pytest.mark.slow
def test_given_seed_store_then_label_index_answers_like_the_in_memory_one(seed_store: Path) -> None:
    assert_label_indices_agree(KGStore.read_only(seed_store), n_approx=300)


def test_given_names_then_index_folding_is_the_linkers_folding() -> None:
    from engine.generate.linking import fold as linker_fold
    from kg.text import fold as index_fold

    for text in ("  Oslo ", "Côte d’Ivoire", "ＮＡＳＡ", "the  United\tStates", "O‘Brien's"):
        assert index_fold(text) == linker_fold(text)
