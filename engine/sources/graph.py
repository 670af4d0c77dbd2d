"""LOC/ORG/DEM/MISC spans → ladders from the knowledge graph.

The span is linked (:mod:`engine.linking`); the best-ranked link that has any chain is
used (the next ones are tried when it has none). Its per-property ladders are merged in
the order P31, P279, P8225, P361 — for each property: every direct value, then the
*first* ladder, then the *longest*, ordered by depth (stable) — without duplicate labels,
without labels equal to or containing the span (never more specific than the span),
capped in length.
"""

from __future__ import annotations

from kg.chains import ChainIndex
from kg.vocab import TAXONOMY_PROPS
from engine.linking import Linker, contains_words, fold
from engine.sources.base import CandidateSource, DocumentState, SourceResult
from engine.types import Candidate, Span


class GraphSource(CandidateSource):
    """Ladders from the taxonomy chains of the span's linked item."""

    name = "graph"

    def __init__(self, linker: Linker, chains: ChainIndex, *, max_ladder: int | None = None, max_tries: int = 3, remote=None) -> None:
        self.linker = linker
        self.chains = chains
        self.max_ladder = max_ladder or chains.rules.max_ladder
        self.max_tries = max_tries
        self.remote = remote  # engine.remote.RemoteFallback, when an endpoint is enabled
        self._ladders: dict[tuple[str, str], tuple[Candidate, ...]] = {}  # (qid, span key) → ladder, local store only

    def generate(self, span: Span, state: DocumentState) -> SourceResult:
        notes: list[str] = []
        links = self.linker.link(span)
        if not links and self.remote is not None:
            notes.append(self.remote.lookup_label(span.text))
            links = self.linker.link(span)
        if not links:
            return SourceResult([], reason="; ".join([f"no item of the graph matches {span.text!r}"] + notes))
        key = fold(span.text)
        for link in links[: self.max_tries]:
            candidates = self.ladder_for(link.qid, key)
            if not candidates and self.remote is not None:
                notes.append(self.remote.fetch_chains(link.qid))
                candidates = self.ladder_for(link.qid, key)
            if candidates:
                chosen = (link,) + tuple(l for l in links if l is not link)
                reason = f"linked to {link.qid} ({link.label}) by {link.method.value}"
                return SourceResult(candidates, links=chosen, reason="; ".join([reason] + notes))
        reason = f"linked items ({', '.join(l.qid for l in links[:self.max_tries])}) have no chains"
        return SourceResult([], links=tuple(links), reason="; ".join([reason] + notes))

    #: Ladders remembered per (item, span) when no endpoint can change the chains.
    LADDER_CACHE = 100_000

    def ladder_for(self, qid: str, span_key: str) -> list[Candidate]:
        """Merged, pruned, capped ladder of ``qid`` for a span whose folded text is ``span_key``
        (remembered: the same places and organisations recur across a document and an archive)."""
        if self.remote is not None:
            return self._ladder_for(qid, span_key)
        found = self._ladders.get((qid, span_key))
        if found is None:
            found = tuple(self._ladder_for(qid, span_key))
            if len(self._ladders) >= self.LADDER_CACHE:
                self._ladders.clear()
            self._ladders[(qid, span_key)] = found
        return list(found)

    def _ladder_for(self, qid: str, span_key: str) -> list[Candidate]:
        chains = self.chains.chains(qid)
        seen: set[str] = set()
        out: list[Candidate] = []
        for prop in TAXONOMY_PROPS:
            ladders = chains.ladders.get(prop)
            if ladders is None:
                continue
            rungs = []
            for rung in ladders.direct + ladders.first + ladders.longest:
                label_key = fold(rung.label)
                if label_key in seen or not label_key:
                    continue
                if label_key == span_key or contains_words(label_key, span_key):
                    continue  # not a generalization: the span itself, or more specific than it
                seen.add(label_key)
                rungs.append(rung)
            rungs.sort(key=lambda r: r.depth)  # stable: direct values, then first, then longest
            for rung in rungs:
                out.append(Candidate(rung.label, source=prop, qid=rung.qid, path=rung.path, rule=rung.rule, depth=rung.depth, link_qid=qid))
                if len(out) >= self.max_ladder:
                    return out
        return out
