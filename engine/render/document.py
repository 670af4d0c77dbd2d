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
   "from [the 1990s] to (or through) [the 1990s]" reads "in the 1990s" ("(1804–1806)": "(the 1800s)").
2. **Each phrase is rendered for its slot** (:func:`engine.render.phrase.render_phrase`):
   date phrases, articles, modifiers dropped, sentence-initial capitals.
3. Two class labels joined by "of" read with "in" ("a baseball team of a sports league"
   → "a baseball team in a sports league").

Every change is listed in ``edits`` and every changed region mapped back to the original
in ``segments``. Each mention's :class:`engine.types.Replacement` carries its rung and the
phrase shown for it; merged mentions share the phrase and its region.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Sequence

from engine.render.readability import at_sentence_start, capitalise
from engine.render.phrase import Rendered, RungKind, _same_case, head_is_plural, indefinite_article, kind_of, render_phrase
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
    tail_end: int = 0         # "[Name] ([abbreviation])": the unit also covers the closing bracket
    shown_as_mask: bool = False  # a class in a list of masks ("like ***, *** and ***"): shown as ***
    lead_start: int | None = None  # "([1960-05-19])[19 May 1960]": the unit also covers the opening bracket

    @property
    def start(self) -> int:
        return self.decisions[0].mention.start if self.lead_start is None else self.lead_start

    @property
    def end(self) -> int:
        return max(self.decisions[-1].mention.end, self.tail_end)


@dataclass
class RenderedDocument:
    text: str
    replacements: list[Replacement] = field(default_factory=list)
    edits: list[str] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)


def _merge(a: _Unit, b: Decision, before: str = "", after: str = "") -> tuple[_Unit | None, bool]:
    """``a`` and ``b`` as one unit (or None to keep them apart) and whether a comma separates
    them; ``before`` is the original text before ``a``, ``after`` the text after ``b``."""
    ka, kb = a.head.kind, b.kind
    a_date = a.head.mention.entity_type is EntityType.DATETIME
    b_date = b.mention.entity_type is EntityType.DATETIME
    in_noun_phrase = bool(_DETERMINER_BEFORE.search(before))  # "the [1957] [Roger Corman] film"
    if ((a_date and kb is RungKind.PERSON) or (ka is RungKind.PERSON and b_date)) and not in_noun_phrase:
        return None, True
    if a.head.mention.entity_type.is_graph and _is_count(b):
        # "the collapse of [South Vietnam] [nine months] into …": two phrases, "of ***, X months into …"
        return None, True
    if a.head.mention.entity_type.is_graph and _is_times_count(b, after):
        # "got [MNL champion] [2] times": the count belongs to "times", the title is the
        # object ("got *** X times"); merged, the object vanished ("got X times")
        return None, False
    if a.head.mention.entity_type is EntityType.DEM and ka is not RungKind.PERSON and kb is RungKind.PERSON \
            and a.head.original[:1].islower():
        # "the Swedish [architect] [Erik Lindqvist]": a role noun before a name stays outside
        # the name ("the Swedish *** PERSON 2", not "the PERSON 2"); a capitalised title is
        # part of the name ("[President] [John Mahama]" → "PERSON 1")
        return None, False
    if a_date and kb is RungKind.PERSON:
        return _Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False
    if ka is RungKind.PERSON and kb is RungKind.PERSON and a.head.rung != b.rung:
        return None, False
    if ka is RungKind.PERSON and kb is not RungKind.PERSON:
        return _Unit(a.decisions + [b], a.head, "merged with the adjacent replacement"), False
    return _Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False


def _is_count(d: Decision) -> bool:
    """A count with its unit ("X months", "X km"), not a bare number ("[MNL champion] [2]
    times" stays one phrase) and not a date."""
    return d.mention.entity_type in (EntityType.QUANTITY, EntityType.DATETIME) and bool(re.match(r"X [a-z]", d.rung))


_TIMES_AFTER = re.compile(r"^[ \t]+times?\b")


def _is_times_count(d: Decision, after: str) -> bool:
    """A bare count before "time(s)" ("[2] times"): a multiplier, not a noun phrase's head."""
    return d.mention.entity_type is EntityType.QUANTITY and d.rung in ("X", MASK) and bool(_TIMES_AFTER.match(after))


def _masked_in_period_list(a: _Unit, d: Decision, gap: str) -> bool:
    """"in the [1990s] and [early 2000s]" where one date is masked and the other a period:
    "in the *** and the 2000s" reads as two kinds of thing; the list is shown as one mask."""
    kinds = {a.head.kind, d.kind}
    return (
        all(x.mention.entity_type is EntityType.DATETIME for x in (a.head, d)) and kinds == {RungKind.MASK, RungKind.DATE_PHRASE}
        and bool(_AND_OR_GAP.match(gap))  # not a bare comma: "On [15 March 2013], [one year] after …" is no list
    )


_AND_OR_GAP = re.compile(r"^\s*,?\s*(?:and|or)\s*$")
#: Multiplicative adverbs: their count reads "X times" ("title twice" → "title X times", not "title X").
MULTIPLICATIVES = frozenset({"once", "twice", "thrice"})


