"""The one reader of taxogen's TOML configuration file, for the engine's and the SPARQL
endpoint's settings alike (each takes its own tables from what it returns)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def read_taxogen_table(path: str | Path, error: type[Exception]) -> dict[str, Any]:
    """The ``[taxogen]`` table of the TOML file at ``path`` (the whole file when it has no such
    table). A missing or malformed file raises ``error(message, path=...)``."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise error(f"cannot read config {p}: {exc}", path=str(p)) from exc
    return data.get("taxogen", data)
