"""Build a store directory from a dump or an endpoint, atomically.

Files of further statements about the dump's items (``labels``: the class-labels supplement
of the shared seed, English names of classes the dump leaves unlabelled) go through the same
filter and are loaded with it.

The new store is built in a sibling temporary directory (filtered N-Triples written
there, then bulk-loaded, then the overlay applied, then metadata written); only when
everything succeeded is it swapped in for the old one by two renames. A failure or an
interruption at any point before the swap leaves an existing store untouched and removes
the temporary directory (``taxogen kg build`` turns SIGTERM/SIGHUP into a clean exit; a
SIGKILL leaves a ``.NAME.building-PID`` directory that the next build removes once that
process is gone).
"""

from __future__ import annotations

import json
import gc
import os
import shutil
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import pyoxigraph as ox
from tqdm import tqdm

from kg.dump_reader import decompressor
from kg.dumps import DumpReport, dump_format, read_dump
from kg.errors import DumpError, KGError
from kg.derived import build_derived
from kg.index import SITELINKS_FILE, build_index
from kg.parallel import Progress, parallel_filter
from kg.procs import pid_alive, replace_directory
from kg.store import META_FILE, OXI_DIR, KGStore, overlay_digest

FORMAT_VERSION = 1


@dataclass
class BuildReport:
    """Summary of a build: source, counts, malformed lines and timings."""

    source: str
    store: str
    lines: int = 0
    kept: int = 0
    malformed: int = 0
    malformed_examples: list[tuple[int, str, str]] = field(default_factory=list)
    triples: int = 0
    overlay_triples: int = 0
    overlay_digest: str | None = None  # of the overlay files loaded (kg.store.overlay_digest)
    overlay_files: str | list[str] = "shipped"
    labels: list[str] = field(default_factory=list)  # further N-Triples files loaded with the source
    label_triples: int = 0
    seconds: float = 0.0
    load_seconds: float = 0.0
    index_seconds: float = 0.0
    filter_seconds: float = 0.0
    filter_cpu_seconds: float = 0.0
    filter_main_cpu_seconds: float = 0.0
    index: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def _progress(enabled: bool, desc: str, unit: str) -> tqdm:
    return tqdm(desc=desc, unit=unit, unit_scale=True, disable=not enabled, file=sys.stderr, mininterval=0.5)


