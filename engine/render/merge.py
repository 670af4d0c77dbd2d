"""Merging neighbouring replacements into the units shown as one phrase each.

Adjacent replacements (only spaces between them in the original) become one unit: two
masks one ``***`` (also across "/" or a dash: "***/***"); a title before a person
("[President] [John Mahama]" → "position PERSON 3") becomes the person; otherwise the last
one, the head of the phrase, stands for both ("[2002] [Gujarat riots]" → "state of
India", "[DATE] [***]" → "***"). A date before or after a person is kept, separated by a
comma ("In 2015 Crystal …" → "In the 2010s, PERSON 1 …"), unless both sit in one noun
phrase ("the [1957] [Roger Corman] film" → "the PERSON 2 film"). A season's two-digit
year joins the date before it ("[1998]–[99]"), and "from [the 1990s] to (or through)
[the 1990s]" reads "in the 1990s" ("(1804–1806)": "(the 1800s)"). Lists and appositions
of the same thing are shown once (see the predicates below).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from engine.render.noun_phrase import DETERMINER_BEFORE, RANGE_AFTER, RANGE_START, WORK_NOUNS
from engine.render.phrase import RungKind, is_noun_like, kind_of
from engine.types import MASK, Candidate, EntityType, IdentifierType, Mention, ScoredCandidate


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
    #: the item the span itself names (an exact, alias, normalised or demonym link), when known:
    #: two mentions naming one item are one referent ("the same country")
    referent: str | None = None

    @property
    def kept(self) -> bool:
        """A NO_MASK mention the guard left alone: its original text stays."""
        return self.mention.identifier_type is IdentifierType.NO_MASK and not self.forced

    @property
    def kind(self) -> RungKind:
        """What kind of phrase the chosen rung is (mask, class, date phrase, person, …)."""
        return kind_of(self.rung, self.candidate, self.mention.entity_type.value)


@dataclass
class Unit:
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
        """Where the unit starts in the original text."""
        return self.decisions[0].mention.start if self.lead_start is None else self.lead_start

    @property
    def end(self) -> int:
        """Where the unit ends in the original text."""
        return max(self.decisions[-1].mention.end, self.tail_end)


def _merge(a: Unit, b: Decision, before: str = "", after: str = "") -> tuple[Unit | None, bool]:
    """``a`` and ``b`` as one unit (or None to keep them apart) and whether a comma separates
    them; ``before`` is the original text before ``a``, ``after`` the text after ``b``."""
    ka, kb = a.head.kind, b.kind
    a_date = a.head.mention.entity_type is EntityType.DATETIME
    b_date = b.mention.entity_type is EntityType.DATETIME
    in_noun_phrase = bool(DETERMINER_BEFORE.search(before))  # "the [1957] [Roger Corman] film"
    if ((a_date and kb is RungKind.PERSON) or (ka is RungKind.PERSON and b_date)) and not in_noun_phrase:
        return None, True
    if a.head.mention.entity_type.is_graph and _is_count(b):
        # "the collapse of [South Vietnam] [nine months] into …": two phrases, "of ***, X months into …"
        return None, True
    if a.head.mention.entity_type.is_graph and (_is_times_count(b, after) or b.mention.entity_type is EntityType.QUANTITY):
        # "got [MNL champion] [2] times", "toured [the United Kingdom] [twice]": the count
        # says how often, the name is the object ("toured the *** X times"); merged, the
        # object vanished ("toured the X times")
        return None, False
    if a.head.mention.entity_type is EntityType.DEM and ka is not RungKind.PERSON and kb is RungKind.PERSON \
            and a.head.original[:1].islower():
        # "the Swedish [architect] [Erik Lindqvist]": a role noun before a name stays outside
        # the name ("the Swedish *** PERSON 2", not "the PERSON 2"); a capitalised title is
        # part of the name ("[President] [John Mahama]" → "PERSON 1")
        return None, False
    if a_date and kb is RungKind.PERSON:
        return Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False
    if ka is RungKind.PERSON and kb is RungKind.PERSON and a.head.rung != b.rung:
        return None, False
    if ka is RungKind.PERSON and kb is not RungKind.PERSON:
        return Unit(a.decisions + [b], a.head, "merged with the adjacent replacement"), False
    return Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False


def _is_count(d: Decision) -> bool:
    """A count with its unit ("X months", "X km"), not a bare number ("[MNL champion] [2]
    times" stays one phrase) and not a date."""
    return d.mention.entity_type in (EntityType.QUANTITY, EntityType.DATETIME) and bool(re.match(r"X [a-z]", d.rung))


_TIMES_AFTER = re.compile(r"^[ \t]+times?\b")


def _is_times_count(d: Decision, after: str) -> bool:
    """A bare count before "time(s)" ("[2] times"): a multiplier, not a noun phrase's head."""
    return d.mention.entity_type is EntityType.QUANTITY and d.rung in ("X", MASK) and bool(_TIMES_AFTER.match(after))


def _masked_in_period_list(a: Unit, d: Decision, gap: str) -> bool:
    """"in the [1990s] and [early 2000s]" where one date is masked and the other a period:
    "in the *** and the 2000s" reads as two kinds of thing; the list is shown as one mask."""
    kinds = {a.head.kind, d.kind}
    return (
        all(x.mention.entity_type is EntityType.DATETIME for x in (a.head, d)) and kinds == {RungKind.MASK, RungKind.DATE_PHRASE}
        and bool(_AND_OR_GAP.match(gap))  # not a bare comma: "On [15 March 2013], [one year] after …" is no list
    )


_AND_OR_GAP = re.compile(r"^\s*,?\s*(?:and|or)\s*$")


_RANGE_GAP = re.compile(r"^\s*(?:to|until|till|through|thru|and|–|-|—)\s*$")
_LIST_GAP = re.compile(r"^\s*(?:,|,?\s*and|,?\s*or)\s*$")
_OPEN_BRACKET = re.compile(r"^[ \t]*\($")


def _same_period(a: Unit, d: Decision, gap: str, before: str) -> bool:
    """"from [A] to [B]" or "between [A] and [B]" where both became the same date phrase."""
    return (
        len(a.decisions) == 1 and a.head.kind is RungKind.DATE_PHRASE and d.kind is RungKind.DATE_PHRASE
        and a.head.rung == d.rung and bool(_RANGE_GAP.match(gap))
        and (bool(RANGE_START.search(before)) or gap.strip() in ("–", "-", "—"))  # "(1804–1806)" → "(the 1800s)"
    )


def _listed_period(a: Unit, d: Decision, gap: str) -> bool:
    """"in [2011], [2012] and [2013]" where every date became the same period: one
    mention of it reads ("in the 2010s"), not "the 2010s, the 2010s and the 2010s"."""
    return (
        a.head.kind is RungKind.DATE_PHRASE and d.kind is RungKind.DATE_PHRASE and a.head.rung == d.rung
        and all(x.rung == d.rung for x in a.decisions) and bool(_LIST_GAP.match(gap))
    )


def _bracketed_repeat(text: str, a: Unit, d: Decision, gap: str) -> bool:
    """"[Name] ([abbreviation])" where both got the same rung ("*** (***)", "a university
    (university)"): the bracket says nothing new, and is shown once with its name."""
    return (
        a.end <= d.mention.start and bool(_OPEN_BRACKET.match(gap)) and text[d.mention.end:d.mention.end + 1] == ")"
        and a.head.rung == d.rung and a.head.kind in (RungKind.MASK, RungKind.CLASS)
    )


_PLACE_PREPOSITION = re.compile(r"\b(?:in|at|from|near|to|into|across|throughout|of)\s+$", re.I)


def _bracketed_date_twin(text: str, a: Unit, d: Decision, gap: str) -> bool:
    """"([1960-05-19])[19 May 1960]" (a machine-readable date in brackets before the same
    date in words, as copied from Wikipedia's microformats) where both got the same rung:
    "(the 1960s)the 1960s" says one thing twice; it is shown once, brackets included."""
    return (
        len(a.decisions) == 1 and gap == ")" and a.start > 0 and text[a.start - 1] == "("
        and all(x.mention.entity_type is EntityType.DATETIME for x in (a.head, d)) and a.head.rung == d.rung
    )


def _place_apposition(a: Unit, d: Decision, gap: str) -> bool:
    """"[Mersin], [Turkey]" (or "[Austria], [Vienna]"), where one place became ``***`` and
    the other a class: "held in ***, a country" reads as two places. The pair is one place:
    after a preposition it is shown by its class ("held in a country", true of both
    together); elsewhere ("Trinity College, [Kandy], [Sri Lanka]") as one ``***``."""
    pair = (a.head, d)
    return (
        len(a.decisions) == 1 and gap == ", " and all(x.mention.entity_type is EntityType.LOC for x in pair)
        and {x.kind for x in pair} == {RungKind.MASK, RungKind.CLASS}
    )


def _in_list(text: str, units: list[Unit], masked: Sequence[Decision], i: int) -> bool:
    """Whether the pair ``units[-1]``, ``masked[i]`` sits in a longer list of masked
    mentions ("like [Kathmandu], [Pokhara], [Chitwan] and …"), not an apposition."""
    nxt = masked[i + 1] if i + 1 < len(masked) else None
    prev = units[-2] if len(units) >= 2 else None
    return bool(
        (nxt is not None and _LIST_GAP.match(text[masked[i].mention.end:nxt.mention.start]))
        or (prev is not None and prev.end <= units[-1].start and _LIST_GAP.match(text[prev.end:units[-1].start]))
    )


def _mixed_lists(text: str, units: list[Unit]) -> None:
    """A list of three or more masked places or organisations ("like [Kathmandu], [Pokhara],
    [Chitwan] and [Lumbini]") where some became ``***`` and others a class: "like a
    municipality, ***, *** and ***" reads as if the class were one more item of another
    kind. The class members are shown as ``***`` (their rung stays in the result)."""
    run: list[Unit] = []

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


def merge_units(text: str, masked: Sequence[Decision], readability: bool) -> list[Unit]:
    """The masked decisions of ``text`` (in text order) grouped into the units shown as one
    phrase each; without ``readability`` each decision is a unit of its own."""
    units = _unit_run(text, masked, readability)
    if readability:
        units = _dates_listed_before_a_mask(text, units)
        units = _persons_joined_as_a_modifier(text, units)
        _mixed_lists(text, units)
    return units


def _persons_joined_as_a_modifier(text: str, units: list[Unit]) -> list[Unit]:
    """"the [Carlow]–[Kilkenny] constituency": two placeholders joined by a dash or slash
    between a determiner and a noun ("the PERSON 2–PERSON 3 constituency") are one modifier;
    they are joined into one unit, which the phrase rules drop like any person placeholder
    in a modifier slot ("the constituency")."""
    out: list[Unit] = []
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
                out[-1] = Unit(prev.decisions + u.decisions, prev.head, "persons joined by a dash as one modifier")
                continue
        out.append(u)
    return out


def _dates_listed_before_a_mask(text: str, units: list[Unit]) -> list[Unit]:
    """"won the [1997] and [2002] [Finnish Cup]": the second date merged into the masked name,
    so the list read "won the 1990s and ***" (a period listed with a thing). The dates
    modify the name; the whole noun phrase is shown as one mask ("won the ***")."""
    out: list[Unit] = []
    for u in units:
        prev = out[-1] if out else None
        if (
            prev is not None and len(prev.decisions) == 1 and prev.head.mention.entity_type is EntityType.DATETIME
            and len(u.decisions) >= 2 and u.decisions[0].mention.entity_type is EntityType.DATETIME
            and u.head.kind is RungKind.MASK and u.head.mention.entity_type.is_graph
            and prev.end <= u.start and bool(_LIST_GAP.match(text[prev.end:u.start]))
            and bool(DETERMINER_BEFORE.search(text[max(0, prev.start - 12):prev.start]))
        ):
            out[-1] = Unit(prev.decisions + u.decisions, u.head, "dates listed before a masked name: the phrase shown as one mask")
            continue
        out.append(u)
    return out


def _unit_run(text: str, masked: Sequence[Decision], readability: bool) -> list[Unit]:
    units: list[Unit] = []
    for i, d in enumerate(masked):
        gap = text[units[-1].end:d.mention.start] if units else ""
        if readability and units and _same_period(units[-1], d, gap, text[max(0, units[-1].start - 16):units[-1].start]):
            units[-1] = Unit(units[-1].decisions + [d], units[-1].head, "one period on both ends of a range", collapsed=True)
            continue
        if readability and units and _listed_period(units[-1], d, gap) and not RANGE_AFTER.match(text, d.mention.end):
            u = units[-1]
            units[-1] = Unit(u.decisions + [d], u.head, "one period repeated in a list: shown once", collapsed=u.collapsed)
            continue
        if readability and units and units[-1].end <= d.mention.start and _masked_in_period_list(units[-1], d, gap):
            u = units[-1]
            head = u.head if u.head.kind is RungKind.MASK else d
            units[-1] = Unit(u.decisions + [d], head, "a masked date in a list of periods: the list shown as one mask")
            continue
        if readability and units and _bracketed_date_twin(text, units[-1], d, gap):
            u = units[-1]
            units[-1] = Unit(u.decisions + [d], d, "the same date in brackets before it, shown once", lead_start=u.start - 1)
            continue
        if readability and units and _place_apposition(units[-1], d, gap) and not _in_list(text, units, masked, i):
            u = units[-1]
            by_class = bool(_PLACE_PREPOSITION.search(text[max(0, u.start - 16):u.start]))
            head = u.head if (u.head.kind is RungKind.CLASS) == by_class else d
            units[-1] = Unit(u.decisions + [d], head, "a place and the place around it: shown as one "
                              + ("class" if by_class else "mask"))
            continue
        if readability and units and _bracketed_repeat(text, units[-1], d, gap):
            u = units[-1]
            units[-1] = Unit(u.decisions + [d], u.head, "the same replacement in brackets after its name: shown once",
                              tail_end=d.mention.end + 1)
            continue
        both_masks = bool(units) and units[-1].head.rung == MASK and d.rung == MASK
        both_dates = bool(units) and all(x.mention.entity_type is EntityType.DATETIME for x in (units[-1].head, d))
        both_dates = both_dates and d.original.isdigit() and len(d.original) <= 2  # a season "[1998]–[99]", not "(1885–1962)"
        if readability and units and units[-1].end <= d.mention.start and gap.strip() and gap.strip() in "/-–" and both_dates:
            units[-1] = Unit(units[-1].decisions + [d], units[-1].head, "merged with the adjacent date")  # "[1998]–[99]"
            continue
        if readability and units and units[-1].end <= d.mention.start and (not gap.strip() or (both_masks and gap.strip() in "/-–")):
            merged, comma = _merge(units[-1], d, text[max(0, units[-1].start - 20):units[-1].start], text[d.mention.end:d.mention.end + 12])
            if merged is not None:
                units[-1] = merged
                continue
            units[-1].comma_after = comma
        units.append(Unit([d], d))
    return units
