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

Each decision to merge, or to keep two replacements apart, is a registered rule (stage
``render``; examples in ``packs/core/examples/render.merge.yaml``): switched off, it does not
apply (the two stay apart, or are merged as adjacent replacements are). The gaps they
read ("and", "to", a comma) are ``packs/core/render.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

from engine.knowledge import pattern, rule, words
from engine.render.noun_phrase import ARTICLE_BEFORE, DETERMINER_BEFORE, RANGE_AFTER, RANGE_START, WORK_NOUNS
from engine.render.grains import coarsened_to, grain
from engine.render.phrase import RungKind, count_in, head_is_plural, is_noun_like, kind_of
from engine.generate.sources.datetime import stands_for_a_number
from engine.generate.sources.numbers import is_number_token
from engine.types import GRAPH_TYPES, MASK, Candidate, EntityType, IdentifierType, Mention, ScoredCandidate

#: A span that opens with its own determiner ("the University"): a noun phrase of its own.
_DETERMINER_AT_START = pattern("render.determiner_at_start")
#: Prepositions of time: a date after one is an adverbial of its clause ("In [1994] …").
TIME_PREPOSITIONS = words("render.unknown_date_prepositions")
#: The entity types whose rungs are classes of the graph (the types of the rules on names).
_GRAPH = tuple(t.value for t in GRAPH_TYPES)


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
    if date_beside_a_person_kept_apart(a, b, before):
        return None, True
    if date_before_a_determined_name_kept_apart(a, b):
        return None, True
    if adverbial_date_before_a_name_kept_apart(a, b, before):
        return None, True
    if count_after_a_name_kept_apart(a, b):
        return None, True
    if how_often_after_a_name_kept_apart(a, b, after):
        return None, False
    if count_before_a_name_kept_apart(a, b, after):
        return None, False
    if role_noun_before_a_name_kept_apart(a, b):
        return None, False
    if date_after_a_name_kept_apart(a, b, before):
        return None, False
    if a_date and kb is RungKind.PERSON:
        return Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False
    if ka is RungKind.PERSON and kb is RungKind.PERSON and a.head.rung != b.rung:
        return None, False
    if ka is RungKind.PERSON and kb is not RungKind.PERSON:
        return Unit(a.decisions + [b], a.head, "merged with the adjacent replacement"), False
    return Unit(a.decisions + [b], b, "merged with the adjacent replacement"), False


#: A date that takes "the" itself ("the 1990s", "the summer of 1987"): a "the" before it opens no noun phrase with the name after it.
DATE_WITH_ITS_OWN_ARTICLE = pattern("render.date_with_its_own_article")


@rule("date-beside-a-person-kept-apart", stage="render", types=("DATETIME", "PERSON"), off=False,
      purpose='a date next to a person is kept apart by a comma ("In [2015] [Crystal] …" → "In the 2010s, PERSON 1 …"), unless both sit in one noun phrase')
def date_beside_a_person_kept_apart(a: Unit, b: Decision, before: str) -> bool:
    """``a`` (a unit) and ``b`` right after it are a date and a person outside a noun phrase
    (``before``: the original text before ``a``; "the [1957] [Roger Corman] film" is one)."""
    a_date = a.head.mention.entity_type is EntityType.DATETIME
    b_date = b.mention.entity_type is EntityType.DATETIME
    # "the [1957] [Roger Corman] film"; not "In the [1990s] [Kulenkampff] withdrew", whose "the" is the decade's own
    in_noun_phrase = bool(DETERMINER_BEFORE.search(before)) and not DATE_WITH_ITS_OWN_ARTICLE.match(a.decisions[0].original)
    return ((a_date and b.kind is RungKind.PERSON) or (a.head.kind is RungKind.PERSON and b_date)) and not in_noun_phrase


@rule("date-before-a-determined-name-kept-apart", stage="render", types=("DATETIME",), off=False,
      purpose='a date before a name that opens with its own determiner modifies no part of it: the two are kept apart by a comma ("On [30 June 1996] [the University] decided" → "In the mid-1990s, the university decided")')
