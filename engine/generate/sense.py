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

The first test also says what a name is when the store knows nothing of it: an ORG span
someone plays for, in a document that names a sport, is a sports team
(:func:`plays_for_team`: "He played for Velež Mostar", "plays for Deportivo de La
Coruña"), the class the graph source offers when no link, head noun or store name gives one.
"""

from __future__ import annotations

import re
from itertools import pairwise

from engine.generate.context import COUNTRY_CLASSES
from engine.generate.linking import fold
from engine.generate.sources.base import DocumentState
from engine.generate.truth import TruthFilter, words_after
from engine.generate.truth_rules import ORGANIZATION, PLACE, WORK
from engine.types import EntityType, Link, Span

#: sport (Wikidata Q349): a word of a class label or a sentence that names one of its subclasses names a sport
SPORT = "Q349"
#: sports team (Wikidata Q12973014): what a name someone plays for is, in a document about sport
SPORTS_TEAM = "Q12973014"
#: Right before the span: someone plays, signs or appears for it ("played five league games
#: for", "plays basketball for the", "signed with"), in the same clause.
_FOR_TEAM = re.compile(
    r"\b(?:play(?:s|ed|ing)?|sign(?:s|ed|ing)?|appear(?:s|ed|ing|ances?)|games?|matches|goals?|caps?|seasons?|starts?)\b"
    r"[^.;:()\[\]]{0,40}?\b(?:for|with)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
#: Right before the span, other ways a sentence about sport speaks of a team: an opponent
#: ("his début against Neath RFC", "a Serie A match against Foggia"), a season or spell at or
#: with it ("spent the 1996/97 season at"), a move between clubs ("moved from Pontypool to",
#: "loaned to").
_TEAM_SLOT = re.compile(
    r"(?:\b(?:match(?:es)?|games?|d[ée]but(?:ed)?|play(?:s|ed|ing)?|won|lost|drew|win|defeat(?:ed)?|victory|goals?|scored)\b"
    r"[^.;:()\[\]]{0,40}?\bagainst"
    r"|\b(?:seasons?|spells?|stints?)\b[^.;:()\[\]]{0,30}?\b(?:at|with)"
    r"|\b(?:transferred|loaned|moved|switched)\s+from\s+[^.;:()\[\]]{1,40}?\s+to"
    r"|\b(?:transferred|loaned)\s+to)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
#: A conjunct right before a span, in a list the span ends ("for Myanmar national football
#: team *and* Yadanarbon"): up to six words with no preposition, then "and" or a comma.
_CONJUNCT = re.compile(r"(?<![\w.'’&/-])(?:the\s+)?(?:(?!(?:at|in|from|to|by|of|on|into|with|for|as)\b)[\w.'’&/-]+\s+){0,5}"
                       r"(?!(?:at|in|from|to|by|of|on|into|with|for|as)\b)[\w.'’&/-]+\s*(?:,\s*(?:and\s+)?|\s+and\s+)$")
#: Nouns after a name that belong to a wreck or a disaster, never to a creative work.
WRECK_NOUNS = frozenset({"bodies", "victims", "survivors", "passengers", "crew", "wreck", "wreckage", "sinking", "disaster", "crash"})
#: A capitalised word right after a use of the span: the use is part of a longer name.
_NAME_GOES_ON = re.compile(r"[ \t]+[A-Z0-9]")
_WORDS = re.compile(r"[a-z][a-z'-]*")


#: Words an abbreviation skips ("MP": member of parliament).
_FUNCTION_WORDS = frozenset({"of", "the", "and", "for", "in", "on", "at", "to", "a", "an"})


def acronym_for_common_noun(text: str, link: Link) -> bool:
    """A span written in capitals ("HARPS", an instrument's name) linked to a common noun
    (a lower-case label: "harp") whose words' initials it does not spell: a name in capitals
    is an acronym, not the plural of a common noun. "CEO" spells "chief executive officer",
    "MP" "member of parliament": those links stay."""
    letters = [c for c in text if c.isalpha()]
    label = link.label.strip()
    if len(letters) < 2 or any(c.islower() for c in letters) or not label[:1].islower():
        return False
    initials = "".join(w[0] for w in _WORDS.findall(fold(label)) if w not in _FUNCTION_WORDS)
    return fold("".join(letters)) != initials


def plays_for(span: Span) -> bool:
    """The sentence has someone play, sign or appear for the span (any use of its text
    that is not the start of a longer name: "playing with the Philadelphia Athletics" does
    not play for "Philadelphia")."""
    context = span.context or ""
    return any(_FOR_TEAM.search(context[: m.start()]) and not _NAME_GOES_ON.match(context, m.end())
               for m in re.finditer(rf"(?<!\w){re.escape(span.text)}(?!\w)", context))


def sports_named(text: str, truth: TruthFilter) -> frozenset[str]:
    """Sports (items below ``sport``) named by a word or two-word run of ``text``, or by the
    stem of a player's word ("footballer", "cricketers")."""
    words = _WORDS.findall(fold(text))
    grams = set(words) | {f"{a} {b}" for a, b in pairwise(words)}
    grams |= {w[: -len(end)] for w in words for end in ("er", "ers") if w.endswith(end) and len(w) > len(end) + 3}
    return frozenset(q for g in grams for q, _ in truth.index.lookup(g) if SPORT in truth.superclasses_of_item(q) and q != SPORT)


def document_sports(state: DocumentState, truth: TruthFilter) -> frozenset[str]:
    """The sports the document's text names (:func:`sports_named`), read once per document
    and kept in ``state``; empty when the state holds no text."""
    if state.sports is None:
        state.sports = sports_named(state.text, truth) if state.text else frozenset()
    return state.sports


def in_team_slot(span: Span) -> bool:
    """The sentence speaks of the span as a team would be spoken of: someone plays, signs or
    appears for it, plays against it, spends a season at it or moves to it from elsewhere
    (:data:`_FOR_TEAM`, :data:`_TEAM_SLOT`), directly or as a later member of a list ("for
    Myanmar national football team and Yadanarbon")."""
    context = span.context or ""
    for m in re.finditer(rf"(?<!\w){re.escape(span.text)}(?!\w)", context):
        if _NAME_GOES_ON.match(context, m.end()):
            continue
        before = context[: m.start()]
        while True:
            if _FOR_TEAM.search(before) or _TEAM_SLOT.search(before):
                return True
            conjunct = _CONJUNCT.search(before)
            if conjunct is None or conjunct.start() == len(before):
                break
            before = before[: conjunct.start()]
    return False


def plays_for_team(span: Span, state: DocumentState, truth: TruthFilter) -> bool:
    """The span is a team: its sentence speaks of it as one (:func:`in_team_slot`: "He
    played for Velež Mostar", "his début against Neath RFC") and the document names a sport
    (a footballer's biography). Without a sport the same words may speak of a band or a
    record label ("played with the Stones", "signed with Sony Music Taiwan")."""
    return span.entity_type is EntityType.ORG and in_team_slot(span) and bool(document_sports(state, truth))


def _related(a: frozenset[str], b: frozenset[str], truth: TruthFilter) -> bool:
    """One sport of ``a`` is one of ``b``, or above or below it ("hockey" and "ice hockey")."""
    return any(x == y or x in truth.superclasses(y) or y in truth.superclasses(x) for x in a for y in b)


def contradiction(span: Span, link: Link, truth: TruthFilter) -> str | None:
    """Why the span's sentence rules out ``link`` as its referent (module docstring), or None."""
    context = span.context or ""
    if not context:
        return None
    kinds = truth.item_kinds(link.qid)
    if WORK in kinds and any(nxt.lower() in WRECK_NOUNS for nxt in words_after(span.text, context)):
        return f"{span.text!r} is followed by a noun of a wreck or disaster: not the work {link.qid} ({link.label})"
    if not plays_for(span):
        return None
    if PLACE in kinds and ORGANIZATION not in kinds and not set(truth.taxonomy.parents(link.qid, "P31")) & COUNTRY_CLASSES:
        return f"the sentence plays for {span.text!r}: a team, not the place {link.qid} ({link.label})"
    named = sports_named(re.sub(rf"(?<!\w){re.escape(span.text)}(?!\w)", " ", context), truth)  # not the name's own words ("Athletics")
    if named:
        own = frozenset().union(*(sports_named(truth.taxonomy.label(c) or "", truth) for c in truth.taxonomy.parents(link.qid, "P31")))
        if own and not _related(own, named, truth):
            return f"the sentence names another sport than that of {link.qid} ({link.label})"
    return None
