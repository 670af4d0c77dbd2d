"""How the store reaches the executors, read-only: a path or a shipped archive.

- ``StoreSpec(path=…)``: a store directory present at the same path on every node (a shared
  or copied disk). Nothing is shipped.
- ``StoreSpec(archive=…)``: a ``.tar.gz``/``.tgz``/``.zip`` of the store directory (as made by
  ``tar czf store.tar.gz -C PARENT STORE``). The driver registers it with
  ``SparkContext.addArchive`` (``spark-submit --archives`` does the same); every executor
  unpacks it once into its ``SparkFiles`` directory and opens it from there.

Either way the engine opens the store read-only (:meth:`kg.store.KGStore.read_only`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.errors import ConfigError
from kg.store import OXI_DIR

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")


@dataclass(frozen=True, slots=True)
class StoreSpec:
    """Where executors find the store: ``path`` on every node, or ``archive`` via SparkFiles
    (neither: the starter graph)."""

    path: str | None = None
    archive: str | None = None

    def __post_init__(self) -> None:
        if self.path and self.archive:
            raise ConfigError("give --store or --store-archive, not both")
        if self.archive and not self.archive.lower().endswith(ARCHIVE_SUFFIXES):
            raise ConfigError(f"--store-archive must be one of {', '.join(ARCHIVE_SUFFIXES)} (a packed store directory)")

    @property
    def archive_name(self) -> str | None:
        """The name the archive is unpacked under in ``SparkFiles``."""
        return self.archive.rstrip("/").rsplit("/", 1)[-1] if self.archive else None

    def ship(self, sc) -> None:
        """On the driver: send the archive to every executor (a path needs nothing)."""
        if self.path is not None and "://" not in self.path and not (Path(self.path) / OXI_DIR).is_dir():
            raise ConfigError(f"--store {self.path} is not a store directory (no {OXI_DIR}/ in it)")
        if self.archive is not None:
            if "://" not in self.archive and not Path(self.archive).is_file():
                raise ConfigError(f"no such store archive: {self.archive}")
            sc.addArchive(self.archive)

    def local_path(self) -> str | None:
        """On an executor: the store directory to open (``None``: the starter graph)."""
        if self.archive is None:
            return self.path
        from pyspark import SparkFiles

        return str(store_root(Path(SparkFiles.get(self.archive_name))))


def store_root(unpacked: Path) -> Path:
    """The store directory inside an unpacked archive: the archive's top level, or its only
    subdirectory holding a store."""
    if (unpacked / OXI_DIR).is_dir():
        return unpacked
    found = [p for p in sorted(unpacked.iterdir()) if p.is_dir() and (p / OXI_DIR).is_dir()] if unpacked.is_dir() else []
    if len(found) != 1:
        raise ConfigError(f"the store archive holds {len(found)} store directories (expected one with {OXI_DIR}/)")
    return found[0]
