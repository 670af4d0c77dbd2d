"""Settings of the SPARQL endpoint (``taxogen kg serve``), in one place.

Defaults < the ``[taxogen.sparql]`` table of a TOML file (``--config``, ``$TAXOGEN_CONFIG``)
< command-line flags::

    [taxogen.sparql]
    host = "127.0.0.1"        # bind address; another one must be asked for explicitly
    port = 7878
    timeout_s = 30            # wall-clock limit per query (checked as the result is written)
    max_result_bytes = 67108864  # a larger result is refused (400), never silently cut
    max_query_chars = 100000  # longer query texts are refused (413)
    max_concurrent = 2        # queries evaluated at once; more wait for a slot
    service_allow_list = []   # SERVICE IRIs a query may call (empty: none at all)
    languages = ["en"]        # label-service languages when a query names none

Unknown keys and bad values raise :class:`kg.errors.KGError`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from kg.config_file import coerce_setting, read_taxogen_table
from kg.errors import KGError


@dataclass(frozen=True, slots=True)
class SparqlSettings:
    """Limits and safety settings of the SPARQL endpoint."""

    host: str = "127.0.0.1"
    port: int = 7878
    timeout_s: float = 30.0
    max_result_bytes: int = 64 * 1024 * 1024
    max_query_chars: int = 100_000
    max_concurrent: int = 2
    service_allow_list: tuple[str, ...] = ()
    languages: tuple[str, ...] = ("en",)

    def __post_init__(self) -> None:
        if self.timeout_s <= 0:
            raise KGError("sparql.timeout_s must be positive")
        if self.max_result_bytes < 1 or self.max_query_chars < 1 or self.max_concurrent < 1:
            raise KGError("sparql.max_result_bytes, max_query_chars and max_concurrent must be positive")
        if not 0 < self.port < 65536:
            raise KGError(f"sparql.port must be 1..65535, not {self.port}")
        for iri in self.service_allow_list:
            if not iri.startswith(("http://", "https://")):
                raise KGError(f"sparql.service_allow_list: not an http(s) IRI: {iri!r}")
        if not self.languages:
            raise KGError("sparql.languages must name at least one language")

    @classmethod
    def load(cls, path: str | Path | None = None, *, overrides: Mapping[str, Any] | None = None) -> "SparqlSettings":
        """Defaults, then ``[taxogen.sparql]`` of the TOML file, then non-None ``overrides``."""
        values: dict[str, Any] = {}
        path = path or os.environ.get("TAXOGEN_CONFIG")
        if path:
            values.update(read_taxogen_table(path, KGError).get("sparql", {}))
        values.update({k: v for k, v in (overrides or {}).items() if v is not None})
        fields = {f.name: f for f in dataclasses.fields(cls)}
        out: dict[str, Any] = {}
        for key, value in values.items():
            if key not in fields:
                raise KGError(f"unknown setting taxogen.sparql.{key}; known: {', '.join(sorted(fields))}")
            default = fields[key].default
            try:
                out[key] = coerce_setting(default, value)
            except (TypeError, ValueError) as exc:
                raise KGError(f"bad value for taxogen.sparql.{key}: {value!r} ({exc})") from None
        return cls(**out)
