"""The starter graph: the store used when no store is given, built into the cache on first use.

The package ships ``kg/data/starter/starter.nt.gz`` (Wikidata facts of the shared seed and
GeoNames places; ``kg/data/starter/PROVENANCE.md`` names the sources and licences). The
first :func:`starter_store` builds it into ``$TAXOGEN_CACHE_DIR/starter-<digest>/``
(default ``~/.cache/taxogen``) with :func:`kg.build.build_from_triples` (the file holds only what
``kg build``'s filter keeps), the overlay and
the indices included — those other packages derive from it too (:mod:`kg.derived`: the
gazetteer's entries, the privacy index) — in about ten seconds; later calls open that store read-only. The
digest covers the graph file, the overlay, the index format and the derived indices'
versions, so a new taxogen builds a new store instead of reading a stale one. A file lock keeps two processes from building
at once; the build itself is atomic (a half-built store is never opened).

``$TAXOGEN_DEFAULT_GRAPH=sample`` makes the toy sample graph (``kg/data/sample.nt``, in
memory) the default instead: the unit tests run on it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sys
import time
from importlib import resources
from pathlib import Path

from kg.errors import KGError
from kg.store import OXI_DIR, KGStore, overlay_digest

#: Values of ``$TAXOGEN_DEFAULT_GRAPH``.
DEFAULT_GRAPHS = ("starter", "sample")


def starter_graph_path() -> Path:
    """The starter graph shipped inside the package (gzipped N-Triples)."""
    return Path(str(resources.files("kg") / "data" / "starter" / "starter.nt.gz"))


def cache_root() -> Path:
    """``$TAXOGEN_CACHE_DIR`` (default ``~/.cache/taxogen``)."""
    return Path(os.environ.get("TAXOGEN_CACHE_DIR") or Path.home() / ".cache" / "taxogen")


def starter_digest() -> str:
    """What the starter store is built from: the graph file, the overlay, the index format and
    the versions of the indices other packages derive from it (:mod:`kg.derived`)."""
    from kg.derived import versions_digest
    from kg.index import INDEX_VERSION

    h = hashlib.sha256()
    h.update(starter_graph_path().read_bytes())
    h.update(overlay_digest().encode() + b"\0" + str(INDEX_VERSION).encode() + b"\0" + versions_digest().encode())
    return h.hexdigest()[:12]


def starter_store_dir() -> Path:
    """Where the starter store is (or will be) built."""
    return cache_root() / f"starter-{starter_digest()}"


def starter_store(*, progress: bool = True) -> KGStore:
    """The starter store, opened read-only; built first when the cache has none.

    Raises :class:`KGError` (one line) when the cache directory cannot be written."""
    target = starter_store_dir()
    if not (target / OXI_DIR).is_dir():
        build_starter(target, progress=progress)
    return KGStore.read_only(target)


def build_starter(target: Path, *, progress: bool = True) -> None:
    """Build the starter store at ``target`` unless another process just did."""
    import gzip

    from kg.build import build_from_triples

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        lock = open(target.parent / f".{target.name}.lock", "w")
    except OSError as exc:
        raise KGError(f"cannot build the starter graph in {target.parent} ({exc.strerror}): "
                      "set TAXOGEN_CACHE_DIR to a writable directory or pass --store", path=str(target)) from exc
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / OXI_DIR).is_dir():
            return
        if progress:
            print(f"taxogen: first use: building the starter graph into {target} (once: 10 s to a minute)", file=sys.stderr)
        t0 = time.perf_counter()
        with gzip.open(starter_graph_path(), "rt", encoding="utf-8") as lines:  # already filtered: loaded as it is
            build_from_triples(lines, target, source=str(starter_graph_path()), progress=False)
        if progress:
            print(f"taxogen: starter graph ready in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def default_graph_name() -> str:
    """Which graph is used when no store is given: ``starter`` or ``sample`` (``$TAXOGEN_DEFAULT_GRAPH``)."""
    return os.environ.get("TAXOGEN_DEFAULT_GRAPH", "starter") or "starter"


def default_store(*, progress: bool = True) -> KGStore:
    """The store used when none is given: the starter graph, or the sample graph when
    ``$TAXOGEN_DEFAULT_GRAPH=sample``. Raises :class:`KGError` for another value."""
    choice = default_graph_name()
    if choice == "sample":
        return KGStore.sample()
    if choice != "starter":
        raise KGError(f"TAXOGEN_DEFAULT_GRAPH must be 'starter' or 'sample', not {choice!r}")
    return starter_store(progress=progress)