def build_from_dump(
    source: str | Path,
    store_dir: str | Path,
    *,
    strict: bool = False,
    progress: bool = True,
    max_examples: int = 10,
    overlay: bool = True,
    check: bool = False,
    overlay_files: list[Path] | None = None,
    labels: Sequence[str | Path] = (),
) -> BuildReport:
    """Build ``store_dir`` from a Wikidata N-Triples or JSON dump (streamed).

    ``overlay_files``: the overlay to load (default: the shipped ontology/*.ttl). ``labels``:
    further N-Triples files (labels, descriptions) loaded with the dump (:func:`add_labels`).

    Raises :class:`kg.errors.DumpError` for unreadable input (or any malformed line when
    ``strict``), and with ``check`` :class:`kg.errors.KGError` when the overlay fails the
    ontology check (:func:`check_overlay`); the existing store is then untouched.
    """
    src = Path(source)
    if not src.is_file() and not src.is_dir():
        raise KGError(f"no such dump: {src}", path=str(src))
    dump = DumpReport(path=str(src), max_examples=max_examples)

    def lines(workdir: Path) -> Path:
        out = workdir / "filtered.nt"
        if src.is_dir():  # parts of a dump (taxogen spark kg-filter), each through the same filter
            from kg.parts import append_sitelinks, dump_parts

            t0 = time.perf_counter()
            part_out, part_sl = workdir / "part.nt", workdir / "part.i32"
            with open(out, "wb") as fh, open(workdir / SITELINKS_FILE, "wb") as sl:
                for part in dump_parts(src):
                    report.filter_cpu_seconds += parallel_filter(part, part_out, dump, strict=strict, sitelinks=part_sl)
                    for tmp, dst in ((part_out, fh), (part_sl, sl)):
                        with open(tmp, "rb") as t:
                            shutil.copyfileobj(t, dst)
                        tmp.unlink()
            append_sitelinks(src, workdir / SITELINKS_FILE)
            report.filter_seconds = time.perf_counter() - t0
        elif dump_format(src) == "nt":
            reader = Progress(progress, f"filtering {src.name}", src.stat().st_size, bool(decompressor(src)))
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                report.filter_cpu_seconds = parallel_filter(src, out, dump, strict=strict, sitelinks=workdir / SITELINKS_FILE, on_progress=reader)
                reader.finish(dump.lines)
            finally:
                reader.close()  # ends the progress line, so an error message starts on its own line
            report.filter_main_cpu_seconds = time.process_time() - c0
            report.filter_seconds = time.perf_counter() - t0
        else:
            bar = _progress(progress, f"reading {src.name}", "lines")
            last = [0]

            def tick(n: int) -> None:
                bar.update(n - last[0])
                last[0] = n
                bar.set_postfix(kept=dump.kept, malformed=dump.malformed, refresh=False)

            try:
                with open(out, "w", encoding="utf-8") as fh:
                    for line in read_dump(src, dump, strict=strict, on_line=tick):
                        fh.write(line)
                tick(dump.lines)
            finally:
                bar.close()  # ends the bar's line, so an error message starts on its own line
        report.lines, report.kept, report.malformed = dump.lines, dump.kept, dump.malformed
        report.malformed_examples = dump.examples
        if dump.kept == 0 and strict:
            raise DumpError(f"{src}: no triple taxogen keeps in {dump.lines:,} line{'' if dump.lines == 1 else 's'} (empty or unrelated dump)",
                            path=str(src))
        return out

    report = BuildReport(source=str(src), store=str(store_dir), labels=[str(p) for p in labels])
    _build(store_dir, with_labels(lines, labels, report, strict=strict), report, progress=progress, overlay=overlay, check=check,
           overlay_files=overlay_files)
    return report


def build_from_triples(
    triples: Iterable[str],
    store_dir: str | Path,
    *,
    source: str,
    progress: bool = True,
    overlay: bool = True,
    check: bool = False,
    overlay_files: list[Path] | None = None,
    labels: Sequence[str | Path] = (),
) -> BuildReport:
    """Build ``store_dir`` from an iterable of N-Triples lines (e.g. an endpoint extract);
    ``labels``: further N-Triples files loaded with them (:func:`add_labels`)."""
    report = BuildReport(source=source, store=str(store_dir), labels=[str(p) for p in labels])

    def lines(workdir: Path) -> Path:
        out = workdir / "filtered.nt"
        bar = _progress(progress, "fetching triples", "triples")
        try:
            with open(out, "w", encoding="utf-8") as fh:
                for line in triples:
                    fh.write(line)
                    report.kept += 1
                    bar.update(1)
        finally:
            bar.close()  # an error message starts on its own line
        report.lines = report.kept
        return out

    _build(store_dir, with_labels(lines, labels, report), report, progress=progress, overlay=overlay, check=check,
           overlay_files=overlay_files)
    return report


def with_labels(produce: Callable[[Path], Path], labels: Sequence[str | Path], report: BuildReport, *,
                strict: bool = False) -> Callable[[Path], Path]:
    """``produce`` followed by :func:`add_labels` of ``labels`` to the N-Triples it wrote."""
    if not labels:
        return produce

    def lines(workdir: Path) -> Path:
        out = produce(workdir)
        report.label_triples = add_labels(labels, out, workdir, strict=strict)
        return out

    return lines


def add_labels(labels: Sequence[str | Path], out: Path, workdir: Path, *, strict: bool = False) -> int:
    """Append to ``out`` the statements of the N-Triples files ``labels`` the dump filter keeps
    (the shared seed's ``class-labels.nt.gz``: English names of the classes it leaves unlabelled);
    how many. Raises :class:`DumpError` for a missing file or one not in N-Triples."""
    kept = 0
    for path in map(Path, labels):
        if not path.is_file() or dump_format(path) != "nt":
            raise DumpError(f"{path}: not an N-Triples file (.nt, .nt.gz, .nt.bz2) to load labels from", path=str(path))
        part, report = workdir / "labels.nt", DumpReport(path=str(path))
        parallel_filter(path, part, report, strict=strict)
        with open(out, "ab") as fh, open(part, "rb") as src:
            shutil.copyfileobj(src, fh)
        part.unlink()
        kept += report.kept
    return kept


