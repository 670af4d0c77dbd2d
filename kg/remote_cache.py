"""Ask a remote SPARQL endpoint for what the local store lacks, and remember the answers.

:class:`RemoteTaxonomy` links a label to items (``remote_label_lookup.rq``) and fetches an
item's hierarchy level by level (``remote_item.rq``, then ``remote_parents.rq`` up to the
overlay's maximum depth), so only plain SPARQL 1.1 is needed. Answers are written into the
local store:

- the triples into the named graph ``urn:taxogen:cache:<endpoint host>``;
- one record per lookup into ``urn:taxogen:cache-meta``: kind (``label``/``item``), key,
  endpoint, retrieval time, the items found (none = a negative result).

A record younger than its TTL (``ttl_s``; ``negative_ttl_s`` for negative results) is
answered from the store without asking the endpoint again.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable, Iterable
from urllib.parse import urlparse

import pyoxigraph as ox

from kg.errors import EndpointError
from kg.extract import cell_to_term
from kg.remote import SparqlClient
from kg.store import KGStore
from kg.vocab import TAXONOMY_PROPS, TG, WD, WDT, RDFS_LABEL, is_entity_id, local_id

META_GRAPH = "urn:taxogen:cache-meta"
XSD_DATETIME = ox.NamedNode("http://www.w3.org/2001/XMLSchema#dateTime")


def cache_graph(endpoint: str) -> str:
    """Named graph holding the triples fetched from ``endpoint``."""
    host = urlparse(endpoint).netloc or "endpoint"
    return f"urn:taxogen:cache:{host}"


def lookup_iri(kind: str, key: str) -> str:
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:20]
    return f"urn:taxogen:lookup:{kind}:{digest}"


@dataclass
class FetchResult:
    """What one remote call added: items found, triples written, whether it came from cache."""

    items: list[str] = field(default_factory=list)
    triples: list[tuple[str, str, str]] = field(default_factory=list)  # (subject qid, property/text predicate, object)
    labels: dict[str, str] = field(default_factory=dict)
    aliases: list[tuple[str, str]] = field(default_factory=list)
    cached: bool = False


class RemoteTaxonomy:
    """Label lookups and hierarchy fetches against one endpoint, cached in a local store."""

    def __init__(
        self,
        kg: KGStore,
        client: SparqlClient,
        *,
        ttl_s: float = 30 * 86400.0,
        negative_ttl_s: float = 86400.0,
        max_depth: int = 12,
        max_frontier: int = 200,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if kg.is_read_only:
            raise EndpointError("the remote cache needs a store opened read-write", endpoint=client.config.url)
        self.kg = kg
        self.client = client
        self.ttl_s = ttl_s
        self.negative_ttl_s = negative_ttl_s
        self.max_depth = max_depth
        self.max_frontier = max_frontier
        self.clock = clock
        self.graph = ox.NamedNode(cache_graph(client.config.url))
        self.meta = ox.NamedNode(META_GRAPH)

    # --- cache records ------------------------------------------------------------------
    def _record(self, kind: str, key: str) -> tuple[float, list[str]] | None:
        rows = self.kg.select("cache_lookup", lookup=lookup_iri(kind, key))
        if not rows:
            return None
        when = datetime.fromisoformat(str(rows[0]["retrievedAt"]).replace("Z", "+00:00")).timestamp()
        found = sorted({local_id(r["found"]) for r in rows if r.get("found")})
        return when, found

    def fresh(self, kind: str, key: str) -> list[str] | None:
        """Items of a still-valid cached lookup (``[]`` for a valid negative), else None."""
        rec = self._record(kind, key)
        if rec is None:
            return None
        when, found = rec
        ttl = self.ttl_s if found else self.negative_ttl_s
        return found if self.clock() - when < ttl else None

    def _write_record(self, kind: str, key: str, found: Iterable[str]) -> None:
        node = ox.NamedNode(lookup_iri(kind, key))
        for quad in list(self.kg.raw.quads_for_pattern(node, None, None, self.meta)):
            self.kg.raw.remove(quad)
        stamp = datetime.fromtimestamp(self.clock(), tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        quads = [
            ox.Quad(node, ox.NamedNode(TG + "lookupKind"), ox.Literal(kind), self.meta),
            ox.Quad(node, ox.NamedNode(TG + "lookupKey"), ox.Literal(key), self.meta),
            ox.Quad(node, ox.NamedNode(TG + "endpoint"), ox.NamedNode(self.client.config.url), self.meta),
            ox.Quad(node, ox.NamedNode(TG + "retrievedAt"), ox.Literal(stamp, datatype=XSD_DATETIME), self.meta),
        ]
        quads += [ox.Quad(node, ox.NamedNode(TG + "found"), ox.NamedNode(WD + q), self.meta) for q in found]
        self.kg.raw.extend(quads)

    def _write(self, subject: ox.NamedNode, predicate: ox.NamedNode, obj: ox.NamedNode | ox.Literal) -> None:
        self.kg.raw.add(ox.Quad(subject, predicate, obj, self.graph))

    def _write_label(self, node: ox.NamedNode, cell: dict | None, result: FetchResult) -> None:
        """Store the English label of ``node`` given as a SPARQL JSON cell, if any."""
        label = cell_to_term(cell or {})
        if isinstance(label, ox.Literal):
            self._write(node, ox.NamedNode(RDFS_LABEL), label)
            result.labels[local_id(node.value)] = label.value

    # --- lookups ------------------------------------------------------------------------
    def link_label(self, text: str) -> FetchResult:
        """Items whose English label or alias is ``text`` (cache first). Raises EndpointError."""
        key = " ".join(text.split())
        cached = self.fresh("label", key)
        if cached is not None:
            return FetchResult(items=cached, cached=True)
        rows = self.client.select_cells("remote_label_lookup", text=key)
        result = FetchResult()
        for row in rows:
            item = cell_to_term(row.get("item") or {})
            if not isinstance(item, ox.NamedNode) or not is_entity_id(local_id(item.value)):
                continue
            qid = local_id(item.value)
            if qid not in result.items:
                result.items.append(qid)
            kind = (row.get("kind") or {}).get("value")
            pred = RDFS_LABEL if kind == "label" else "http://www.w3.org/2004/02/skos/core#altLabel"
            self._write(item, ox.NamedNode(pred), ox.Literal(key, language="en"))
            if kind == "alias":
                result.aliases.append((qid, key))
            self._write_label(item, row.get("label"), result)
            if kind == "label":
                result.labels.setdefault(qid, key)
        self._write_record("label", key, result.items)
        return result

    def fetch_item(self, qid: str) -> FetchResult:
        """The item's statements and its hierarchy up to ``max_depth`` levels (cache first)."""
        if not is_entity_id(qid):
            raise ValueError(f"not a Wikidata id: {qid!r}")
        if self.fresh("item", qid) is not None:
            return FetchResult(items=[qid], cached=True)
        result = FetchResult(items=[qid])
        item = ox.NamedNode(WD + qid)
        frontier: list[str] = []
        for row in self.client.select_cells("remote_item", item=qid):
            p, o = cell_to_term(row.get("p") or {}), cell_to_term(row.get("o") or {})
            if not isinstance(p, ox.NamedNode) or o is None:
                continue
            self._write(item, p, o)
            prop = p.value[len(WDT):] if p.value.startswith(WDT) else None
            if isinstance(o, ox.NamedNode) and prop:
                result.triples.append((qid, prop, local_id(o.value)))
                if prop in TAXONOMY_PROPS:
                    frontier.append(local_id(o.value))
                self._write_label(o, row.get("oLabel"), result)
            elif isinstance(o, ox.Literal):
                if p.value == RDFS_LABEL:
                    result.labels[qid] = o.value
                elif p.value.endswith("altLabel"):
                    result.aliases.append((qid, o.value))
        seen = {qid}
        for _ in range(self.max_depth - 1):
            todo = [q for q in dict.fromkeys(frontier) if q not in seen and is_entity_id(q)][: self.max_frontier]
            if not todo:
                break
            seen.update(todo)
            frontier = []
            for i in range(0, len(todo), 50):
                for row in self.client.select_cells("remote_parents", child=todo[i : i + 50]):
                    c, p, o = (cell_to_term(row.get(k) or {}) for k in ("child", "prop", "parent"))
                    if not (isinstance(c, ox.NamedNode) and isinstance(p, ox.NamedNode) and isinstance(o, ox.NamedNode)):
                        continue
                    self._write(c, p, o)
                    parent = local_id(o.value)
                    result.triples.append((local_id(c.value), local_id(p.value), parent))
                    frontier.append(parent)
                    self._write_label(o, row.get("parentLabel"), result)
        self._write_record("item", qid, [qid])
        return result

    def expired(self) -> list[tuple[str, str]]:
        """(kind, key) of every cached lookup whose TTL has passed."""
        out = []
        for row in self.kg.select("cache_lookups"):
            kind, key = row["kind"], row["key"]
            if self.fresh(kind, key) is None:
                out.append((kind, key))
        return sorted(set(out))

    def refresh(self, *, everything: bool = False) -> dict[str, int]:
        """Re-fetch expired lookups (or all with ``everything``); returns counts."""
        todo = sorted({(r["kind"], r["key"]) for r in self.kg.select("cache_lookups")}) if everything else self.expired()
        done = failed = 0
        for kind, key in todo:
            node = ox.NamedNode(lookup_iri(kind, key))
            for quad in list(self.kg.raw.quads_for_pattern(node, None, None, self.meta)):
                self.kg.raw.remove(quad)
            try:
                self.link_label(key) if kind == "label" else self.fetch_item(key)
                done += 1
            except EndpointError:
                failed += 1
        return {"refreshed": done, "failed": failed, "considered": len(todo)}
