"""What a sanitized document discloses about its subject: constraints with provenance.

A constraint says "the subject has a value of one of ``props`` at or below one of
``anchors``" (anchors as in :mod:`engine.privacy.background`). Which properties a span
speaks about is decided conservatively from its type and the words before it in its
sentence (its *cue*):

=====================  ============================================================
cue (before the span)  properties
=====================  ============================================================
born, b., birth        DATETIME → P569 birth date; LOC → P19 birthplace
died, d., death        DATETIME → P570 death date; LOC → P20 place of death
(1885–1962) after the  DATETIME → P569 before the dash, P570 after it
subject's name
educated, studied …    P69 educated at
member, joined …       P463 member of, P102 party
party                  P102 party
award, prize, won …    P166 award received
elected, appointed …   P39 position held, P106 occupation
buried, interred …     LOC/ORG → P119 burial place (not in the background)
no cue                 LOC/ORG/DEM/MISC → *any* item property (the anchor decides which
                       facts can match); DATETIME → nothing (event dates other than
                       birth and death are not modelled)
=====================  ============================================================

The cue words are ``packs/core/privacy_cues.yaml``; each cue is a registered rule (stage
``guard``, ``birth-cue``, ``death-cue`` …), as are the bracketed life dates and the
nearest cue deciding for a date or a place (``taxogen rules list``). A cue switched off
reads as no cue.

A span read only through a relation the background does not hold (a burial place)
constrains only that relation, so it is listed as uncounted, as a date is on a store
without dates: "interred at a cemetery" does not stand for "some fact of the subject's is
a cemetery", which the store's few persons who died in one would make rare. Where
another cue also matches ("died and was buried in …" for a LOC: the nearest decides),
the cue tables above apply as usual. A cue is read this way only where the relation's
values can be no value of a property the background holds: "played for" is not, since
a university's team is read as the university ("played college baseball for the
University of Michigan" says where the subject studied).

What a rung discloses:

- ``***``, rule placeholders ("PERSON 1", "DATE", "X", "age X", a month) and the
  "nationality" a demonym is generalized to nothing;
- a kept span (original text, NO_MASK) its linked item (exact, alias, normalised or
  demonym links only), a kept date its year, the subject's kept name its name tokens;
- a graph rung its class (``Candidate.qid``); a composed rung ("city in Norway") its
  class and the value it names (Norway);
- a DATETIME rung its year, decade or century ("date in the 1980s" → ``decade:1980``,
  "date in mid-1995" → ``year:1995``); a part of a decade its years ("the mid-1990s" →
  1994, 1995 or 1996); a range ("between the 1980s and the 1990s", "between 1993 and 1994")
  any decade or year in it; a duration, an age or a time of day (rules of
  :data:`engine.generate.sources.datetime.YEARLESS_RULES`) no date.

Spans of other persons and QUANTITY/CODE spans disclose nothing the background holds.
Constraints of NO_MASK spans are *soft*: the annotators judged the span harmless, so
when no person of the store matches it (a common noun such as "murder" or "politics"
linked to its item) it is listed as uncounted instead of emptying the set; every other
constraint that matches nobody gives k = 0 (a rare school or award is exactly what
identifies a person) — except a *class* a rung names ("daily newspaper", "cemetery"):
when no fact of the store reaches it, the store records nothing about such relations
(a sample without employers or burial places), it is listed as uncounted, as a date is
on a store without dates. A kept item, the span's own, always counts.
A wrongly attributed constraint can only shrink the anonymity set, so k stays a lower
bound; a missed one could inflate it — hence cue-less graph spans constrain *any*
property rather than none.

The *kind* of a rung's class (``ontology/entity_types.ttl``, :data:`KIND_PROPS`) narrows
that "any": a film, a novel or a song (a work) can be the value of no property the
background holds but an award (P166: awards are works there), nor can an event, a field
or a language — a person's occupation, citizenship, birthplace, school, memberships,
party, religion, ethnic group, sex and positions are never a film. So "film" for
"Blade" constrains only awards at or below "film", and Wikidata's stray edges (an
occupation filed under "film" or "award") do not turn a film's mention into a rare fact.
A class of another kind, or of no kind, keeps every property.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from kg.vocab import TAXONOMY_PROPS

from engine.generate.linking import fold
from engine.generate.truth_rules import FORMER, MARKER_KINDS
from engine.privacy.background import DATE_PROPS, ITEM_PROPS, NAME, PROPERTY_LABELS, date_anchors, name_tokens
from engine.generate.sources.datetime import YEARLESS_RULES, datetime_rungs
from engine.knowledge import pattern, rule, table
from engine.types import MASK, Candidate, EntityType, LinkMethod

#: Link methods whose item *is* what the span names (contained/approximate links are not).
TRUSTED_LINKS = (LinkMethod.EXACT, LinkMethod.ALIAS, LinkMethod.NORMALISED, LinkMethod.DEMONYM)

#: A cue: the matches of its words in the window before a span (a registered rule), and the
#: properties a span of each entity type after it speaks about.
Cue = tuple[Callable[[str], tuple[re.Match[str], ...]], Mapping[str, tuple[str, ...]]]


def _cue(name: str, entry: str, props: Mapping[str, tuple[str, ...]], purpose: str) -> Cue:
    """The cue rule ``name``: the words of pack entry ``entry`` before a span of a type of ``props``."""
    cue_words = pattern(entry)

    def hits(window: str) -> tuple[re.Match[str], ...]:
        return tuple(cue_words.finditer(window))

    hits.__name__ = hits.__qualname__ = name.replace("-", "_")
    hits.__doc__ = f"Where the words of ``{entry}`` occur in ``window`` (the words before a span): {purpose}."
    return rule(name, stage="guard", types=tuple(props), purpose=purpose, off=())(hits), props


#: The cues, in the order their properties are listed (words: ``packs/core/privacy_cues.yaml``).
_CUES: tuple[Cue, ...] = (
    _cue("birth-cue", "privacy_cues.birth", {"DATETIME": ("P569",), "LOC": ("P19",)},
         'a date after "born", "b." is the birth date, a place the birthplace'),
    _cue("death-cue", "privacy_cues.death", {"DATETIME": ("P570",), "LOC": ("P20",)},
         'a date after "died", "d." is the death date, a place the place of death'),
    _cue("education-cue", "privacy_cues.education", {"ORG": ("P69",), "LOC": ("P69",)},
         'an organisation or place after "studied", "graduated" … is where the subject was educated'),
    _cue("award-cue", "privacy_cues.award", {"MISC": ("P166",), "ORG": ("P166",)},
         'a thing or organisation after "won", "awarded", "prize" … is an award received'),
    _cue("party-cue", "privacy_cues.party", {"ORG": ("P102",)},
         'an organisation after "party" is the subject\'s party'),
    _cue("membership-cue", "privacy_cues.membership", {"ORG": ("P463", "P102")},
         'an organisation after "member", "joined" … is one the subject is a member of, or their party'),
    _cue("position-cue", "privacy_cues.position", {"DEM": ("P39", "P106"), "MISC": ("P39", "P106")},
         'a role after "elected", "appointed", "served as" … is a position held or an occupation'),
    # relations the background does not hold: a span read only through them is listed as uncounted
    _cue("burial-cue", "privacy_cues.burial", {"LOC": ("P119",), "ORG": ("P119",)},
         'a place after "buried", "interred" … is the burial place, which the background does not hold'),
)
#: Properties of the background a class of each kind can be the value of; kinds not listed
#: (places, organisations, structures, person attributes) and classes of no kind: all.
KIND_PROPS: dict[str, tuple[str, ...]] = {
    "kindWork": ("P166",), "kindEvent": (), "kindField": (), "kindLanguage": (),
}
_DECADE = re.compile(r"(-?\d{2,4}0)s\b")
_CENTURY = pattern("date_labels.century")
_PART_OF_DECADE = pattern("periods.part_of_decade_span")
#: The longest range of years whose years are anchors; a longer one anchors its decades.
_MAX_YEARS = 30
_YEAR = re.compile(r"(?<![\d-])(\d{3,4})(?!\d|s)")
_DASH = "–—-"


@dataclass(frozen=True, slots=True)
class Constraint:
    """The subject has a value of one of ``props`` at or below one of ``anchors``.

    Provenance: the span's offsets and type, the rung shown (``rung``) and how it was
    read (``reason``).
    """

    props: tuple[str, ...]
    anchors: tuple[str, ...]
    start: int
    end: int
    entity_type: str
    rung: str
    reason: str
    soft: bool = False  # from a NO_MASK span: not counted when no person of the store matches it
    of_class: bool = False  # the anchor is a class a rung names: not counted when no fact of the store reaches it

    def describe(self) -> str:
        if not self.props:
            return f"nothing the store models about {' or '.join(self.anchors)}"
        names = "/".join(PROPERTY_LABELS.get(p, p) for p in self.props) if len(self.props) <= 3 else "any fact"
        return f"{names} at or below {' or '.join(self.anchors)}"

    def to_dict(self) -> dict:
        return {"props": list(self.props), "anchors": list(self.anchors), "start": self.start, "end": self.end,
                "entity_type": self.entity_type, "rung": self.rung, "reason": self.reason, "soft": self.soft,
                "of_class": self.of_class,
                "describes": self.describe()}


@dataclass(frozen=True, slots=True)
class SpanView:
    """One span as the disclosure rules see it."""

    start: int
    end: int
    entity_type: EntityType
    text: str
    props: tuple[str, ...]
    link_qid: str | None = None
    is_subject: bool = False
    no_mask: bool = False


def cue_props(text: str, start: int, end: int, entity_type: EntityType, sentence_start: int = 0) -> tuple[str, ...]:
    """The properties a span speaks about, from its type and the words before it."""
    kind = entity_type.value
    if entity_type in (EntityType.QUANTITY, EntityType.CODE):
        return ()
    if entity_type is EntityType.PERSON:
        return (NAME,)
    before = text[max(sentence_start, start - 60):start]
    if entity_type is EntityType.DATETIME:
        life_date = life_dates_in_brackets(text, end, before)
        if life_date is not None:
            return life_date
    window = " ".join(before.lower().split()[-6:])
    props: list[str] = []
    nearest: tuple[int, tuple[str, ...]] = (-1, ())
    for cue, by_type in _CUES:
        if kind not in by_type:
            continue
        hits = cue(window)
        if hits:
            props.extend(p for p in by_type[kind] if p not in props)
            if hits[-1].end() > nearest[0]:
                nearest = (hits[-1].end(), by_type[kind])
    if nearest[1] and nearest_life_event_decides(entity_type):
        return nearest[1]  # the nearest life event decides ("born in X, died in Y")
    if props:
        return tuple(props)
    if entity_type.is_graph:
        return ITEM_PROPS
    return ()


@rule("life-dates-in-brackets", stage="guard", types=("DATETIME",),
      purpose='a date in brackets before a dash is the birth date, after one the death date ("(1885–1962)")')
def life_dates_in_brackets(text: str, end: int, before: str) -> tuple[str, ...] | None:
    """The property of a date ending at ``end`` inside an open bracket of ``before`` (the
    text before it) with a dash between it and the other date, or None."""
    paren = before.rfind("(")
    if paren < 0 or ")" in before[paren:]:
        return None
    inside_before = before[paren + 1:].strip()
    after = text[end:end + 40]
    close = after.find(")")
    inside_after = after[: close if close >= 0 else len(after)].strip()
    if inside_before[-1:] and inside_before[-1] in _DASH:
        return ("P570",)
    if inside_after[:1] and inside_after[0] in _DASH:
        return ("P569",)
    return None


@rule("nearest-life-event-decides", stage="guard", types=("DATETIME", "LOC"), off=False,
      purpose='of several cues before a date or place the nearest decides ("born in [X], died in [Y]": Y is the place of death only)')
def nearest_life_event_decides(entity_type: EntityType) -> bool:
    """A span of ``entity_type`` speaks about the nearest cue's properties only."""
    return entity_type in (EntityType.DATETIME, EntityType.LOC)


