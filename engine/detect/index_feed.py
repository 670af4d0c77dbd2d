"""The gazetteer fed from a store's label index (``index/labels.sqlite``, :mod:`kg.index`).

An on-disk store built by ``kg build`` / ``taxogen kg index`` has every English label,
alias and demonym folded in ``names (key, kind, qid)`` and each item's main label in
``main``. :func:`index_entries` streams those rows as :class:`GazetteerEntry` — nothing is
asked of SPARQL and the class graph is not read into memory: each item's kind comes from
the store's taxonomy view (:class:`kg.indexed.IndexedTaxonomy`, memory-mapped), and
:class:`IndexDegree` gives the features the classes' sizes on demand.

The index keeps names folded; the original case is known for an item's main label (from
``main``). An alias of four characters or fewer whose case is unknown is taken as an
acronym ("USA", "NDA"): the gazetteer matches it in upper case only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Iterator

from engine.detect.gazetteer import KIND_TYPE, GazetteerEntry, KindOf
from engine.types import EntityType
from kg.index import DEMONYM, LABELS_DB
from kg.text import fold

#: rows read from SQLite at a time
_BATCH = 10_000


def index_entries(index_dir: str | Path, taxonomy, *, hops: int = 5) -> Iterator[GazetteerEntry]:
    """Entries for every name of the label index in ``index_dir`` (its ``labels.sqlite``).

    ``taxonomy`` is any taxonomy view with ``parents(qid, prop)`` (the engine's
    :class:`kg.indexed.IndexedTaxonomy`); an item's kind is read from its P31/P279
    ancestors within ``hops``.
    """
    db = sqlite3.connect(f"file:{Path(index_dir) / LABELS_DB}?mode=ro", uri=True)
    kind_of = KindOf(taxonomy, hops)

    try:
        rows = db.execute("SELECT n.key, n.kind, n.qid, m.text FROM names n LEFT JOIN main m ON m.qid = n.qid")
        while batch := rows.fetchmany(_BATCH):
            for key, kind, num, main in batch:
                qid = f"Q{num}"
                if kind == DEMONYM:
                    yield GazetteerEntry(key, qid, EntityType.DEM, "nationality")
                    continue
                if main is not None and fold(main) == key:
                    label = main
                elif len(key) <= 4 and key.isalpha():
                    label = key.upper()  # case unknown: a short alias is matched as an acronym
                else:
                    label = key
                k = kind_of(qid)
                yield GazetteerEntry(label, qid, KIND_TYPE[k], k)
    finally:
        db.close()


class IndexDegree(Mapping):
    """Subclasses + instances of a class, read from the taxonomy view on demand."""

    def __init__(self, taxonomy) -> None:
        self._taxonomy = taxonomy

    def get(self, qid: str, default: int = 0) -> int:  # type: ignore[override]
        n = self._taxonomy.children_count.get(qid, 0) + self._taxonomy.instance_count.get(qid, 0)
        return n if n else default

    def __getitem__(self, qid: str) -> int:
        return self.get(qid, 0)

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0