def date_before_a_determined_name_kept_apart(a: Unit, b: Decision) -> bool:
    """``a``, a single date, is right before ``b``, a name of the graph whose span opens with
    a determiner ("the University"): a noun phrase of its own, which the date is no modifier of."""
    return (len(a.decisions) == 1 and a.head.mention.entity_type is EntityType.DATETIME
            and b.mention.entity_type.is_graph and bool(_DETERMINER_AT_START.match(b.original)))


@rule("adverbial-date-before-a-name-kept-apart", stage="render", types=("DATETIME",), off=False,
      purpose='a date after a preposition of time is an adverbial, no modifier of the name after it: the two are kept apart by a comma ("In [1994] [Norland] lost" → "In the mid-1990s, a national sports team lost", not "In a national sports team lost")')
def adverbial_date_before_a_name_kept_apart(a: Unit, b: Decision, before: str) -> bool:
    """``a``, a single date right after a preposition of time (``before``: the original text
    before it), is right before ``b``, a name of the graph."""
    m = re.search(r"([A-Za-z]+)\s*$", before)
    return (len(a.decisions) == 1 and a.head.mention.entity_type is EntityType.DATETIME and b.mention.entity_type.is_graph
            and bool(m) and m.group(1).lower() in TIME_PREPOSITIONS)


@rule("date-after-a-name-kept-apart", stage="render", types=("DATETIME",), off=False,
      purpose='a date right after a name says when, not what: the two stay apart ("moved to [Vikstad] [between 2004 and 2006]" → "moved to a town in the mid-2000s", not "moved to the mid-2000s"), unless both sit in one noun phrase ("the [Vikstad] [2004] games")')
def date_after_a_name_kept_apart(a: Unit, b: Decision, before: str) -> bool:
    """``b``, a date, follows ``a``, a name that is no date and no person, outside a noun
    phrase (``before``: the original text before ``a``): the date is an adverbial of the
    clause, and the name's phrase must not take the date's place."""
    a_name = a.head.mention.entity_type not in (EntityType.DATETIME, EntityType.PERSON) and a.head.kind is not RungKind.PERSON
    return a_name and b.mention.entity_type is EntityType.DATETIME and not DETERMINER_BEFORE.search(before)


@rule("count-after-a-name-kept-apart", stage="render", types=("QUANTITY", "DATETIME"), off=False,
      purpose='a count with its unit after a name is a phrase of its own, after a comma ("of [South Vietnam] [nine months] into" → "of ***, X months into")')
def count_after_a_name_kept_apart(a: Unit, b: Decision) -> bool:
    """``b`` is a count with its unit right after a name of the graph."""
    return a.head.mention.entity_type.is_graph and _is_count(b)


@rule("how-often-after-a-name-kept-apart", stage="render", types=("QUANTITY",), off=False,
      purpose='a count of how often after a name stays apart from it ("toured [the United Kingdom] [twice]" → "toured the *** X times", not "toured the X times")')
def how_often_after_a_name_kept_apart(a: Unit, b: Decision, after: str) -> bool:
    """``b`` says how often, right after a name of the graph (``after``: the text after ``b``)."""
    # "got [MNL champion] [2] times", "toured [the United Kingdom] [twice]": the count
    # says how often, the name is the object ("toured the *** X times"); merged, the
    # object vanished ("toured the X times")
    return a.head.mention.entity_type.is_graph and (_is_times_count(b, after) or b.mention.entity_type is EntityType.QUANTITY)


@rule("count-before-a-name-kept-apart", stage="render", types=("QUANTITY",), off=False,
      purpose='a count before a name of the graph stays apart from it: the count is what the phrase says, the name its modifier ("played [67] [Test] matches" → "played fewer than 100 matches", not "played matches")')
def count_before_a_name_kept_apart(a: Unit, b: Decision, after: str) -> bool:
    """``a`` is a count (a QUANTITY with one cardinal number) right before ``b``, a name of
    the graph, and a plural noun follows (``after``: the text after ``b``): merged, the name's
    phrase took the count's place, and a name in a modifier slot is dropped. Not an ordinal
    ("the [24th] [Lieutenant Governor]"), nor a number that names ("No. [609] [Squadron]",
    "the [500] [Deutsche Mark] banknote")."""
    if a.head.mention.entity_type is not EntityType.QUANTITY or not b.mention.entity_type.is_graph:
        return False
    if count_in(a.head.original) is None:
        return False
    nouns = _LOWER_WORDS_AFTER.match(after)
    return nouns is not None and any(head_is_plural(w) for w in nouns.group(1).split())


