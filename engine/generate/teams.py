"""A name a sentence about sport speaks of as a team.

The store often lacks a club ("Velež Mostar", "Nagano Parceiro", "Newport RFC"), or knows
only the town it is named after ("Blackpool", "Foggia"). The sentence still says what it is
when someone plays, signs or appears for it, plays against it, spends a season at it, moves
to it from another club or joins it for seasons (:func:`in_team_slot`), directly or later in
a list ("for Myanmar national football team and Yadanarbon"). Such words speak of a band, an
orchestra or a record label as well ("played with the Stones", "signed with Sony Music
Taiwan"), so the span is read as a team only in a document that names a sport
(:func:`plays_for_team`; a player's word counts: "footballer" names football). The graph
source then offers "sports team", or "national sports team" for a country, and the sense
rules (:mod:`engine.generate.sense`) rule out the town.

A country's name stands for its national side where a match's own words stand around it
("a 6–0 win over Morocco", "captained Uruguay", "England's first innings", "which Hungary
won 2–1", "against New Zealand … 34 wickets": :func:`in_side_slot`); the detect stage reads
it as an organisation (``side-in-match``), and in a document about sport its ladder is the
national team's, never the country's (``country-is-its-side``). "A tour of India" and
"toured England" name the host country; "the Uruguay team" and "Mali's national team" the
country the side is of.

The cues are the ``sport`` pack's (``packs/sport/teams.yaml``); the rules are ``team-slot``
and ``country-is-its-side``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from kg.class_sets import named_class
from engine.generate.linking import fold
from engine.generate.sources.base import DocumentState
from engine.generate.truth import TruthFilter
from engine.knowledge import pattern, rule, words
from engine.types import EntityType, LinkMethod, Span

#: sport (``tg:sportClass``): a word of a class label or a sentence that names one of its subclasses names a sport
SPORT = named_class("sportClass")
#: sports team (``tg:sportsTeamClass``): what a name someone plays for is, in a document about sport
SPORTS_TEAM = named_class("sportsTeamClass")
#: national sports team (``tg:nationalTeamClass``): what a country someone plays for or against is
NATIONAL_TEAM = named_class("nationalTeamClass")
#: Right before the span: someone plays, signs or appears for it ("played five league games
#: for", "plays basketball for the", "signed with"), in the same clause (no "while", "and" …
#: between: "missed the 1918 season while serving with the United States Army").
_FOR_TEAM = pattern("teams.for_team")
#: Right before the span, other ways a sentence about sport speaks of a team: an opponent
#: ("his début against Neath RFC", "a Serie A match against Foggia"), a side of a match ("a
#: One Day International between Sri Lanka and Pakistan"), a debut for or with it
#: ("made his debut in Serie A on 15 April 1995 with Genoa"), a season or spell at or
#: with it ("spent the 1996/97 season at"), a move between clubs ("moved from Pontypool to",
#: "loaned to").
_TEAM_SLOT = pattern("teams.team_slot")
#: "joined" right before the span: a team only where the rest of its sentence speaks of seasons,
#: a club, a team or a league ("joined Pontypool RFC in 1983, spending nine seasons at the club");
#: a party, a firm or a broadcaster is joined as often (a ballet company has seasons too, but a
#: document about ballet names no sport: ballet is no sport, ``ontology/reader_rules.ttl``).
_JOINED = pattern("teams.joined")
_TEAM_WORDS = pattern("teams.team_words")
#: The joint of a list right before a span ("Myanmar national football team *and* Yadanarbon",
#: "the Athletics *and the* Providence Grays", "Genoa*,* Roma").
_LIST_JOINT = pattern("teams.list_joint")
#: Words a list's member does not hold: a preposition or a verb's particle starts another slot.
_NOT_IN_MEMBER = words("teams.not_in_member")
#: How many words a list's member may have, and how many members are read back.
_MEMBER_WORDS, _MEMBERS = 6, 4
#: A capitalised word right after a use of the span: the use is part of a longer name.
_NAME_GOES_ON = re.compile(r"[ \t]+[A-Z0-9]")
#: Endings of a player's word whose stem names the sport ("footballer").
PLAYER_ENDINGS = words("teams.player_endings")
#: A score right after a name ("beat Argentina 4–2").
_SCORE_AFTER = re.compile(r"[ \t]+\d+\s*[–-]\s*\d+\b")
#: The lower-case words of a folded text.
WORDS = re.compile(r"[a-z][a-z'-]*")


def _uses(span: Span, *, scored: bool = False) -> Iterator[tuple[str, str]]:
    """(text before, text after) each use of the span's text in its sentence that is not the
    start of a longer name ("playing with the Philadelphia Athletics" is no use of "Philadelphia");
    ``scored``: a score after it ends no name ("beat Argentina 4–2")."""
    context = span.context or ""
    for m in re.finditer(rf"(?<!\w){re.escape(span.text)}(?!\w)", context):
        if not _NAME_GOES_ON.match(context, m.end()) or scored and _SCORE_AFTER.match(context, m.end()):
            yield context[: m.start()], context[m.end():]


def plays_for(span: Span) -> bool:
    """The sentence has someone play, sign or appear for the span (:func:`_uses`)."""
    return any(_FOR_TEAM.search(before) for before, _ in _uses(span))


def sports_named(text: str, truth: TruthFilter) -> frozenset[str]:
    """Sports (items below ``sport``) named by a word or two-word run of ``text`` (by its label,
    or by an alias of two words), or by the stem of a player's word ("footballer", "cricketers")."""
    words = WORDS.findall(fold(text))
    grams = set(words) | {f"{a} {b}" for a, b in pairwise(words)}
    grams |= {w[: -len(end)] for w in words for end in PLAYER_ENDINGS if w.endswith(end) and len(w) > len(end) + 3}
    # a sport's own name, or an alias of two words or more: a one-word alias is often a clipping
    # with other senses ("track" for track and field, in "track 11" of an album)
    return frozenset(q for g in grams for q, method in truth.index.lookup(g)
                     if (method is LinkMethod.EXACT or " " in g) and q != SPORT
                     and SPORT in truth.is_a_closure(q, "P279") | truth.is_a_closure(q, "P31"))  # over no tg:notIsA edge