_RANGE_GAP = re.compile(r"^\s*(?:to|until|till|through|thru|and|–|-|—)\s*$")
_RANGE_START = re.compile(r"\b(?:from|between)\s+(?:the\s+)?$", re.I)
_LIST_GAP = re.compile(r"^\s*(?:,|,?\s*and|,?\s*or)\s*$")
_OPEN_BRACKET = re.compile(r"^[ \t]*\($")


def _same_period(a: _Unit, d: Decision, gap: str, before: str) -> bool:
    """"from [A] to [B]" or "between [A] and [B]" where both became the same date phrase."""
    return (
        len(a.decisions) == 1 and a.head.kind is RungKind.DATE_PHRASE and d.kind is RungKind.DATE_PHRASE
        and a.head.rung == d.rung and bool(_RANGE_GAP.match(gap))
        and (bool(_RANGE_START.search(before)) or gap.strip() in ("–", "-", "—"))  # "(1804–1806)" → "(the 1800s)"
    )


def _listed_period(a: _Unit, d: Decision, gap: str) -> bool:
    """"in [2011], [2012] and [2013]" where every date became the same period: one
    mention of it reads ("in the 2010s"), not "the 2010s, the 2010s and the 2010s"."""
    return (
        a.head.kind is RungKind.DATE_PHRASE and d.kind is RungKind.DATE_PHRASE and a.head.rung == d.rung
        and all(x.rung == d.rung for x in a.decisions) and bool(_LIST_GAP.match(gap))
    )


def _bracketed_repeat(text: str, a: _Unit, d: Decision, gap: str) -> bool:
    """"[Name] ([abbreviation])" where both got the same rung ("*** (***)", "a university
    (university)"): the bracket says nothing new, and is shown once with its name."""
    return (
        a.end <= d.mention.start and bool(_OPEN_BRACKET.match(gap)) and text[d.mention.end:d.mention.end + 1] == ")"
        and a.head.rung == d.rung and a.head.kind in (RungKind.MASK, RungKind.CLASS)
    )


_PLACE_PREPOSITION = re.compile(r"\b(?:in|at|from|near|to|into|across|throughout|of)\s+$", re.I)


def _bracketed_date_twin(text: str, a: _Unit, d: Decision, gap: str) -> bool:
    """"([1960-05-19])[19 May 1960]" (a machine-readable date in brackets before the same
    date in words, as copied from Wikipedia's microformats) where both got the same rung:
    "(the 1960s)the 1960s" says one thing twice; it is shown once, brackets included."""
    return (
        len(a.decisions) == 1 and gap == ")" and a.start > 0 and text[a.start - 1] == "("
        and all(x.mention.entity_type is EntityType.DATETIME for x in (a.head, d)) and a.head.rung == d.rung
    )


def _place_apposition(a: _Unit, d: Decision, gap: str) -> bool:
    """"[Mersin], [Turkey]" (or "[Austria], [Vienna]"), where one place became ``***`` and
    the other a class: "held in ***, a country" reads as two places. The pair is one place:
    after a preposition it is shown by its class ("held in a country", true of both
    together); elsewhere ("Trinity College, [Kandy], [Sri Lanka]") as one ``***``."""
    pair = (a.head, d)
    return (
        len(a.decisions) == 1 and gap == ", " and all(x.mention.entity_type is EntityType.LOC for x in pair)
        and {x.kind for x in pair} == {RungKind.MASK, RungKind.CLASS}
    )


def _in_list(text: str, units: list[_Unit], masked: Sequence[Decision], i: int) -> bool:
    """Whether the pair ``units[-1]``, ``masked[i]`` sits in a longer list of masked
    mentions ("like [Kathmandu], [Pokhara], [Chitwan] and …"), not an apposition."""
    nxt = masked[i + 1] if i + 1 < len(masked) else None
    prev = units[-2] if len(units) >= 2 else None
    return bool(
        (nxt is not None and _LIST_GAP.match(text[masked[i].mention.end:nxt.mention.start]))
        or (prev is not None and prev.end <= units[-1].start and _LIST_GAP.match(text[prev.end:units[-1].start]))
    )


def _mixed_lists(text: str, units: list[_Unit]) -> None:
    """A list of three or more masked places or organisations ("like [Kathmandu], [Pokhara],
    [Chitwan] and [Lumbini]") where some became ``***`` and others a class: "like a
    municipality, ***, *** and ***" reads as if the class were one more item of another
    kind. The class members are shown as ``***`` (their rung stays in the result)."""
    run: list[_Unit] = []

    def close() -> None:
        kinds = {u.head.kind for u in run}
        if len(run) >= 3 and kinds == {RungKind.MASK, RungKind.CLASS}:
            for u in run:
                if u.head.kind is RungKind.CLASS:
                    u.shown_as_mask = True
                    u.note = "; ".join(filter(None, (u.note, "a class in a list of masks: shown as ***")))

    for u in units:
        single = len(u.decisions) == 1 and u.head.mention.entity_type.is_graph and not u.comma_after
        if run and single and u.head.mention.entity_type is run[-1].head.mention.entity_type and bool(
            _LIST_GAP.match(text[run[-1].end:u.start])
        ):
            run.append(u)
            continue
        close()
        run = [u] if single else []
    close()


