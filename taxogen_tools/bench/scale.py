"""``taxogen bench scale``: build Wikidata-shaped stores at fractions of the real counts and measure them.

A synthetic dump at fraction ``f`` is the shared seed plus synthetic items in the
proportions of Wikidata (September 2025, :data:`WIKIDATA`): ``f`` × 117.4 M items,
120.3 M P31, 5.14 M P279, … statements, English labels, descriptions and aliases, and, as
in the truthy dump, lines ``kg build`` drops (other languages, other properties,
sitelinks with their ``schema:about`` lines, which feed the prominence prior). Synthetic
classes hang below the seed's classes (P279 to earlier classes only: a DAG), instances
pick classes with a skew, names come from syllables (so homonyms occur as at scale).

Per scale it prints the build (filter lines/s, total seconds, store size, peak RSS of the
build) and, measured in a fresh subprocess, the engine's start-up time and RSS, link
p50/p99 (exact and approximate), chain p50/p99 (cold and warm), the demo document's
sanitize time and the process's peak RSS. Then it extrapolates the build to the real dump
on 2 and 16 cores.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kg.ntfilter import filter_block

#: Wikidata counts, September 2025.
WIKIDATA: dict[str, float] = {
    "items": 117.4e6, "P31": 120.3e6, "P279": 5.14e6, "P361": 5.23e6, "P17": 19.2e6, "P131": 14.2e6,
    "P106": 12.3e6, "P27": 5.8e6, "labels": 90.4e6, "descriptions": 99.5e6, "alias_items": 8.6e6,
}
#: Lines of the truthy N-Triples dump and triples a build keeps.
DUMP_LINES = 8.25e9
DUMP_KEPT = 370e6
#: Mean bytes per line of the truthy dump (about 950 GB uncompressed) and lbzip2's
#: decompression speed per core, measured here on the seed (90 MB of output per CPU-second).
LINE_BYTES = 115
LBZIP2_BYTES_PER_CPU_S = 90e6
WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
_BASE_Q = 500_000_000
_ONSETS = ("", "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "ch",
           "dr", "fl", "gr", "kl", "pr", "sh", "st", "th", "tr")
_VOWELS = ("a", "e", "i", "o", "u", "y", "ae", "ei", "ou", "ia")
_CODAS = ("", "", "n", "r", "l", "s", "t", "k", "m", "nd", "rt", "st", "ck", "x", "ng")
#: Syllables (4,500), drawn with a Zipf-like skew: names collide as real ones do, not more.
_SYL = tuple(o + v + c for o in _ONSETS for v in _VOWELS for c in _CODAS)
_WORDS = ("river", "school", "club", "church", "museum", "station", "company", "party", "league", "hall", "street", "park")


@dataclass
class ScaleResult:
    """Figures of one scale."""

    fraction: str
    dump_lines: int = 0
    kept_triples: int = 0
    build: dict[str, Any] = field(default_factory=dict)
    engine: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _name(rng: np.random.Generator, n: int) -> list[str]:
    syl = np.array(_SYL)
    parts = np.minimum((rng.pareto(1.2, size=(n, 5)) * 40).astype(np.int64), len(_SYL) - 1)
    lens = rng.integers(2, 5, size=n)
    words = rng.integers(0, len(_WORDS), size=n)
    kind = rng.random(n)
    out = []
    for i in range(n):
        a = "".join(syl[parts[i, : lens[i]]]).capitalize()
        if kind[i] < 0.45:
            b = "".join(syl[parts[i, 2 : 2 + max(2, lens[i] - 1)]]).capitalize()
            out.append(f"{a} {b}")
        elif kind[i] < 0.7:
            out.append(f"{a} {_WORDS[words[i]]}")
        else:
            out.append(a)
    return out


def seed_classes(seed: Path, limit: int = 20000) -> list[int]:
    """Q-numbers of classes of the seed (objects of its P279 statements), at most ``limit``."""
    found: set[int] = set()
    with gzip.open(seed, "rt", encoding="utf-8") as fh:
        for line in fh:
            if "/P279> " in line:
                obj = line.rsplit(" ", 2)[-2]
                if obj.startswith(f"<{WD}Q"):
                    found.add(int(obj[len(WD) + 2 : -1]))
                    if len(found) >= limit:
                        break
    return sorted(found)


def generate_dump(seed: Path, fraction: float, out: Path, *, noise: float = 1.0, rng_seed: int = 0) -> tuple[int, int]:
    """Write seed + synthetic items at ``fraction`` of :data:`WIKIDATA` to ``out`` (.nt); (lines, kept lines)."""
    rng = np.random.default_rng(rng_seed)
    n_items = int(WIKIDATA["items"] * fraction)
    n_classes = max(10, int(WIKIDATA["P279"] * fraction / 1.3))
    anchors = np.array(seed_classes(seed), dtype=np.int64)
    items = _BASE_Q + np.arange(n_items, dtype=np.int64)
    lines = kept = 0
    with open(out, "w", encoding="utf-8") as fh:
        with gzip.open(seed, "rb") as src:
            seed_bytes = src.read()
        if not seed_bytes.endswith(b"\n"):
            seed_bytes += b"\n"
        seed_block = filter_block(seed_bytes)
        fh.write(seed_bytes.decode("utf-8"))
        lines += seed_block.lines
        kept += seed_block.n_kept
        del seed_bytes, seed_block
        step = 200_000
        for start in range(0, n_items, step):
            block = items[start : start + step]
            n = block.size
            buf: list[str] = []
            # P279 between classes: to earlier synthetic classes or to seed classes (a DAG)
            cls_mask = block < _BASE_Q + n_classes
            for q in block[cls_mask]:
                k = 1 + (rng.random() < 0.3)
                for _ in range(k):
                    if q - _BASE_Q > 50 and rng.random() < 0.8:
                        parent = int(rng.integers(_BASE_Q, q))
                    else:
                        parent = int(anchors[rng.integers(0, anchors.size)])
                    buf.append(f"<{WD}Q{q}> <{WDT}P279> <{WD}Q{parent}> .")
            # statements, in the real proportions per item
            for prop in ("P31", "P361", "P17", "P131", "P106", "P27"):
                m = rng.poisson(WIKIDATA[prop] / WIKIDATA["items"], size=n)
                subj = np.repeat(block, m)
                if prop == "P31":
                    # skewed choice of class: a few classes get most instances
                    pick = (n_classes * rng.random(subj.size) ** 3).astype(np.int64)
                    obj = np.where(rng.random(subj.size) < 0.5, _BASE_Q + pick, anchors[rng.integers(0, anchors.size, subj.size)])
                else:
                    obj = _BASE_Q + rng.integers(0, n_items, size=subj.size)
                buf.extend(f"<{WD}Q{s}> <{WDT}{prop}> <{WD}Q{o}> ." for s, o in zip(subj.tolist(), obj.tolist()))
            # English labels, descriptions, aliases
            has_label = rng.random(n) < WIKIDATA["labels"] / WIKIDATA["items"]
            names = _name(rng, int(has_label.sum()))
            buf.extend(f'<{WD}Q{q}> <http://www.w3.org/2000/01/rdf-schema#label> "{t}"@en .'
                       for q, t in zip(block[has_label].tolist(), names))
            has_desc = rng.random(n) < WIKIDATA["descriptions"] / WIKIDATA["items"]
            buf.extend(f'<{WD}Q{q}> <http://schema.org/description> "synthetic item {q % 997}"@en .' for q in block[has_desc].tolist())
            has_alias = rng.random(n) < WIKIDATA["alias_items"] / WIKIDATA["items"]
            aliases = _name(rng, int(has_alias.sum()))
            buf.extend(f'<{WD}Q{q}> <http://www.w3.org/2004/02/skos/core#altLabel> "{t}"@en .'
                       for q, t in zip(block[has_alias].tolist(), aliases))
            kept_here = len(buf)
            # lines the build drops: other languages, other properties, sitelinks
            n_noise = int(kept_here * noise)
            if n_noise:
                who = block[rng.integers(0, n, n_noise)].tolist()
                kinds = rng.integers(0, 4, n_noise).tolist()
                for q, k in zip(who, kinds):
                    if k == 0:
                        buf.append(f'<{WD}Q{q}> <http://www.w3.org/2000/01/rdf-schema#label> "Ding {q}"@de .')
                    elif k == 1:
                        buf.append(f'<{WD}Q{q}> <{WDT}P1082> "+{q % 100000}"^^<http://www.w3.org/2001/XMLSchema#decimal> .')
                    elif k == 2:
                        buf.append(f"<https://en.wikipedia.org/wiki/Item_{q}> <http://schema.org/about> <{WD}Q{q}> .")
                    else:
                        buf.append(f'<{WD}Q{q}> <{WDT}P856> <https://example.org/{q}> .')
            fh.write("\n".join(buf))
            fh.write("\n")
            lines += len(buf)
            kept += kept_here
    return lines, kept


# --- measurements ---------------------------------------------------------------------------
_ENGINE_PROBE = r"""
import json, random, resource, statistics, sys, time
t0 = time.perf_counter()
from engine import Engine
from engine.types import EntityType, Span
engine = Engine.from_config(store=sys.argv[1], model="shipped")
startup = time.perf_counter() - t0
def hwm():
    # this process's own peak (ru_maxrss would include the parent's memory before exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