def check_overlay(kg: KGStore, files: list[Path] | None = None, *, progress: bool) -> None:
    """Refuse an overlay the ontology check finds errors in (:mod:`kg.ontology_check`):
    raises :class:`KGError` with the first error and how many there are."""
    from kg.ontology_check import check_ontology

    result = check_ontology(kg, files, on_progress=(lambda m: print(m, file=sys.stderr)) if progress else None)
    if progress:
        print(result.summary(), file=sys.stderr)
    if result.errors:
        first, more = result.errors[0], len(result.errors) - 1
        raise KGError(f"the overlay fails the ontology check: {first.format()}"
                      + (f" (and {more} more error{'s' if more > 1 else ''}: taxogen kg check lists them)" if more else "")
                      + "; --no-check builds anyway", path=first.file)


def _build(
    store_dir: str | Path,
    produce: Callable[[Path], Path],
    report: BuildReport,
    *,
    progress: bool,
    overlay: bool,
    check: bool = False,
    overlay_files: list[Path] | None = None,
) -> None:
    start = time.perf_counter()
    target = Path(store_dir).absolute()
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{target.name}.building-*"):
        pid = stale.name.rsplit("-", 1)[-1]
        if not (pid.isdigit() and pid_alive(int(pid))):  # left by a killed build; a running one keeps its own
            shutil.rmtree(stale, ignore_errors=True)
    work = target.parent / f".{target.name}.building-{os.getpid()}"
    work.mkdir()
    store: ox.Store | None = None
    kg: KGStore | None = None
    try:
        nt = produce(work)
        t0 = time.perf_counter()
        if progress:
            print(f"bulk-loading {nt.stat().st_size / 1e6:.1f} MB of N-Triples …", file=sys.stderr)
        store = ox.Store(str(work / OXI_DIR))
        store.bulk_load(path=str(nt), format=ox.RdfFormat.N_TRIPLES)
        report.load_seconds = time.perf_counter() - t0
        kg = KGStore(store, path=work)
        report.triples = len(store)
        if overlay:
            report.overlay_triples = kg.load_overlay(overlay_files)
            report.overlay_digest = overlay_digest(overlay_files)
            report.overlay_files = "shipped" if overlay_files is None else [str(p) for p in overlay_files]
            if check:
                check_overlay(kg, overlay_files, progress=progress)
        store.flush()
        t1 = time.perf_counter()
        sitelinks = work / SITELINKS_FILE
        report.index = build_index(nt, work, sitelinks=sitelinks, progress=progress).to_dict()
        report.index["derived_seconds"] = build_derived(kg, progress=progress)  # what other packages derive (kg.derived)
        report.index_seconds = time.perf_counter() - t1
        sitelinks.unlink(missing_ok=True)
        nt.unlink()
        del kg, store
        gc.collect()  # a cycle (the derived indices' readers) may still hold the store: its lock goes now, before the rename
        report.seconds = time.perf_counter() - start
        _write_meta(work, report)
        _swap_in(work, target)
    except BaseException as exc:
        # the traceback keeps the frames that hold the store (a refused overlay check, a failed
        # index): drop them so its lock goes with its directory, and a retry in this process works
        kg = store = None
        traceback.clear_frames(exc.__traceback__)
        gc.collect()
        shutil.rmtree(work, ignore_errors=True)
        raise


def _swap_in(work: Path, target: Path) -> None:
    """Replace ``target`` by ``work``: rename the old store aside, rename the new one in."""
    replace_directory(work, target)


def _write_meta(target: Path, report: BuildReport) -> None:
    meta = {
        "format_version": FORMAT_VERSION,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **{k: v for k, v in report.to_dict().items() if k != "malformed_examples"},
    }
    tmp = target / (META_FILE + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2), encoding="utf-8")
    os.replace(tmp, target / META_FILE)