def _units(text: str, masked: Sequence[Decision], readability: bool) -> list[_Unit]:
    units = _unit_run(text, masked, readability)
    if readability:
        units = _dates_listed_before_a_mask(text, units)
        units = _persons_joined_as_a_modifier(text, units)
        _mixed_lists(text, units)
    return units


def _referent_keys(d: Decision) -> tuple[tuple[str, str], ...]:
    """What a mention refers to, as far as rendering knows: the input's entity id, and the
    item its class rung was reached from (not for a head-noun class: "the song" twice may
    be two songs)."""
    keys = []
    if d.mention.entity_id:
        keys.append(("entity", d.mention.entity_id))
    c = d.candidate
    if c is not None and c.link_qid and c.rule != "head-noun":
        keys.append(("item", c.link_qid))
    return tuple(keys)


def _persons_joined_as_a_modifier(text: str, units: list[_Unit]) -> list[_Unit]:
    """"the [Carlow]–[Kilkenny] constituency": two placeholders joined by a dash or slash
    between a determiner and a noun ("the PERSON 2–PERSON 3 constituency") are one modifier;
    they are joined into one unit, which the phrase rules drop like any person placeholder
    in a modifier slot ("the constituency")."""
    from engine.render.phrase import is_noun_like

    out: list[_Unit] = []
    for u in units:
        prev = out[-1] if out else None
        if (
            prev is not None and len(prev.decisions) == 1 and len(u.decisions) == 1
            and prev.head.kind is RungKind.PERSON and u.head.kind is RungKind.PERSON
            and text[prev.end:u.start] in ("–", "-", "/", "—")
            and bool(re.search(r"\b(?:the|a|an)\s+$", text[max(0, prev.start - 8):prev.start], re.I))
        ):
            nxt = re.match(r"[ \t]+([a-z][\w'’-]*)(?:[ \t]+(\S+))?", text[u.end:u.end + 60])
            if nxt and is_noun_like(nxt.group(1), nxt.group(2) or "") and nxt.group(1).lower() not in WORK_NOUNS:
                out[-1] = _Unit(prev.decisions + u.decisions, prev.head, "persons joined by a dash as one modifier")
                continue
        out.append(u)
    return out


def _dates_listed_before_a_mask(text: str, units: list[_Unit]) -> list[_Unit]:
    """"won the [1997] and [2002] [Finnish Cup]": the second date merged into the masked name,
    so the list read "won the 1990s and ***" (a period listed with a thing). The dates
    modify the name; the whole noun phrase is shown as one mask ("won the ***")."""
    out: list[_Unit] = []
    for u in units:
        prev = out[-1] if out else None
        if (
            prev is not None and len(prev.decisions) == 1 and prev.head.mention.entity_type is EntityType.DATETIME
            and len(u.decisions) >= 2 and u.decisions[0].mention.entity_type is EntityType.DATETIME
            and u.head.kind is RungKind.MASK and u.head.mention.entity_type.is_graph
            and prev.end <= u.start and bool(_LIST_GAP.match(text[prev.end:u.start]))
            and bool(_DETERMINER_BEFORE.search(text[max(0, prev.start - 12):prev.start]))
        ):
            out[-1] = _Unit(prev.decisions + u.decisions, u.head, "dates listed before a masked name: the phrase shown as one mask")
            continue
        out.append(u)
    return out


def _unit_run(text: str, masked: Sequence[Decision], readability: bool) -> list[_Unit]:
    units: list[_Unit] = []
    for i, d in enumerate(masked):
        gap = text[units[-1].end:d.mention.start] if units else ""
        if readability and units and _same_period(units[-1], d, gap, text[max(0, units[-1].start - 16):units[-1].start]):
            units[-1] = _Unit(units[-1].decisions + [d], units[-1].head, "one period on both ends of a range", collapsed=True)
            continue
        if readability and units and _listed_period(units[-1], d, gap) and not _RANGE_AFTER.match(text, d.mention.end):
            u = units[-1]
            units[-1] = _Unit(u.decisions + [d], u.head, "one period repeated in a list: shown once", collapsed=u.collapsed)
            continue
        if readability and units and units[-1].end <= d.mention.start and _masked_in_period_list(units[-1], d, gap):
            u = units[-1]
            head = u.head if u.head.kind is RungKind.MASK else d
            units[-1] = _Unit(u.decisions + [d], head, "a masked date in a list of periods: the list shown as one mask")
            continue
        if readability and units and _bracketed_date_twin(text, units[-1], d, gap):
            u = units[-1]
            units[-1] = _Unit(u.decisions + [d], d, "the same date in brackets before it, shown once", lead_start=u.start - 1)
            continue
        if readability and units and _place_apposition(units[-1], d, gap) and not _in_list(text, units, masked, i):
            u = units[-1]
            by_class = bool(_PLACE_PREPOSITION.search(text[max(0, u.start - 16):u.start]))
            head = u.head if (u.head.kind is RungKind.CLASS) == by_class else d
            units[-1] = _Unit(u.decisions + [d], head, "a place and the place around it: shown as one "
                              + ("class" if by_class else "mask"))
            continue
        if readability and units and _bracketed_repeat(text, units[-1], d, gap):
            u = units[-1]
            units[-1] = _Unit(u.decisions + [d], u.head, "the same replacement in brackets after its name: shown once",
                              tail_end=d.mention.end + 1)
            continue
        both_masks = bool(units) and units[-1].head.rung == MASK and d.rung == MASK
        both_dates = bool(units) and all(x.mention.entity_type is EntityType.DATETIME for x in (units[-1].head, d))
        both_dates = both_dates and d.original.isdigit() and len(d.original) <= 2  # a season "[1998]–[99]", not "(1885–1962)"
        if readability and units and units[-1].end <= d.mention.start and gap.strip() and gap.strip() in "/-–" and both_dates:
            units[-1] = _Unit(units[-1].decisions + [d], units[-1].head, "merged with the adjacent date")  # "[1998]–[99]"
            continue
        if readability and units and units[-1].end <= d.mention.start and (not gap.strip() or (both_masks and gap.strip() in "/-–")):
            merged, comma = _merge(units[-1], d, text[max(0, units[-1].start - 20):units[-1].start], text[d.mention.end:d.mention.end + 12])
            if merged is not None:
                units[-1] = merged
                continue
            units[-1].comma_after = comma
        units.append(_Unit([d], d))
    return units


