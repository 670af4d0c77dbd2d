"""The climbing guard: after ranking, generalize further until k ≥ K (or nothing is left).

Each entity of a document is a *slot* (NO_MASK spans are slots too: the annotators
judged them harmless, but they disclose, and the guard may climb them as well). A
slot's options run from the policy's choice up its ladder to ``***``. While k < K the
guard moves, among all slots, the one whose next *more general* option (the nearest one
whose disclosure matches more persons) grows the anonymity set most; ties go to the
biggest blocker (the most persons fit without the slot), then to the most restrictive
slot, then to masked spans before NO_MASK ones. Every move is reported as a :class:`Climb`. The guard never picks a candidate the policy would
refuse (:meth:`engine.select.policy.SelectionPolicy.refusal`).

:meth:`PrivacyGuard.apply` is called once per document by
:class:`engine.pipeline.DocumentSanitizer` (``SanitizeOptions.k``); ``k=0`` measures
without climbing.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from pyroaring import BitMap, FrozenBitMap


from engine.privacy.anonymity import LOWER_BOUND_NOTE, anonymity_set, constraint_members, locate_subject
from engine.privacy.background import Background
from engine.privacy.disclosure import Constraint, Discloser, SpanView, cue_props, trusted_link
from engine.text.sentences import SentenceIndex, sentence_bounds
from engine.types import MASK, Candidate, Choice, EntityType, IdentifierType, Mention, PreparedDocument, Span


if TYPE_CHECKING:
    from engine.select.policy import SelectionPolicy


@dataclass(frozen=True, slots=True)
class Climb:
    """One move of the guard: a span moved up its ladder to a more general rung (a climb) or
    back down to a more specific one that still keeps k ≥ K (a descent)."""

    start: int
    end: int
    entity_type: str
    identifier_type: str
    from_rung: str
    to_rung: str
    k_before: int
    k_after: int

    def to_dict(self) -> dict:
        return {f: getattr(self, f) for f in self.__slots__}


@dataclass(frozen=True, slots=True)
class PrivacyReport:
    """k of a sanitized document before and after the guard, and why."""

    target_k: int
    k_before: int
    k_after: int
    climbs: tuple[Climb, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    uncounted: tuple[Constraint, ...] = ()
    subject_in_store: bool = False
    subject_in_set: bool = False
    reached: bool = True
    seconds: float = 0.0
    note: str = LOWER_BOUND_NOTE
    descents: tuple[Climb, ...] = ()
    persons: int | None = None  # persons of the store the guard counts among (None: not told)

    @property
    def established(self) -> bool:
        """Whether k says something: the store holds persons, and k reached the target or the
        document's person is among the store's persons (otherwise k counts only strangers)."""
        return self.persons != 0 and (self.reached or self.subject_in_store)

    @property
    def summary(self) -> str:
        """One line: k, whether it could be established, and what the guard did."""
        spans = {(c.start, c.end): c.to_rung for c in self.climbs + self.descents}
        masked = sum(1 for rung in spans.values() if rung == MASK)
        did = (f"the guard generalized {len(spans)} span{'' if len(spans) == 1 else 's'} as far as it could"
               f" ({masked} to {MASK})" if spans else "the guard changed nothing")
        if self.target_k == 0:
            return f"k = {self.k_after} (guard off: measured only)"
        if self.persons == 0:
            return f"k not established: the store holds no persons to count; {did}"
        if self.reached:
            return f"k = {self.k_after} ≥ {self.target_k}: at least {self.target_k} persons of the store fit what the text discloses"
        if not self.subject_in_store:
            return (f"k not established: the person is not in the store, so k = {self.k_after} counts only others "
                    f"who fit (target {self.target_k}); {did}")
        return f"k = {self.k_after} < {self.target_k}: nothing more general was left; {did}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "target_k": self.target_k, "k_before": self.k_before, "k_after": self.k_after, "reached": self.reached,
            "established": self.established, "summary": self.summary,
            "climbs": [c.to_dict() for c in self.climbs],
            "descents": [c.to_dict() for c in self.descents],
            "constraints": [c.to_dict() for c in self.constraints],
            "uncounted": [c.to_dict() for c in self.uncounted],
            "subject_in_store": self.subject_in_store, "subject_in_set": self.subject_in_set,
            "note": self.note,  # not the seconds: a document's output is the same on every run
        }


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
    """Measures and enforces k for documents prepared by :class:`engine.pipeline.DocumentSanitizer`."""

    def __init__(self, engine, background: Background) -> None:
        self.engine = engine
        self.background = background
        self.discloser = Discloser(engine)

    # --- views ---------------------------------------------------------------------------
    def views(self, p: PreparedDocument) -> tuple[list[SpanView], int | None]:
        """A :class:`SpanView` per mention of a prepared document, and the subject's entity."""
        text, ms, entity = p.text, p.mentions, p.entity
        persons = Counter(entity[k] for k, m in enumerate(ms) if m.entity_type is EntityType.PERSON)
        subject = max(persons, key=lambda e: (persons[e], -e)) if persons else None
        out = []
        sentences = SentenceIndex(text)
        for k, m in enumerate(ms):
            left, _ = sentences.bounds(m.start, m.end)
            link = trusted_link(p.ladders.get(p.first_of(k))) if m.entity_type.is_graph else None
            if link is None and m.entity_type.is_graph and m.identifier_type is IdentifierType.NO_MASK:
                link = self._link(text, m)
            out.append(SpanView(m.start, m.end, m.entity_type, text[m.start:m.end],
                                cue_props(text, m.start, m.end, m.entity_type, left), link, entity[k] == subject,
                                m.identifier_type is IdentifierType.NO_MASK))
        return out, subject

    def _link(self, text: str, m: Mention) -> str | None:
        """The item a kept span names: exact label or alias, demonym, then normalised forms
        (the linker's trusted stages only; no contained or approximate matching)."""
        from engine.generate.linking import fold, normalised_forms

        index = self.engine.linker.index
        key = fold(text[m.start:m.end])
        for form in [key] + normalised_forms(key):
            hits = index.lookup(form)
            if hits:
                return hits[0][0]
            if form in index.demonyms:
                return index.demonyms[form][0]
        return None

    def subject_names(self, p: PreparedDocument, subject: int | None) -> list[str]:
        """The subject's names in the document, longest first (the longest is looked up in
        the store: a short form such as a first name would match strangers)."""
        text, ms, entity = p.text, p.mentions, p.entity
        names = {text[m.start:m.end] for k, m in enumerate(ms) if entity[k] == subject and m.entity_type is EntityType.PERSON}
        return sorted(names, key=lambda s: (-len(s), s))

    # --- measuring -----------------------------------------------------------------------
    def disclosed(self, p: PreparedDocument, views: Sequence[SpanView], shown: dict[int, tuple[str, Candidate | None, bool]]) -> list[Constraint]:
        """Constraints of a document whose mention ``k`` shows ``shown[k]`` = (label, candidate, kept)."""
        out: list[Constraint] = []
        for k, (label, cand, kept) in shown.items():
            out.extend(self.discloser.constraints(views[k], label, cand, kept=kept))
        return out

    def measure(self, p: PreparedDocument, shown: dict[int, tuple[str, Candidate | None, bool]]) -> PrivacyReport:
        """k of the document as shown (no climbing)."""
        t0 = time.perf_counter()
        views, subject = self.views(p)
        result = anonymity_set(self.background, self.disclosed(p, views, shown))
        subj = locate_subject(self.background, self.subject_names(p, subject)[:1], result.members)
        return PrivacyReport(0, result.k, result.k, (), result.counted, result.uncounted, subj.in_store, bool(subj.in_set),
                             True, time.perf_counter() - t0, persons=len(self.background.persons))

    # --- enforcing -----------------------------------------------------------------------
    def apply(self, p: PreparedDocument, policy: SelectionPolicy, target: int) -> PrivacyReport:
        """Climb until k ≥ ``target``; forced choices go to ``p.forced``; returns the report."""
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
                p.forced[slot.key] = Choice(opt.label, opt.candidate, alts, note)
        shown = self._shown(p, slots)
        final = anonymity_set(self.background, self.disclosed(p, views, shown))
        subj = locate_subject(self.background, self.subject_names(p, subject)[:1], final.members)
        return PrivacyReport(target, k_before, final.k, tuple(climbs), final.counted, final.uncounted, subj.in_store,
                             bool(subj.in_set), final.k >= target, time.perf_counter() - t0, descents=tuple(descents),
                             persons=len(self.background.persons))

    def _descend(self, p: PreparedDocument, views: Sequence[SpanView], slots: list[_Slot],
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

    def _slots(self, policy: SelectionPolicy, p: PreparedDocument) -> list[_Slot]:
        text, ms, entity = p.text, p.mentions, p.entity
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
            chosen = policy.choose(p, first)
            label, cand = chosen.label, chosen.candidate
            ladder = p.ladders.get(first)
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

    def _options_of_no_mask(self, p: PreparedDocument, policy: SelectionPolicy, slot: _Slot) -> list[_Option]:
        m = p.mentions[slot.key]
        original = p.text[m.start:m.end]
        options = [_Option(original, None, kept=True)]
        try:
            left, right = sentence_bounds(p.text, m.start, m.end)
            span = Span(original, m.entity_type, IdentifierType.QUASI, context=p.text[left:right], start=m.start, end=m.end)
            ladder = self.engine.candidates(span)
            options += [_Option(c.label, c) for c in ladder.candidates if c.label != MASK and policy.refusal(c, original, m, p.text) is None]
        except Exception:  # no ladder: the span can still be masked
            pass
        options.append(_Option(MASK, None))
        return options

    def _slot_constraints(self, p: PreparedDocument, views: Sequence[SpanView], slot: _Slot, pos: int) -> list[Constraint]:
        if slot.options is None:
            m = p.mentions[slot.key]
            opt = _Option(p.text[m.start:m.end], None, kept=True)
        else:
            opt = slot.options[pos]
        out: list[Constraint] = []
        for k in slot.mentions:
            out.extend(self.discloser.constraints(views[k], opt.label, opt.candidate, kept=opt.kept))
        return out

    def _members(self, p: PreparedDocument, views: Sequence[SpanView], slot: _Slot, pos: int | None = None) -> FrozenBitMap | None:
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

    def _next(self, p: PreparedDocument, policy: SelectionPolicy, views: Sequence[SpanView], slot: _Slot, current: FrozenBitMap | None) -> tuple[int, FrozenBitMap | None] | None:
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

    def _shown(self, p: PreparedDocument, slots: list[_Slot]) -> dict[int, tuple[str, Candidate | None, bool]]:
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
