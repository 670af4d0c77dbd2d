"""The one reader of taxogen's TOML configuration file, for the engine's and the SPARQL
endpoint's settings alike (each takes its own tables from what it returns), and the one
coercion of a setting's value (TOML, environment or command line) to its default's type."""

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


def coerce_setting(default: Any, value: Any) -> Any:
    """``value`` as the type of ``default``: a tuple (a list, or a comma-separated string),
    a bool ("1/true/yes/on", "0/false/no/off"), an int, a float, otherwise a string.
    Raises ``ValueError`` or ``TypeError`` for a value that is not of that type."""
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [v for v in value.split(",") if v.strip()]
        return tuple(str(v).strip() for v in value)
    if isinstance(default, bool):
        return value if isinstance(value, bool) else _bool(str(value))
    if isinstance(default, int):
        return int(value)
    if isinstance(default, float):
        return float(value)
    return str(value)


def _bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"not a boolean: {text!r}")