def document_sports(state: DocumentState, truth: TruthFilter) -> frozenset[str]:
    """The sports the document's text names (:func:`sports_named`), read once per document
    and kept in ``state``; empty when the state holds no text."""
    if state.sports is None:
        state.sports = sports_named(state.text, truth) if state.text else frozenset()
    return state.sports


#: Right after the span: the noun of a side ("the Wales side that won the Grand Slam").
_SIDE_AFTER = pattern("teams.side_after")


def in_team_slot(span: Span) -> bool:
    """The sentence speaks of the span as a team would be spoken of: someone plays, signs or
    appears for it, plays or scores against it, calls it a side, spends a season at it or moves to it from elsewhere
    (:data:`_FOR_TEAM`, :data:`_TEAM_SLOT`), or joins it and the rest of the sentence speaks
    of seasons, a club or a team (:data:`_JOINED`); directly or as a later member of a list
    ("for Myanmar national football team and Yadanarbon")."""
    for before, after in _uses(span):
        if (_JOINED.search(before) and _TEAM_WORDS.search(after)) or _SIDE_AFTER.match(after):
            return True
        if any(_FOR_TEAM.search(start) or _TEAM_SLOT.search(start) for start in _list_starts(before)):
            return True
    return False


def _list_starts(before: str, depth: int = 0) -> list[str]:
    """``before`` and, when it ends in a list's joint, the text before each reading of the
    list's earlier members (shortest first), as far as :data:`_MEMBERS` members back."""
    out = [before]
    joint = _LIST_JOINT.search(before)
    if joint is None or depth >= _MEMBERS:
        return out
    body = before[: joint.start()]
    words = list(re.finditer(r"\S+", body))
    for k, word in enumerate(reversed(words)):
        if k >= _MEMBER_WORDS or word.group().lower().strip(",") in _NOT_IN_MEMBER:
            break
        out += _list_starts(body[: word.start()], depth + 1)
    return out