class _Builder:
    """The output text with its offset map; the tail after the last unit may be rewritten.

    The output is kept as frozen chunks (everything up to the last emitted unit) and a
    live tail, so building it is linear in the document's length: no step copies the
    whole output (a string grown with ``+=`` through an attribute is copied each time).
    """

    #: Characters of recent output the phrase rules see (they look a few words back).
    WINDOW = 400

    def __init__(self, text: str) -> None:
        self.text = text
        self._head: list[str] = []   # frozen output chunks
        self._head_len = 0
        self._tail = ""              # output after the last emitted unit
        self.pos = 0            # original offset copied up to
        self.locked = 0         # output before this offset belongs to earlier units
        self.segments: list[Segment] = []
        self.edits: list[str] = []

    @property
    def length(self) -> int:
        return self._head_len + len(self._tail)

    @property
    def out(self) -> str:
        """The whole output so far (joins every chunk: for the end, not for every unit)."""
        return "".join(self._head) + self._tail

    def _freeze(self) -> None:
        if self._tail:
            self._head.append(self._tail)
            self._head_len += len(self._tail)
            self._tail = ""

    def endswith(self, suffix: str | tuple[str, ...]) -> bool:
        return self.recent()[1].endswith(suffix)

    def text_from(self, pos: int) -> str:
        """``out[pos:]``."""
        if pos >= self._head_len:
            return self._tail[pos - self._head_len:]
        return self.out[pos:]

    def recent(self) -> tuple[int, str]:
        """``(cut, out[cut:])``: enough recent output for the phrase rules to decide as on
        the whole output — it starts after a whitespace character, at least
        :attr:`WINDOW` characters back, and holds a word well before its end (else the
        whole output is returned)."""
        total = self.length
        if total <= self.WINDOW:
            return 0, self.text_from(0)
        parts, n, i = [self._tail], len(self._tail), len(self._head)
        while n < 2 * self.WINDOW and i > 0:
            i -= 1
            parts.append(self._head[i])
            n += len(self._head[i])
        recent = "".join(reversed(parts))
        base = total - n
        c0 = len(recent) - self.WINDOW
        j = max(recent.rfind(" ", 0, c0), recent.rfind("\n", 0, c0), recent.rfind("\t", 0, c0))
        if j >= 0 and _WORD_SPACE.search(recent, j + 9, len(recent) - 100):
            return base + j + 1, recent[j + 1:]
        return 0, self.out

    def copy_to(self, orig: int) -> None:
        self._tail += self.text[self.pos:orig]
        self.pos = orig

    def shift(self) -> int:
        """Original offset minus output offset at the end of the output."""
        return self.pos - self.length

    def rewrite_tail(self, cut: int, new_tail: str, desc: str) -> bool:
        """Replace ``out[cut:]`` (copied original text) by ``new_tail``."""
        if cut < self.locked or self.text_from(cut) == new_tail:
            return False
        orig_start = cut + self.shift()
        old_len = self.length - cut
        self._tail = self._tail[:cut - self._head_len] + new_tail
        self.segments.append(Segment(cut, self.length, orig_start, orig_start + old_len))
        self.edits.append(f"{desc} (offset {orig_start})")
        return True

    def emit(self, phrase: str, orig_start: int, orig_end: int) -> tuple[int, int]:
        start = self.length
        self._tail += phrase
        self.segments.append(Segment(start, self.length, orig_start, orig_end))
        self.pos = orig_end
        self.locked = self.length
        self._freeze()
        return start, self.length


_WORD_SPACE = re.compile(r"\w\s")