#: Up to three lower-case words right after a span (the noun a count before it counts).
_LOWER_WORDS_AFTER = re.compile(r"[ \t]+((?:[a-z][\w'’-]*[ \t]+){0,2}[a-z][\w'’-]*)")


@rule("role-noun-before-a-name-kept-apart", stage="render", types=("DEM", "PERSON"), off=False,
      purpose='a role noun before a name stays outside the name ("the Swedish [architect] [Erik Lindqvist]" → "the Swedish *** PERSON 2")')
def role_noun_before_a_name_kept_apart(a: Unit, b: Decision) -> bool:
    """``a`` is a lower-case role noun right before the person ``b`` (a capitalised title is
    part of the name: "[President] [John Mahama]" → "PERSON 1")."""
    return (a.head.mention.entity_type is EntityType.DEM and a.head.kind is not RungKind.PERSON and b.kind is RungKind.PERSON
            and a.head.original[:1].islower())


def _is_count(d: Decision) -> bool:
    """A count with its unit ("X months", "several months", "under 20 km"), not a bare number
    ("[MNL champion] [2] times" stays one phrase) and not a date."""
    if d.mention.entity_type not in (EntityType.QUANTITY, EntityType.DATETIME):
        return False
    if re.match(r"X [a-z]", d.rung):
        return True
    c = d.candidate
    return c is not None and stands_for_a_number(c.source, c.rule) and not is_number_token(d.original.strip())


_TIMES_AFTER = pattern("render.times_after")


def _is_times_count(d: Decision, after: str) -> bool:
    """A bare count before "time(s)" ("[2] times"): a multiplier, not a noun phrase's head."""
    bare = d.rung in ("X", MASK) or is_number_token(d.original.strip())
    return d.mention.entity_type is EntityType.QUANTITY and bare and bool(_TIMES_AFTER.match(after))


@rule("masked-date-in-a-list-of-periods", stage="render", types=("DATETIME",), off=False,
      purpose='a list of dates where one is masked and another a period is shown as one mask ("in the *** and the 2000s" → "in the ***")')
def _masked_in_period_list(a: Unit, d: Decision, gap: str) -> bool:
    """"in the [1990s] and [early 2000s]" where one date is masked and the other a period:
    "in the *** and the 2000s" reads as two kinds of thing; the list is shown as one mask."""
    kinds = {a.head.kind, d.kind}
    return (
        all(x.mention.entity_type is EntityType.DATETIME for x in (a.head, d)) and kinds == {RungKind.MASK, RungKind.DATE_PHRASE}
        and bool(_AND_OR_GAP.match(gap))  # not a bare comma: "On [15 March 2013], [one year] after …" is no list
    )


_AND_OR_GAP = pattern("render.and_or_gap")


_RANGE_GAP = pattern("render.range_gap")
_LIST_GAP = pattern("render.list_gap")
_OPEN_BRACKET = re.compile(r"^[ \t]*\($")


@rule("one-period-for-both-ends-of-a-range", stage="render", types=("DATETIME",), off=False,
      purpose='a range whose two ends became the same period is one period ("from [1991] to [1995]" → "in the 1990s")')
def _same_period(a: Unit, d: Decision, gap: str, before: str) -> bool:
    """"from [A] to [B]" or "between [A] and [B]" where both became the same date phrase."""
    return (
        len(a.decisions) == 1 and a.head.kind is RungKind.DATE_PHRASE and d.kind is RungKind.DATE_PHRASE
        and a.head.rung == d.rung and bool(_RANGE_GAP.match(gap))
        and (bool(RANGE_START.search(before)) or gap.strip() in ("–", "-", "—"))  # "(1804–1806)" → "(the 1800s)"
    )


@rule("one-period-for-a-list", stage="render", types=("DATETIME",), off=False,
      purpose='a list of dates that all became the same period names it once ("in [2011], [2012] and [2013]" → "in the 2010s")')
