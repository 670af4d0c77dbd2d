"""Parallel, bounded-memory passes over N-Triples: the dump filter and the index extraction.

The main process reads the (decompressed) dump in blocks of whole lines and hands them to
a pool of worker processes, at most a few blocks in flight, so memory stays bounded
whatever the size of the dump; results are consumed in order, so line numbers of
malformed lines and the output order are those of the sequential reader.

Decompression runs in ``lbzip2``/``pigz`` (parallel, in their own process) when they are
installed, else in Python (``bz2``/``gzip``).

The filter keeps exactly what :func:`kg.dumps.read_ntriples` keeps: a block is checked
with one multi-line regular expression (every line an N-Triples statement, a comment or
blank) and only the lines naming a kept predicate are looked at one by one; a block with
a malformed or non-UTF-8 line falls back to the line-by-line reader for that block.
``schema:about`` lines are counted per item (sitelinks, for the prominence prior).
"""

from __future__ import annotations

import bz2
import gzip
import multiprocessing as mp
import os
import re
import shutil
import subprocess
import sys
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator

import numpy as np

from kg.dumps import NT_LINE, DumpReport
from kg.errors import DumpError, KGError
from kg.vocab import KEPT_PREDICATES, RDFS_LABEL, SKOS_ALT, TEXT_PREDICATES, WD, WDT

BLOCK = 4 << 20
SCHEMA_ABOUT = "http://schema.org/about"

_WS = r"[ \t]"
_IRI = r"<[^<>\"{}|^`\\\x00-\x20]*>"
_ECHAR = r"\\[tbnrf\"'\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_LITERAL = rf"\"(?:[^\"\\\n\r]++|{_ECHAR})*+\"(?:@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*|\^\^{_IRI})?"
_BNODE = r"_:[A-Za-z0-9_][A-Za-z0-9_.\-]*"
# Predicates factored by their common prefix (the regex engine tries alternatives one by one).
_ITEM_PREDS = rf"{re.escape(WDT)}(?:" + "|".join(
    re.escape(p[len(WDT):]) for p in sorted(KEPT_PREDICATES - {WDT + "P1549"}, key=lambda p: (-len(p), p))
) + ")"
_TEXT_PREDS = "|".join(re.escape(p) for p in sorted(TEXT_PREDICATES))
_WD_IRI = rf"<{re.escape(WD)}[^<>\"{{}}|^`\\\x00-\x20]*>"
_STRING = rf"\"(?:[^\"\\\n\r]++|{_ECHAR})*+\""
_NOT_LANG = r"(?![-a-zA-Z0-9])"
_KEEP_BODY = (
    rf"(?:{_IRI}|{_BNODE}){_WS}+(?:"
    rf"<(?:{_ITEM_PREDS})>{_WS}+(?:{_WD_IRI}|{_BNODE})"
    rf"|<{re.escape(WDT)}P1549>{_WS}+(?:{_WD_IRI}|{_BNODE}|{_STRING}(?:@en{_NOT_LANG}|\^\^{_IRI})?)"
    rf"|<(?:{_TEXT_PREDS})>{_WS}+{_STRING}@[eE][nN]{_NOT_LANG}"
    rf"){_WS}*\.(?:{_WS}*#[^\n]*?)?"
)
_ANY_BODY = rf"(?:{_IRI}|{_BNODE}){_WS}+{_IRI}{_WS}+(?:{_IRI}|{_BNODE}|{_LITERAL}){_WS}*\.(?:{_WS}*#[^\n]*)?"
#: A ``schema:about`` line as the dump writes it (single spaces, an ASCII IRI subject):
#: a valid statement, never kept, checked in one step; group 1 is its item's Q-number.
#: Any other sitelink line is checked by the general rule below.
_SITELINK = (
    rf"<[!#-;=?-\[\]_a-z~]*+> <{re.escape(SCHEMA_ABOUT)}> <{re.escape(WD)}Q([0-9]{{1,18}})> \."
)
#: Every line of a block: group 2 holds the (stripped) statement when ``keep_line`` keeps
#: it, is empty for other valid lines (statements, comments, blanks); invalid lines do not
#: match; group 1 holds the Q-number of a sitelink line of the form ``_SITELINK``.
_LINE = re.compile(rf"^(?:{_SITELINK}|{_WS}*(?:({_KEEP_BODY})|{_ANY_BODY}|#[^\n]*)?{_WS}*\r?)$", re.M)
#: The same for the prefilter's output, whose lines start with their line number (``N:``).
_NUMBERED_LINE = re.compile(rf"^[0-9]+:(?:{_SITELINK}|{_WS}*(?:({_KEEP_BODY})|{_ANY_BODY}|#[^\n]*)?{_WS}*\r?)$", re.M)
#: The object of a ``schema:about`` statement (in a block whose lines are all valid).
_ABOUT = re.compile(rf"<{re.escape(SCHEMA_ABOUT)}>{_WS}+<{re.escape(WD)}Q([0-9]+)>{_WS}*\.")