def date_label_anchors(label: str) -> tuple[str, ...]:
    """Anchors of a DATETIME rung or kept date ("date in the 1980s" → ``decade:1980``): a
    part of a decade its years ("the mid-1990s" → 1994, 1995, 1996), a range of years every
    year in it ("between 1993 and 1995"; a range longer than :data:`_MAX_YEARS` its decades),
    a date of a year that year."""
    low = label.lower()
    part = _PART_OF_DECADE.search(low)
    if part:
        start = int(part.group(2))
        members = table("periods.parts_of_decade")[part.group(1).lower()]
        return tuple(date_anchors(start + int(d))[0] for d in members)
    decades = _DECADE.findall(low)
    if decades:
        return tuple(f"decade:{int(d)}" for d in decades)
    centuries = _CENTURY.findall(low)
    if centuries:
        return tuple(f"century:{int(c)}" for c in centuries)
    years = [int(y) for y in _YEAR.findall(low) if 100 <= int(y) <= 2999]
    if len(years) >= 2 and low.startswith(("between ", "from ")):
        first, last = min(years), max(years)
        if last - first <= _MAX_YEARS:
            return tuple(date_anchors(y)[0] for y in range(first, last + 1))
        return tuple(f"decade:{d}" for d in range(first // 10 * 10, last // 10 * 10 + 1, 10))
    if years:
        return (date_anchors(years[0])[0],)
    return ()


class Discloser:
    """Turns (span, shown rung) into constraints. ``composed``: the overlay's composed rules
    (``ChainIndex.rules.composed``: what a composed rung such as "city in Norway" says);
    ``taxonomy`` and ``index``: the store's classes and names (a composed rung's value, an
    annotator's free label); ``truth``: the truth rules' kinds of class (which facts a class
    can be the value of), ``None`` without them."""

    def __init__(self, composed: Iterable, taxonomy, index, truth=None) -> None:
        self._composed = {r.name: r for r in composed}
        self.taxonomy = taxonomy
        self.index = index
        self.truth = truth

    def constraints(self, view: SpanView, label: str, candidate: Candidate | None = None, *, kept: bool = False) -> tuple[Constraint, ...]:
        """What showing ``label`` (``candidate`` when it came from the ladder) for ``view`` discloses."""
        if not view.props or label == MASK:
            return ()

        def make(props: tuple[str, ...], anchors: tuple[str, ...], reason: str, of_class: bool = False) -> Constraint:
            return Constraint(props, anchors, view.start, view.end, view.entity_type.value, label if not kept else "(kept)", reason,
                              view.no_mask, of_class)

        et = view.entity_type
        if et is EntityType.PERSON:
            if not (kept and view.is_subject):
                return ()
            return tuple(make((NAME,), (tok,), "the subject's name") for tok in name_tokens(label))
        if et is EntityType.DATETIME:
            date_props = tuple(p for p in view.props if p in DATE_PROPS)
            if not date_props:
                return ()
            if kept:
                _, shape = datetime_rungs(label)
                anchors = date_label_anchors(label) if shape not in ("duration", "age", "day-month", "generic") else ()
            elif candidate is not None and candidate.rule in YEARLESS_RULES:
                anchors = ()  # a duration, an age, a time of day: no date
            else:
                anchors = date_label_anchors(label)
            return (make(date_props, anchors, "date rung"),) if anchors else ()
        if not et.is_graph:
            return ()
        if kept:
            return (make(view.props, (view.link_qid,), "kept span, linked item"),) if view.link_qid else ()
        if candidate is not None and candidate.rule == "nationality":
            return ()  # "nationality" for a demonym says that the person has one, not which
        if candidate is not None and candidate.source in TAXONOMY_PROPS:
            if candidate.qid:
                return (make(self.class_props(view.props, candidate.qid), (candidate.qid,), f"class via {candidate.source}", of_class=True),)
            return self._composed_constraints(view, candidate, make)
        qid = self._link_label(label)
        return (make(view.props, (qid,), "free label linked"),) if qid else ()

    def class_props(self, props: tuple[str, ...], qid: str) -> tuple[str, ...]:
        """``props`` narrowed to those a class ``qid`` of its kinds can be the value of (:data:`KIND_PROPS`)."""
        truth = self.truth
        if truth is None:
            return props
        kinds = truth.class_kinds(qid) - MARKER_KINDS - {FORMER}
        if not kinds or not kinds <= KIND_PROPS.keys():
            return props
        allowed = {p for kind in kinds for p in KIND_PROPS[kind]}
        return tuple(p for p in props if p in allowed)

    def _composed_constraints(self, view: SpanView, candidate: Candidate, make) -> tuple[Constraint, ...]:
        rule = self._composed.get(candidate.rule or "")
        if rule is None:
            return ()
        # an unclassed rule's class only says "a place": the store files the item under no class
        out = [] if rule.unclassed else [make(view.props, (rule.applies_to,), f"class of composed rule {rule.name}", of_class=True)]
        tax = self.taxonomy
        low = fold(candidate.label)
        for item in (candidate.link_qid, view.link_qid):
            if not item:
                continue
            for value in tax.values(item, rule.via):
                lab = tax.label(value)
                if lab and fold(lab) in low:
                    out.append(make(view.props, (value,), f"value of composed rule {rule.name} via {rule.via}"))
                    return tuple(out)
        return tuple(out)

    def _link_label(self, label: str) -> str | None:
        hits = self.index.lookup(fold(label))
        return hits[0][0] if hits else None


def trusted_link(ladder) -> str | None:
    """The item a span itself names, when its link is exact (or alias/normalised/demonym)."""
    if ladder is None or not ladder.links:
        return None
    link = ladder.links[0]
    return link.qid if link.method in TRUSTED_LINKS else None