def render_document(text: str, decisions: Sequence[Decision], *, readability: bool = True) -> RenderedDocument:
    """The sanitized text of ``text`` for ``decisions`` (one per mention, in text order)."""
    masked = [d for d in decisions if not d.kept]
    units = _units(text, masked, readability)
    b = _Builder(text)
    placed: dict[int, tuple[str, int, int, str]] = {}   # id(decision) → (phrase, start, end, note)
    prev_unit: _Unit | None = None
    pending: tuple[int, str, _Unit] | None = None   # a decade phrase placed later: (original offset, phrase, its unit)
    shown_class: dict[tuple[str, str], str] = {}   # referent (annotated entity, linked item) → class first shown

    def flush(p: tuple[int, str, _Unit]) -> None:
        at, moved, unit = p
        b.copy_to(at)
        s, e = b.emit(" " + moved, at, at)
        # the region is the period ("the 2010s"); "in" joins it to the noun, like an inserted article
        shown = moved.removeprefix("in ").removeprefix("by ")
        for d in unit.decisions:
            placed[id(d)] = (shown, e - len(shown), e, "; ".join(x for x in (d.note, unit.note if d is not unit.head else "") if x))

    for n, u in enumerate(units):
        next_start = units[n + 1].start if n + 1 < len(units) else len(text)
        next_end = units[n + 1].end if n + 1 < len(units) else None
        b.copy_to(u.start)
        head = u.head
        label = MASK if u.shown_as_mask else head.rung
        kind = RungKind.MASK if u.shown_as_mask else head.kind
        end = u.end
        if not readability:
            s, e = b.emit(label, u.start, end)
            for d in u.decisions:
                placed[id(d)] = (label, s, e, d.note)
            prev_unit = u
            continue
        if prev_unit is not None and prev_unit.comma_after and prev_unit.end <= u.start:
            gap = text[prev_unit.end:u.start]
            if not b.endswith(","):
                b.rewrite_tail(b.length - len(gap), "," + gap, "comma between a date and a person")
        if kind is RungKind.CLASS and prev_unit is not None and prev_unit.head.kind is RungKind.CLASS and placed.get(id(prev_unit.head), ("",))[0]:
            m = _OF_GAP.match(text[prev_unit.end:u.start])
            if m:
                cut = b.length - len(m.group(0)) + len(m.group(1))
                b.rewrite_tail(cut, "in" + b.text_from(cut + 2), "'of' → 'in' between two class labels")
        after = text[end:end + 80]
        if label == "X" and head.mention.entity_type is EntityType.QUANTITY and head.original.strip().lower() in MULTIPLICATIVES:
            label, kind = "X times", RungKind.OTHER
        coordinated = _coordinated_modifier(text, kind, b.recent()[1], end, next_start)
        if coordinated is not None:
            # "a [Yugoslav] and later Bosnian footballer" → "a Bosnian footballer"
            base, before = b.recent()
            art = re.search(r"\b(a|an)(\s+)$", before, re.I)
            want = indefinite_article(text[coordinated:coordinated + 40])
            if art and art.group(1).lower() != want:
                b.rewrite_tail(base + art.start(1), _same_case(want, art.group(1)) + art.group(2),
                               f"article '{art.group(1)}' → '{want}' before '{r_next(text, coordinated)}'")
            s, e = b.emit("", u.start, coordinated)
            b.edits.append(f"{kind.value} dropped with '{text[end:coordinated].strip()}' before '{r_next(text, coordinated)}' (offset {u.start})")
            for d in u.decisions:
                placed[id(d)] = ("", s, e, "; ".join(x for x in (d.note, "a modifier coordinated with another: dropped with its conjunction") if x))
            prev_unit = u
            continue
        seasons = None
        if u.collapsed:
            base, before = b.recent()
            m = _RANGE_START.search(before)
            if m:
                word = m.group(0).split()[0]
                seasons = _SEASONS_AFTER.match(text, end) if word.lower() == "between" and m.group(0).rstrip().lower().endswith("the") else None
                new = "during" if seasons else "in"
                new = capitalise(new) if word[0].isupper() else new
                b.rewrite_tail(base + m.start(), new + m.group(0)[len(word):], f"'{word}' → '{new}' before one period")
            if seasons:
                # "between the [1943] and [1949] seasons" → "during the 1940s": the period holds the seasons
                end = seasons.end()
                after = text[end:end + 80]
                b.edits.append(f"'{seasons.group(1)}' dropped after one period (offset {u.start})")
        if kind in (RungKind.DATE_PHRASE, RungKind.DATE) and _SECOND_RANGE.search(text, max(0, u.start - 80), u.start) and _RANGE_AFTER.match(text, end):
            # "from [2007] to [2011] and [2015] to [2020]": two terms; "from the 2000s to the 2010s and
            # the 2010s to the 2020s" reads as one list of periods, "… and from the 2010s to the 2020s" as two terms
            b.rewrite_tail(b.length, "from ", f"'from' inserted before a second range (offset {u.start})")
        if kind is RungKind.PERSON:
            base, before = b.recent()
            former = _FORMER_BEFORE.search(before)
            if former:
                # "lost to former [President John Mahama]": "former PERSON 3" qualifies a title the reader never sees
                b.rewrite_tail(base + former.start(), "", f"'{former.group(0).strip()}' dropped before a person placeholder")
        base, before = b.recent()
        r = render_phrase(label, kind, before, after if not u.comma_after else "," + after)
        keys = _referent_keys(head)
        if kind is RungKind.CLASS and any(shown_class.get(k) == label for k in keys) and r.new_prev is not None and r.phrase == label:
            # the same entity shown by the same class again ("arrived in a country …, and continues to
            # reside in [the US]"): "a country … a country" reads as two; the second is "the same country"
            same = re.sub(r"^(?:an?|An?|AN?)\b", lambda m: "The same" if m.group(0)[0].isupper() else "the same", r.new_prev)
            if same != r.new_prev:
                r = Rendered(r.phrase, r.prev_start, same, f"'{same.strip()}' before a class shown before for the same entity")
        if r.new_prev is not None:
            b.rewrite_tail(base + r.prev_start, r.new_prev, r.note)
        phrase = r.phrase
        own = _own_noun(head, kind, phrase)
        if own is not None:
            # "spent the [1996/97 season] at …": "spent the 1990s" would say a decade; "spent a season in the 1990s"
            base, before = b.recent()
            the = re.search(r"\b(the)(\s+)$", before, re.I)
            if the:
                plural = head_is_plural(own)
                art = "" if plural else indefinite_article(own) + the.group(2)
                art = capitalise(art) if the.group(1)[0].isupper() else art
                b.rewrite_tail(base + the.start(1), art, f"'{the.group(1)}' → '{art.strip()}' before the span's own noun '{own}'")
                phrase = f"{own} in the {phrase}"
                if plural and the.group(1)[0].isupper():
                    phrase = capitalise(phrase)
        if kind is RungKind.MASK and phrase == MASK and _keeps_its_article(head, b.recent()[1], after):
            # "on [The New York Times] Best Seller list" → "on the *** Best Seller list"
            the = "The" if at_sentence_start(b.recent()[1]) else "the"
            b.rewrite_tail(b.length, the + " ", f"'{the}' of the span kept before '***' (offset {u.start})")
        if phrase and at_sentence_start(b.recent()[1]) and phrase[:1].islower():
            phrase = capitalise(phrase)
            b.edits.append(f"capitalised '{r.phrase}' at sentence start (offset {u.start})")
        if r.drop:
            # drop one of the spaces around the vanished modifier
            if text[end:end + 1] in (" ", "\t") and (b.endswith((" ", "\t")) or not b.length):
                end += 1
            b.edits.append(f"{kind.value} dropped before '{r_next(text, end)}' (offset {u.start})")
        later = _decade_after_noun(text, kind, phrase, before, end, next_start, next_end) if readability and not seasons and own is None else None
        moved = f"in the {phrase}"
        if later is None and kind is RungKind.PERSON and r.drop:
            # "the [Roger Corman] science fiction film" → "the science fiction film by PERSON 2"
            work = _work_after(text, end, next_start)
            if work is not None:
                # a title right after the noun ("film [Not of This Earth]") keeps its place: "by" follows it
                at = next_end if next_end is not None and re.fullmatch(r"[ \t]+", text[work:next_start]) else work
                later, moved = (work, end, at, True), f"by {label}"
        if later is not None:
            # "at the [2010s] general election" → "at a general election in the 2010s"
            np_end, gap_end, at, proper = later
            base, before = b.recent()
            the = re.search(r"\b(the)(\s+)$", before, re.I)
            if the and not proper:  # one of the decade's elections, seasons, …: "a general election in the 2010s"
                noun_phrase = text[gap_end:np_end]
                if head_is_plural(noun_phrase):  # "following the [2000s] elections" → "following elections in the 2000s"
                    b.rewrite_tail(base + the.start(1), "", f"'{the.group(1)}' removed before a plural noun phrase dated by a decade")
                else:
                    art = indefinite_article(noun_phrase)
                    art = capitalise(art) if the.group(1)[0].isupper() else art
                    b.rewrite_tail(base + the.start(1), art + the.group(2), f"'{the.group(1)}' → '{art}' before a noun phrase dated by a decade")
            b.emit("", u.start, gap_end)
            b.edits.append(f"'{phrase or label}' moved after '{text[gap_end:at]}' as '{moved}' (offset {u.start})")
            pending = (at, moved, u)
            if at == np_end:
                flush(pending)
                pending = None
        else:
            s, e = b.emit(phrase, u.start, end)
            if kind is RungKind.CLASS and phrase:
                for k in keys:
                    shown_class.setdefault(k, label)
            for d in u.decisions:
                note = "; ".join(x for x in (d.note, u.note if d is not u.head or u.shown_as_mask else "", r.note if r.drop else "") if x)
                placed[id(d)] = (phrase, s, e, note)
        if pending is not None and pending[2] is not u and pending[0] <= b.pos:
            flush(pending)
            pending = None
        prev_unit = u
    if pending is not None:
        flush(pending)
    b.copy_to(len(text))
    out = b.out
    replacements = []
    offsets = OffsetMap(b.segments)
    for d in decisions:
        m = d.mention
        if d.kept:
            s = offsets.new_offset(m.start)
            replacements.append(Replacement(m, d.original, d.original, (), s, s + (m.end - m.start), kept=True, note="; ".join(filter(None, ("NO_MASK", d.note))), rung=d.original))
            continue
        phrase, s, e, note = placed[id(d)]
        replacements.append(Replacement(m, d.original, phrase, d.alternatives, s, e, kept=False, note=note, rung=d.rung))
    return RenderedDocument(out, replacements, b.edits, sorted(b.segments, key=lambda g: g.new_start))


