"""A disk cache of the gazetteer's entries read from a store's label index.

Reading the ~100k names of ``index/labels.sqlite`` and giving each item its kind from the
memory-mapped class graph (:func:`engine.detect.index_feed.index_entries`) took 3.8 s of
the 6 s a first raw document waited for its gazetteer; the same entries as a pickle of
plain tuples load in 0.4 s. The cache file lives in ``$TAXOGEN_CACHE_DIR/gazetteer/``
(default ``~/.cache/taxogen``, beside the embedding cache), never in the store (which may
be read-only), and is keyed by the index files' paths, sizes and modification times and
by the kind anchors, so a rebuilt store or changed kinds make a new one. A cache that
cannot be read or written is skipped: the entries are then read from the index.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from engine.detect.gazetteer import KIND_ANCHORS, KIND_ORDER, KIND_TYPE, GazetteerEntry
from engine.types import EntityType

#: bump when the entries' meaning changes without the index or the kind anchors changing
VERSION = 1


def cache_dir() -> Path:
    """``$TAXOGEN_CACHE_DIR/gazetteer`` (default ``~/.cache/taxogen/gazetteer``)."""
    base = os.environ.get("TAXOGEN_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "taxogen")
    return Path(base) / "gazetteer"


def cache_key(index_dir: str | Path, hops: int) -> str:
    """A key that changes with any file of the index and with the kinds' definitions."""
    h = hashlib.sha1(f"v{VERSION}\x00{hops}\x00{sorted((k, sorted(v)) for k, v in KIND_ANCHORS.items())}"
                     f"\x00{KIND_ORDER}\x00{sorted((k, t.value) for k, t in KIND_TYPE.items())}".encode())
    root = Path(index_dir).resolve()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            st = p.stat()
            h.update(f"\x00{p}\x00{st.st_size}\x00{st.st_mtime_ns}".encode())
    return h.hexdigest()


def cached_entries(index_dir: str | Path, read: Callable[[], Iterable[GazetteerEntry]], *, hops: int = 5,
                   directory: str | Path | None = None) -> list[GazetteerEntry]:
    """The entries of the index in ``index_dir``: from the cache, else ``read()`` (then cached)."""
    folder = Path(directory) if directory is not None else cache_dir()
    try:
        path = folder / f"{cache_key(index_dir, hops)}.pickle"
    except OSError:
        return list(read())
    try:
        with open(path, "rb") as f:
            rows = pickle.load(f)
        types = {t.value: t for t in EntityType}  # a dict lookup, not an Enum call per entry (~100k)
        return [GazetteerEntry(label, item, types[etype], kind) for label, item, etype, kind in rows]
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, KeyError):
        pass
    entries = list(read())
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            pickle.dump([(e.label, e.item, e.entity_type.value, e.kind) for e in entries], f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass
    return entries