rss_start = hwm()
import sqlite3
db = sqlite3.connect(f"file:{sys.argv[1]}/index/labels.sqlite?mode=ro", uri=True)
rng = random.Random(7)
top = db.execute("SELECT max(qid) FROM main").fetchone()[0]
base = 500_000_000 if top >= 500_000_000 else top
texts, qids = [], []
while len(texts) < 1000:
    x = rng.randint(base, top) if base < top and rng.random() < 0.8 else rng.randint(1, base)
    row = db.execute("SELECT qid, text FROM main WHERE qid >= ? LIMIT 1", (x,)).fetchone()
    if row and len(row[1]) >= 8:
        texts.append(row[1]); qids.append("Q%d" % row[0])
def typo(t):
    i = rng.randrange(1, len(t) - 1)
    return t[:i] + ("x" if t[i] != "x" else "y") + t[i + 1:]
approx = [typo(t) for t in texts[:300]]
def timed(f, xs):
    out, cpu = [], []
    for x in xs:
        a, c = time.perf_counter(), time.process_time(); f(x)
        out.append((time.perf_counter() - a) * 1000); cpu.append((time.process_time() - c) * 1000)
    out.sort(); cpu.sort()
    q = lambda v, p: round(v[min(len(v) - 1, int(len(v) * p))], 3)
    # wall clock, and this process's CPU time (not counting time the shared machine took the core away)
    return {"n": len(out), "p50_ms": q(out, 0.5), "p99_ms": q(out, 0.99), "cpu_p50_ms": q(cpu, 0.5), "cpu_p99_ms": q(cpu, 0.99)}
