"""Parallel, bounded-memory passes over N-Triples: the dump filter and the index extraction.

The main process reads the (decompressed) dump in blocks of whole lines
(:mod:`kg.dump_reader`) and hands them to a pool of worker processes, at most a few
blocks in flight, so memory stays bounded whatever the size of the dump; results are
consumed in order, so line numbers of malformed lines and the output order are those of
the sequential reader. The workers filter (:func:`kg.ntfilter.filter_block`) or extract
index rows (:func:`extract_block`).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import re
import sys
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from kg.dump_reader import BlockReader, PrefilterReader, prefilter_available
from kg.dumps import DumpReport
from kg.errors import KGError
from kg.ntfilter import BlockResult, filter_block, filter_numbered_block
from kg.vocab import RDFS_LABEL, SKOS_ALT, WD, WDT


def workers() -> int:
    """Worker processes for the parallel passes (``TAXOGEN_BUILD_WORKERS`` or the cores)."""
    env = os.environ.get("TAXOGEN_BUILD_WORKERS")
    return max(1, int(env)) if env else max(1, os.cpu_count() or 1)


def run_blocks(
    blocks: Iterator[bytes],
    func: Callable[[bytes], Any],
    consume: Callable[[Any], None],
    *,
    n_workers: int | None = None,
) -> None:
    """``consume(func(block))`` for every block in order, ``func`` in a process pool, bounded."""
    n = n_workers or workers()
    if n <= 1:
        for block in blocks:
            consume(func(block))
        return
    # forkserver: workers are not forked from this (threaded) process; a worker that dies
    # breaks the pool with an error instead of leaving a result that never comes
    ctx = mp.get_context("forkserver") if "forkserver" in mp.get_all_start_methods() else mp.get_context()
    try:
        with ProcessPoolExecutor(n, mp_context=ctx) as pool:
            pending: deque = deque()
            for block in blocks:
                pending.append(pool.submit(func, block))
                while len(pending) >= 2 * n + 1:
                    consume(pending.popleft().result())
            while pending:
                consume(pending.popleft().result())
    except BrokenProcessPool as exc:
        raise KGError(f"a worker process died ({exc}); out of memory? set TAXOGEN_BUILD_WORKERS=1 to filter in one process") from exc


def parallel_filter(
    path: str | Path,
    out: Path,
    report: DumpReport,
    *,
    strict: bool = False,
    sitelinks: Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> float:
    """Filter an N-Triples dump into ``out`` (kept lines), ``sitelinks`` (int32 Q-numbers of
    ``schema:about`` objects) and ``report`` (lines, kept, malformed).

    Returns the CPU seconds the workers spent filtering (a load-independent cost figure)."""
    cpu = [0.0]
    pre = not strict and prefilter_available()
    reader: BlockReader | PrefilterReader = PrefilterReader(path) if pre else BlockReader(path)
    total = Path(path).stat().st_size
    with open(out, "wb") as fh, (open(sitelinks, "wb") if sitelinks else open(os.devnull, "wb")) as sl:

        def consume(res: BlockResult) -> None:
            base = 0 if pre else report.lines
            for no, reason, line in res.malformed:
                report.bad(base + no, line, reason, strict=strict)
            report.malformed += res.n_malformed - len(res.malformed)
            report.lines = max(report.lines, res.lines) if pre else report.lines + res.lines
            report.kept += res.n_kept
            cpu[0] += res.cpu_s
            fh.write(res.kept)
            if res.about is not None:
                res.about.tofile(sl)
            if on_progress is not None:
                on_progress(report.lines, reader.bytes_read if not (reader.external or pre) else _compressed_pos(reader, total))

        blocks = iter(reader)
        try:
            run_blocks(blocks, filter_numbered_block if pre else filter_block, consume)
        finally:  # on an error too: stop and reap the reader's processes now, not at garbage collection
            blocks.close()
    if isinstance(reader, PrefilterReader):
        report.lines = reader.total_lines
    return cpu[0]


def _compressed_pos(reader: BlockReader | PrefilterReader, total: int) -> int:
    """How far the external decompressor has read its input (from /proc), else 0."""
    proc = reader.proc
    if proc is None:
        return 0
    try:
        for fd in os.listdir(f"/proc/{proc.pid}/fdinfo"):
            target = os.readlink(f"/proc/{proc.pid}/fd/{fd}")
            if target == os.path.abspath(reader.path):
                for line in open(f"/proc/{proc.pid}/fdinfo/{fd}"):
                    if line.startswith("pos:"):
                        return int(line.split()[1])
    except OSError:
        return 0
    return 0


def format_eta(seconds: float | None) -> str:
    """``?`` while unknown, seconds under a minute and a half, else minutes."""
    if seconds is None or seconds != seconds:
        return "?"
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def format_progress(desc: str, lines: int, seconds: float, fraction: float | None) -> str:
    """One progress line: lines read, their rate, and (once known) the share done and an ETA."""
    rate = lines / max(seconds, 1e-9)
    text = f"{desc}: {lines:,} lines, {rate / 1e6:.2f} M lines/s"
    if fraction is None:
        return text
    eta = seconds * (1 - fraction) / fraction if fraction > 0 else None
    return f"{text}, {100 * fraction:.1f} %, ETA {format_eta(eta)}"


class Progress:
    """Lines read, lines per second and an ETA from the share of the input consumed.

    The share never goes back: a position of 0 (the decompressor's read position is not
    known, e.g. once it has exited) keeps the last share, as does a smaller one.
    :meth:`finish` prints the last line, at 100 %, once the input is read whole.
    """

    def __init__(self, enabled: bool, desc: str, total_bytes: int, compressed: bool) -> None:
        self.enabled, self.desc, self.total, self.compressed = enabled, desc, total_bytes, compressed
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.fraction: float | None = None

    def advance(self, pos: int) -> float | None:
        """The share of the input done after position ``pos`` (monotone; ``None`` while unknown)."""
        if self.total and pos > 0:
            self.fraction = max(self.fraction or 0.0, min(pos / self.total, 1.0))
        return self.fraction

    def __call__(self, lines: int, pos: int) -> None:
        self.advance(pos)
        now = time.perf_counter()
        if not self.enabled or now - self.last < 1.0:
            return
        self.last = now
        self._print(format_progress(self.desc, lines, now - self.t0, self.fraction))

    def finish(self, lines: int) -> None:
        """The input is read whole: the last line at 100 %."""
        self.fraction = 1.0
        if self.enabled:
            elapsed = time.perf_counter() - self.t0
            self._print(f"{self.desc}: {lines:,} lines, {lines / max(elapsed, 1e-9) / 1e6:.2f} M lines/s, 100.0 %, {elapsed:.1f} s")

    def _print(self, text: str) -> None:
        print(f"\r{text}   ", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        """End the progress line (so what follows starts on its own line)."""
        if self.enabled:
            print(file=sys.stderr)


# --- index extraction ---------------------------------------------------------------------
_WS = r"[ \t]"
_EDGE = re.compile(rf"^<{re.escape(WD)}Q([0-9]+)>{_WS}+<{re.escape(WDT)}(P[0-9]+)>{_WS}+<{re.escape(WD)}Q([0-9]+)>", re.M)
_NAME = re.compile(
    rf"^<{re.escape(WD)}Q([0-9]+)>{_WS}+<({re.escape(RDFS_LABEL)}|{re.escape(SKOS_ALT)}|{re.escape(WDT)}P1549)>{_WS}+"
    rf"\"((?:[^\"\\\n]|\\.)*)\"(?:@([A-Za-z]+(?:-[A-Za-z0-9]+)*))?",
    re.M,
)
_UNESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
_ESC = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_KIND = {RDFS_LABEL: 0, SKOS_ALT: 1, WDT + "P1549": 2}


def unescape(text: str) -> str:
    """The value of an N-Triples string literal's body."""
    if "\\" not in text:
        return text
    return _UNESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)) if (m.group(1) or m.group(2)) else _ESC.get(m.group(3), m.group(3)), text)


@dataclass
class IndexBlock:
    """Item-valued statements (per property: subjects, objects) and names of one block."""

    edges: dict[str, tuple[np.ndarray, np.ndarray]]
    names: list[tuple[str, int, int, str]]


def extract_block(block: bytes) -> IndexBlock:
    """Edges and (folded) names of a block of kept N-Triples lines."""
    from kg.text import fold

    text = block.decode("utf-8", errors="replace")
    by_prop: dict[str, list[tuple[str, str]]] = {}
    for s, p, o in _EDGE.findall(text):
        by_prop.setdefault(p, []).append((s, o))
    edges = {}
    for p, pairs in by_prop.items():
        arr = np.array(pairs).astype(np.int64)
        edges[p] = (arr[:, 0].copy(), arr[:, 1].copy())
    names = []
    for q, pred, body, lang in _NAME.findall(text):
        kind = _KIND[pred]
        if kind == 2 and lang and lang.lower() != "en":
            continue
        value = unescape(body)
        names.append((fold(value), kind, int(q), value))
    return IndexBlock(edges, names)