def keep_line(line: str) -> bool | None:
    """``True``/``False`` for a stripped statement line (the rules of ``read_ntriples``);
    ``None`` when it is not an N-Triples statement."""
    m = NT_LINE.match(line)
    if m is None:
        return None
    pred = m.group(2)[1:-1]
    obj = m.group(3)
    if pred in KEPT_PREDICATES:
        if obj.startswith("<") and not obj[1:].startswith(WD):
            return False
        if obj.startswith('"') and pred != WDT + "P1549":
            return False
        if obj.startswith('"') and m.group(4) not in ("en", None):
            return False
        return True
    if pred in TEXT_PREDICATES:
        return m.group(4) is not None and m.group(4).lower() == "en"
    return False


@dataclass
class BlockResult:
    """What a worker found in one block."""

    lines: int
    kept: bytes
    n_kept: int
    malformed: list[tuple[int, str, str]] = field(default_factory=list)
    n_malformed: int = 0
    about: np.ndarray | None = None
    cpu_s: float = 0.0


def filter_block(block: bytes) -> BlockResult:
    """Filter one block of whole lines (ends with a newline)."""
    t0 = time.process_time()
    res = _filter_block(block, _LINE) or _filter_slow(block, block.count(b"\n"))
    res.cpu_s = time.process_time() - t0
    return res


def _filter_block(block: bytes, line_re: re.Pattern[str]) -> BlockResult | None:
    """The fast path: ``None`` when the block holds a malformed or non-UTF-8 line."""
    n_lines = block.count(b"\n")
    about = None
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        return None
    found = line_re.findall(text)
    # ``^…$`` also matches the empty string after the final newline (not numbered)
    if len(found) != n_lines + (line_re is _LINE):
        return None
    kept = [line for _, line in found if line]
    if SCHEMA_ABOUT in text:
        items = [q for q, _ in found if q]
        if len(items) != text.count(f"<{SCHEMA_ABOUT}>"):  # not all in ``_SITELINK`` lines
            items = _ABOUT.findall(text)
        about = item_numbers(items)
    out = ("\n".join(kept) + "\n").encode("utf-8") if kept else b""
    return BlockResult(n_lines, out, len(kept), about=about)


def item_numbers(digits: list[str]) -> np.ndarray | None:
    """The int32 Q-numbers of ``schema:about`` objects (decimal strings); a number beyond
    int32 (no item the index can hold) is left out; ``None`` for none."""
    if not digits:
        return None
    if max(map(len, digits)) > 9:
        digits = [q for q in digits if int(q) <= 2**31 - 1]
    return np.array(digits, dtype=np.int64).astype(np.int32) if digits else None


_NUMBER = re.compile(rb"^([0-9]+):", re.M)


def filter_numbered_block(block: bytes) -> BlockResult:
    """Filter a block of the prefilter's output: lines ``N:line`` (``N`` the dump's line number).

    ``lines`` of the result is the dump line number of the block's last line; malformed
    lines carry their dump line numbers."""
    t0 = time.process_time()
    res = _filter_block(block, _NUMBERED_LINE)
    if res is None:  # a malformed line: line by line, with the dump's line numbers
        numbers = _NUMBER.findall(block)
        res = _filter_slow(_NUMBER.sub(b"", block), block.count(b"\n"))
        res.malformed = [(int(numbers[no - 1]), reason, line) for no, reason, line in res.malformed]
    m = _NUMBER.match(block, block.rfind(b"\n", 0, len(block) - 1) + 1)
    res.lines = int(m.group(1)) if m else 0
    res.cpu_s = time.process_time() - t0
    return res


