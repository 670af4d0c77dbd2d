"""Building the sanitized text of a document from the chosen rungs.

The mentions' decisions (:class:`Decision`: the rung chosen for each mention, or the
original text for NO_MASK) are laid into the text left to right:

1. **Adjacent replacements are merged** (only spaces between them in the original): two
   masks become one ``***`` (also across "/" or a dash: "***/***"); a title before a
   person ("[President] [John Mahama]" → "position PERSON 3") becomes the person;
   otherwise the last one, the head of the phrase, stands for both ("[2002] [Gujarat
   riots]" → "state of India", "[DATE] [***]" → "***"). A date before or after a person
   is kept, separated by a comma ("In 2015 Crystal …" → "In the 2010s, PERSON 1 …"),
   unless both sit in one noun phrase ("the [1957] [Roger Corman] film" → "the PERSON 2
   film"). A season's two-digit year joins the date before it ("[1998]–[99]"), and
   "from [the 1990s] to [the 1990s]" reads "in the 1990s" ("(1804–1806)": "(the 1800s)").
2. **Each phrase is rendered for its slot** (:func:`engine.render.phrase.render_phrase`):
   date phrases, articles, modifiers dropped, sentence-initial capitals.
3. Two class labels joined by "of" read with "in" ("a baseball team of a sports league"
   → "a baseball team in a sports league").

Every change is listed in ``edits`` and every changed region mapped back to the original
in ``segments``. Each mention's :class:`engine.types.Replacement` carries its rung and the
phrase shown for it; merged mentions share the phrase and its region.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from engine.readability import at_sentence_start, capitalise
from engine.render.phrase import RungKind, kind_of, render_phrase
from engine.types import MASK, Candidate, EntityType, IdentifierType, Mention, Replacement, ScoredCandidate, Segment

_DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|his|her|their|its|this|that)\s+$", re.I)
_OF_GAP = re.compile(r"^(\s+)(of)(\s+(?:(?:the|a|an)\s+)?)$")


@dataclass(frozen=True, slots=True)
class Decision:
    """What was chosen for one mention, before rendering."""

    mention: Mention
    original: str
    rung: str
    candidate: Candidate | None = None
    alternatives: tuple[ScoredCandidate, ...] = ()
    note: str = ""
    forced: bool = False  # the privacy guard generalized this span, even a NO_MASK one

    @property
    def kept(self) -> bool:
        return self.mention.identifier_type is IdentifierType.NO_MASK and not self.forced

    @property
    def kind(self) -> RungKind:
        return kind_of(self.rung, self.candidate, self.mention.entity_type.value)


@dataclass
class _Unit:
    """Consecutive masked mentions shown as one phrase."""

    decisions: list[Decision]
    head: Decision
    note: str = ""
    comma_after: bool = False
    collapsed: bool = False   # "from [the 1990s] to [the 1990s]": one period, read "in the 1990s"

    @property
    def start(self) -> int:
        return self.decisions[0].mention.start

    @property
    def end(self) -> int:
        return self.decisions[-1].mention.end


@dataclass
class RenderedDocument:
    text: str
    replacements: list[Replacement] = field(default_factory=list)
    edits: list[str] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)


def _merge(a: _Unit, b: Decision, before: str = "") -> tuple[_Unit | None, bool]:
    """``a`` and ``b`` as one unit (or None to keep them apart) and whether a comma separates
    them; ``before`` is the original text before ``a``."""
    ka, kb = a.head.kind, b.kind
    a_date = a.head.mention.entity_type is EntityType.DATETIME
    b_date = b.mention.entity_type is EntityType.DATETIME
    in_noun_phrase = bool(_DETERMINER_BEFORE.search(before))  # "the [1957] [Roger Corman] film"
    if ((a_date and kb is RungKind.PERSON) or (ka is RungKind.PERSON and b_date)) and not in_noun_phrase:
        return None, True
    if a_date and kb is RungKind.PERSON:
        return _Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False
    if ka is RungKind.PERSON and kb is RungKind.PERSON and a.head.rung != b.rung:
        return None, False
    if ka is RungKind.PERSON and kb is not RungKind.PERSON:
        return _Unit(a.decisions + [b], a.head, "merged with the adjacent replacement"), False
    return _Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False


_RANGE_GAP = re.compile(r"^\s*(?:to|until|till|and|–|-|—)\s*$")
_RANGE_START = re.compile(r"\b(?:from|between)\s+$", re.I)


def _same_period(a: _Unit, d: Decision, gap: str, before: str) -> bool:
    """"from [A] to [B]" or "between [A] and [B]" where both became the same date phrase."""
    return (
        len(a.decisions) == 1 and a.head.kind is RungKind.DATE_PHRASE and d.kind is RungKind.DATE_PHRASE
        and a.head.rung == d.rung and bool(_RANGE_GAP.match(gap))
        and (bool(_RANGE_START.search(before)) or gap.strip() in ("–", "-", "—"))  # "(1804–1806)" → "(the 1800s)"
    )


def _units(text: str, masked: Sequence[Decision], readability: bool) -> list[_Unit]:
    units: list[_Unit] = []
    for d in masked:
        gap = text[units[-1].end:d.mention.start] if units else ""
        if readability and units and _same_period(units[-1], d, gap, text[max(0, units[-1].start - 12):units[-1].start]):
            units[-1] = _Unit(units[-1].decisions + [d], units[-1].head, "one period on both ends of a range", collapsed=True)
            continue
        both_masks = bool(units) and units[-1].head.rung == MASK and d.rung == MASK
        both_dates = bool(units) and all(x.mention.entity_type is EntityType.DATETIME for x in (units[-1].head, d))
        both_dates = both_dates and d.original.isdigit() and len(d.original) <= 2  # a season "[1998]–[99]", not "(1885–1962)"
        if readability and units and units[-1].end <= d.mention.start and gap.strip() and gap.strip() in "/-–" and both_dates:
            units[-1] = _Unit(units[-1].decisions + [d], units[-1].head, "merged with the adjacent date")  # "[1998]–[99]"
            continue
        if readability and units and units[-1].end <= d.mention.start and (not gap.strip() or (both_masks and gap.strip() in "/-–")):
            merged, comma = _merge(units[-1], d, text[max(0, units[-1].start - 20):units[-1].start])
            if merged is not None:
                units[-1] = merged
                continue
            units[-1].comma_after = comma
        units.append(_Unit([d], d))
    return units


class _Builder:
    """The output text with its offset map; the tail after the last unit may be rewritten."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.out = ""
        self.pos = 0            # original offset copied up to
        self.locked = 0         # output before this offset belongs to earlier units
        self.segments: list[Segment] = []
        self.edits: list[str] = []

    def copy_to(self, orig: int) -> None:
        self.out += self.text[self.pos:orig]
        self.pos = orig

    def shift(self) -> int:
        """Original offset minus output offset at the end of the output."""
        return self.pos - len(self.out)

    def rewrite_tail(self, cut: int, new_tail: str, desc: str) -> bool:
        """Replace ``out[cut:]`` (copied original text) by ``new_tail``."""
        if cut < self.locked or self.out[cut:] == new_tail:
            return False
        orig_start = cut + self.shift()
        old_len = len(self.out) - cut
        self.out = self.out[:cut] + new_tail
        self.segments.append(Segment(cut, len(self.out), orig_start, orig_start + old_len))
        self.edits.append(f"{desc} (offset {orig_start})")
        return True

    def emit(self, phrase: str, orig_start: int, orig_end: int) -> tuple[int, int]:
        start = len(self.out)
        self.out += phrase
        self.segments.append(Segment(start, len(self.out), orig_start, orig_end))
        self.pos = orig_end
        self.locked = len(self.out)
        return start, len(self.out)


