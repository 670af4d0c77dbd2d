"""The piece index for approximate lookup (:class:`kg.approx_index.PieceIndex`).

Names are cut into up to ``2·D + 2`` pieces; a lookup reads, per name length, only the
``e + 1`` pieces with the fewest postings. It must still yield every name within the
threshold: checked against a full rapidfuzz scan on random names, on names built to
share common suffixes (the case the rarest-piece choice is for), under hypothesis, and
(slow) on the seed's names.
"""

from __future__ import annotations

import random
import sqlite3
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from kg.approx_index import (
    APPROX_THRESHOLD,
    MIN_PIECE,
    PieceIndex,
    build_pieces,
    name_edits,
    pair_edits,
    piece_rows,
    pieces,
    probe_plan,
    write_pieces,
)


def _index(names: list[str]) -> PieceIndex:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL, n INTEGER NOT NULL)")
    db.executemany("INSERT INTO keys (key, n) VALUES (?, ?)", [(k, len(k)) for k in names])
    build_pieces(db, db.execute("SELECT id, key FROM keys").fetchall())
    return PieceIndex(db)


def _truth(q: str, names: list[str]) -> set[str]:
    found = process.extract(q, names, scorer=Levenshtein.normalized_distance, score_cutoff=APPROX_THRESHOLD, limit=None)
    return {k for k, d, _ in found if d < APPROX_THRESHOLD}


def _edits(rng: random.Random, text: str, k: int, alphabet: str = "aeioux z") -> str:
    t = list(text)
    for _ in range(k):
        i, op = rng.randrange(len(t)), rng.random()
        if op < 0.4:
            t[i] = rng.choice(alphabet)
        elif op < 0.7 and len(t) > 1:
            del t[i]
        else:
            t.insert(i, rng.choice(alphabet))
    return "".join(t)


def _check(index: PieceIndex, names: list[str], queries: list[str]) -> tuple[int, int]:
    found = cands = 0
    for q in queries:
        truth = _truth(q, names)
        got = set(index.candidates(q, APPROX_THRESHOLD))
        assert truth <= got, (q, truth - got)
        found += len(truth)
        cands += len(got)
    return found, cands


def test_partition_covers_the_name_with_enough_pieces_of_at_least_min_piece() -> None:
    for n in range(1, 120):
        parts = pieces(n)
        d = name_edits(n, APPROX_THRESHOLD)
        assert sum(size for _, size in parts) == n and parts[0][0] == 0
        assert all(a + s == b for (a, s), (b, _) in pairwise(parts))
        assert len(parts) >= min(d + 1, n)  # d edits leave one piece whole
        assert len(parts) <= max(d + 1, 2 * d + 2)
        if len(parts) > d + 1:
            assert min(size for _, size in parts) >= MIN_PIECE
    assert [name_edits(n, 0.15) for n in (5, 6, 11, 12, 17, 18)] == [0, 1, 1, 2, 2, 3]


def test_pair_edits_bound_the_distance_rapidfuzz_accepts() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        a = "".join(rng.choice("ab") for _ in range(rng.randint(1, 30)))
        b = "".join(rng.choice("ab") for _ in range(rng.randint(1, 30)))
        if Levenshtein.normalized_distance(a, b) < APPROX_THRESHOLD:
            assert Levenshtein.distance(a, b) <= pair_edits(len(a), len(b), APPROX_THRESHOLD)


def test_given_a_higher_threshold_than_built_for_then_lookup_is_refused() -> None:
    with pytest.raises(ValueError):
        probe_plan("oslo", 0.3)


def test_given_misspelt_random_names_then_every_name_within_the_threshold_is_found() -> None:
    rng = random.Random(5)
    names = sorted({"".join(rng.choice("abcdeilnorst ") for _ in range(rng.randint(3, 40))) for _ in range(3000)})
    names += ["oslo", "oslo municipality", "bergen", "kristiansand", "trondheim", "stavanger"]
    queries = [_edits(rng, rng.choice(names), rng.choice([0, 1, 1, 2, 3, 4, 5])) for _ in range(600)]
    queries += ["osl", "olso", "oslo municipalty", "krstiansand", "trondhiem"]
    found, _ = _check(_index(names), names, [q for q in queries if q])
    assert found > 400


