"""Marks (kg/marks.py): the link ranking's classes within six hops above each item, precomputed.

On stores built from random graphs (cycles, repeated statements, chains longer than six
hops, classes that are also instances), the marks and degrees read from the index equal
what the linker's walk over the taxonomy finds for every item; statements split over
chunks give an unknown count (read from the store), never a wrong one; statements added
after the build (remote fallback) switch the index off.
"""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from engine.generate.linking import RANK_CLASSES, LabelIndex, Linker
from engine.types import EntityType, Span
from kg import KGStore, build_from_dump
from kg.indexed import IndexedTaxonomy
from kg.marks import MARK_CLASSES, UNKNOWN_COUNT, item_marks, node_marks, subject_chunks

WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
_MARKED = ["Q5", "Q515", "Q43229", "Q6256", "Q34770", "Q486972"]


def _dump(path: Path, seed: int) -> list[str]:
    rng = random.Random(seed)
    classes = [f"Q{1000 + i}" for i in range(25)] + _MARKED
    items = [f"Q{5000 + i}" for i in range(40)]
    lines = []
    for c in classes:  # class graph, with cycles and long chains
        for _ in range(rng.choice([0, 1, 1, 2])):
            lines.append(f"<{WD}{c}> <{WDT}{rng.choice(['P279', 'P279', 'P31', 'P361'])}> <{WD}{rng.choice(classes)}> .")
    chain = [f"Q{2000 + i}" for i in range(8)] + ["Q515"]
    lines += [f"<{WD}{a}> <{WDT}P279> <{WD}{b}> ." for a, b in pairwise(chain)]
    for q in items:
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            lines.append(f"<{WD}{q}> <{WDT}P31> <{WD}{rng.choice(classes + chain)}> .")
        lines.append(f'<{WD}{q}> <{LABEL}> "item {q}"@en .')
    lines += lines[: len(lines) // 5]  # repeated statements
    rng.shuffle(lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sorted({q for line in lines for q in (line.split()[0][len(WD) + 1 : -1],)} | set(items) | set(chain))


def _walked(view: IndexedTaxonomy, qid: str) -> tuple[frozenset[str], int]:
    linker = Linker(LabelIndex({}, {}, {}, {}, {}), view)
    linker._marks = False  # the walk, not the index
    return linker._rank_facts(qid)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_given_random_graph_then_marks_from_the_index_equal_the_walk(tmp_path: Path, seed: int) -> None:
    qids = _dump(tmp_path / "g.nt", seed)
    build_from_dump(tmp_path / "g.nt", tmp_path / "store", progress=False)
    view = IndexedTaxonomy.from_store(KGStore.read_only(tmp_path / "store"))
    assert view.marks is not None and RANK_CLASSES <= set(view.marks.classes)
    linker = Linker(LabelIndex({}, {}, {}, {}, {}), view)
    marked = 0
    for q in qids + ["Q999999"]:
        fast = linker._rank_facts(q)
        assert linker._marks is True
        assert fast == _walked(view, q), q
        marked += bool(fast[0])
    assert marked > 5


def test_given_statements_split_over_chunks_then_counts_are_unknown_not_wrong() -> None:
    nodes = np.array([10, 20, 30], dtype=np.int64)
    ptr = np.zeros(4, np.int64)
    bit, below, _ = node_marks(nodes, [(ptr, np.zeros(0, np.int64))], classes=("Q10", "Q20", "Q30"))
    s1, o1 = np.array([1, 1, 2, 1]), np.array([10, 20, 10, 10])
    s2, o2 = np.array([2, 3]), np.array([10, 30])
    q, m, c = item_marks(nodes, bit, below, iter([(s1, o1), (s2, o2)]))
    assert q.tolist() == [1, 2, 3]
    assert m.tolist() == [0b011, 0b001, 0b100]
    assert c.tolist() == [2, UNKNOWN_COUNT, 1]  # item 2: (2, Q10) in both chunks


def test_given_a_remote_addition_then_marks_are_not_used(tmp_path: Path) -> None:
    _dump(tmp_path / "g.nt", 4)
    build_from_dump(tmp_path / "g.nt", tmp_path / "store", progress=False)
    view = IndexedTaxonomy.from_store(KGStore.read_only(tmp_path / "store"))
    assert view.rank_facts("Q5001") is not None
    view.add_statement("Q5001", "P31", "Q515")
    assert view.rank_facts("Q5001") is None
    assert view.rank_facts("Q5002") is None  # the class graph may have changed for everyone
    linker = Linker(LabelIndex({"item q5001": ["Q5001"]}, {}, {}, {}, {}), view)
    assert "Q515" in linker._rank_facts("Q5001")[0]
    assert linker.link(Span(text="item Q5001", entity_type=EntityType.LOC))[0].qid == "Q5001"


def test_marked_classes_cover_the_rankings_classes() -> None:
    assert RANK_CLASSES <= set(MARK_CLASSES) and len(MARK_CLASSES) <= 64


@pytest.mark.slow
def test_given_seed_store_then_marks_equal_the_walk_for_every_named_item(seed_store: Path) -> None:
    import sqlite3

    view = IndexedTaxonomy.from_store(KGStore.read_only(seed_store))
    db = sqlite3.connect(f"file:{seed_store / 'index' / 'labels.sqlite'}?mode=ro", uri=True)
    qids = [f"Q{q}" for (q,) in db.execute("SELECT DISTINCT qid FROM names")]
    linker = Linker(LabelIndex({}, {}, {}, {}, {}), view)
    marked = 0
    for q in qids:
        fast = linker._rank_facts(q)
        assert fast == _walked(view, q), q
        marked += bool(fast[0])
    assert linker._marks is True and len(qids) > 50_000 and marked > 5_000


def test_subject_chunks_never_split_a_subject_and_cover_every_edge():
    rng = np.random.default_rng(3)
    s = np.sort(rng.integers(1, 40, size=500))
    o = rng.integers(100, 200, size=500)
    chunks = list(subject_chunks(s, o, size=16))
    assert len(chunks) > 1
    assert np.array_equal(np.concatenate([c[0] for c in chunks]), s)
    assert np.array_equal(np.concatenate([c[1] for c in chunks]), o)
    for (a, _), (b, _) in pairwise(chunks):
        assert a[-1] != b[0]