_DECADE = re.compile(r"\d{1,4}0s")
#: A name after a decade: capitalised words, with "de", "of", "and", … between two of them
#: ("World Taekwondo Championships", "Tour de France"); not a placeholder.
_NAME_AFTER = re.compile(
    r"[ \t]+((?!PERSON\b)[A-Z][\w'’.-]*(?:[ \t]+(?:(?:of|de|du|des|la|le|and|for|the|di|del)[ \t]+)?(?!PERSON\b)[A-Z][\w'’.-]*)*)"
)
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z][\w'’-]*)")
_WORD_AT = re.compile(r"([A-Za-z][\w'’-]*)")


def _decade_after_noun(text: str, kind: RungKind, phrase: str, before: str, end: int, limit: int,
                       next_end: int | None = None) -> tuple[int, int, int, bool] | None:
    """A decade in the modifier slot of a definite noun phrase ("the [2010s] general
    election") reads after its noun, the phrase made indefinite ("a general election in
    the 2010s": one of the decade's). Returns (end of the noun phrase, start of its first
    word, where the decade goes) in the original, or None. The noun phrase is the run of
    nouns and adjectives after the date, up to ``limit`` (the next replacement); its last
    word must be able to be a noun. When "of" and the next replacement follow it ("the
    [1984] tour of [Fiji]"), the decade goes after that replacement ("a tour of *** in
    the 1980s"). Before a name ("the [2011] World Taekwondo Championships") the decade
    goes after the name and "the" stays ("the World Taekwondo Championships in the 2010s");
    the last value says so."""
    from engine.render.phrase import is_noun_like, noun_possible

    if kind is not RungKind.DATE_PHRASE or not _DECADE.fullmatch(phrase) or not re.search(r"\bthe\s+$", before, re.I):
        return None
    name = _NAME_AFTER.match(text, end)
    pos, words, last_noun = end, [], None
    if name and name.end() <= limit:
        nxt = _NEXT_WORD.match(text, name.end())
        if not (nxt and nxt.end() <= limit and nxt.group(1)[:1].islower() and noun_possible(nxt.group(1))
                and is_noun_like(nxt.group(1))):
            # "the [2011] World Taekwondo Championships" → "the World Taekwondo Championships in the 2010s"
            return name.end(), name.start(1), name.end(), True
        # a name modifying a noun ("the [2015] NFL season"): one noun phrase, "an NFL season in the 2010s"
        pos = name.end()
    while len(words) < 4:
        m = _NEXT_WORD.match(text, pos)
        if not m or m.end() > limit or not m.group(1)[:1].islower():
            break
        after = _NEXT_WORD.match(text, m.end())
        if not is_noun_like(m.group(1), after.group(1) if after else ""):
            break
        words.append(m)
        pos = m.end()
        if noun_possible(m.group(1)):
            last_noun = m
    if not words or last_noun is None:
        return None
    np_end = last_noun.end()
    at = np_end
    if next_end is not None and re.fullmatch(r"[ \t]+of[ \t]+", text[np_end:limit]):
        at = next_end
    return np_end, (name.start(1) if pos != end and name else words[0].start(1)), at, False


#: Nouns of works a person makes: a person before them reads after them, with "by".
WORK_NOUNS = frozenset(
    "film movie album novel book song play series opera painting story show documentary musical comedy drama "
    "thriller western biopic poem record single production adaptation remake sequel symphony".split()
)


def _work_after(text: str, end: int, limit: int) -> int | None:
    """The end of the noun phrase after a person placeholder in a modifier slot, when its
    head names a work ("[Roger Corman] science fiction film"), else None."""
    from engine.render.phrase import is_noun_like

    pos, last = end, None
    for _ in range(4):
        m = (_NEXT_WORD if text[pos:pos + 1] in " \t" else _WORD_AT).match(text, pos)
        if not m or m.end() > limit or not m.group(1)[:1].islower():
            break
        after = _NEXT_WORD.match(text, m.end())
        if not is_noun_like(m.group(1), after.group(1) if after else ""):
            break
        pos = m.end()
        if m.group(1).lower() in WORK_NOUNS:
            last = m.end()
    return last


def r_next(text: str, pos: int) -> str:
    """The next word of ``text`` from ``pos`` (for edit descriptions)."""
    m = re.match(r"\s*(\S+)", text[pos:])
    return m.group(1) if m else ""


def new_offset(segments: Sequence[Segment], orig: int) -> int:
    """The output offset of original offset ``orig`` outside the changed regions."""
    return OffsetMap(segments).new_offset(orig)


class OffsetMap:
    """:func:`new_offset` for many offsets of one document: segments sorted once, and a
    binary search when they do not overlap (the usual case) — linear in mentions."""

    def __init__(self, segments: Sequence[Segment]) -> None:
        self.segments = sorted(segments, key=lambda g: g.orig_start)
        self.ends = [g.orig_end for g in self.segments]
        self.monotonic = all(a <= b for a, b in zip(self.ends, self.ends[1:]))

    def new_offset(self, orig: int) -> int:
        if self.monotonic:
            i = bisect.bisect_right(self.ends, orig)  # segments[:i] end at or before orig
            if i < len(self.segments) and self.segments[i].orig_start <= orig:
                return self.segments[i].new_start
            return orig + (self.segments[i - 1].new_end - self.segments[i - 1].orig_end if i else 0)
        return _scan_offset(self.segments, orig)


def _scan_offset(segments: Sequence[Segment], orig: int) -> int:
    shift = 0
    for seg in segments:
        if seg.orig_end <= orig:
            shift = seg.new_end - seg.orig_end
        elif seg.orig_start <= orig:
            return seg.new_start
        else:
            break
    return orig + shift



_SEASONS_AFTER = re.compile(r"[ \t]+(seasons|years)\b")
#: Words that qualify a title, not a person: before a placeholder that stands for both they
#: are dropped, with a "the" before them ("lost to former [President John Mahama]" → "lost
#: to PERSON 3"; "met the then-[President Nixon]" → "met PERSON 3").
_FORMER_BEFORE = re.compile(r"(?:(?<=\s)|^)(?:the[ \t]+)?(?:(?:former|outgoing|incumbent)[ \t]+|(?:then|ex)-)$", re.I)
_COORDINATED = re.compile(
    r"[ \t]+(?:and|or)[ \t]+(?:(?:later|then|now|subsequently|formerly|eventually|also)[ \t]+)?"
    r"(?=([A-Za-z][\w'’-]*)[ \t]+([a-z][\w'’-]*))"
)


def _coordinated_modifier(text: str, kind: RungKind, before: str, end: int, limit: int) -> int | None:
    """A mask or class in a modifier slot joined by "and"/"or" to another modifier of one
    noun ("a [Yugoslav] and later Bosnian footballer"): "a *** and later Bosnian
    footballer" reads as two things. Returns where the other modifier starts (the mask,
    its conjunction and adverb are dropped: "a Bosnian footballer"), or None."""
    from engine.render.phrase import _CLOSED, is_noun_like

    if kind not in (RungKind.MASK, RungKind.CLASS) or not re.search(r"\b(?:a|an|the)\s+$", before, re.I):
        return None
    m = _COORDINATED.match(text, end)
    if m is None or m.end() + len(m.group(1)) + 1 + len(m.group(2)) > limit:
        return None
    modifier, noun = m.group(1), m.group(2)
    after = re.match(r"[ \t]+(\S+)", text[m.end() + len(modifier) + 1 + len(noun):])
    if modifier.lower() in _CLOSED or not is_noun_like(noun, after.group(1) if after else ""):
        return None
    return m.end()


def _own_noun(head: Decision, kind: RungKind, phrase: str) -> str | None:
    """The noun that ends a date span itself ("[1996/97 season]", "[2001 and 2002 seasons]"),
    when the span became a bare period after "the": that noun is what the period dates."""
    from engine.render.phrase import noun_possible

    if kind is not RungKind.DATE_PHRASE or not _DECADE_OR_CENTURY.fullmatch(phrase):
        return None
    m = re.search(r"\d\S*[ \t]+([a-z]+)$", head.original.strip())
    if m is None or not noun_possible(m.group(1)):
        return None
    return m.group(1)


_DECADE_OR_CENTURY = re.compile(r"\d{1,4}0s|\d+(?:st|nd|rd|th)[ -]century")


def _keeps_its_article(head: Decision, before: str, after: str) -> bool:
    """A masked span that starts with "The" and modifies what follows ("on [The New York
    Times] Best Seller list"): without its article, "on *** Best Seller list" reads as
    broken English. Not after another determiner, nor before a closed-class word ("the
    film [The Craft] and …")."""
    from engine.render.phrase import _CLOSED

    if not re.match(r"[Tt]he\s", head.original) or _DETERMINER_BEFORE.search(before):
        return False
    m = re.match(r"[ \t]+([A-Za-z][\w'’-]*)", after)
    return bool(m) and m.group(1).lower() not in _CLOSED and m.group(1) != "PERSON"


#: "… from 2007 to 2011 and ": a range, then "and" before the start of another range.
_SECOND_RANGE = re.compile(r"\bfrom\s+[^,;.()]{1,30}?\s+(?:to|until|till|through)\s+[^,;.()]{1,30}?\s+and\s+$", re.I)
_RANGE_AFTER = re.compile(r"\s+(?:to|until|till|through)\s+|\s*[–—-]\s*\d")
