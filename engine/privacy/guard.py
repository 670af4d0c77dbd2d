"""The climbing guard: after ranking, generalize further until k ≥ K (or nothing is left).

Each entity of a document is a *slot* (NO_MASK spans are slots too: the annotators
judged them harmless, but they disclose, and the guard may climb them as well). A
slot's options run from the policy's choice up its ladder to ``***``. While k < K the
guard moves, among all slots, the one whose next *more general* option (the nearest one
whose disclosure matches more persons) grows the anonymity set most; ties go to the
biggest blocker (the most persons fit without the slot), then to the most restrictive
slot, then to masked spans before NO_MASK ones. Every move is reported as a :class:`Climb`. The guard never picks a candidate the policy would
refuse (:meth:`engine.select.policy.SelectionPolicy.refusal`).

:meth:`PrivacyGuard.apply` is called once per document by the guard stage
(:mod:`engine.privacy.stage`, ``SanitizeOptions.k``); ``k=0`` measures without climbing.
It reads the :class:`engine.doc.Doc` the stages before it filled in: the mentions' ladders
and the selection policy's choices (``DocMention.choice``), and writes ``DocMention.forced``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Sequence

from pyroaring import BitMap, FrozenBitMap

from engine.doc import Doc, DocMention
from engine.generate.linking import LabelIndex, fold, normalised_forms
from engine.privacy.anonymity import anonymity_set, constraint_members, locate_subject
from engine.privacy.background import Background
from engine.privacy.disclosure import Constraint, Discloser, SpanView, cue_props, trusted_link
from engine.privacy.report import Climb, PrivacyReport
from engine.select.policy import SelectionPolicy
from engine.text.sentences import sentence_bounds
from engine.types import MASK, Candidate, Choice, EntityType, IdentifierType, Ladder, Span

#: Builds the ladder of a span (the ladder stage's, with a fresh document state).
LadderOf = Callable[[Span], Ladder]


@dataclass
class _Option:
    label: str
    candidate: Candidate | None
    kept: bool = False


@dataclass
class _Slot:
    key: int                      # mention index whose choice the slot sets
    mentions: list[int]           # every mention showing this slot's choice
    identifier_type: IdentifierType
    options: list[_Option] | None
    pos: int = 0
    chosen: Choice | None = None  # the policy's own choice
    members: dict[int, FrozenBitMap | None] = field(default_factory=dict)

    @property
    def no_mask(self) -> bool:
        return self.identifier_type is IdentifierType.NO_MASK


class PrivacyGuard:
    """Measures and enforces k for documents the stages before the guard filled in.

    ``discloser`` reads what a shown rung discloses; ``background`` holds the store's
    persons; ``index`` links a kept span to its item; ``ladder_of`` builds the ladder of a
    NO_MASK span the guard may have to generalize."""

    def __init__(self, discloser: Discloser, background: Background, index: LabelIndex, ladder_of: LadderOf) -> None:
        self.discloser = discloser
        self.background = background
        self.index = index
        self.ladder_of = ladder_of

    def with_background(self, background: Background) -> "PrivacyGuard":
        """The same guard over another background (a benchmark's freshly built index)."""
        return PrivacyGuard(self.discloser, background, self.index, self.ladder_of)

    # --- views ---------------------------------------------------------------------------
    def views(self, p: Doc) -> tuple[list[SpanView], int | None]:
        """A :class:`SpanView` per mention of a document, and the subject's entity."""
        text, ms = p.text, p.mentions
        persons = Counter(m.entity for m in ms if m.entity_type is EntityType.PERSON)
        subject = max(persons, key=lambda e: (persons[e], -e)) if persons else None
        out = []
        for k, m in enumerate(ms):
            left = m.sentence[0]
            link = trusted_link(ms[p.first_of(k)].ladder) if m.entity_type.is_graph else None
            if link is None and m.entity_type.is_graph and m.identifier_type is IdentifierType.NO_MASK:
                link = self._link(text, m)
            out.append(SpanView(m.start, m.end, m.entity_type, text[m.start:m.end],
                                cue_props(text, m.start, m.end, m.entity_type, left), link, m.entity == subject,
                                m.identifier_type is IdentifierType.NO_MASK))
        return out, subject

    def _link(self, text: str, m: DocMention) -> str | None:
        """The item a kept span names: exact label or alias, demonym, then normalised forms
        (the linker's trusted stages only; no contained or approximate matching)."""
        index = self.index
        key = fold(text[m.start:m.end])
        for form in [key] + normalised_forms(key):
            hits = index.lookup(form)
            if hits:
                return hits[0][0]
            if form in index.demonyms:
                return index.demonyms[form][0]
        return None

    def subject_names(self, p: Doc, subject: int | None) -> list[str]:
        """The subject's names in the document, longest first (the longest is looked up in
        the store: a short form such as a first name would match strangers)."""
        text, ms = p.text, p.mentions
        names = {text[m.start:m.end] for m in ms if m.entity == subject and m.entity_type is EntityType.PERSON}
        return sorted(names, key=lambda s: (-len(s), s))

    # --- measuring -----------------------------------------------------------------------
    def disclosed(self, p: Doc, views: Sequence[SpanView], shown: dict[int, tuple[str, Candidate | None, bool]]) -> list[Constraint]:
        """Constraints of a document whose mention ``k`` shows ``shown[k]`` = (label, candidate, kept)."""
        out: list[Constraint] = []
        for k, (label, cand, kept) in shown.items():
            out.extend(self.discloser.constraints(views[k], label, cand, kept=kept))
        return out

    def measure(self, p: Doc, shown: dict[int, tuple[str, Candidate | None, bool]]) -> PrivacyReport:
        """k of the document as shown (no climbing)."""
        t0 = time.perf_counter()
        views, subject = self.views(p)
        result = anonymity_set(self.background, self.disclosed(p, views, shown))
        subj = locate_subject(self.background, self.subject_names(p, subject)[:1], result.members)
        return PrivacyReport(0, result.k, result.k, (), result.counted, result.uncounted, subj.in_store, bool(subj.in_set),
                             True, time.perf_counter() - t0, persons=len(self.background.persons))

    # --- enforcing -----------------------------------------------------------------------
    def apply(self, p: Doc, policy: SelectionPolicy, target: int) -> PrivacyReport:
        """Climb until k ≥ ``target``; forced choices go to ``DocMention.forced``; returns the report."""
        t0 = time.perf_counter()
        views, subject = self.views(p)
        slots = self._slots(policy, p)
        members = [self._members(p, views, s) for s in slots]
        k_before = _k(self.background, members)
        k = k_before
        climbs: list[Climb] = []
        while k < target:
            best = None
            prefix, suffix = _running(self.background, members), _running(self.background, members[::-1])[::-1]
            for i, slot in enumerate(slots):
                nxt = self._next(p, policy, views, slot, members[i])
                if nxt is None:
                    continue
                pos, bm = nxt
                others = prefix[i] & suffix[i + 1]
                gain = len(others & bm) if bm is not None else len(others)
                # most growth; then the biggest blocker (most persons fit without it), the most
                # restrictive slot, masked spans before NO_MASK ones, the earliest
                own = len(members[i]) if members[i] is not None else 1 << 40
                key = (gain, len(others), -own, not slot.no_mask, -i)
                if best is None or key > best[0]:
                    best = (key, i, pos, bm)
            if best is None:
                break
            _, i, pos, bm = best
            slot = slots[i]
            old = slot.options[slot.pos].label
            slot.pos = pos
            members[i] = bm
            new_k = _k(self.background, members)
            m = p.mentions[slot.key]
            climbs.append(Climb(m.start, m.end, m.entity_type.value, m.identifier_type.value,
                                "(kept)" if slot.options[0].kept and old == slot.options[0].label else old,
                                slot.options[pos].label, k, new_k))
            k = new_k
        descents = self._descend(p, views, slots, members, target) if climbs and k >= target else []
        for slot in slots:
            if slot.options and slot.pos > 0:
                opt = slot.options[slot.pos]
                alts = slot.chosen.alternatives if slot.chosen else ()
                note = f"privacy guard: generalized to reach k ≥ {target}"
                p.mentions[slot.key].forced = Choice(opt.label, opt.candidate, alts, note)
        shown = self._shown(p, slots)
        final = anonymity_set(self.background, self.disclosed(p, views, shown))
        subj = locate_subject(self.background, self.subject_names(p, subject)[:1], final.members)
        return PrivacyReport(target, k_before, final.k, tuple(climbs), final.counted, final.uncounted, subj.in_store,
                             bool(subj.in_set), final.k >= target, time.perf_counter() - t0, descents=tuple(descents),
                             persons=len(self.background.persons))

    def _descend(self, p: Doc, views: Sequence[SpanView], slots: list[_Slot],
                 members: list[FrozenBitMap | None], target: int) -> list[Climb]:
        """Come back down: each climbed slot returns to its most specific option that
        still keeps k ≥ ``target`` (a climb that later climbs made unnecessary is undone).
        Slots are tried in the order they climbed least far, so small steps back come first."""
        out: list[Climb] = []
        for i in sorted((i for i, s in enumerate(slots) if s.options and s.pos > 0), key=lambda i: (slots[i].pos, i)):
            slot = slots[i]
            k_now = _k(self.background, members)
            for pos in range(slot.pos):
                bm = self._members(p, views, slot, pos)
                k_new = _k(self.background, members[:i] + [bm] + members[i + 1:])
                if k_new >= target:
                    m = p.mentions[slot.key]
                    out.append(Climb(m.start, m.end, m.entity_type.value, m.identifier_type.value,
                                     slot.options[slot.pos].label, slot.options[pos].label, k_now, k_new))
                    slot.pos, members[i] = pos, bm
                    break
        return out

    def _slots(self, policy: SelectionPolicy, p: Doc) -> list[_Slot]:
        text, ms = p.text, p.mentions
        slots: dict[int, _Slot] = {}
        for k, m in enumerate(ms):
            if m.identifier_type is IdentifierType.NO_MASK:
                slots[-1 - k] = _Slot(k, [k], m.identifier_type, None)
                continue
            first = p.first_of(k)
            if first in slots:
                slots[first].mentions.append(k)
                continue
            original = text[ms[first].start:ms[first].end]
            chosen = ms[first].choice or policy.choose(p, first)  # the select stage's choice
            label, cand = chosen.label, chosen.candidate
            ladder = ms[first].ladder
            options = [_Option(label, cand)]
            if cand is not None and ladder is not None and cand in ladder.candidates:
                at = ladder.candidates.index(cand)
                for c in ladder.candidates[at + 1:]:
                    if policy.refusal(c, original, ms[first], text) is None:
                        options.append(_Option(c.label, c))
            if options[-1].label != MASK:
                options.append(_Option(MASK, None))
            slots[first] = _Slot(first, [k], m.identifier_type, options, chosen=chosen)
        return list(slots.values())

    def _options_of_no_mask(self, p: Doc, policy: SelectionPolicy, slot: _Slot) -> list[_Option]:
        m = p.mentions[slot.key]
        original = p.text[m.start:m.end]
        options = [_Option(original, None, kept=True)]
        try:
            left, right = sentence_bounds(p.text, m.start, m.end)
            span = Span(original, m.entity_type, IdentifierType.QUASI, context=p.text[left:right], start=m.start, end=m.end)
            ladder = self.ladder_of(span)
            options += [_Option(c.label, c) for c in ladder.candidates if c.label != MASK and policy.refusal(c, original, m, p.text) is None]
        except Exception:  # no ladder: the span can still be masked
            pass
        options.append(_Option(MASK, None))
        return options

    def _slot_constraints(self, p: Doc, views: Sequence[SpanView], slot: _Slot, pos: int) -> list[Constraint]:
        if slot.options is None:
            m = p.mentions[slot.key]
            opt = _Option(p.text[m.start:m.end], None, kept=True)
        else:
            opt = slot.options[pos]
        out: list[Constraint] = []
        for k in slot.mentions:
            out.extend(self.discloser.constraints(views[k], opt.label, opt.candidate, kept=opt.kept))
        return out

    def _members(self, p: Doc, views: Sequence[SpanView], slot: _Slot, pos: int | None = None) -> FrozenBitMap | None:
        pos = slot.pos if pos is None else pos
        if pos in slot.members:
            return slot.members[pos]
        parts = [b for b in (constraint_members(self.background, c) for c in self._slot_constraints(p, views, slot, pos)) if b is not None]
        if not parts:
            bm = None  # no countable constraint: the slot does not restrict the set
        else:
            acc = BitMap(parts[0])
            for b in parts[1:]:
                acc &= b
            bm = FrozenBitMap(acc)
        slot.members[pos] = bm
        return bm

    def _next(self, p: Doc, policy: SelectionPolicy, views: Sequence[SpanView], slot: _Slot, current: FrozenBitMap | None) -> tuple[int, FrozenBitMap | None] | None:
        """The nearest more general option whose disclosure matches more persons."""
        if current is None:
            return None  # nothing to gain: the slot restricts nothing countable
        if slot.options is None:
            slot.options = self._options_of_no_mask(p, policy, slot)
            slot.members = {0: current}
        for pos in range(slot.pos + 1, len(slot.options)):
            bm = self._members(p, views, slot, pos)
            if bm is None or len(bm) > len(current):
                return pos, bm
        return None

    def _shown(self, p: Doc, slots: list[_Slot]) -> dict[int, tuple[str, Candidate | None, bool]]:
        shown: dict[int, tuple[str, Candidate | None, bool]] = {}
        for slot in slots:
            if slot.options is None:
                m = p.mentions[slot.key]
                shown[slot.key] = (p.text[m.start:m.end], None, True)
                continue
            opt = slot.options[slot.pos]
            for k in slot.mentions:
                shown[k] = (opt.label, opt.candidate, opt.kept)
        return shown


def _intersection(background: Background, parts: Sequence[FrozenBitMap | None]) -> FrozenBitMap:
    real = sorted((b for b in parts if b is not None), key=len)
    if not real:
        return background.everyone
    acc = BitMap(real[0])
    for b in real[1:]:
        acc &= b
        if not acc:
            break
    return FrozenBitMap(acc)


def _running(background: Background, parts: Sequence[FrozenBitMap | None]) -> list[FrozenBitMap]:
    """Running intersections: ``out[i]`` = everyone ∩ parts[:i] (length ``len(parts) + 1``)."""
    out = [background.everyone]
    for b in parts:
        out.append(out[-1] if b is None else FrozenBitMap(out[-1] & b))
    return out


def _k(background: Background, parts: Sequence[FrozenBitMap | None]) -> int:
    return len(_intersection(background, parts))