def render_document(text: str, decisions: Sequence[Decision], *, readability: bool = True) -> RenderedDocument:
    """The sanitized text of ``text`` for ``decisions`` (one per mention, in text order)."""
    masked = [d for d in decisions if not d.kept]
    units = _units(text, masked, readability)
    b = _Builder(text)
    placed: dict[int, tuple[str, int, int, str]] = {}   # id(decision) → (phrase, start, end, note)
    prev_unit: _Unit | None = None
    for u in units:
        b.copy_to(u.start)
        head = u.head
        label = head.rung
        kind = head.kind
        end = u.end
        if not readability:
            s, e = b.emit(label, u.start, end)
            for d in u.decisions:
                placed[id(d)] = (label, s, e, d.note)
            prev_unit = u
            continue
        if prev_unit is not None and prev_unit.comma_after and prev_unit.end <= u.start:
            gap = text[prev_unit.end:u.start]
            if not b.out.endswith(","):
                b.rewrite_tail(len(b.out) - len(gap), "," + gap, "comma between a date and a person")
        if kind is RungKind.CLASS and prev_unit is not None and prev_unit.head.kind is RungKind.CLASS and placed.get(id(prev_unit.head), ("",))[0]:
            m = _OF_GAP.match(text[prev_unit.end:u.start])
            if m:
                cut = len(b.out) - len(m.group(0)) + len(m.group(1))
                b.rewrite_tail(cut, "in" + b.out[cut + 2:], "'of' → 'in' between two class labels")
        after = text[end:end + 80]
        if u.collapsed:
            m = _RANGE_START.search(b.out)
            if m:
                word = m.group(0).split()[0]
                b.rewrite_tail(m.start(), ("In" if word[0].isupper() else "in") + m.group(0)[len(word):], f"'{word}' → 'in' before one period")
        r = render_phrase(label, kind, b.out, after if not u.comma_after else "," + after)
        if r.new_prev is not None:
            b.rewrite_tail(r.prev_start, r.new_prev, r.note)
        phrase = r.phrase
        if phrase and at_sentence_start(b.out) and phrase[:1].islower():
            phrase = capitalise(phrase)
            b.edits.append(f"capitalised '{r.phrase}' at sentence start (offset {u.start})")
        if r.drop:
            # drop one of the spaces around the vanished modifier
            if text[end:end + 1] in (" ", "\t") and (b.out.endswith((" ", "\t")) or not b.out):
                end += 1
            b.edits.append(f"{kind.value} dropped before '{r_next(text, end)}' (offset {u.start})")
        s, e = b.emit(phrase, u.start, end)
        for d in u.decisions:
            note = "; ".join(x for x in (d.note, u.note if d is not u.head else "", r.note if r.drop else "") if x)
            placed[id(d)] = (phrase, s, e, note)
        prev_unit = u
    b.copy_to(len(text))
    out = b.out
    replacements = []
    for d in decisions:
        m = d.mention
        if d.kept:
            s = new_offset(b.segments, m.start)
            replacements.append(Replacement(m, d.original, d.original, (), s, s + (m.end - m.start), kept=True, note="; ".join(filter(None, ("NO_MASK", d.note))), rung=d.original))
            continue
        phrase, s, e, note = placed[id(d)]
        replacements.append(Replacement(m, d.original, phrase, d.alternatives, s, e, kept=False, note=note, rung=d.rung))
    return RenderedDocument(out, replacements, b.edits, sorted(b.segments, key=lambda g: g.new_start))


def r_next(text: str, pos: int) -> str:
    """The next word of ``text`` from ``pos`` (for edit descriptions)."""
    m = re.match(r"\s*(\S+)", text[pos:])
    return m.group(1) if m else ""


def new_offset(segments: Sequence[Segment], orig: int) -> int:
    """The output offset of original offset ``orig`` outside the changed regions."""
    shift = 0
    for seg in sorted(segments, key=lambda g: g.orig_start):
        if seg.orig_end <= orig:
            shift = seg.new_end - seg.orig_end
        elif seg.orig_start <= orig:
            return seg.new_start
        else:
            break
    return orig + shift

