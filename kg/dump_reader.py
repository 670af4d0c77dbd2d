"""Reading an N-Triples dump as blocks of whole lines, decompressed and prefiltered outside Python.

Decompression runs in ``lbzip2``/``pigz`` (parallel, in their own process) when they are
installed, else in Python (``bz2``/``gzip``). :class:`PrefilterReader` puts ripgrep or GNU
grep (:func:`prefilter_command`) between the decompressor and Python, so that Python sees
only the lines the filter (:mod:`kg.ntfilter`) can keep.
"""

from __future__ import annotations

import bz2
import gzip
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import IO, Callable, Iterator

from kg.errors import DumpError
from kg.ntfilter import SCHEMA_ABOUT
from kg.vocab import KEPT_PREDICATES, TEXT_PREDICATES

#: Bytes read per block (read at call time: tests shrink it).
BLOCK = 4 << 20


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
