"""The sentence rules out a sense: a link the span's own sentence contradicts is not its referent.

The linker picks among homonyms by the entity type, the document's countries and a
prominence prior (:mod:`engine.generate.linking`, :mod:`engine.generate.context`). The
store often holds one sense of a name only (the seed has the film "Titanic", not the
ship; the town of Blackpool under that name, its football club only as "Blackpool
F.C."; "Cardinals" only as the St. Louis baseball club), so the wrong sense is linked
and its whole ladder is false. Three linguistic tests of the sentence say the linked
item cannot be what the sentence speaks of (:func:`contradiction`); the graph source then
drops that link and uses the next homonym, or the span's head noun, or offers ``***``:

1. **Played for a team.** A sentence that has someone play, sign or appear *for* the
   span ("He played five league games for Blackpool", "he plays basketball for the
   Cardinals") speaks of a team. A place is no team: a link to an item of the kind
   ``kindPlace`` that is not also an organisation is not the referent. A country is
   excepted: its national side plays for it ("made eleven appearances for Wales",
   "played for his country"), while a club named after a town does not represent it.
2. **The team's sport.** In such a sentence, a team whose class names a sport
   ("baseball team") is not the referent when the sentence names sports, none of them
   that sport or one above or below it ("plays *basketball* for the Cardinals": not the
   St. Louis baseball club). The span's own words are not the sentence's ("the
   Philadelphia *Athletics*" names no sport).
3. **What only a thing that sank or crashed has.** A span followed by a noun of the
   people or remains of a wreck or disaster ("the Titanic *bodies*", "Titanic
   survivors", "the Hindenburg crash") names the vehicle or the event, not a creative
   work: a link to an item of the kind ``kindWork`` is not the referent.

A span written in capitals is an acronym: a link to a common noun whose initials it does not
spell ("the HARPS spectrograph" is no harp) is not its referent (:func:`acronym_for_common_noun`).

Each test is general (a cue phrase and the item's kinds or classes); none names an item.
Each is a registered rule (``noun-before-name``, ``wreck-not-work``, ``acronym-not-common-noun``;
the team tests ``team-not-place`` and ``team-of-other-sport`` read the ``sport`` pack's cues,
``packs/sport/teams.yaml``); the nouns of a wreck are ``packs/core/sense.yaml``.

In a document about sport, a span the sentence speaks of as a team in other words (his
debut with it, a match against it: :func:`engine.generate.teams.plays_for_team`) is read
as one by the first test too; what the store knows nothing of is then offered as a sports
team (:mod:`engine.generate.teams`).
"""

from __future__ import annotations

import re

from engine.generate.apposition import noun_before
from engine.generate.context import COUNTRY_CLASSES
from engine.generate.linking import fold
from engine.generate.sources.base import DocumentState
from engine.generate.truth import GRAPH_TYPES, TruthFilter, words_after
from engine.generate.truth_rules import ORGANIZATION, PLACE, WORK
from engine.generate.teams import SPORTS_TEAM, WORDS, plays_for, plays_for_team, sports_named
from engine.knowledge import rule, words
from engine.types import Link, LinkMethod, Span

#: Nouns after a name that belong to a wreck or a disaster, never to a creative work.
WRECK_NOUNS = words("sense.wreck_nouns")


#: Words an abbreviation skips ("MP": member of parliament).
_FUNCTION_WORDS = words("sense.acronym_skips")


@rule("acronym-not-common-noun", stage="link", types=GRAPH_TYPES, off=False,
      purpose="a span in capitals linked to a common noun whose initials it does not spell (\"HARPS\" → harp) is an acronym, not that noun")
def acronym_for_common_noun(text: str, link: Link) -> bool:
    """A span written in capitals ("HARPS", an instrument's name) linked to a common noun
    (a lower-case label: "harp") whose words' initials it does not spell: a name in capitals
    is an acronym, not the plural of a common noun. "CEO" spells "chief executive officer",
    "MP" "member of parliament": those links stay."""
    letters = [c for c in text if c.isalpha()]
    label = link.label.strip()
    if len(letters) < 2 or any(c.islower() for c in letters) or not label[:1].islower():
        return False
    initials = "".join(w[0] for w in WORDS.findall(fold(label)) if w not in _FUNCTION_WORDS)
    return fold("".join(letters)) != initials


def _related(a: frozenset[str], b: frozenset[str], truth: TruthFilter) -> bool:
    """One sport of ``a`` is one of ``b``, or above or below it ("hockey" and "ice hockey")."""
    return any(x == y or x in truth.superclasses(y) or y in truth.superclasses(x) for x in a for y in b)


@rule("noun-before-name", stage="link", types=GRAPH_TYPES, off=None,
      purpose="the noun a sentence puts right before a name (\"the newspaper ABC\") rules out an item of no class below or above it")
def stated_otherwise(span: Span, link: Link, truth: TruthFilter) -> str | None:
    """Why the noun the sentence puts right before the name rules ``link`` out, or None: the
    noun names a class of a kind the entity type allows (:func:`engine.generate.apposition.noun_before`),
    and the linked item, which the store classes, is neither one of it nor of a class below
    or above it ("the newspaper *ABC*" is not the television network; "the club *Genoa*" not
    the city). An apposition after the name is not read: it may say what the item was
    ("*Huế*, the former imperial capital") or belong to another name ("Saint-Amand in
    *Burgundy*, a village")."""
    direct = frozenset(truth.taxonomy.parents(link.qid, "P31"))
    if not direct:
        return None
    noun, named = stated_classes(span, truth)
    if not named:
        return None
    closure = truth.superclasses_of_item(link.qid)
    if any(q in closure or direct & truth.superclasses(q) for q in named):
        return None
    return f"the sentence calls {span.text!r} a {noun}: not {link.qid} ({link.label})"