link = lambda t: engine.linker.link(Span(text=t, entity_type=EntityType.LOC))
res = {"startup_s": round(startup, 3), "rss_after_startup_mb": round(rss_start, 1)}
res["link_exact"] = timed(link, texts[:1000])
res["link_approximate"] = timed(link, approx)
items = [q for q in qids if engine.chains.view.parents(q, "P31")][:500]
res["chain_cold"] = timed(engine.chains.chains, items)
res["chain_warm"] = timed(engine.chains.chains, items)
from importlib import resources
from engine.io.docio import document_from_dict
raw = json.loads((resources.files("engine") / "data" / "demo_biography.json").read_text(encoding="utf-8"))
doc = document_from_dict(raw, "demo", "demo")
a = time.perf_counter(); engine.sanitize(doc.text, doc.mentions); first = time.perf_counter() - a
a = time.perf_counter(); engine.sanitize(doc.text, doc.mentions); second = time.perf_counter() - a
res["demo_sanitize_first_s"] = round(first, 3)
res["demo_sanitize_s"] = round(second, 3)
res["peak_rss_mb"] = round(hwm(), 1)
print(json.dumps(res))
"""

_BUILD_PROBE = r"""
import json, resource, sys
from kg.build import build_from_dump
r = build_from_dump(sys.argv[1], sys.argv[2], progress=False)
d = r.to_dict()
d["peak_rss_mb"] = round(int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM:")).split()[1]) / 1024, 1)
d["workers_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)
print(json.dumps(d))
"""


def _run(code: str, *args: str, nice: int = 0) -> dict[str, Any]:
    cmd = [sys.executable, "-c", code, *args]
    if nice and shutil.which("nice"):
        cmd = ["nice", "-n", str(nice), *cmd]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure_engine(store: Path) -> dict[str, Any]:
    """Start-up, RSS, link, chain and demo figures of an engine on ``store`` (fresh subprocess),
    with the load average of the machine before and after."""
    before = load_average()
    res = _run(_ENGINE_PROBE, str(store))
    res["load_average"] = f"{before} → {load_average()}"
    return res


def measure_store(store: Path) -> ScaleResult:
    """The engine's figures on an already built store (no generation, no build)."""
    res = ScaleResult(fraction=str(store))
    res.build = {"store_mb": round(_dir_size(store) / 1e6, 1), "index_mb": round(_dir_size(store / "index") / 1e6, 1)}
    res.engine = measure_engine(store)
    return res


def run_scale(seed: Path, fraction: float, workdir: Path, *, noise: float = 1.0, keep: bool = False) -> ScaleResult:
    """Generate, build and measure one scale."""
    label = f"1/{round(1 / fraction)}" if fraction < 1 else str(fraction)
    res = ScaleResult(fraction=label)
    workdir.mkdir(parents=True, exist_ok=True)
    dump = workdir / f"scale-{round(1 / fraction)}.nt"
    store = workdir / f"store-{round(1 / fraction)}"
    t0 = time.perf_counter()
    res.dump_lines, res.kept_triples = generate_dump(seed, fraction, dump, noise=noise)
    gen_s = time.perf_counter() - t0
    build = _run(_BUILD_PROBE, str(dump), str(store))
    res.build = {
        "generate_s": round(gen_s, 1),
        "lines": build["lines"], "kept": build["kept"], "triples": build["triples"],
        "filter_s": round(build["filter_seconds"], 2),
        "filter_lines_per_s": round(build["lines"] / max(build["filter_seconds"], 1e-9)),
        # load-independent: lines per CPU-second of the workers and of the reading process
        "filter_lines_per_worker_cpu_s": round(build["lines"] / max(build["filter_cpu_seconds"], 1e-9)),
        "filter_lines_per_main_cpu_s": round(build["lines"] / max(build["filter_main_cpu_seconds"], 1e-9)),
        "load_s": round(build["load_seconds"], 1), "index_s": round(build["index_seconds"], 1),
        "total_s": round(build["seconds"], 1),
        "store_mb": round(_dir_size(store) / 1e6, 1), "index_mb": round(_dir_size(store / "index") / 1e6, 1),
        "peak_rss_mb": build["peak_rss_mb"], "workers_peak_rss_mb": build["workers_peak_rss_mb"],
        "workers": os.cpu_count(),
    }
    dump.unlink(missing_ok=True)
    res.engine = measure_engine(store)
    if not keep:
        shutil.rmtree(store, ignore_errors=True)
    return res


def extrapolate(results: list[ScaleResult], filter_run: dict[str, Any] | None = None) -> dict[str, Any]:
    """The real dump's build time on 2 and 16 cores, from the largest scale measured.

    Filtering scales with the cores (blocks are independent) and with the dump's lines;
    the bulk load and the index scale with the kept triples and run on one core for the
    load (Oxigraph's bulk loader uses the cores it has; counted as one here: an upper bound).

    The synthetic dumps keep one line in ``1 + noise`` (the real dump: one in 22), and a
    kept line costs the filter more than a dropped one, so their filter rate understates
    the real dump's. ``filter_run`` (:func:`bench_filter` over a dump with the real share
    of dropped lines) supplies the filter's rates instead when given.
    """
    big = max(results, key=lambda r: r.kept_triples)
    b = big.build
    cores = b["workers"] or 1
    per_line_core = b["filter_s"] * cores / max(b["lines"], 1)
    rest_per_kept = (b["total_s"] - b["filter_s"]) / max(b["kept"], 1)
    worker_cpu = 1 / max(b.get("filter_lines_per_worker_cpu_s", 0), 1)
    reader_cpu = 1 / max(b.get("filter_lines_per_main_cpu_s", 0), 1)
    if filter_run is not None:
        per_line_core = (filter_run.get("workers") or 1) / max(filter_run["lines_per_s"], 1)
        worker_cpu = 1 / max(filter_run["lines_per_worker_cpu_s"], 1)
        reader_cpu = 1 / max(filter_run["lines_per_reader_cpu_s"], 1)
    out = {"from_scale": big.fraction, "filter_from": filter_run["source"] if filter_run else f"scale {big.fraction}",
           "dump_lines": DUMP_LINES, "kept_triples": DUMP_KEPT,
           "bz2_decompress_cpu_h": round(DUMP_LINES * LINE_BYTES / LBZIP2_BYTES_PER_CPU_S / 3600, 2)}
    for n in (2, 16):
        filt = DUMP_LINES * per_line_core / n
        rest = DUMP_KEPT * rest_per_kept
        # CPU-based: the workers share the cores with lbzip2; the reader is one process
        quiet = DUMP_LINES * max((worker_cpu + LINE_BYTES / LBZIP2_BYTES_PER_CPU_S) / n, reader_cpu)
        out[f"{n}_cores"] = {"filter_h": round(filt / 3600, 2), "load_and_index_h": round(rest / 3600, 2),
                             "total_h": round((filt + rest) / 3600, 2),
                             "filter_lines_per_s": round(DUMP_LINES / filt),
                             "quiet_filter_with_lbzip2_h": round(quiet / 3600, 2),
                             "quiet_filter_lines_per_s": round(DUMP_LINES / quiet)}
    return out


def _pp(t: dict[str, Any]) -> str:
    return f"{t['p50_ms']}/{t['p99_ms']} ms (CPU {t['cpu_p50_ms']}/{t['cpu_p99_ms']} ms)"


def format_engine(e: dict[str, Any]) -> str:
    """The engine's lines of a scale's figures."""
    return (
        f"  engine: start-up {e['startup_s']} s, RSS after start-up {e['rss_after_startup_mb']} MB, peak RSS {e['peak_rss_mb']} MB\n"
        f"  link exact p50/p99 {_pp(e['link_exact'])}, approximate p50/p99 {_pp(e['link_approximate'])}\n"
        f"  chain cold p50/p99 {_pp(e['chain_cold'])}, warm p50/p99 {_pp(e['chain_warm'])}\n"
        f"  demo sanitize {e['demo_sanitize_s']} s (first call, loading the ranker and embedder: {e['demo_sanitize_first_s']} s)"
        + (f"\n  [load average while measuring: {e['load_average']}]" if "load_average" in e else "")
    )


def format_result(r: ScaleResult) -> str:
    b, e = r.build, r.engine
    if "triples" not in b:  # an existing store, measured only
        return f"store {r.fraction}: {b['store_mb']} MB (index {b['index_mb']} MB)\n" + format_engine(e)
    return (
        f"scale {r.fraction}: {r.dump_lines:,} dump lines, {b['triples']:,} triples kept\n"
        f"  build: filter {b['filter_lines_per_s'] / 1e6:.2f} M lines/s ({b['filter_s']} s on {b['workers']} workers; "
        f"{b['filter_lines_per_worker_cpu_s'] / 1e6:.2f} M lines per worker CPU-second, reader {b['filter_lines_per_main_cpu_s'] / 1e6:.2f} M lines per CPU-second), "
        f"bulk load {b['load_s']} s, index {b['index_s']} s, total {b['total_s']} s; store {b['store_mb']} MB "
        f"(index {b['index_mb']} MB); build peak RSS {b['peak_rss_mb']} MB (largest worker ≤ {b['workers_peak_rss_mb']} MB)\n"
        + format_engine(e)
    )


def bench_filter(source: Path, workdir: Path) -> dict[str, Any]:
    """Run only the build's parallel filter over ``source``: wall-clock and CPU throughput."""
    from kg.dump_reader import decompressor
    from kg.dumps import DumpReport
    from kg.parallel import parallel_filter, workers

    workdir.mkdir(parents=True, exist_ok=True)
    out = workdir / "filtered.nt"
    report = DumpReport(str(source))
    load_before = load_average()
    t0, c0 = time.perf_counter(), time.process_time()
    worker_cpu = parallel_filter(source, out, report, sitelinks=workdir / "sitelinks.i32")
    wall, main_cpu = time.perf_counter() - t0, time.process_time() - c0
    out.unlink(missing_ok=True)
    (workdir / "sitelinks.i32").unlink(missing_ok=True)
    return {
        "source": str(source), "decompressor": (decompressor(source) or ["python"])[0], "workers": workers(),
        "lines": report.lines, "kept": report.kept, "malformed": report.malformed,
        "seconds": round(wall, 2), "lines_per_s": round(report.lines / max(wall, 1e-9)),
        "lines_per_worker_cpu_s": round(report.lines / max(worker_cpu, 1e-9)),
        "lines_per_reader_cpu_s": round(report.lines / max(main_cpu, 1e-9)),
        "load_average_before": load_before, "load_average_after": load_average(),
    }


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


__all__ = ["WIKIDATA", "ScaleResult", "bench_filter", "extrapolate", "format_result", "generate_dump", "measure_engine", "measure_store", "run_scale"]