def test_given_names_sharing_common_suffixes_then_rare_pieces_keep_candidates_few_and_none_missed() -> None:
    rng = random.Random(9)
    stems = sorted({"".join(rng.choice("bcdfgklmnprstaeiou") for _ in range(rng.randint(4, 12))) for _ in range(4000)})
    words = ("river", "school", "station", "church")
    names = sorted({f"{s} {rng.choice(words)}" for s in stems} | set(stems))
    index = _index(names)
    queries = [_edits(rng, rng.choice(names), rng.choice([1, 1, 2, 3]), "bcdfgaeiou ") for _ in range(400)]
    found, cands = _check(index, names, [q for q in queries if q])
    assert found > 200
    # the whole-suffix pieces ("river", " school") are common: the lookup reads rarer ones
    assert cands / len(queries) < 0.01 * len(names)


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.text(alphabet="abc d", min_size=1, max_size=24), min_size=1, max_size=40, unique=True),
    picks=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 4), st.integers(0, 10_000)), min_size=1, max_size=8),
)
def test_given_any_names_and_edits_then_lookup_is_exact(names, picks) -> None:
    index = _index(names)
    for i, k, seed in picks:
        q = _edits(random.Random(seed), names[i % len(names)], k, "abcd ")
        if q:
            assert _truth(q, names) <= set(index.candidates(q, APPROX_THRESHOLD)), q


@pytest.mark.slow
def test_given_seed_labels_then_piece_index_is_exact_against_a_full_scan(seed_store: Path) -> None:
    db = sqlite3.connect(f"file:{seed_store / 'index' / 'labels.sqlite'}?mode=ro", uri=True)
    names = [k for (k,) in db.execute("SELECT key FROM keys")]
    rng = random.Random(11)
    queries = [_edits(rng, k, rng.choice([1, 1, 2, 3])) for k in rng.sample([k for k in names if len(k) >= 4], 300)]
    found, _ = _check(_index(names), names, queries)
    assert found > 150


def test_given_small_chunks_then_posting_lists_are_packed_whole() -> None:
    rng = random.Random(2)
    names = sorted({"".join(rng.choice("ab c") for _ in range(rng.randint(3, 14))) for _ in range(400)})
    lists = []
    for chunk in (7, 1_000_000):
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE raw (h INTEGER NOT NULL, id INTEGER NOT NULL)")
        db.executemany("INSERT INTO raw VALUES (?, ?)", [r for i, k in enumerate(names) for r in piece_rows(i, k)] * 2)
        write_pieces(db, "raw", chunk=chunk)
        lists.append(db.execute("SELECT h, c, ids FROM piece_lists ORDER BY h").fetchall())
    assert lists[0] == lists[1]
    assert sum(c for _, c, _ in lists[0]) == sum(len(pieces(len(k))) for k in names)


def _index_built_with(names: list[str], min_piece: int) -> PieceIndex:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL)")
    db.executemany("INSERT INTO keys VALUES (?, ?)", list(enumerate(names)))
    build_pieces(db, db.execute("SELECT id, key FROM keys").fetchall(), min_piece=min_piece)
    return PieceIndex(db)


def test_given_an_index_built_with_3_character_pieces_then_it_is_probed_with_them_and_stays_exact() -> None:
    rng = random.Random(21)
    names = sorted({"".join(rng.choice("abcdeilnorst") for _ in range(rng.randint(5, 16))) for _ in range(2000)})
    old = _index_built_with(names, 3)
    assert old.min_piece == 3 and _index(names).min_piece == MIN_PIECE == 2
    queries = [_edits(rng, rng.choice(names), rng.choice([1, 1, 2])) for _ in range(300)]
    found, _ = _check(old, names, [q for q in queries if q])
    assert found > 100


def test_given_names_ending_in_a_common_word_then_2_character_pieces_keep_far_fewer_candidates() -> None:
    # 13-character names "<6 letters> school": with 3-character pieces a name has four, two of
    # them inside " school", so two edits in the stem leave every such name a candidate
    rng = random.Random(4)
    names = sorted({"".join(rng.choice("bcdfgklmnprst") for _ in range(6)) + " school" for _ in range(3000)})
    queries = [_edits(rng, rng.choice(names), 2, "aeiou") for _ in range(200)]
    _, cands_3 = _check(_index_built_with(names, 3), names, queries)
    _, cands_2 = _check(_index(names), names, queries)
    assert cands_2 * 5 < cands_3
