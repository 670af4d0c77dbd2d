"""The grep prefilter of the dump filter, and the segment index for approximate lookup.

- The prefilter (``grep -E`` in front of the Python filter, :class:`kg.dump_reader.PrefilterReader`)
  keeps exactly the lines, counts and malformed-line reports of the Python-only filter:
  uncompressed, ``.gz`` through pigz and through Python, ``.bz2``; a truncated archive is
  an error.
- The segment index (:mod:`kg.approx_index`) yields every name within the threshold: it
  is checked against a full rapidfuzz scan over the names of the fixture and the seed.
"""

from __future__ import annotations

import bz2
import gzip
import random
import sqlite3
from pathlib import Path

import pytest
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from kg import DumpError, DumpReport, read_dump
from kg.approx_index import (
    APPROX_THRESHOLD,
    build_segments,
    candidates,
    max_edits,
    probe_hashes,
    segments,
)
from kg.dump_reader import prefilter_available
from kg.parallel import parallel_filter
from tests.conftest import FIXTURES

NT = FIXTURES / "dump_sample.nt"
needs_grep = pytest.mark.skipif(not prefilter_available(), reason="GNU grep not installed")


def _filter(path: Path, tmp_path: Path, monkeypatch, *, prefilter: bool) -> tuple[bytes, bytes, tuple, list]:
    if prefilter:
        monkeypatch.delenv("TAXOGEN_NO_PREFILTER", raising=False)
    else:
        monkeypatch.setenv("TAXOGEN_NO_PREFILTER", "1")
    monkeypatch.setattr("kg.dump_reader.BLOCK", 512)  # many blocks
    report = DumpReport(str(path))
    out, sl = tmp_path / f"kept-{prefilter}.nt", tmp_path / f"sl-{prefilter}.i32"
    parallel_filter(path, out, report, sitelinks=sl)
    return out.read_bytes(), sl.read_bytes(), (report.lines, report.kept, report.malformed), report.examples


def _tricky(tmp_path: Path) -> Path:
    wd, wdt, label = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/", "http://www.w3.org/2000/01/rdf-schema#label"
    lines = NT.read_text(encoding="utf-8").splitlines() + [
        f'<{wd}Q1> <{label}> "x"@EN .', f'<{wd}Q1> <{label}> "x"@en-gb .', f'<{wd}Q1> <{label}> "x\\"y"@en .',
        f'_:b <{label}> "x"@en .  # c  ', f'  <{wd}Q1>\t<http://schema.org/description>  "x"@en . \r',
        f'<{wd}Q1> <{wdt}P1549> "x"^^<http://a> .', f'<{wd}Q1> <{label}> "@en ."@de .',
        f"<https://x.org/a> <http://schema.org/about> <{wd}Q7> .", "# comment", "", "   ",
        f"<{wd}Q1> <{wdt}P18> <{wd}Q5> .", f"<{wd}Q1> <{wdt}P18> <{wd}Q5>", "garbage", f"<{wd}Q2> <{wdt}P31> <{wd}Q5> .",
    ]
    path = tmp_path / "tricky.nt"
    path.write_text("\n".join(lines), encoding="utf-8")  # no final newline
    return path


@needs_grep
def test_given_dump_then_prefilter_keeps_counts_and_reports_like_the_python_filter(tmp_path: Path, monkeypatch) -> None:
    path = _tricky(tmp_path)
    with_grep = _filter(path, tmp_path, monkeypatch, prefilter=True)
    without = _filter(path, tmp_path, monkeypatch, prefilter=False)
    assert with_grep == without
    ref = DumpReport(str(path))
    assert with_grep[0].decode("utf-8").splitlines(keepends=True) == list(read_dump(path, ref))
    assert with_grep[2] == (ref.lines, ref.kept, ref.malformed) and with_grep[2][2] >= 4


@needs_grep
@pytest.mark.parametrize("external", [True, False])
@pytest.mark.parametrize("suffix", [".gz", ".bz2"])
def test_given_compressed_dump_then_prefilter_gives_the_same_result(tmp_path: Path, monkeypatch, external: bool, suffix: str) -> None:
    path = _tricky(tmp_path)
    packed = tmp_path / f"d.nt{suffix}"
    packed.write_bytes((gzip.compress if suffix == ".gz" else bz2.compress)(path.read_bytes()))
    if not external:
        monkeypatch.setenv("TAXOGEN_NO_EXTERNAL_DECOMPRESS", "1")
    assert _filter(packed, tmp_path, monkeypatch, prefilter=True) == _filter(path, tmp_path, monkeypatch, prefilter=False)


