"""Whole-document sanitization: the stages in order, consistent and fail-closed.

1. Mentions are validated, overlapping ones merged (or rejected) and grouped into
   entities (:mod:`engine.mentions`); NO_MASK mentions are left as they are.
2. Each entity's first masked mention gets its ladder (link → chains → candidates,
   :meth:`engine.engine.Engine.candidates`) and its rank item; the ranker scores every
   item of every document in one batch — every item whose order can change the policy's
   choice (:meth:`engine.select.policy.SelectionPolicy.ranks`); the others keep their
   ladder's order.
3. With ``SanitizeOptions.k`` set, the privacy guard (:mod:`engine.privacy.guard`) moves
   spans along their ladders until the document's k reaches the target.
4. Every mention of an entity shows the rung chosen for its first mention
   (:class:`engine.select.policy.SelectionPolicy`): never the original text, at most a
   placeholder or ``***`` for a DIRECT identifier, never a rung that would leak another
   masked mention, never a category of roles in a role's slot (``skipped`` says why).
5. Any failure while handling a span replaces it with ``***`` (fail closed) and is
   reported in ``errors``; the original text never leaks.
6. The rungs are rendered for their slots (:mod:`engine.render`): dates, articles,
   modifiers, adjacent replacements merged; changes are reported in ``edits``; the
   ``segments`` map every changed region back to the original text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from engine.generate.context import document_state
from engine.text.sentences import SentenceIndex
from engine.mentions import OverlapPolicy, caller_grouped, group_entities, resolve_mentions
from engine.privacy.disclosure import trusted_link
from engine.privacy.leaks import DocumentLeakGuard
from engine.render.document import Decision, render_document
from engine.select.features import DocumentFacts
from engine.select.policy import SelectionPolicy
from engine.types import MASK, Choice, IdentifierType, Mention, PreparedDocument, SanitizeResult, Selection, Skipped, Span

if TYPE_CHECKING:
    from engine.engine import Engine

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SanitizeOptions:
    """How a document is sanitized.

    ``k``: the privacy guard — None off, 0 measures k without moving any span, K moves
    spans until the document's k ≥ K (:mod:`engine.privacy`). ``selection``: which rung
    the policy starts from (:class:`engine.select.policy.Selection`).
    """

    overlap: OverlapPolicy = OverlapPolicy.MERGE
    readability: bool = True
    alternatives: int = 5
    k: int | None = None
    selection: Selection = Selection.MEANING

    @property
    def policy(self) -> SelectionPolicy:
        """The selection policy these options ask for."""
        return SelectionPolicy(self.selection)


@dataclass
class DocumentSanitizer:
    """Sanitizes documents with an :class:`engine.engine.Engine`, stage by stage."""

    engine: Engine
    options: SanitizeOptions = field(default_factory=SanitizeOptions)

    def sanitize(self, text: str, mentions: Sequence[Mention], options: SanitizeOptions | None = None) -> SanitizeResult:
        """One document; raises :class:`InputError` for invalid mentions, never leaks a span."""
        return self.sanitize_many([(text, mentions)], options)[0]

    def sanitize_many(self, docs: Sequence[tuple[str, Sequence[Mention]]], options: SanitizeOptions | None = None) -> list[SanitizeResult]:
        """Several documents, ranked in one embedding batch."""
        opts = options or self.options
        prepared = [self.prepare(text, mentions, opts.overlap) for text, mentions in docs]
        self.rank(prepared, opts.policy)
        if opts.k is not None:
            for doc in prepared:
                self.guard(doc, opts.k, opts.policy)
        return [self.render(doc, opts) for doc in prepared]

    # --- stages ---------------------------------------------------------------------------
    def prepare(self, text: str, mentions: Sequence[Mention], overlap: OverlapPolicy = OverlapPolicy.MERGE) -> PreparedDocument:
        """Mentions resolved and grouped; a ladder and a rank item per entity's first masked mention."""
        ms, merged = resolve_mentions(text, mentions, overlap)
        entity = group_entities(ms)
        doc = PreparedDocument(text, ms, entity, {}, merged)
        state = document_state(self.engine.linker, (Span(text[m.start:m.end], m.entity_type) for m in ms), text)
        facts = DocumentFacts.of(len(text), [(m.entity_type, m.identifier_type) for m in ms])
        given = caller_grouped(ms, entity)  # other PERSON groups are matched by name (surname alone)
        sentences = SentenceIndex(text)
        for k, m in enumerate(ms):
            if m.identifier_type is IdentifierType.NO_MASK:
                continue
            if doc.first.setdefault(entity[k], k) != k:
                continue  # later mentions reuse the entity's replacement
            try:
                left, right = sentences.bounds(m.start, m.end)
                span = Span(text[m.start:m.end], m.entity_type, m.identifier_type, context=text[left:right],
                            start=m.start, end=m.end, entity_id=f"entity-{entity[k]}" if entity[k] in given else None)
                ladder = self.engine.candidates(span, state=state)
                doc.ladders[k] = ladder
                doc.items[k] = self.engine.rank_item_for(
                    span, ladder, span.context, span_start=m.start - left, **facts.fields(m.entity_type, m.start)
                )
            except Exception as exc:  # fail closed
                log.exception("candidate generation failed")
                doc.errors.append(f"span {m.start}–{m.end} ({m.entity_type.value}): {type(exc).__name__}: {exc}; masked")
                doc.failed.add(k)
        return doc

    def rank(self, docs: Sequence[PreparedDocument], policy: SelectionPolicy | None = None) -> None:
        """The ranker's scores of the rank items of ``docs``, in one batch (fail closed).

        With ``policy``, an item whose order cannot change the policy's choice
        (:meth:`SelectionPolicy.ranks`) is not ranked: its candidates are scored in their
        ladder's order (``n, n-1, …, 1``), as without a ranker."""
        owners = []
        for doc in docs:
            for k, item in doc.items.items():
                if policy is None or policy.ranks(doc.ladders[k]):
                    owners.append((doc, k))
                else:
                    n = len(item.candidates)
                    doc.scores[k] = [float(n - i) for i in range(n)]
        if not owners:
            return
        try:
            scores = self.engine.rank_items([doc.items[k] for doc, k in owners])
        except Exception as exc:  # fail closed: every ranked span becomes ***
            log.exception("ranking failed")
            for doc, k in owners:
                doc.errors.append(f"ranking failed ({type(exc).__name__}: {exc}); span {k} masked")
                doc.failed.add(k)
            return
        for (doc, k), sc in zip(owners, scores):
            doc.scores[k] = sc

    def guard(self, doc: PreparedDocument, k: int, policy: SelectionPolicy | None = None) -> None:
        """Move spans until the document's k ≥ ``k`` (``k=0`` measures); fail closed."""
        try:
            doc.privacy = self.engine.privacy_guard.apply(doc, policy or self.options.policy, k)
        except Exception as exc:  # fail closed: every ranked span becomes ***
            log.exception("privacy guard failed")
            doc.errors.append(f"privacy guard failed ({type(exc).__name__}: {exc}); every span masked")
            doc.failed.update(doc.ladders)

    def render(self, doc: PreparedDocument, opts: SanitizeOptions | None = None) -> SanitizeResult:
        """The sanitized text: each mention shows its entity's choice, rendered for its slot."""
        opts = opts or self.options
        policy = opts.policy
        text, ms = doc.text, doc.mentions
        guard = DocumentLeakGuard.build(text, ms, doc.entity, doc.ladders, self.engine.item_names, hidden=doc.forced.keys())
        chosen: dict[int, Choice] = {}
        skipped: list[Skipped] = []
        decisions: list[Decision] = []
        for k, m in enumerate(ms):
            original = text[m.start:m.end]
            merge_note = doc.merged.get(k, "")
            forced = k in doc.forced
            if m.identifier_type is IdentifierType.NO_MASK and not forced:
                decisions.append(Decision(m, original, original, note=merge_note))
                continue
            first = doc.first_of(k)
            if first not in chosen:
                chosen[first] = policy.choose(doc, first, guard, skipped)
            choice = chosen[first]
            label, cand, note = choice.label, choice.candidate, choice.note
            if label.strip().lower() == original.strip().lower():
                label, cand, note = MASK, None, "replacement equals this mention's text; masked"
            decisions.append(Decision(m, original, label, cand, choice.alternatives[: opts.alternatives],
                                      "; ".join(filter(None, (note, merge_note))), forced=forced,
                                      referent=trusted_link(doc.ladders.get(first))))
        rendered = render_document(text, decisions, readability=opts.readability)
        return SanitizeResult(rendered.text, text, tuple(rendered.replacements), tuple(rendered.edits), tuple(rendered.segments),
                              tuple(doc.errors), privacy=doc.privacy, skipped=tuple(skipped))