@rule("team-slot", stage="ladder", types=("ORG",), pack="sport", off=False,
      purpose="in a document that names a sport, an ORG span its sentence speaks of as a team (played for, a match against) is a sports team")
def plays_for_team(span: Span, state: DocumentState, truth: TruthFilter) -> bool:
    """The span is a team: its sentence speaks of it as one (:func:`in_team_slot`: "He
    played for Velež Mostar", "his début against Neath RFC") and the document names a sport
    (a footballer's biography). Without a sport the same words may speak of a band or a
    record label ("played with the Stones", "signed with Sony Music Taiwan")."""
    return span.entity_type is EntityType.ORG and in_team_slot(span) and bool(document_sports(state, truth))



#: Right before a country's name: a match won, lost or drawn against it, a side beaten or
#: captained ("a 6–0 win over", "captained", "lost to", "the semi-final against").
_COUNTRY_SIDE_BEFORE = pattern("teams.country_side_before")
#: Right after a country's name: what a side does or plays in a match ("'s first innings",
#: "'s group matches", "'s tour of", "won 2–1", "beat").
_COUNTRY_SIDE_AFTER = pattern("teams.country_side_after")
#: "against" right before it, and a match's words after it ("Against New Zealand … 34 wickets").
_AGAINST = pattern("teams.against")
_MATCH_WORDS = pattern("teams.country_match_words")


def side_words_around(before: str, after: str) -> bool:
    """A match's own words stand around a name: before it (``before``: the text up to it; "a
    2–1 win over", "captained", "lost 2–1 to"), right after it (``after``: the rest of its
    sentence; "'s first innings", "won 2–1"), or "against" before it and a match's words later
    in the sentence ("Against New Zealand … 34 wickets")."""
    return bool(_COUNTRY_SIDE_BEFORE.search(before) or _COUNTRY_SIDE_AFTER.match(after)
                or (_AGAINST.search(before) and _MATCH_WORDS.search(after)))


def in_side_slot(span: Span) -> bool:
    """The sentence speaks of a country's name as a side in a match: someone plays for or
    against it (:data:`_FOR_TEAM`, :data:`_TEAM_SLOT`, also later in a list), or a match's own
    words stand around it ("a 2–1 win over Morocco", "captained Uruguay", "England's first
    innings", "which Hungary won 2–1", "against New Zealand … 34 wickets"). A name right before
    a side's noun ("the Uruguay team", "Mali's national team") is the country the side is of."""
    for before, after in _uses(span, scored=True):
        if _SIDE_AFTER.match(after):
            continue
        if side_words_around(before, after):
            return True
        if any(_FOR_TEAM.search(start) or _TEAM_SLOT.search(start) for start in _list_starts(before)):
            return True
    return False


@rule("country-is-its-side", stage="ladder", types=("ORG",), pack="sport", off=False,
      purpose="in a document that names a sport, a country's name read as an organisation in a side's slot (a win over it, captained it, its innings, won 2–1) is the national team, not the country")
def country_is_its_side(span: Span, state: DocumentState, truth: TruthFilter) -> bool:
    """The country's name stands for its national side: the sentence speaks of it as a side
    in a match (:func:`in_side_slot`) and the document names a sport. The detect stage reads
    such a name as an organisation (``side-in-match``, ``team-named-after-place``); "born in
    Uruguay" or "settled in England", a place, in the same document stays the country."""
    return span.entity_type is EntityType.ORG and in_side_slot(span) and bool(document_sports(state, truth))
