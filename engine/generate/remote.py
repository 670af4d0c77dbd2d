"""The engine's fallback to a live SPARQL endpoint.

When a span links to nothing in the local store, or a linked item has no chains there,
:class:`RemoteFallback` asks the endpoint (through :class:`kg.remote_cache.RemoteTaxonomy`,
which caches every answer in the store), adds what came back to the engine's in-memory
views, and lets linking and ladder building run again. Every failure of the endpoint is
caught here and turned into a note: sanitization falls back to what is local, and
ultimately to ``***``.
"""

from __future__ import annotations

import logging

from kg.chains import ChainIndex, PreloadedTaxonomy
from kg.errors import EndpointError
from kg.remote_cache import FetchResult, RemoteTaxonomy
from engine.generate.linking import LabelIndex, Linker, normalised_forms

log = logging.getLogger(__name__)


class RemoteFallback:
    """Remote lookups that feed the local linker and chain index."""

    def __init__(self, remote: RemoteTaxonomy, linker: Linker, chains: ChainIndex, *, max_items: int = 3) -> None:
        self.remote = remote
        self.linker = linker
        self.chains = chains
        self.max_items = max_items
        self.notes: list[str] = []

    @property
    def index(self) -> LabelIndex:
        return self.linker.index

    @property
    def taxonomy(self) -> PreloadedTaxonomy | None:
        return self.chains.view

    def _absorb(self, result: FetchResult) -> None:
        for qid, label in result.labels.items():
            self.index.add(qid, label, "label")
            if self.taxonomy is not None:
                self.taxonomy.add_label(qid, label)
        for qid, alias in result.aliases:
            self.index.add(qid, alias, "alias")
        if self.taxonomy is not None:
            for subject, prop, value in result.triples:
                self.taxonomy.add_statement(subject, prop, value)
        self.chains.invalidate()
        self.linker.invalidate()

    def lookup_label(self, text: str) -> str:
        """Ask for items named ``text`` (then a normalised form) and fetch their hierarchies.

        Returns a note for the ladder's reason; never raises.
        """
        try:
            found: list[str] = []
            for form in [text] + normalised_forms(text)[:1]:
                result = self.remote.link_label(form)
                self._absorb(result)
                found = result.items
                if found:
                    break
            for qid in sorted(found, key=lambda q: int(q[1:]))[: self.max_items]:
                self._absorb(self.remote.fetch_item(qid))
            return f"endpoint: {len(found)} item(s) named {text!r}" + (" (cached)" if found and result.cached else "")
        except EndpointError as exc:
            return f"endpoint unavailable ({exc}); using the local store only"
        except Exception as exc:  # never let the endpoint break sanitization
            log.exception("remote lookup failed")
            return f"remote lookup failed ({type(exc).__name__}: {exc}); using the local store only"

    def fetch_chains(self, qid: str) -> str:
        """Fetch the hierarchy of ``qid``; returns a note, never raises."""
        try:
            result = self.remote.fetch_item(qid)
            self._absorb(result)
            return f"endpoint: hierarchy of {qid}" + (" (cached)" if result.cached else f" ({len(result.triples)} statements)")
        except EndpointError as exc:
            return f"endpoint unavailable ({exc}); using the local store only"
        except Exception as exc:
            log.exception("remote fetch failed")
            return f"remote fetch failed ({type(exc).__name__}: {exc}); using the local store only"
