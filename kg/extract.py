"""Extract the sub-taxonomy under given root classes from a SPARQL endpoint.

For each root: every class under it (``wdt:P279*``) and every class above it, with their
P31/P279/P361/P8225 statements and English label, aliases and description, fetched in
pages (``LIMIT``/``OFFSET`` over a stable ``ORDER BY``) through :class:`kg.remote.SparqlClient`
(User-Agent, timeouts, retries). Yields N-Triples lines for :func:`kg.build.build_from_triples`.
"""

from __future__ import annotations

from typing import Iterator

import pyoxigraph as ox

from kg.remote import EndpointConfig, SparqlClient
from kg.vocab import KEPT_PREDICATES, TEXT_PREDICATES, WD


def cell_to_term(cell: dict) -> ox.NamedNode | ox.Literal | None:
    """An RDF term from a SPARQL JSON results cell (``None`` for blank nodes / missing)."""
    if not cell:
        return None
    if cell.get("type") == "uri":
        return ox.NamedNode(cell["value"])
    if cell.get("type") in ("literal", "typed-literal"):
        if cell.get("xml:lang"):
            return ox.Literal(cell["value"], language=cell["xml:lang"])
        if cell.get("datatype"):
            return ox.Literal(cell["value"], datatype=ox.NamedNode(cell["datatype"]))
        return ox.Literal(cell["value"])
    return None


def extract_subtaxonomy(
    endpoint: str | SparqlClient,
    roots: list[str],
    *,
    page_size: int = 10000,
    max_pages: int = 1000,
) -> Iterator[str]:
    """N-Triples lines of the sub-taxonomy under (and above) ``roots``, without duplicates."""
    client = endpoint if isinstance(endpoint, SparqlClient) else SparqlClient(EndpointConfig(url=endpoint))
    seen: set[str] = set()
    for root in roots:
        for name in ("remote_subtaxonomy", "remote_superclasses"):
            for page in range(max_pages):
                rows = client.select_cells(name, root=root, limit=page_size, offset=page * page_size)
                for row in rows:
                    s, p, o = (cell_to_term(row.get(k) or {}) for k in ("s", "p", "o"))
                    if not isinstance(s, ox.NamedNode) or not isinstance(p, ox.NamedNode) or o is None:
                        continue
                    if not s.value.startswith(WD):
                        continue
                    if p.value not in KEPT_PREDICATES and p.value not in TEXT_PREDICATES:
                        continue
                    line = f"{s} {p} {o} .\n"
                    if line not in seen:
                        seen.add(line)
                        yield line
                if len(rows) < page_size:
                    break