@needs_grep
@pytest.mark.parametrize("external", [True, False])
def test_given_truncated_gzip_then_prefilter_fails_with_a_message(tmp_path: Path, monkeypatch, external: bool) -> None:
    data = gzip.compress(NT.read_bytes() * 50)
    bad = tmp_path / "cut.nt.gz"
    bad.write_bytes(data[: len(data) // 2])
    if not external:
        monkeypatch.setenv("TAXOGEN_NO_EXTERNAL_DECOMPRESS", "1")
    with pytest.raises(DumpError, match="truncated or corrupt"):
        _filter(bad, tmp_path, monkeypatch, prefilter=True)


@pytest.mark.slow
@needs_grep
def test_given_seed_dump_then_prefilter_keeps_the_same_triples(tmp_path: Path, monkeypatch, seed_path: Path) -> None:
    seed = seed_path
    a = _filter(seed, tmp_path, monkeypatch, prefilter=True)
    b = _filter(seed, tmp_path, monkeypatch, prefilter=False)
    assert a == b and a[2][1] > 500_000


# --- the segment index ----------------------------------------------------------------------
def test_partition_covers_the_name_and_bounds_follow_the_threshold() -> None:
    for n in range(1, 80):
        segs = segments(n)
        assert sum(size for _, size in segs) == n and segs[0][0] == 0 and all(size >= 1 for _, size in segs)
        assert len(segs) == min(max_edits(n, APPROX_THRESHOLD) + 1, n)
    assert [max_edits(n, 0.15) for n in (5, 6, 11, 12, 17, 18)] == [0, 1, 1, 2, 2, 3]
    with pytest.raises(ValueError):
        probe_hashes("oslo", 0.3)


def _index(names: list[str]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL, n INTEGER NOT NULL)")
    db.executemany("INSERT INTO keys (key, n) VALUES (?, ?)", [(k, len(k)) for k in names])
    build_segments(db, db.execute("SELECT id, key FROM keys").fetchall())
    return db


def _edits(rng: random.Random, text: str, k: int) -> str:
    t = list(text)
    for _ in range(k):
        i, op = rng.randrange(len(t)), rng.random()
        if op < 0.4:
            t[i] = rng.choice("aeioux z")
        elif op < 0.7 and len(t) > 1:
            del t[i]
        else:
            t.insert(i, rng.choice("aeioux z"))
    return "".join(t)


def _check_exact(names: list[str], queries: list[str]) -> int:
    db = _index(names)
    found = 0
    for q in queries:
        truth = {k for k, d, _ in process.extract(q, names, scorer=Levenshtein.normalized_distance, score_cutoff=APPROX_THRESHOLD, limit=None)
                 if d < APPROX_THRESHOLD}
        assert truth <= set(candidates(db, q, APPROX_THRESHOLD)), q
        found += len(truth)
    return found


def test_given_misspelt_names_then_segment_index_finds_every_name_within_the_threshold() -> None:
    rng = random.Random(5)
    names = sorted({"".join(rng.choice("abcdeilnorst ") for _ in range(rng.randint(3, 40))) for _ in range(3000)})
    names += ["oslo", "oslo municipality", "bergen", "kristiansand", "trondheim", "stavanger"]
    queries = [_edits(rng, rng.choice(names), rng.choice([0, 1, 1, 2, 3, 4])) for _ in range(400)]
    queries += ["osl", "olso", "oslo municipalty", "krstiansand", "trondhiem"]
    assert _check_exact(names, [q for q in queries if q]) > 300


@pytest.mark.slow
def test_given_seed_labels_then_segment_index_is_exact_against_a_full_scan(seed_store: Path) -> None:
    db = sqlite3.connect(f"file:{seed_store / 'index' / 'labels.sqlite'}?mode=ro", uri=True)
    names = [k for (k,) in db.execute("SELECT key FROM keys")]
    rng = random.Random(11)
    queries = [_edits(rng, k, rng.choice([1, 1, 2])) for k in rng.sample([k for k in names if len(k) >= 4], 300)]
    assert _check_exact(names, queries) > 200
