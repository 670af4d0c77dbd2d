"""A dump given as a directory of N-Triples parts (``taxogen spark kg-filter`` writes one).

``kg build --source DIR`` reads the parts in name order (files whose name starts with
``_`` or ``.`` are not parts, as for Hadoop: ``_SUCCESS``, ``.part-00000.crc``), each plain,
``.gz`` or ``.bz2``, through the same filter as a single dump; the sitelinks that the
Spark filter counted beside them (``DIR/_sitelinks/part-*``, one Q-number per line) are
added to the index's prominence prior.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kg.errors import DumpError

SITELINKS_DIR = "_sitelinks"


def dump_parts(directory: str | Path) -> list[Path]:
    """The part files of ``directory``, sorted by name; raises :class:`DumpError` when there is none."""
    d = Path(directory)
    parts = sorted(p for p in d.iterdir() if p.is_file() and not p.name.startswith(("_", ".")))
    if not parts:
        raise DumpError(f"{d}: a directory of N-Triples parts, but it holds none", path=str(d))
    return parts


def append_sitelinks(directory: str | Path, target: Path) -> int:
    """Append the Q-numbers of ``directory/_sitelinks/part-*`` to ``target`` (int32); how many."""
    src = Path(directory) / SITELINKS_DIR
    if not src.is_dir():
        return 0
    n = 0
    with open(target, "ab") as out:
        for part in sorted(p for p in src.iterdir() if p.is_file() and not p.name.startswith(("_", "."))):
            text = part.read_text(encoding="ascii").split()
            if text:
                try:
                    arr = np.array(text, dtype=np.int64).astype(np.int32)
                except ValueError:
                    raise DumpError(f"{part}: not a list of Q-numbers", path=str(part)) from None
                arr.tofile(out)
                n += len(arr)
    return n
