"""One ordered list of replacement candidates per span, ending with ``***``."""

from __future__ import annotations

from engine.generate.sources.base import DocumentState, Linked
from engine.generate.sources.registry import SourceRegistry
from engine.types import MASK, Candidate, Ladder, Span


class CandidateGenerator:
    """Dispatches a span to the source serving its entity type and finishes the ladder."""

    def __init__(self, sources: SourceRegistry) -> None:
        self.sources = sources

    def link(self, span: Span, state: DocumentState | None = None) -> Linked | None:
        """The items ``span`` may name, when the source serving its type links items (else None)."""
        source = self.sources.for_type(span.entity_type)
        return source.link(span, state if state is not None else DocumentState()) if source.links_items else None

    def ladder(self, span: Span, state: DocumentState | None = None, linked: Linked | None = None) -> Ladder:
        """Candidates of ``span`` (levels 1…n, last one ``***``) with provenance; ``linked``: the
        span's links, when they were found already (:meth:`link`)."""
        source = self.sources.for_type(span.entity_type)
        state = state if state is not None else DocumentState()
        result = source.generate(span, state, linked) if source.links_items else source.generate(span, state)
        out: list[Candidate] = []
        seen: set[str] = set()
        for cand in result.candidates:
            if cand.label == MASK or cand.label in seen:
                continue
            seen.add(cand.label)
            out.append(_with_level(cand, len(out) + 1))
        reason = result.reason or f"{len(out)} candidate{'' if len(out) == 1 else 's'} from {source.name}, then ***"
        out.append(Candidate(MASK, source="mask", level=len(out) + 1, rule=None if out else result.reason or "no candidates"))
        return Ladder(span=span, candidates=tuple(out), links=result.links, reason=reason)


def _with_level(c: Candidate, level: int) -> Candidate:
    return Candidate(c.label, c.source, level, c.qid, c.path, c.rule, c.depth, c.link_qid)
