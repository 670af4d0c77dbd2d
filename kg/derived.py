"""Indices that other packages derive from a store, built with it and only read at run time.

A store's own indices (:mod:`kg.index`) are the graph's: labels, the class graph,
prominence. Packages built on the store derive more from it — the detector's gazetteer
entries (every name with its kind), the privacy guard's persons and their facts — that
cost seconds to a minute to compute. They are built when the store is (``kg build``, the
starter graph's first build), and again by ``taxogen kg index``; a run only reads them, and
a store that lacks one, or holds one of another version, is refused in one line naming the
command that fixes it.

A package registers each index it derives (:func:`register`) with a name, a version (which
changes whenever what it writes changes) and a function that writes it to a path from the
store; :func:`build_derived` runs them all into ``index/derived/`` and records their
versions in ``index/derived.json``; :func:`derived_file` gives the file of one, checked.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kg.errors import KGError
from kg.index import INDEX_DIR
from kg.procs import replace_directory
from kg.store import KGStore

DERIVED_DIR = "derived"
MANIFEST = "derived.json"


@dataclass(frozen=True, slots=True)
class DerivedIndex:
    """One index derived from a store: ``build(kg, path)`` writes it to ``path``."""

    name: str
    version: str
    build: Callable[[KGStore, Path], None]
    #: what it holds, for messages
    purpose: str = ""


_REGISTERED: dict[str, DerivedIndex] = {}


def register(index: DerivedIndex) -> None:
    """Build ``index`` with every store from now on (a name registered again is replaced)."""
    _REGISTERED[index.name] = index


def registered() -> tuple[DerivedIndex, ...]:
    """The registered indices, by name."""
    return tuple(_REGISTERED[name] for name in sorted(_REGISTERED))


def versions_digest() -> str:
    """What the registered indices are: a new version of one changes it (the starter graph's
    cache directory is named after it, among others)."""
    return hashlib.sha256(json.dumps({i.name: i.version for i in registered()}, sort_keys=True).encode()).hexdigest()[:12]


def build_derived(kg: KGStore, *, progress: bool = False) -> dict[str, float]:
    """Write every registered index of the on-disk store ``kg`` into its ``index/derived/``
    (replacing what was there); the seconds each took."""
    if kg.path is None:
        raise KGError("only a store directory holds derived indices")
    index = Path(kg.path) / INDEX_DIR
    work = index / f".{DERIVED_DIR}.building-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    seconds: dict[str, float] = {}
    try:
        for each in registered():
            t0 = time.perf_counter()
            each.build(kg, work / each.name)
            seconds[each.name] = round(time.perf_counter() - t0, 2)
            if progress:
                print(f"derived index {each.name}: {seconds[each.name]} s", file=sys.stderr)
        replace_directory(work, index / DERIVED_DIR)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    manifest = {i.name: i.version for i in registered()}
    tmp = index / f".{MANIFEST}.{os.getpid()}"
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
    os.replace(tmp, index / MANIFEST)
    return seconds


def derived_file(kg: KGStore, name: str) -> Path:
    """The file of the derived index ``name`` of ``kg``; :class:`KGError` (one line, with the
    command that fixes it) when the store has none or one of another version."""
    index = _REGISTERED.get(name)
    if index is None:
        raise KGError(f"no derived index named {name!r}; registered: {', '.join(sorted(_REGISTERED)) or 'none'}")
    if kg.path is None:
        raise KGError(f"an in-memory store has no derived index ({name})")
    root = Path(kg.path) / INDEX_DIR
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    path = root / DERIVED_DIR / name
    if manifest.get(name) != index.version or not path.exists():
        what = "has no" if name not in manifest else "has an older"
        raise KGError(f"store {kg.path} {what} {index.purpose or name} index (built by another taxogen): "
                      f"run 'taxogen kg index --store {kg.path}'", path=str(kg.path))
    return path