def _listed_period(a: Unit, d: Decision, gap: str) -> bool:
    """"in [2011], [2012] and [2013]" where every date became the same period: one
    mention of it reads ("in the 2010s"), not "the 2010s, the 2010s and the 2010s"."""
    return (
        a.head.kind is RungKind.DATE_PHRASE and d.kind is RungKind.DATE_PHRASE and a.head.rung == d.rung
        and all(x.rung == d.rung for x in a.decisions) and bool(_LIST_GAP.match(gap))
    )


@rule("bracketed-repeat-shown-once", stage="render", types=_GRAPH, off=False,
      purpose='a name and its abbreviation in brackets that got the same rung are shown once ("*** (***)" → "***")')
def _bracketed_repeat(text: str, a: Unit, d: Decision, gap: str) -> bool:
    """"[Name] ([abbreviation])" where both got the same rung ("*** (***)", "a university
    (university)"): the bracket says nothing new, and is shown once with its name."""
    return (
        a.end <= d.mention.start and bool(_OPEN_BRACKET.match(gap)) and text[d.mention.end:d.mention.end + 1] == ")"
        and a.head.rung == d.rung and a.head.kind in (RungKind.MASK, RungKind.CLASS)
    )


_PLACE_PREPOSITION = pattern("render.place_preposition")


@rule("bracketed-date-twin-shown-once", stage="render", types=("DATETIME",), off=False,
      purpose='a machine-readable date in brackets before the same date in words is shown once ("([1960-05-19])[19 May 1960]" → "(the 1960s)")')
def _bracketed_date_twin(text: str, a: Unit, d: Decision, gap: str) -> bool:
    """"([1960-05-19])[19 May 1960]" (a machine-readable date in brackets before the same
    date in words, as copied from Wikipedia's microformats) where both got the same rung:
    "(the 1960s)the 1960s" says one thing twice; it is shown once, brackets included."""
    return (
        len(a.decisions) == 1 and gap == ")" and a.start > 0 and text[a.start - 1] == "("
        and all(x.mention.entity_type is EntityType.DATETIME for x in (a.head, d)) and a.head.rung == d.rung
    )


@rule("place-and-its-surrounding-place-as-one", stage="render", types=("LOC",), off=False,
      purpose='a place and the place around it, one masked and one a class, are shown as one ("held in [Mersin], [Turkey]" → "held in a country")')
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


@rule("classes-in-a-list-of-masks-shown-as-masks", stage="render", types=_GRAPH, off=False,
      purpose='in a list of three or more masked names, those shown as a class are shown as "***" too ("like a municipality, ***, *** and ***" → "like ***, ***, *** and ***")')
def classes_in_a_list_of_masks(run: Sequence[Unit]) -> bool:
    """``run``, a list of single masked names of one type, mixes ``***`` and classes and has three or more items."""
    return len(run) >= 3 and {u.head.kind for u in run} == {RungKind.MASK, RungKind.CLASS}


def _mixed_lists(text: str, units: list[Unit]) -> None:
    """A list of three or more masked places or organisations ("like [Kathmandu], [Pokhara],
    [Chitwan] and [Lumbini]") where some became ``***`` and others a class: "like a
    municipality, ***, *** and ***" reads as if the class were one more item of another
    kind. The class members are shown as ``***`` (their rung stays in the result)."""
    run: list[Unit] = []

    def close() -> None:
        if classes_in_a_list_of_masks(run):
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


@rule("range-ends-at-one-grain", stage="render", types=("DATETIME",), off=False,
      purpose='the two ends of a date range are shown at one grain, the finer made coarser ("(early 1647 – the late 1710s)" → "(the late 1640s – the late 1710s)")')
def range_ends_at_one_grain(text: str, a: Decision, d: Decision) -> bool:
    """``a`` and ``d``, two dates joined as a range ("from [A] to [B]", "between [A] and [B]",
    "[A]–[B]"), became rungs of different grains."""
    if not all(x.mention.entity_type is EntityType.DATETIME and not x.kept for x in (a, d)) or a.mention.end > d.mention.start:
        return False
    gap = text[a.mention.end:d.mention.start]
    before = text[max(0, a.mention.start - 16):a.mention.start]
    if not _RANGE_GAP.match(gap) or not (RANGE_START.search(before) or gap.strip() in ("–", "-", "—")):
        return False
    ga, gd = grain(a.rung), grain(d.rung)
    return ga is not None and gd is not None and ga[0] != gd[0]