def _filter_slow(block: bytes, n_lines: int) -> BlockResult:
    """Line by line, recording malformed lines (local line numbers from 1)."""
    res = BlockResult(n_lines, b"", 0)
    kept: list[str] = []
    about: list[str] = []
    for no, raw in enumerate(block.split(b"\n")[:n_lines], start=1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            res.n_malformed += 1
            res.malformed.append((no, f"invalid UTF-8 ({exc.reason})", ""))
            continue
        if not line or line.startswith("#"):
            continue
        verdict = keep_line(line)
        if verdict is None:
            res.n_malformed += 1
            if len(res.malformed) < 20:
                res.malformed.append((no, "not an N-Triples statement", line[:200]))
        elif verdict:
            kept.append(line)
        else:
            m = _ABOUT.search(line)
            if m:
                about.append(m.group(1))
    res.kept = ("\n".join(kept) + "\n").encode("utf-8") if kept else b""
    res.n_kept = len(kept)
    res.about = item_numbers(about)
    return res


# --- reading -----------------------------------------------------------------------------
def decompressor(path: str | Path) -> list[str] | None:
    """The external command that decompresses ``path`` to stdout, when one is installed."""
    p = str(path)
    if os.environ.get("TAXOGEN_NO_EXTERNAL_DECOMPRESS"):
        return None
    if p.endswith(".bz2"):
        for tool in ("lbzip2", "pbzip2"):
            if shutil.which(tool):
                return [tool, "-d", "-c", p]
    if p.endswith(".gz"):
        for tool in ("pigz", "gzip"):
            if shutil.which(tool):
                return [tool, "-d", "-c", p]
    return None


class BlockReader:
    """Whole-line blocks of a (possibly compressed) file, through an external decompressor when available."""

    def __init__(self, path: str | Path, block: int | None = None) -> None:
        self.path = str(path)
        self.block = block or BLOCK  # read at call time (tests shrink it)
        self.proc: subprocess.Popen | None = None
        self.external = decompressor(path)
        self.bytes_read = 0

    def _open(self) -> IO[bytes]:
        try:
            if self.external:
                self.proc = subprocess.Popen(self.external, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                assert self.proc.stdout is not None
                return self.proc.stdout
            if self.path.endswith(".gz"):
                return gzip.open(self.path, "rb")  # type: ignore[return-value]
            if self.path.endswith(".bz2"):
                return bz2.open(self.path, "rb")  # type: ignore[return-value]
            return open(self.path, "rb")
        except OSError as exc:
            raise DumpError(f"cannot open {self.path}: {exc}", path=self.path) from exc

    def _read(self, fh) -> bytes:
        try:
            data = fh.read(self.block)
        except (EOFError, OSError) as exc:
            raise DumpError(f"{self.path}: truncated or corrupt: {exc}", path=self.path) from exc
        self.bytes_read += len(data)
        return data

    def __iter__(self) -> Iterator[bytes]:
        fh = self._open()
        try:
            yield from whole_line_blocks(lambda: self._read(fh))
        finally:
            fh.close()
            if self.proc is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                code = self.proc.wait()
                if code != 0 and sys.exc_info()[0] is None:
                    raise DumpError(f"{self.path}: {self.external[0]} failed: {err.strip()[:200]}", path=self.path)


def whole_line_blocks(read: Callable[[], bytes]) -> Iterator[bytes]:
    """Blocks of whole lines from ``read()`` (a chunk, ``b""`` at the end); a last line
    without its newline gets one."""
    rest = b""
    while data := read():
        data = rest + data
        cut = data.rfind(b"\n")
        if cut < 0:
            rest = data
            continue
        rest = data[cut + 1 :]
        yield data[: cut + 1]
    if rest:
        yield rest + b"\n"


def prefilter_patterns() -> list[str]:
    """POSIX extended expressions (``grep -E``) matching every line the filter can keep or
    count (a superset: the Python filter decides): a kept item property, an English label,
    alias or description, a ``schema:about`` line, and lines that are plainly not
    statements (they start with neither ``<``, ``_:``, ``#`` nor white space, or do not end
    with ``.``), so that the malformed-line report still sees them."""
    def esc(iri: str) -> str:
        return re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", iri)

    pats = [f"<{esc(p)}>" for p in sorted(KEPT_PREDICATES)]
    pats += [f'<{esc(p)}>[ \t].*"@[eE][nN][ \t]*\\.' for p in sorted(TEXT_PREDICATES)]
    pats += [f"<{esc(SCHEMA_ABOUT)}>", "^[^<_#[:space:]]", "[^.[:space:]][[:space:]]*$"]
    return pats


def prefilter_command() -> list[str] | None:
    """The prefilter's command line (patterns included, input not): ripgrep when installed
    (``rg``; ``TAXOGEN_PREFILTER=grep`` picks GNU grep), else GNU grep; ``None`` when
    neither is usable. Both treat the input as bytes (``-a``; ``LC_ALL=C``, ``--no-unicode``,
    no BOM sniffing); ripgrep reads rather than maps the file, so its memory stays small."""
    pats = [a for p in prefilter_patterns() for a in ("-e", p)]
    choice = os.environ.get("TAXOGEN_PREFILTER", "")
    if choice != "grep" and shutil.which("rg"):
        return ["rg", "--no-config", "-n", "-a", "--no-unicode", "--encoding", "none", "--no-mmap", "--no-filename", "--color", "never", *pats]
    if prefilter_available():
        return ["grep", "-a", "-n", "-E", *pats]
    return None


def prefilter_available() -> bool:
    """GNU grep is installed (the fallback prefilter, and the line counter of an uncompressed
    dump) and ``TAXOGEN_NO_PREFILTER`` is unset."""
    if os.environ.get("TAXOGEN_NO_PREFILTER"):
        return False
    if not shutil.which("grep"):
        return False
    try:
        out = subprocess.run(["grep", "--version"], capture_output=True, text=True, check=False, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "GNU grep" in out


#: Written after the decompressed dump into the prefilter's input: it ends the last line
#: (``[^.[:space:]][[:space:]]*$`` passes it, alone or after an unterminated last line), so
#: its line number gives the dump's line count and its presence a complete decompression.
END_MARK = b"~taxogen:end-of-dump"


def _prefilter_python() -> re.Pattern[bytes]:
    """:func:`prefilter_patterns` as one Python expression over a line's bytes (``LC_ALL=C``)."""
    space = r" \t\n\r\f\v"
    return re.compile("|".join(f"(?:{p.replace('[:space:]', space)})" for p in prefilter_patterns()).encode())


def _widen(fd: int, size: int = 1 << 20) -> None:
    """Give a pipe a larger buffer (Linux; fewer context switches between the processes)."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), size)
    except (ImportError, OSError):
        pass


class PrefilterReader:
    """Whole-line blocks of the lines of a dump that the prefilter (:func:`prefilter_command`:
    ripgrep or GNU grep, :func:`prefilter_patterns`) passes, each as ``N:line``.

    Decompression (lbzip2/pigz or Python's) and the prefilter run in their own processes at
    C speed, so Python sees only the lines that can be kept. A compressed dump is
    decompressed straight into the prefilter, followed by :data:`END_MARK` once the
    decompressor has succeeded; the mark's line number is the dump's line count. An
    uncompressed dump is read by the prefilter and counted by ``grep -c ''`` beside it."""

    def __init__(self, path: str | Path, block: int | None = None) -> None:
        self.path = str(path)
        self.block = block or BLOCK  # read at call time (tests shrink it)
        self.external = decompressor(path)
        self.proc: subprocess.Popen | None = None  # the process reading the dump file
        self.procs: list[subprocess.Popen] = []
        self.bytes_read = 0
        self.total_lines = 0
        self._feeder: _Feeder | _Ender | None = None
        self._counter: subprocess.Popen | None = None
        self._marked = False  # the input ends with END_MARK

    def _start(self) -> IO[bytes]:
        env = {**os.environ, "LC_ALL": "C"}
        grep = prefilter_command() or []
        try:
            if self.external is None and not self.path.endswith((".gz", ".bz2")):
                self.proc = subprocess.Popen([*grep, "--", self.path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
                self._counter = subprocess.Popen(["grep", "-a", "-c", "", "--", self.path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
                self.procs = [self.proc, self._counter]
                assert self.proc.stdout is not None
                return self.proc.stdout
            self._marked = True
            r, w = os.pipe()
            _widen(w)
            try:
                main = subprocess.Popen(grep, stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            finally:
                os.close(r)
            if self.external is not None:
                try:
                    self.proc = subprocess.Popen(self.external, stdout=w, stderr=subprocess.PIPE)
                except OSError:
                    os.close(w)
                    raise
                self._feeder = _Ender(self.proc, w)
            else:  # Python decompresses into the prefilter from a thread
                self._feeder = _Feeder(self.path, w)
            self.procs = [p for p in (self.proc, main) if p is not None]
            assert main.stdout is not None
            _widen(main.stdout.fileno())
            return main.stdout
        except OSError as exc:
            raise DumpError(f"cannot open {self.path}: {exc}", path=self.path) from exc

    def _last(self, block: bytes) -> bytes:
        """The last block without the line holding :data:`END_MARK` (its dump line, if any, kept
        when the prefilter would have passed it); sets :attr:`total_lines`."""
        cut = block.rfind(b"\n", 0, len(block) - 1) + 1
        no, _, text = block[cut:-1].partition(b":")
        if not (no.isdigit() and text.endswith(END_MARK)):
            raise DumpError(f"{self.path}: truncated or corrupt: the decompressed stream ended early", path=self.path)
        text = text[: -len(END_MARK)]
        self.total_lines = int(no) - (not text)  # the mark on a line of its own, or after an unterminated last line
        if text and _prefilter_python().search(text):
            return block[:cut] + no + b":" + text + b"\n"
        return block[:cut]

    def __iter__(self) -> Iterator[bytes]:
        fh = self._start()
        ok = False
        try:
            if not self._marked:
                yield from whole_line_blocks(lambda: fh.read(self.block))
            else:
                last = None
                for block in whole_line_blocks(lambda: fh.read(self.block)):
                    if last is not None:
                        yield last
                    last = block
                if last is None:
                    raise DumpError(f"{self.path}: truncated or corrupt: the decompressed stream ended early", path=self.path)
                if last := self._last(last):
                    yield last
            ok = True
        except DumpError:
            ok = True  # a decompressor's own message, when it has one, is more telling
            raise
        finally:
            fh.close()
            if not ok:  # the filter stopped early: stop the decompressor and prefilter now
                for p in self.procs:
                    if p.poll() is None:
                        p.kill()
            if self._feeder is not None:
                self._feeder.join()
            errors = []
            for p in self.procs:
                err = p.stderr.read() if p.stderr else b""
                out = p.stdout.read() if p is self._counter and p.stdout else b""
                p.wait()
                # grep and rg: 0 lines found, 1 none found, 2 trouble
                if p.returncode not in (0, 1) or (p.args[0] not in ("grep", "rg") and p.returncode != 0):
                    errors.append(f"{p.args[0]} failed: {err.decode(errors='replace').strip()[:200] if err else p.returncode}")
                if p is self._counter and out.strip():
                    self.total_lines = int(out.split()[0])
            if self._feeder is not None and self._feeder.error is not None:
                errors.insert(0, str(self._feeder.error))
            if errors and ok:
                raise DumpError(f"{self.path}: truncated or corrupt: {errors[0]}", path=self.path)


class _Ender:
    """Waits for the decompressor; writes :data:`END_MARK` after its output once it has succeeded."""

    def __init__(self, proc: subprocess.Popen, fd: int) -> None:
        import threading

        self.proc, self.fd, self.error = proc, fd, None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            if self.proc.wait() == 0:
                os.write(self.fd, END_MARK + b"\n")
        except OSError:  # the prefilter has gone: the reader reports it
            pass
        finally:
            os.close(self.fd)

    def join(self) -> None:
        self.thread.join()


class _Feeder:
    """Python's decompression (no lbzip2/pigz) written into the prefilter's pipe from a thread,
    followed by :data:`END_MARK` when it succeeded."""

    def __init__(self, path: str, fd: int) -> None:
        import threading

        self.path, self.fd, self.error = path, fd, None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        opener = gzip.open if self.path.endswith(".gz") else bz2.open
        try:
            with opener(self.path, "rb") as src, open(self.fd, "wb", closefd=False) as out:
                while data := src.read(BLOCK):
                    out.write(data)
                out.write(END_MARK + b"\n")
        except (EOFError, OSError) as exc:
            self.error = exc
        finally:
            os.close(self.fd)

    def join(self) -> None:
        self.thread.join()


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
