"""``taxogen bench scale``: the synthetic Wikidata-shaped dumps and flat start-up."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taxogen_tools.bench.scale import WIKIDATA, generate_dump
from engine.cli import app
from kg import build_from_dump
from kg.ntfilter import filter_block
from tests.conftest import FIXTURES


@pytest.fixture()
def tiny_seed(tmp_path: Path) -> Path:
    seed = tmp_path / "seed.nt.gz"
    lines = [l for l in (FIXTURES / "dump_sample.nt").read_text(encoding="utf-8").splitlines() if l.startswith("<") and "Q 6256" not in l and "unterminated" not in l]
    with gzip.open(seed, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return seed


def test_given_fraction_then_synthetic_dump_has_wikidata_proportions_and_parses(tiny_seed: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.nt"
    fraction = 1 / 20000
    lines, kept = generate_dump(tiny_seed, fraction, out)
    text = out.read_text(encoding="utf-8")
    assert text.count("\n") == lines
    p31 = text.count("/prop/direct/P31> <http://www.wikidata.org/entity/")
    assert abs(p31 - WIKIDATA["P31"] * fraction) < 0.1 * WIKIDATA["P31"] * fraction
    labels = text.count('rdf-schema#label> "') - text.count('"@de .')
    assert abs(labels - WIKIDATA["labels"] * fraction) < 0.1 * WIKIDATA["labels"] * fraction
    result = filter_block(out.read_bytes())
    assert result.n_malformed == 0 and result.n_kept == kept
    assert result.about is not None and result.about.size > 0  # sitelinks for the prominence prior


def test_given_bad_fraction_then_bench_scale_exits_1_with_a_message() -> None:
    res = CliRunner().invoke(app, ["bench", "scale", "--fractions", "a/b"])
    assert res.exit_code == 1 and "bad --fractions" in res.output


_STARTUP = r"""
import json, sys, time
t0 = time.perf_counter()
from engine import Engine
engine = Engine.from_config(store=sys.argv[1], model="shipped")
engine.linker.link  # opened, not loaded
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"startup_s": time.perf_counter() - t0, "rss_mb": int(hwm.split()[1]) / 1024}))
"""


def _startup(store: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _STARTUP, str(store)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_given_a_graph_twenty_times_larger_then_engine_start_up_and_memory_stay_flat(seed_path: Path, tmp_path: Path) -> None:
    figures = []
    for fraction in (1 / 50000, 1 / 1000):
        dump = tmp_path / f"d{round(1 / fraction)}.nt"
        generate_dump(seed_path, fraction, dump)
        store = tmp_path / f"s{round(1 / fraction)}"
        report = build_from_dump(dump, store, progress=False)
        dump.unlink()
        figures.append((report.triples, _startup(store)))
    (small_n, small), (big_n, big) = figures
    assert big_n > small_n + 300_000
    assert big["startup_s"] < small["startup_s"] * 1.5 + 0.5, figures
    assert big["rss_mb"] < small["rss_mb"] + 40, figures


def test_given_a_filter_run_then_the_extrapolation_takes_the_filter_rates_from_it() -> None:
    from taxogen_tools.bench.scale import DUMP_LINES, ScaleResult, extrapolate

    scale = ScaleResult(fraction="1/10")
    scale.kept_triples = 1000
    scale.build = {"workers": 2, "filter_s": 10.0, "lines": 10_000_000, "total_s": 30.0, "kept": 1000,
                   "filter_lines_per_worker_cpu_s": 500_000, "filter_lines_per_main_cpu_s": 4_000_000}
    run = {"source": "real-ratio.nt.gz", "workers": 2, "lines_per_s": 2_000_000,
           "lines_per_worker_cpu_s": 1_000_000, "lines_per_reader_cpu_s": 3_000_000}
    synthetic, real = extrapolate([scale]), extrapolate([scale], run)
    assert synthetic["2_cores"]["filter_lines_per_s"] == 1_000_000  # 10 M lines in 10 s
    assert real["2_cores"]["filter_lines_per_s"] == 2_000_000
    assert real["16_cores"]["filter_lines_per_s"] == 16_000_000
    assert real["filter_from"] == "real-ratio.nt.gz" and synthetic["filter_from"] == "scale 1/10"
    assert real["2_cores"]["load_and_index_h"] == synthetic["2_cores"]["load_and_index_h"]
    assert round(DUMP_LINES / real["2_cores"]["filter_lines_per_s"] / 3600, 2) == real["2_cores"]["filter_h"]


def test_given_a_missing_filter_source_then_bench_scale_exits_1_with_a_message(tmp_path: Path) -> None:
    seed = tmp_path / "seed.nt.gz"  # the seed is checked first: give one, so the filter source is what is missing
    seed.write_bytes(b"")
    result = CliRunner().invoke(app, ["bench", "scale", "--fractions", "1/300", "--seed", str(seed),
                                      "--filter-source", str(tmp_path / "none.nt.gz")])
    assert result.exit_code == 1 and "no such dump" in result.output and "none.nt.gz" in result.output


def test_given_a_missing_seed_dump_then_bench_scale_exits_1_naming_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "scale", "--fractions", "1/300", "--seed", str(tmp_path / "no-seed.nt.gz")])
    assert result.exit_code == 1 and f"no seed dump at {tmp_path / 'no-seed.nt.gz'}" in result.output
