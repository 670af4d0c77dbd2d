"""The taxonomy store: a pyoxigraph store plus taxogen's metadata.

A store directory holds ``oxigraph/`` (the RocksDB files) and ``taxogen.json`` (what
was built from what, and when). Wikidata triples live in the default graph; the
overlay lives in the named graph ``urn:taxogen:overlay``; remote-cache results in
``urn:taxogen:cache:<source>`` graphs.

Open a store three ways, like pyoxigraph: :meth:`KGStore.open` (read-write),
:meth:`KGStore.read_only` (many readers) and :meth:`KGStore.in_memory`;
:meth:`KGStore.sample` is an in-memory store holding the toy sample graph shipped for the
unit tests plus the overlay. The store used when none is given is the starter graph
(:func:`kg.starter.default_store`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import pyoxigraph as ox

from kg.errors import KGError, QueryError
from kg.queries import NamedQuery, bind, load_query, syntax_error_message, term_value
from kg.vocab import OVERLAY_GRAPH

META_FILE = "taxogen.json"
OXI_DIR = "oxigraph"


def sample_graph_path() -> Path:
    """Path of the toy sample graph shipped inside the package (the unit tests' graph)."""
    return Path(str(resources.files("kg") / "data" / "sample.nt"))


def overlay_paths() -> list[Path]:
    """The shipped overlay files (ontology/*.ttl), vocabulary first."""
    base = Path(str(resources.files("ontology")))
    files = sorted(base.glob("*.ttl"), key=lambda p: (p.name != "taxogen.ttl", p.name))
    return files


def overlay_digest(paths: Iterable[str | Path] | None = None) -> str:
    """A digest of overlay files (default: the shipped ones): their names and contents."""
    h = hashlib.sha256()
    for f in (Path(p) for p in (paths if paths is not None else overlay_paths())):
        h.update(f.name.encode("utf-8") + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class StoreStats:
    """Triple counts of a store: per predicate in the default graph, and per named graph."""

    per_predicate: dict[str, int]
    named_graphs: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.per_predicate.values())


class KGStore:
    """A pyoxigraph store with taxogen's named queries.

    Construct it with :meth:`open`, :meth:`read_only`, :meth:`in_memory` or :meth:`sample`
    (or :func:`kg.starter.default_store`).
    """

    def __init__(self, store: ox.Store, *, path: Path | None = None, read_only: bool = False) -> None:
        self._store = store
        self.path = path
        self.is_read_only = read_only

    # --- construction -----------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path) -> "KGStore":
        """Open a built store directory read-write. Raises :class:`KGError` if there is none."""
        p = cls._check_dir(path)
        try:
            return cls(ox.Store(str(p / OXI_DIR)), path=p)
        except OSError as exc:
            raise KGError(f"cannot open store {p}: {exc}", path=str(p)) from exc

    @classmethod
    def read_only(cls, path: str | Path) -> "KGStore":
        """Open a built store directory read-only (several processes may do so at once)."""
        p = cls._check_dir(path)
        try:
            return cls(ox.Store.read_only(str(p / OXI_DIR)), path=p, read_only=True)
        except OSError as exc:
            raise KGError(f"cannot open store {p} read-only: {exc}", path=str(p)) from exc

    @classmethod
    def in_memory(cls) -> "KGStore":
        """An empty in-memory store."""
        return cls(ox.Store())

    @classmethod
    def sample(cls) -> "KGStore":
        """In-memory store with the toy sample graph (the unit tests') and the overlay loaded."""
        store = ox.Store()
        store.load(path=str(sample_graph_path()), format=ox.RdfFormat.N_TRIPLES)
        kg = cls(store)
        kg.load_overlay()
        return kg

    @staticmethod
    def _check_dir(path: str | Path) -> Path:
        p = Path(path)
        if not (p / OXI_DIR).is_dir():
            hint = ""
            if any(p.parent.glob(f".{p.name}.old-*")):
                hint = f" (an interrupted swap left a backup next to it: {p.parent}/.{p.name}.old-*)"
            raise KGError(f"no taxogen store at {p}; build one with 'taxogen kg build'{hint}", path=str(p))
        return p

    # --- content ----------------------------------------------------------------------
    @property
    def raw(self) -> ox.Store:
        """The underlying :class:`pyoxigraph.Store`."""
        return self._store

    @property
    def metadata(self) -> dict[str, Any]:
        """What ``taxogen.json`` says about the build (empty for in-memory stores)."""
        if self.path is None or not (self.path / META_FILE).is_file():
            return {}
        return json.loads((self.path / META_FILE).read_text(encoding="utf-8"))

    def stale_overlay(self) -> str | None:
        """Why the store's overlay may not be the shipped ``ontology/`` (built by an older
        taxogen, or before the ontology changed), or None. A store built with overlay files of
        its own (``--overlay``) is left alone; an in-memory store loads the shipped files."""
        meta = self.metadata
        if not meta or not meta.get("overlay_triples"):
            return None
        if meta.get("overlay_files", "shipped") != "shipped":
            return None
        recorded = meta.get("overlay_digest")
        if recorded is None:
            return "its build recorded no digest of the overlay it loaded"
        return None if recorded == overlay_digest() else "the shipped ontology/ changed since it was loaded"

    def record_overlay(self, paths: Iterable[str | Path] | None = None) -> None:
        """Note in ``taxogen.json`` which overlay the store holds (``paths``; None: the shipped files)."""
        if self.path is None or not (self.path / META_FILE).is_file():
            return
        meta = self.metadata
        meta["overlay_digest"] = overlay_digest(paths)
        meta["overlay_files"] = "shipped" if paths is None else [str(p) for p in paths]
        tmp = self.path / (META_FILE + ".tmp")
        tmp.write_text(json.dumps(meta, indent=2), encoding="utf-8")
        tmp.replace(self.path / META_FILE)

    def load_overlay(self, paths: Iterable[str | Path] | None = None) -> int:
        """Replace the overlay graph with ``paths`` (default: the shipped ontology/*.ttl).

        Returns the number of overlay triples. Raises :class:`KGError` on a syntax error.
        """
        if self.is_read_only:
            raise KGError("store is read-only; cannot load the overlay", path=str(self.path))
        graph = ox.NamedNode(OVERLAY_GRAPH)
        files = [Path(p) for p in (paths if paths is not None else overlay_paths())]
        if self._store.contains_named_graph(graph):
            self._store.remove_graph(graph)
        for f in files:
            try:
                self._store.load(path=str(f), format=ox.RdfFormat.TURTLE, to_graph=graph)
            except SyntaxError as exc:
                raise KGError(f"overlay {f}: {exc}", path=str(f)) from exc
        return sum(1 for _ in self._store.quads_for_pattern(None, None, None, graph))

    # --- queries ----------------------------------------------------------------------
    def select(self, name: str, **bindings: Any) -> list[dict[str, Any]]:
        """Run the named query ``queries/<name>.rq`` with ``bindings``; rows as dicts."""
        return self.run(load_query(name), bindings)

    def run(self, query: NamedQuery, bindings: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a parsed query with validated bindings. Raises :class:`QueryError`."""
        subs = bind(query, bindings or {})
        try:
            result = self._store.query(query.text, substitutions=subs or None, use_default_graph_as_union=query.union)
        except SyntaxError as exc:
            raise QueryError(syntax_error_message(query, exc), query=query.name) from exc
        except (OSError, ValueError) as exc:
            raise QueryError(f"query {query.name} failed: {exc}", query=query.name) from exc
        if isinstance(result, bool):
            return [{"ask": result}]
        if isinstance(result, ox.QuerySolutions):
            names = [v.value for v in result.variables]
            idx = range(len(names))
            return [{names[i]: term_value(sol[i]) for i in idx} for sol in result]
        return [
            {"subject": term_value(t.subject), "predicate": term_value(t.predicate), "object": term_value(t.object)}
            for t in result
        ]

    def stats(self) -> StoreStats:
        """Triples per predicate (default graph) and triples per named graph."""
        per_pred = {r["predicate"]: int(r["triples"]) for r in self.select("stats")}
        graphs = {}
        for g in self._store.named_graphs():
            graphs[g.value] = sum(1 for _ in self._store.quads_for_pattern(None, None, None, g))
        return StoreStats(per_predicate=per_pred, named_graphs=graphs)

    def __len__(self) -> int:
        return len(self._store)

    def close(self) -> None:
        """Flush (read-write stores) and release the store."""
        if not self.is_read_only and self.path is not None:
            self._store.flush()
        self._store = None  # type: ignore[assignment]