def ranges_at_one_grain(text: str, decisions: Sequence[Decision]) -> list[Decision]:
    """The decisions (in text order) with the finer end of each range of mixed grains made
    coarser (its rung is the coarser one: what the reader sees of it)."""
    out = list(decisions)
    for i in range(len(out) - 1):
        a, d = out[i], out[i + 1]
        if not range_ends_at_one_grain(text, a, d):
            continue
        coarser = max(grain(a.rung)[0], grain(d.rung)[0])  # type: ignore[index]
        for j, x in ((i, a), (i + 1, d)):
            rung = coarsened_to(x.rung, coarser)
            if rung is not None:
                cand = Candidate(rung, source="datetime", level=x.candidate.level if x.candidate is not None else 1)
                note = "; ".join(filter(None, (x.note, f"'{x.rung}' → '{rung}': the other end of its range is that coarse")))
                out[j] = replace(x, rung=rung, candidate=cand, note=note)
    return out


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
        if prev is not None and persons_joined_by_a_dash(text, prev, u):
            out[-1] = Unit(prev.decisions + u.decisions, prev.head, "persons joined by a dash as one modifier")
            continue
        out.append(u)
    return out


@rule("persons-joined-by-a-dash-as-one-modifier", stage="render", types=("PERSON",), off=False,
      purpose='two placeholders joined by a dash between a determiner and a noun are one modifier ("the [Carlow]–[Kilkenny] constituency" → "the constituency")')
def persons_joined_by_a_dash(text: str, prev: Unit, u: Unit) -> bool:
    """``prev`` and ``u``, single person placeholders, are joined by a dash or slash after
    an article and before a noun that is not a work's ("the [Roger Corman] film" reads "by")."""
    if not (
        len(prev.decisions) == 1 and len(u.decisions) == 1
        and prev.head.kind is RungKind.PERSON and u.head.kind is RungKind.PERSON
        and text[prev.end:u.start] in ("–", "-", "/", "—")
        and bool(ARTICLE_BEFORE.search(text[max(0, prev.start - 8):prev.start]))
    ):
        return False
    nxt = re.match(r"[ \t]+([a-z][\w'’-]*)(?:[ \t]+(\S+))?", text[u.end:u.end + 60])
    return bool(nxt) and is_noun_like(nxt.group(1), nxt.group(2) or "") and nxt.group(1).lower() not in WORK_NOUNS


def _dates_listed_before_a_mask(text: str, units: list[Unit]) -> list[Unit]:
    """"won the [1997] and [2002] [Finnish Cup]": the second date merged into the masked name,
    so the list read "won the 1990s and ***" (a period listed with a thing). The dates
    modify the name; the whole noun phrase is shown as one mask ("won the ***")."""
    out: list[Unit] = []
    for u in units:
        prev = out[-1] if out else None
        if prev is not None and dates_listed_before_a_masked_name(text, prev, u):
            out[-1] = Unit(prev.decisions + u.decisions, u.head, "dates listed before a masked name: the phrase shown as one mask")
            continue
        out.append(u)
    return out


@rule("dates-listed-before-a-masked-name", stage="render", types=("DATETIME",), off=False,
      purpose='dates listed before a masked name they modify are shown with it as one mask ("won the [1997] and [2002] [Finnish Cup]" → "won the ***")')
def dates_listed_before_a_masked_name(text: str, prev: Unit, u: Unit) -> bool:
    """``prev``, a single date after a determiner, is listed before ``u``, a date merged into a masked name."""
    return (
        len(prev.decisions) == 1 and prev.head.mention.entity_type is EntityType.DATETIME
        and len(u.decisions) >= 2 and u.decisions[0].mention.entity_type is EntityType.DATETIME
        and u.head.kind is RungKind.MASK and u.head.mention.entity_type.is_graph
        and prev.end <= u.start and bool(_LIST_GAP.match(text[prev.end:u.start]))
        and bool(DETERMINER_BEFORE.search(text[max(0, prev.start - 12):prev.start]))
    )


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