def stated_classes(span: Span, truth: TruthFilter) -> tuple[str, list[str]]:
    """The noun the sentence puts right before the name (:func:`engine.generate.apposition.noun_before`:
    "the ballet") and the classes of a kind the entity type allows that it names; ``("", [])``
    when there is no such noun."""
    words = noun_before(span)
    if not words:
        return "", []
    noun = " ".join(words)
    return noun, [q for q, _ in truth.head_classes(Span(noun, span.entity_type, context=noun), whole=True)
                  if truth.class_fits(q, span.entity_type, strict=True)]


@rule("head-noun-outside-the-stated-class", stage="ladder", types=GRAPH_TYPES, off=False,
      purpose='a name the sentence calls a kind of thing ("the ballet The Green Table", "the albums Monster Movie") is no thing its head noun names outside that kind: no "table", no "film"')
def head_noun_outside_the_stated_class(qid: str, stated: list[str], truth: TruthFilter) -> bool:
    """The class ``qid`` that the span's head noun names is neither one of ``stated``, the
    classes the noun before the name names (:func:`stated_classes`), nor below or above one of
    them: a title's head word names what the work is called, not what it is."""
    if not stated:
        return False
    above = truth.superclasses(qid)
    return not any(q == qid or q in above or qid in truth.superclasses(q) for q in stated)


def contradiction(span: Span, link: Link, truth: TruthFilter, state: DocumentState | None = None) -> str | None:
    """Why the span's sentence rules out ``link`` as its referent (module docstring), or None:
    the first of the sense rules that does. ``state``: the document's; in a document about
    sport, an ORG span in any team slot (:func:`plays_for_team`: "his debut with Genoa against
    Cagliari") is a team too."""
    if not span.context:
        return None
    return (stated_otherwise(span, link, truth) or wreck_not_work(span, link, truth)
            or team_not_place(span, link, truth, state) or team_of_other_sport(span, link, truth, state))


@rule("wreck-not-work", stage="link", types=GRAPH_TYPES, off=None,
      purpose="a name followed by a noun of a wreck or disaster (\"the Titanic survivors\") names the vehicle or the event, not a creative work")
def wreck_not_work(span: Span, link: Link, truth: TruthFilter) -> str | None:
    """Test 3 of the module docstring: a work followed by one of :data:`WRECK_NOUNS`."""
    if WORK in truth.item_kinds(link.qid) and any(nxt.lower() in WRECK_NOUNS for nxt in words_after(span.text, span.context or "")):
        return f"{span.text!r} is followed by a noun of a wreck or disaster: not the work {link.qid} ({link.label})"
    return None


def _in_team_slot(span: Span, truth: TruthFilter, state: DocumentState | None) -> tuple[bool, bool]:
    """(the sentence speaks of the span as a team, it does so in a document about sport)."""
    team_in_sport = state is not None and plays_for_team(span, state, truth)
    return team_in_sport or plays_for(span), team_in_sport


@rule("team-not-place", stage="link", types=("ORG", "LOC"), pack="sport", off=None,
      purpose="a name someone plays for is a team: a place (or, in a document about sport, an item of no sport's class) is not the referent")
def team_not_place(span: Span, link: Link, truth: TruthFilter, state: DocumentState | None = None) -> str | None:
    """Test 1 of the module docstring."""
    slot, team_in_sport = _in_team_slot(span, truth, state)
    if not slot:
        return None
    # a place (a town a club is named after), even one Wikidata also files as a body (a municipality), is no team; nor, in a
    # document about sport, an item of no kind, or one the name is not the own label of, whose classes name no sport ("caps
    # for Great Britain": the nation; "played for Kilmarnock and Aberdeen": not Dartmouth College, whose alias it is; a
    # university's team plays as "University of Michigan"), while a club filed under no class, or as an "association football club", stays
    kinds = truth.item_kinds(link.qid)
    classes = truth.taxonomy.parents(link.qid, "P31")
    sporting = team_in_sport and (not kinds or link.method is not LinkMethod.EXACT)
    if (PLACE in kinds or sporting and classes) and SPORTS_TEAM not in truth.superclasses_of_item(link.qid) \
            and not any(sports_named(truth.taxonomy.label(c) or "", truth) for c in classes) and not set(classes) & COUNTRY_CLASSES:
        return f"the sentence plays for {span.text!r}: a team, not {link.qid} ({link.label})"
    return None


@rule("team-of-other-sport", stage="link", types=("ORG", "LOC"), pack="sport", off=None,
      purpose="a team whose class names a sport is not the referent when the sentence someone plays for it in names other sports only")
def team_of_other_sport(span: Span, link: Link, truth: TruthFilter, state: DocumentState | None = None) -> str | None:
    """Test 2 of the module docstring."""
    if not _in_team_slot(span, truth, state)[0]:
        return None
    context = span.context or ""
    named = sports_named(re.sub(rf"(?<!\w){re.escape(span.text)}(?!\w)", " ", context), truth)  # not the name's own words ("Athletics")
    if named:
        classes = truth.taxonomy.parents(link.qid, "P31")
        own = frozenset().union(*(sports_named(truth.taxonomy.label(c) or "", truth) for c in classes))
        if own and not _related(own, named, truth):
            return f"the sentence names another sport than that of {link.qid} ({link.label})"
    return None
