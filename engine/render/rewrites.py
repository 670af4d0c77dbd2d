"""English rewrites around each rendered phrase, as named rules applied in order.

:func:`engine.render.document.render_document` lays the units of
:mod:`engine.render.merge` into the text left to right. For each unit (with readability
on) every rule of :data:`RULES` runs in its order on a :class:`SpanState` — what has been
decided about the unit so far — and the :class:`OutputState` shared by the document
(the :class:`engine.render.builder.TextBuilder`, where each mention was placed, the
classes shown so far). A rule may rewrite the output just before the span, change the
span's phrase or end, or write the span; it returns True when it has written the span,
and the rules after it do not run. The last rule always writes it.

Every rule but the last is registered (:func:`engine.knowledge.rule`, stage ``render``;
examples in ``packs/core/examples/render.rewrites.yaml``): switched off, it returns False
without running — it does not apply, and the text is written all the same (off, the rule
that fits the phrase to its slot leaves the rung as it is). The last, which writes the
span, is no rule one can switch off. The words the rules look for are
``packs/core/render.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from engine.knowledge import pattern, rule, words
from engine.render.builder import TextBuilder
from engine.render.merge import Decision, Unit
from engine.render.noun_phrase import (
    RANGE_AFTER,
    RANGE_START,
    THE_BEFORE,
    coordinated_modifier,
    decade_after_noun,
    parse_says_the_span_heads_its_phrase,
    keeps_its_article,
    own_noun,
    r_next,
    work_after,
)
from engine.render.phrase import (
    Rendered, RungKind, count_in, head_is_plural, indefinite_article, names_several, plural_looking_name, plural_of, render_phrase,
    same_case, singular_of,
)
from engine.render.readability import at_sentence_start, capitalise
from engine.types import GRAPH_TYPES, MASK, EntityType

#: Multiplicative adverbs: their count reads "X times" ("title twice" → "title X times", not "title X").
MULTIPLICATIVES = words("render.multiplicatives")

_OF_GAP = pattern("render.of_gap")
#: "time(s)" after a count ("[3] times").
_TIMES_AFTER = pattern("render.times_after")
#: A plural noun a range dates, right after it ("seasons", "years").
_SEASONS_AFTER = pattern("render.range_nouns_after")
#: Words that qualify a title, not a person: before a placeholder that stands for both they
#: are dropped, with a "the" before them ("lost to former [President John Mahama]" → "lost
#: to PERSON 3"; "met the then-[President Nixon]" → "met PERSON 3").
_FORMER_BEFORE = pattern("render.former_before")
#: "… from 2007 to 2011 and ": a range, then "and" before the start of another range.
_SECOND_RANGE = pattern("render.second_range")
#: An indefinite article right before a span (the article and the space after it as groups).
_INDEFINITE_BEFORE = pattern("render.indefinite_article_before")
#: An indefinite article at the start of the words before a class.
_INDEFINITE_AT_START = pattern("render.indefinite_article_at_start")

#: Where a mention was placed: (phrase shown, output start, output end, note).
Placement = tuple[str, int, int, str]


@dataclass
class OutputState:
    """What the rules share across one document while its output is built."""

    text: str
    builder: TextBuilder
    #: the spaCy parse of ``text`` (a raw text's, from detection), or None
    parse: object = None
    #: id(decision) → where its mention was placed
    placed: dict[int, Placement] = field(default_factory=dict)
    #: referent (annotated entity, linked item) → the class first shown for it
    shown_class: dict[tuple[str, str], str] = field(default_factory=dict)
    prev_unit: Unit | None = None
    #: a phrase placed later in the text: (original offset, phrase, its unit)
    pending: tuple[int, str, Unit] | None = None

    def heads_its_phrase(self, span: "SpanState") -> bool | None:
        """Whether the parse says ``span`` modifies no word after it (None: no parse)."""
        return parse_says_the_span_heads_its_phrase(self.parse, span.unit.start, span.end)

    def flush(self) -> None:
        """Write the pending phrase at its original offset ("a general election in the 2010s")."""
        assert self.pending is not None
        at, moved, unit = self.pending
        self.pending = None
        b = self.builder
        b.copy_to(at)
        s, e = b.emit(" " + moved, at, at)
        # the region is the period ("the 2010s"); "in" joins it to the noun, like an inserted article
        shown = moved.removeprefix("in ").removeprefix("by ")
        for d in unit.decisions:
            self.placed[id(d)] = (shown, e - len(shown), e, "; ".join(x for x in (d.note, unit.note if d is not unit.head else "") if x))

    def flush_if_passed(self, unit: Unit) -> None:
        """Write the pending phrase of an earlier unit once the output has reached its place."""
        if self.pending is not None and self.pending[2] is not unit and self.pending[0] <= self.builder.pos:
            self.flush()


@dataclass
class SpanState:
    """One unit being rendered: what the rules have decided about it so far."""

    unit: Unit
    label: str                 # the rung shown ("***" for a class shown as a mask)
    kind: RungKind
    end: int                   # where the span ends in the original (a rule may extend it)
    next_start: int            # where the next unit starts (or the text's end)
    next_end: int | None       # where the next unit ends (None after the last)
    after: str                 # original text after the span (80 characters)
    seasons: re.Match[str] | None = None   # "seasons"/"years" after one period of a range
    slot_base: int = 0         # output offset of ``slot_before``
    slot_before: str = ""      # recent output when the phrase was fitted to its slot
    #: the phrase fitted to its slot (the label as it is until a rule fits it)
    rendered: Rendered = None  # type: ignore[assignment]
    keys: tuple[tuple[str, str], ...] = ()   # what the span refers to (see _referent_keys)
    phrase: str = None         # type: ignore[assignment]  # the phrase to write (the label until fitted)
    own: str | None = None     # the date span's own noun ("season")
    later: tuple[int, int, int, bool] | None = None   # the phrase moves: (noun phrase end, its start, where, proper)
    moved: str = ""            # the moved phrase ("in the 2010s", "by PERSON 2")

    def __post_init__(self) -> None:
        if self.rendered is None:
            self.rendered = Rendered(self.label)
        if self.phrase is None:
            self.phrase = self.label
        if not self.keys:
            self.keys = _referent_keys(self.unit.head)


Rule = Callable[[OutputState, SpanState], bool]
#: The entity types whose rungs are classes of the graph (the types of the rules on classes).
_GRAPH = tuple(t.value for t in GRAPH_TYPES)


def _referent_keys(d: Decision) -> tuple[tuple[str, str], ...]:
    """What a mention refers to, as far as rendering knows: the input's entity id, and the
    item the span itself names (:attr:`Decision.referent`; not an item a part of the span or
    its head noun links to: two theatres, two songs, two clubs linked through a shared word
    are not one)."""
    keys = []
    if d.mention.entity_id:
        keys.append(("entity", d.mention.entity_id))
    if d.referent:
        keys.append(("item", d.referent))
    return tuple(keys)


@rule("comma-after-a-kept-apart-neighbour", stage="render", types=(), off=False,
      purpose='a comma between two adjacent replacements kept apart ("In [2015] [Crystal] …" → "In the 2010s, PERSON 1 …")')
def comma_after_a_kept_apart_neighbour(doc: OutputState, span: SpanState) -> bool:
    """A comma between two adjacent replacements kept apart by merging: a date and a person
    ("In 2015 Crystal …" → "In the 2010s, PERSON 1 …"), a place and a count ("of ***, X
    months into …")."""
    prev, u, b = doc.prev_unit, span.unit, doc.builder
    if prev is not None and prev.comma_after and prev.end <= u.start:
        gap = doc.text[prev.end:u.start]
        if not b.endswith(","):
            b.rewrite_tail(b.length - len(gap), "," + gap, "comma between a date and a person")
    return False


@rule("in-between-class-labels", stage="render", types=_GRAPH, off=False,
      purpose='two class labels joined by "of" read with "in" ("a baseball team of a sports league" → "… in a sports league")')
def in_between_class_labels(doc: OutputState, span: SpanState) -> bool:
    """Two class labels joined by "of" read with "in" ("a baseball team of a sports league"
    → "a baseball team in a sports league")."""
    prev, u, b = doc.prev_unit, span.unit, doc.builder
    if span.kind is RungKind.CLASS and prev is not None and prev.head.kind is RungKind.CLASS and doc.placed.get(id(prev.head), ("",))[0]:
        m = _OF_GAP.match(doc.text[prev.end:u.start])
        if m:
            cut = b.length - len(m.group(0)) + len(m.group(1))
            b.rewrite_tail(cut, "in" + b.text_from(cut + 2), "'of' → 'in' between two class labels")
    return False


@rule("multiplicative-as-times", stage="render", types=("QUANTITY",), off=False,
      purpose='a count written as a multiplicative adverb, or a count before "times", is one phrase "X times" ("won the title twice" → "won the title more than once")')
def multiplicative_as_times(doc: OutputState, span: SpanState) -> bool:
    """A count written as a multiplicative adverb reads "X times" ("won the title twice" →
    "won the title X times", not "won the title X")."""
    head = span.unit.head
    if span.label != "X" or head.mention.entity_type is not EntityType.QUANTITY:
        return False
    times = _TIMES_AFTER.match(span.after)
    if head.original.strip().lower() in MULTIPLICATIVES:
        pass
    elif times and span.end + times.end() <= span.next_start and (count_in(head.original) or 0) >= 2:
        span.end += times.end()  # "[3] times": the count and its noun are one phrase ("more than once")
        span.after = doc.text[span.end:span.end + 80]
    else:
        return False
    span.label, span.kind = "X times", RungKind.OTHER
    span.rendered, span.phrase = Rendered(span.label), span.label
    return False


@rule("coordinated-modifier-dropped", stage="render", types=_GRAPH, off=False,
      purpose='a mask or class coordinated with another modifier of one noun is dropped with its conjunction ("a [Yugoslav] and later Bosnian footballer" → "a Bosnian footballer")')
def coordinated_modifier_dropped(doc: OutputState, span: SpanState) -> bool:
    """A mask or class coordinated with another modifier of one noun is dropped with its
    conjunction ("a [Yugoslav] and later Bosnian footballer" → "a Bosnian footballer"),
    the article fitted to the word now after it. Writes the span."""
    text, b, u = doc.text, doc.builder, span.unit
    coordinated = coordinated_modifier(text, span.kind, b.recent()[1], span.end, span.next_start)
    if coordinated is None or doc.heads_its_phrase(span):
        return False
    base, before = b.recent()
    art = _INDEFINITE_BEFORE.search(before)
    want = indefinite_article(text[coordinated:coordinated + 40])
    if art and art.group(1).lower() != want:
        b.rewrite_tail(base + art.start(1), same_case(want, art.group(1)) + art.group(2),
                       f"article '{art.group(1)}' → '{want}' before '{r_next(text, coordinated)}'")
    s, e = b.emit("", u.start, coordinated)
    b.edits.append(f"{span.kind.value} dropped with '{text[span.end:coordinated].strip()}' before '{r_next(text, coordinated)}' (offset {u.start})")
    for d in u.decisions:
        doc.placed[id(d)] = ("", s, e, "; ".join(x for x in (d.note, "a modifier coordinated with another: dropped with its conjunction") if x))
    return True


@rule("one-period-for-a-range", stage="render", types=("DATETIME",), off=False,
      purpose='a range whose ends became one period reads "in"/"during" it ("from [1991] to [1995]" → "in the 1990s")')
def one_period_for_a_range(doc: OutputState, span: SpanState) -> bool:
    """A range whose ends became one period reads as that period: "from [1991] to [1995]"
    → "in the 1990s"; "between the [1943] and [1949] seasons" → "during the 1940s" (the
    period holds the seasons; "seasons" is dropped)."""
    if not span.unit.collapsed:
        return False
    text, b, u = doc.text, doc.builder, span.unit
    seasons = None
    base, before = b.recent()
    m = RANGE_START.search(before)
    if m:
        word = m.group(0).split()[0]
        seasons = _SEASONS_AFTER.match(text, span.end) if word.lower() == "between" and m.group(0).rstrip().lower().endswith("the") else None
        new = "during" if seasons else "in"
        new = capitalise(new) if word[0].isupper() else new
        b.rewrite_tail(base + m.start(), new + m.group(0)[len(word):], f"'{word}' → '{new}' before one period")
    if seasons:
        span.end = seasons.end()
        span.after = text[span.end:span.end + 80]
        b.edits.append(f"'{seasons.group(1)}' dropped after one period (offset {u.start})")
    span.seasons = seasons
    return False


@rule("from-before-a-second-range", stage="render", types=("DATETIME",), off=False,
      purpose='"from" is inserted before a second range of periods ("… and from the 2010s to the 2020s")')
def from_before_a_second_range(doc: OutputState, span: SpanState) -> bool:
    """"from [2007] to [2011] and [2015] to [2020]": two terms. "from the 2000s to the 2010s
    and the 2010s to the 2020s" reads as one list of periods; "from" is inserted before the
    second range ("… and from the 2010s to the 2020s")."""
    text, u = doc.text, span.unit
    if span.kind in (RungKind.DATE_PHRASE, RungKind.DATE) and _SECOND_RANGE.search(text, max(0, u.start - 80), u.start) and RANGE_AFTER.match(text, span.end):
        doc.builder.rewrite_tail(doc.builder.length, "from ", f"'from' inserted before a second range (offset {u.start})")
    return False


@rule("title-qualifier-before-a-person-dropped", stage="render", types=("PERSON",), off=False,
      purpose='a word qualifying a title ("former", "then-") before a person placeholder is dropped ("lost to former PERSON 3" → "lost to PERSON 3")')
def title_qualifier_before_a_person_dropped(doc: OutputState, span: SpanState) -> bool:
    """"lost to former [President John Mahama]": "former PERSON 3" qualifies a title the
    reader never sees; "former", "outgoing", "then-", … (with a "the" before) are dropped."""
    if span.kind is RungKind.PERSON:
        b = doc.builder
        base, before = b.recent()
        former = _FORMER_BEFORE.search(before)
        if former:
            b.rewrite_tail(base + former.start(), "", f"'{former.group(0).strip()}' dropped before a person placeholder")
    return False


@rule("class-named-in-the-plural-read-in-the-singular", stage="render", types=(EntityType.LOC, EntityType.ORG), off=False,
      purpose='a class whose label is plural ("countries bordering the Baltic Sea"), shown for one named place or organisation, reads in the singular ("in [Poland]" → "in a country bordering the Baltic Sea", not "in countries bordering the Baltic Sea")')
def class_named_in_the_plural_read_in_the_singular(doc: OutputState, span: SpanState) -> bool:
    """Wikidata names some classes in the plural; one name is one of them. Not for a name
    that is plural itself ("the Faroe Islands")."""
    original = span.unit.head.original.strip()
    if span.kind is RungKind.CLASS and span.unit.head.mention.entity_type in (EntityType.LOC, EntityType.ORG) \
            and original[:1].isupper() and not plural_looking_name(original):
        span.label = singular_of(span.label)  # unchanged when its head is singular
    return False


@rule("phrase-fitted-to-its-slot", stage="render", types=(), off=False,
      purpose='the rung is fitted to its slot by the phrase rules (engine.render.phrase); off, the rung stands as it is')
def phrase_fitted_to_its_slot(doc: OutputState, span: SpanState) -> bool:
    """The phrase rendered for its slot (:func:`engine.render.phrase.render_phrase`): date
    phrases, articles, modifiers dropped; the words before it may change with it."""
    span.slot_base, span.slot_before = doc.builder.recent()
    after = span.after if not span.unit.comma_after else "," + span.after
    original = span.unit.head.original.strip()
    own_head = original[:1].islower() and (" " + original.lower()).endswith(" " + span.label.lower())
    # "the first [professors]": a class of several is said in the plural ("the first educators")
    label = plural_of(span.label) if span.kind is RungKind.CLASS and names_several(original) else span.label
    span.rendered = render_phrase(label, span.kind, span.slot_before, after, own_head=own_head, original=original,
                                  heads_its_phrase=doc.heads_its_phrase(span))
    span.phrase = span.rendered.phrase
    return False


@rule("same-class-again", stage="render", types=("LOC", "ORG"), off=False,
      purpose='the same entity shown by the same class again reads "the same" class ("a country … the same country")')
def same_class_again(doc: OutputState, span: SpanState) -> bool:
    """The same entity shown by the same class again ("arrived in a country …, and continues
    to reside in [the US]"): "a country … a country" reads as two; the second is "the same
    country"."""
    r = span.rendered
    named = span.unit.head.mention.entity_type in (EntityType.LOC, EntityType.ORG)  # a role again is no same referent
    if named and span.kind is RungKind.CLASS and any(doc.shown_class.get(k) == span.label for k in span.keys) and r.new_prev is not None and r.phrase == span.label:
        same = _INDEFINITE_AT_START.sub(lambda m: "The same" if m.group(0)[0].isupper() else "the same", r.new_prev)
        if same != r.new_prev:
            span.rendered = Rendered(r.phrase, r.prev_start, same, f"'{same.strip()}' before a class shown before for the same entity")
    return False


@rule("words-before-fitted", stage="render", types=(), off=False,
      purpose='the words before a phrase are rewritten as its slot needs (an article inserted, "the" → "a", "on" → "in")')
def words_before_fitted(doc: OutputState, span: SpanState) -> bool:
    """The words before the phrase rewritten as its slot needs (an article inserted, "the"
    → "a", "on" → "in")."""
    r = span.rendered
    if r.new_prev is not None:
        doc.builder.rewrite_tail(span.slot_base + r.prev_start, r.new_prev, r.note)
    return False


@rule("own-noun-of-a-period", stage="render", types=("DATETIME",), off=False,
      purpose='a date span ending in its own noun keeps the noun after "the" ("spent the [1996/97 season]" → "spent a season in the 1990s")')
def own_noun_of_a_period(doc: OutputState, span: SpanState) -> bool:
    """A date span ending in its own noun that became a bare period after "the" keeps the
    noun: "spent the [1996/97 season] at …" → "spent a season in the 1990s" ("the 1990s"
    alone would say a decade)."""
    b = doc.builder
    own = own_noun(span.unit.head.original, span.kind, span.phrase)
    span.own = own
    if own is not None:
        base, before = b.recent()
        the = THE_BEFORE.search(before)
        if the:
            plural = head_is_plural(own)
            art = "" if plural else indefinite_article(own) + the.group(2)
            art = capitalise(art) if the.group(1)[0].isupper() else art
            b.rewrite_tail(base + the.start(1), art, f"'{the.group(1)}' → '{art.strip()}' before the span's own noun '{own}'")
            span.phrase = f"{own} in the {span.phrase}"
            if plural and the.group(1)[0].isupper():
                span.phrase = capitalise(span.phrase)
    return False


@rule("article-of-a-masked-name-kept", stage="render", types=_GRAPH, off=False,
      purpose='a masked name that starts with "The" and modifies what follows keeps its article ("on [The New York Times] Best Seller list" → "on the *** Best Seller list")')
def article_of_a_masked_name_kept(doc: OutputState, span: SpanState) -> bool:
    """A masked name that starts with "The" and modifies what follows keeps its article:
    "on [The New York Times] Best Seller list" → "on the *** Best Seller list"."""
    b, u = doc.builder, span.unit
    if span.kind is RungKind.MASK and span.phrase == MASK and keeps_its_article(u.head.original, b.recent()[1], span.after):
        the = "The" if at_sentence_start(b.recent()[1]) else "the"
        b.rewrite_tail(b.length, the + " ", f"'{the}' of the span kept before '***' (offset {u.start})")
    return False


@rule("capital-at-sentence-start", stage="render", types=(), off=False,
      purpose='a phrase that starts a sentence starts with a capital ("a city" → "A city")')
def capital_at_sentence_start(doc: OutputState, span: SpanState) -> bool:
    """A phrase at the start of a sentence starts with a capital ("a city" → "A city")."""
    b = doc.builder
    if span.phrase and at_sentence_start(b.recent()[1]) and span.phrase[:1].islower():
        span.phrase = capitalise(span.phrase)
        b.edits.append(f"capitalised '{span.rendered.phrase}' at sentence start (offset {span.unit.start})")
    return False


@rule("space-of-a-dropped-modifier", stage="render", types=(), off=False,
      purpose='a phrase dropped from a modifier slot takes one of the spaces around it along')
def space_of_a_dropped_modifier(doc: OutputState, span: SpanState) -> bool:
    """A phrase that vanished from a modifier slot takes one of the spaces around it along."""
    if span.rendered.drop:
        text, b = doc.text, doc.builder
        if text[span.end:span.end + 1] in (" ", "\t") and (b.endswith((" ", "\t")) or not b.length):
            span.end += 1
        b.edits.append(f"{span.kind.value} dropped before '{r_next(text, span.end)}' (offset {span.unit.start})")
    return False


@rule("decade-after-its-noun", stage="render", types=("DATETIME",), off=False,
      purpose='a decade modifying a definite noun phrase moves after it, made indefinite ("at the [2010s] general election" → "at a general election in the 2010s")')
def decade_after_its_noun(doc: OutputState, span: SpanState) -> bool:
    """A decade in the modifier slot of a definite noun phrase moves after the noun phrase,
    made indefinite ("at the [2010s] general election" → "at a general election in the
    2010s"; see :func:`engine.render.noun_phrase.decade_after_noun`)."""
    if not span.seasons and span.own is None:
        span.later = decade_after_noun(doc.text, span.kind, span.phrase, span.slot_before, span.end, span.next_start, span.next_end)
    span.moved = f"in the {span.phrase}"
    return False


@rule("person-after-a-work", stage="render", types=("PERSON",), off=False,
      purpose='a person dropped from the modifier slot of a work reads after it with "by" ("the [Roger Corman] film" → "the film by PERSON 2")')
def person_after_a_work(doc: OutputState, span: SpanState) -> bool:
    """A person dropped from the modifier slot of a work reads after it with "by" ("the
    [Roger Corman] science fiction film" → "the science fiction film by PERSON 2"); a title
    right after the noun ("film [Not of This Earth]") keeps its place, "by" follows it."""
    if span.later is None and span.kind is RungKind.PERSON and span.rendered.drop:
        text = doc.text
        work = work_after(text, span.end, span.next_start)
        if work is not None:
            at = span.next_end if span.next_end is not None and re.fullmatch(r"[ \t]+", text[work:span.next_start]) else work
            span.later, span.moved = (work, span.end, at, True), f"by {span.label}"
    return False


@rule("phrase-moved-after-its-noun-phrase", stage="render", types=("DATETIME", "PERSON"), off=False,
      purpose='a phrase the two rules before decided to move is written after its noun phrase (off, it stays in place)')
def phrase_moved_after_its_noun_phrase(doc: OutputState, span: SpanState) -> bool:
    """Write a span whose phrase moves (decided by the two rules before): the span vanishes,
    "the" before a common noun phrase becomes "a" (or goes, before a plural: "following
    elections in the 2000s"), and the phrase is written where it goes."""
    if span.later is None:
        return False
    text, b, u = doc.text, doc.builder, span.unit
    np_end, gap_end, at, proper = span.later
    base, before = b.recent()
    the = THE_BEFORE.search(before)
    if the and not proper:  # one of the decade's elections, seasons, …: "a general election in the 2010s"
        noun_phrase = text[gap_end:np_end]
        if head_is_plural(noun_phrase):  # "following the [2000s] elections" → "following elections in the 2000s"
            b.rewrite_tail(base + the.start(1), "", f"'{the.group(1)}' removed before a plural noun phrase dated by a decade")
        else:
            art = indefinite_article(noun_phrase)
            art = capitalise(art) if the.group(1)[0].isupper() else art
            b.rewrite_tail(base + the.start(1), art + the.group(2), f"'{the.group(1)}' → '{art}' before a noun phrase dated by a decade")
    b.emit("", u.start, gap_end)
    b.edits.append(f"'{span.phrase or span.label}' moved after '{text[gap_end:at]}' as '{span.moved}' (offset {u.start})")
    doc.pending = (at, span.moved, u)
    if at == np_end:
        doc.flush()
    doc.flush_if_passed(u)
    return True


@rule("full-stop-of-an-abbreviation-kept", stage="render", types=(), off=False,
      purpose='a span ending in the full stop of an abbreviation that ends its sentence keeps the full stop ("in Washington, D.C. During …")')
def full_stop_of_an_abbreviation_kept(doc: OutputState, span: SpanState) -> bool:
    """A span ending in an abbreviation's full stop that also ends its sentence ("in
    Washington, D.C. During the war …") keeps the full stop after its phrase."""
    original = span.unit.decisions[-1].original
    if original.endswith(".") and span.phrase and not span.phrase.endswith(".") and re.match(r"\s+[A-Z]", span.after):
        span.phrase += "."
    return False


def phrase_written(doc: OutputState, span: SpanState) -> bool:
    """Write the phrase in place of the span and note where each of its mentions went."""
    b, u, r = doc.builder, span.unit, span.rendered
    s, e = b.emit(span.phrase, u.start, span.end)
    if span.kind is RungKind.CLASS and span.phrase:
        for k in span.keys:
            doc.shown_class.setdefault(k, span.label)
    for d in u.decisions:
        note = "; ".join(x for x in (d.note, u.note if d is not u.head or u.shown_as_mask else "", r.note if r.drop else "") if x)
        doc.placed[id(d)] = (span.phrase, s, e, note)
    doc.flush_if_passed(u)
    return True


#: The rules, in the order they apply to each span.
RULES: tuple[Rule, ...] = (
    comma_after_a_kept_apart_neighbour,
    in_between_class_labels,
    multiplicative_as_times,
    coordinated_modifier_dropped,
    one_period_for_a_range,
    from_before_a_second_range,
    title_qualifier_before_a_person_dropped,
    class_named_in_the_plural_read_in_the_singular,
    phrase_fitted_to_its_slot,
    same_class_again,
    words_before_fitted,
    own_noun_of_a_period,
    article_of_a_masked_name_kept,
    capital_at_sentence_start,
    space_of_a_dropped_modifier,
    decade_after_its_noun,
    person_after_a_work,
    phrase_moved_after_its_noun_phrase,
    full_stop_of_an_abbreviation_kept,
    phrase_written,
)


def apply_rules(doc: OutputState, span: SpanState, rules: tuple[Rule, ...] = RULES) -> None:
    """Run ``rules`` in order on ``span`` until one has written it."""
    for step in rules:
        if step(doc, span):
            return
