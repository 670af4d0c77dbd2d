"""Whole-document sanitization: consistent, fail-closed, readable.

1. Mentions are validated (offsets inside the text, start < end, known types) and
   overlapping ones merged into one span (or rejected with :class:`InputError` under
   ``overlap="reject"``); adjacent spans stay separate.
2. Mentions are grouped into entities (same ``entity_id``, or linked by ``related``
   mention ids); NO_MASK mentions are left as they are.
3. Each masked mention gets its ladder (PERSON numbers per entity, in order of first
   mention) and the ranker's scores, in one batch for the document.
4. Every mention of an entity gets the replacement chosen for its first mention. The
   original text is never kept for a masked mention; a DIRECT identifier gets at most a
   rule-based placeholder or ``***``.
5. Any failure while handling a span replaces it with ``***`` (fail closed) and is
   reported in ``errors``; the original text never leaks.
6. No candidate that reveals another masked mention's text or linked item is used
   (:mod:`engine.privacy.leaks`), nor a category of roles in a role's slot
   (:mod:`engine.render.role_slot`); the next rung is, and ``skipped`` says why.
7. The rungs are rendered for their slots (:mod:`engine.render`): dates, articles,
   modifiers, adjacent replacements merged; changes are reported in ``edits``; the
   ``segments`` map every changed region back to the original text.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from engine.errors import InputError
from engine.select.features import DocumentFacts
from engine.io.spans import snap_to_graphemes, widen_to_words
from engine.privacy.leaks import DocumentLeakGuard
from engine.render.document import Decision, render_document
from engine.render.role_slot import category_in_role_slot
from engine.generate.context import document_countries
from engine.generate.sources.base import DocumentState
from engine.types import (
    MASK, Candidate, EntityType, IdentifierType, Ladder, Mention, SanitizeResult, ScoredCandidate, Skipped, Span,
)
from engine.text.sentences import SentenceIndex

log = logging.getLogger(__name__)


class OverlapPolicy(str, Enum):
    """What to do with overlapping mentions."""

    MERGE = "merge"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class SanitizeOptions:
    overlap: OverlapPolicy = OverlapPolicy.MERGE
    readability: bool = True
    alternatives: int = 5
    k: int | None = None  # privacy guard: None off, 0 measure k, K climb until k ≥ K (engine.privacy)


_IDENT_RANK = {IdentifierType.NO_MASK: 0, IdentifierType.QUASI: 1, IdentifierType.DIRECT: 2}


def validate_mentions(text: str, mentions: Sequence[Mention], policy: OverlapPolicy = OverlapPolicy.MERGE) -> list[Mention]:
    """Mentions sorted by offset, checked, overlaps merged (or rejected)."""
    return resolve_mentions(text, mentions, policy)[0]


def resolve_mentions(
    text: str, mentions: Sequence[Mention], policy: OverlapPolicy = OverlapPolicy.MERGE
) -> tuple[list[Mention], dict[int, str]]:
    """Mentions sorted by offset, checked, widened to whole graphemes, overlaps merged.

    Returns the mentions and, per merged mention (index in the returned list), a note
    saying which mentions were merged. A merged span is widened to whole words.
    """
    checked = []
    for i, m in enumerate(mentions):
        if not isinstance(m.start, int) or not isinstance(m.end, int):
            raise InputError(f"mention #{i}: offsets must be integers", position=f"mention #{i}")
        if not 0 <= m.start < m.end <= len(text):
            raise InputError(
                f"mention #{i}: offsets {m.start}–{m.end} are not a non-empty range inside the text (length {len(text)})",
                position=f"mention #{i}",
            )
        start, end = snap_to_graphemes(text, m.start, m.end)
        if (start, end) != (m.start, m.end):
            m = dataclasses.replace(m, start=start, end=end)
        checked.append((m.start, m.end, i, m))
    checked.sort()
    out: list[Mention] = []
    origin: list[list[int]] = []
    for start, end, i, m in checked:
        if out and start < out[-1].end:
            prev = out[-1]
            if policy is OverlapPolicy.REJECT:
                raise InputError(
                    f"mention #{i} ({start}–{end}) overlaps mention #{origin[-1][0]} ({prev.start}–{prev.end})",
                    position=f"mention #{i}",
                )
            out[-1] = _merge(text, prev, m)
            origin[-1].append(i)
            while len(out) > 1 and out[-1].start < out[-2].end:  # widening reached the previous span
                out[-2:] = [_merge(text, out[-2], out[-1])]
                origin[-2:] = [origin[-2] + origin[-1]]
            continue
        out.append(m)
        origin.append([i])
    notes = {
        k: f"merged overlapping mentions {', '.join(f'#{i}' for i in sorted(group))} into {out[k].start}–{out[k].end}"
        for k, group in enumerate(origin) if len(group) > 1
    }
    return out, notes


def _merge(text: str, prev: Mention, m: Mention) -> Mention:
    """One mention covering both, widened to whole words (type of the longer one)."""
    longer = m if (m.end - m.start) > (prev.end - prev.start) else prev
    ident = max((prev.identifier_type, m.identifier_type), key=_IDENT_RANK.__getitem__)
    start, end = widen_to_words(text, min(prev.start, m.start), max(prev.end, m.end))
    return Mention(
        start, end, longer.entity_type, ident,
        prev.entity_id or m.entity_id, tuple(dict.fromkeys(prev.related + m.related)), prev.mention_id or m.mention_id,
    )


def group_entities(mentions: Sequence[Mention]) -> list[int]:
    """Entity index per mention: same entity_id, or connected through ``related`` ids."""
    parent = list(range(len(mentions)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    by_id: dict[str, int] = {}
    by_mention: dict[str, int] = {}
    for i, m in enumerate(mentions):
        if m.mention_id:
            by_mention[m.mention_id] = i
    for i, m in enumerate(mentions):
        if m.entity_id:
            if m.entity_id in by_id:
                union(i, by_id[m.entity_id])
            else:
                by_id[m.entity_id] = i
        for rel in m.related:
            if rel in by_mention:
                union(i, by_mention[rel])
    roots: dict[int, int] = {}
    return [roots.setdefault(find(i), len(roots)) for i in range(len(mentions))]


class DocumentSanitizer:
    """Sanitizes documents with an :class:`engine.engine.Engine`."""

    def __init__(self, engine, options: SanitizeOptions | None = None) -> None:
        self.engine = engine
        self.options = options or SanitizeOptions()

    def sanitize(self, text: str, mentions: Sequence[Mention], options: SanitizeOptions | None = None) -> SanitizeResult:
        """One document; raises :class:`InputError` for invalid mentions, never leaks a span."""
        return self.sanitize_many([(text, mentions)], options)[0]

    def sanitize_many(self, docs: Sequence[tuple[str, Sequence[Mention]]], options: SanitizeOptions | None = None) -> list[SanitizeResult]:
        """Several documents, ranked in one embedding batch."""
        opts = options or self.options
        prepared = [self._prepare(text, mentions, opts) for text, mentions in docs]
        items, owners = [], []
        for d, p in enumerate(prepared):
            for k, it in p["items"].items():
                items.append(it)
                owners.append((d, k))
        scores: list[list[float]] = []
        if items:
            try:
                scores = self.engine.rank_items(items)
            except Exception as exc:  # fail closed: every ranked span becomes ***
                log.exception("ranking failed")
                for d, k in owners:
                    prepared[d]["errors"].append(f"ranking failed ({type(exc).__name__}: {exc}); span {k} masked")
                    prepared[d]["failed"].add(k)
        for (d, k), sc in zip(owners, scores):
            prepared[d]["scores"][k] = sc
        if opts.k is not None:
            for p in prepared:
                try:
                    p["privacy"] = self.engine.privacy_guard.apply(self, p, opts.k)
                except Exception as exc:  # fail closed: every ranked span becomes ***
                    log.exception("privacy guard failed")
                    p["errors"].append(f"privacy guard failed ({type(exc).__name__}: {exc}); every span masked")
                    p["failed"].update(p["ladders"])
        return [self._finish(p, opts) for p in prepared]

    # --- steps ----------------------------------------------------------------------------
    def _prepare(self, text: str, mentions: Sequence[Mention], opts: SanitizeOptions) -> dict:
        ms, merged = resolve_mentions(text, mentions, opts.overlap)
        entity = group_entities(ms)
        state = DocumentState(countries=document_countries(self.engine.linker, (Span(text[m.start:m.end], m.entity_type) for m in ms)))
        ladders: dict[int, Ladder] = {}
        items: dict[int, object] = {}
        errors: list[str] = []
        failed: set[int] = set()
        facts = DocumentFacts.of(len(text), [(m.entity_type, m.identifier_type) for m in ms])
        first_of_entity: dict[int, int] = {}
        given = caller_grouped(ms, entity)  # other PERSON groups are matched by name (surname alone)
        sentences = SentenceIndex(text)
        for k, m in enumerate(ms):
            if m.identifier_type is IdentifierType.NO_MASK:
                continue
            first = first_of_entity.setdefault(entity[k], k)
            if first != k:
                continue  # later mentions reuse the entity's replacement
            try:
                left, right = sentences.bounds(m.start, m.end)
                span = Span(text[m.start:m.end], m.entity_type, m.identifier_type, context=text[left:right],
                            start=m.start, end=m.end, entity_id=f"entity-{entity[k]}" if entity[k] in given else None)
                ladder = self.engine.candidates(span, state=state)
                ladders[k] = ladder
                items[k] = self.engine.rank_item_for(
                    span, ladder, span.context, span_start=m.start - left, **facts.fields(m.entity_type, m.start)
                )
            except Exception as exc:  # fail closed
                log.exception("candidate generation failed")
                errors.append(f"span {m.start}–{m.end} ({m.entity_type.value}): {type(exc).__name__}: {exc}; masked")
                failed.add(k)
        return {"text": text, "mentions": ms, "entity": entity, "ladders": ladders, "items": items,
                "scores": {}, "errors": errors, "failed": failed, "first": first_of_entity, "merged": merged}

    def _choose(self, p: dict, k: int, original: str, mention: Mention, guard: DocumentLeakGuard | None = None,
                skipped: list[Skipped] | None = None) -> tuple[str, Candidate | None, tuple[ScoredCandidate, ...], str]:
        forced = p.get("forced", {}).get(k)
        if forced is not None:  # the privacy guard climbed this span (engine.privacy.guard)
            label, cand, alts, note = forced
            leak = guard.check(p["entity"][k], label) if guard is not None and cand is not None and not cand.is_mask else None
            if leak is None:
                return forced
            if skipped is not None:
                skipped.append(Skipped(mention.start, mention.end, cand.label, cand.source, cand.level, leak.reason()))
            return MASK, None, alts, "the privacy guard's rung would leak; masked"
        ladder: Ladder | None = p["ladders"].get(k)
        if k in p["failed"] or ladder is None:
            return MASK, None, (), "failed closed"
        scores = p["scores"].get(k)
        if scores is None:
            return MASK, None, (), "no scores; masked"
        ranked = sorted(zip(ladder.candidates, scores), key=lambda cs: -cs[1])
        leaks = {id(c): guard.check(p["entity"][k], c.label) for c, _ in ranked if not c.is_mask} if guard else {}
        alts = tuple(ScoredCandidate(c, s) for c, s in ranked if leaks.get(id(c)) is None)  # a leaking label is never shown
        if skipped is not None:  # every withheld rung is listed, whether it ranked above the chosen one or below
            skipped.extend(Skipped(mention.start, mention.end, c.label, c.source, c.level, leak.reason())
                           for c, _ in ranked if (leak := leaks.get(id(c))) is not None)
        for cand, _ in ranked:
            if cand.label.strip().lower() == original.strip().lower():
                continue  # never keep the original text
            if mention.identifier_type is IdentifierType.DIRECT and cand.source in ("P31", "P279", "P8225", "P361") and mention.entity_type is EntityType.PERSON:
                continue
            if leaks.get(id(cand)) is not None:
                continue
            category = category_in_role_slot(cand, mention.entity_type, p["text"][:mention.start])
            if category is not None:
                if skipped is not None:
                    skipped.append(Skipped(mention.start, mention.end, cand.label, cand.source, cand.level, category))
                continue
            return cand.label, cand, alts, ""
        return MASK, None, alts, "only the original text was offered; masked"

    def _finish(self, p: dict, opts: SanitizeOptions) -> SanitizeResult:
        text, ms, entity = p["text"], p["mentions"], p["entity"]
        guard = DocumentLeakGuard.build(text, ms, entity, p["ladders"], self.engine.item_names)
        chosen: dict[int, tuple[str, Candidate | None, tuple[ScoredCandidate, ...], str]] = {}
        skipped: list[Skipped] = []
        decisions: list[Decision] = []
        for k, m in enumerate(ms):
            original = text[m.start:m.end]
            merge_note = p["merged"].get(k, "")
            forced = k in p.get("forced", {})
            if m.identifier_type is IdentifierType.NO_MASK and not forced:
                decisions.append(Decision(m, original, original, note=merge_note))
                continue
            first = p["first"].get(entity[k], k)
            if first not in chosen:
                chosen[first] = self._choose(p, first, text[ms[first].start:ms[first].end], ms[first], guard, skipped)
            label, cand, alts, note = chosen[first]
            if label.strip().lower() == original.strip().lower():
                label, cand, note = MASK, None, "replacement equals this mention's text; masked"
            decisions.append(Decision(m, original, label, cand, alts[: opts.alternatives], "; ".join(filter(None, (note, merge_note))),
                                      forced=forced))
        doc = render_document(text, decisions, readability=opts.readability)
        return SanitizeResult(doc.text, text, tuple(doc.replacements), tuple(doc.edits), tuple(doc.segments), tuple(p["errors"]),
                              privacy=p.get("privacy"), skipped=tuple(skipped))


def caller_grouped(mentions: Sequence[Mention], entity: Sequence[int]) -> set[int]:
    """Entities the caller grouped (an ``entity_id``, or ``related`` links): their PERSON
    number follows the grouping; the others are numbered by name matching."""
    sizes: dict[int, int] = {}
    for e in entity:
        sizes[e] = sizes.get(e, 0) + 1
    return {entity[i] for i, m in enumerate(mentions) if m.entity_id or m.related or sizes[entity[i]] > 1}
