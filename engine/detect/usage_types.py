"""Entity types from how a name is used in its sentence, applied last.

After :mod:`engine.detect.context_types`, each rule one function of the text around a
span and the types of its neighbours; a retyped span keeps the layers' type in
``retyped_from`` (the masking decision reads that one), and no span changes its
boundaries:

- **a state or a team acting**: a place-typed name followed by a possessive and what a
  party does or has ("India's military engagement", "Mexico's participation",
  "Yugoslavia's game", "Wei's rival state") is the state or the team, an organisation
  (not "Canada's role", "Michigan's 5th district");
- **a team in a match**: a place-typed name (or a place NER read as a person) right before
  "against <Name>", "was relegated", "was promoted" or "won the league" is the team
  ("with Genoa against Cagliari", "Genoa was relegated");
- **a side in a match**: a place's name (LOC: not a person "of New Zealand") a match's words stand around — a win over it,
  a side beaten or captained ("a 6–0 win over Morocco", "captained Uruguay"), or its innings,
  its group matches, its tour, a score or a result after it ("England's first innings",
  "which Hungary won 2–1") — is the side, an organisation; not right before a side's noun
  ("the Uruguay team": the country the side is of). In a document about no sport the
  organisation keeps its country's rungs (:mod:`engine.generate.sources.graph`);
- **a place coordinated with a club**: a place-typed name joined by "to", "and" or "or" to
  an organisation named by a club's head word ("moved from Pontypool to Newport RFC",
  "the national football team and Yadanarbon") is a club too;
- **a numbered body**: ordinals that number a parliament, a republic, a congress … ("the
  1st, 2nd, 3rd, 4th … parliaments", "the 4th republic of Ghana", "8th Parliament") are
  part of a name (MISC), not a count;
- **a year** that NER read as an event or a work ("the 1991 Rugby World Cup": "1991") is a
  date; the date parser accepts it;
- **an acronym, one type**: an acronym introduced in brackets after a name ("Teachta Dála
  (TD)") keeps the type it took there wherever else a layer other than NER found it;
- **a list of places**: a name NER read as a person, unlinked, in a comma list of three or
  more whose other members are all places ("Kathmandu, Pokhara, chitwan and Lumbini") is
  a place.

A span becomes DATETIME or QUANTITY only when the parser of that type accepts it
(:func:`engine.detect.graph_types.parser_accepts`).

Each rule is a named rule of the detect stage; the teams' rules and words are the sport
pack's (``packs/sport/detect_teams.yaml``).
"""

from __future__ import annotations

import re

from engine.detect.graph_types import parser_accepts
from engine.detect.retype import org_head
from engine.detect.spans import DetectedSpan
from engine.generate.teams import side_words_around
from engine.knowledge import pattern, rule
from engine.types import EntityType

P, L, O, M, Q, T = (EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.MISC, EntityType.QUANTITY,
                    EntityType.DATETIME)

#: what a state or a team does or has, after its name and a possessive
_ACTOR_AFTER = pattern("detect_events.actor_after")
#: a team in a match or a league table, after its name
_TEAM_AFTER = pattern("detect_teams.team_after")
_JOINED = pattern("detect_teams.joined")
#: a side's noun right after a name: the name is the country or town the side is of ("the Uruguay team")
_SIDE_NOUN_AFTER = pattern("teams.side_after")
#: a club's or a team's name: an organisation head word, or a team / club / side at its end
_TEAM_END = pattern("detect_teams.team_end")
_ORDINALS = pattern("detect_numbers.ordinals")
#: what an ordinal numbers as part of a name ("8th Parliament", "4th republic")
_NUMBERED_BODY = pattern("detect_organisations.numbered_body")
_YEAR = re.compile(r"1\d{3}|20\d{2}")
_LIST_SEP = pattern("detect_grammar.list_gap")


@rule("state-or-team-acting", stage="detect", types=("ORG",), pack="core", off=False,
      purpose="a place-typed name followed by a possessive and what a party does or has is the state or the team: 'India's military engagement'")
def _state_acting(text: str, s: DetectedSpan) -> bool:
    return bool(_ACTOR_AFTER.match(text, s.end))


@rule("team-in-match", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a place-typed name right before 'against <Name>', 'was relegated', 'won the league' is the team")
def _team_in_match(text: str, s: DetectedSpan) -> bool:
    return s.text[:1].isupper() and bool(_TEAM_AFTER.match(text, s.end))


@rule("side-in-match", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a place-typed name a match's words stand around is the side, an organisation: 'a 6–0 win over Morocco', 'captained Uruguay', 'England's first innings', 'which Hungary won 2–1', 'against Brazil in the final'")
def _side_in_match(text: str, s: DetectedSpan) -> bool:
    if not s.text[:1].isupper() or _SIDE_NOUN_AFTER.match(text, s.end):
        return False
    # the rest of the sentence: no match's words after a side's name run over a period
    return side_words_around(text[max(0, s.start - 60):s.start], text[s.end:].split(".", 1)[0])


@rule("numbered-body", stage="detect", types=("MISC",), pack="core", off=False,
      purpose="ordinals that number a parliament, a republic, a congress are part of a name, MISC: 'the 4th republic', '8th Parliament'")
def _numbered_body(text: str, s: DetectedSpan) -> bool:
    return bool(_ORDINALS.fullmatch(s.text.strip()) and _NUMBERED_BODY.match(text, s.end))


@rule("year-read-as-event", stage="detect", types=("DATETIME",), pack="core", off=False,
      purpose="a year NER read as an event or a work is a date: 'the 1991 Rugby World Cup'")
def _year_read_as_event(s: DetectedSpan) -> bool:
    return bool(_YEAR.fullmatch(s.text)) and "gazetteer" not in s.sources


def usage_type(text: str, s: DetectedSpan) -> EntityType | None:
    """The type the words around ``s`` give it (the rules that read one span), or None."""
    et = s.entity_type
    place = et is L or et is P and s.gaz_kind == "place" and "coref" not in s.sources
    if et is L and _state_acting(text, s):
        return O
    if place and _team_in_match(text, s) or et is L and _side_in_match(text, s):
        return O
    if et in (Q, T) and _numbered_body(text, s):
        return M
    if et in (M, O) and _year_read_as_event(s):
        return T
    return None


def _club(s: DetectedSpan) -> bool:
    return s.entity_type is O and (org_head(s) or bool(_TEAM_END.search(s.text)))


@rule("place-joined-to-club", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a place-typed name joined by 'to', 'and', 'or' to a club's name is a club too: 'from Pontypool to Newport RFC'")
def _joined_to_club(text: str, spans: list[DetectedSpan], i: int) -> bool:
    """``spans[i]`` is a place-typed name joined by "to" / "and" / "or" to a club's name."""
    s = spans[i]
    if s.entity_type is not L or not s.text[:1].isupper():
        return False
    nxt = spans[i + 1] if i + 1 < len(spans) else None
    prv = spans[i - 1] if i else None
    return (nxt is not None and _club(nxt) and bool(_JOINED.fullmatch(text[s.end:nxt.start]))) or (
        prv is not None and _club(prv) and bool(_JOINED.fullmatch(text[prv.end:s.start])))


@rule("list-of-places", stage="detect", types=("LOC",), pack="core", off=False,
      purpose="an unlinked name NER read as a person in a comma list whose other members are all places is a place")
def _list_of_places(text: str, spans: list[DetectedSpan], i: int) -> bool:
    """``spans[i]``, an unlinked person-typed name, is in a list of three or more whose other members are places."""
    s = spans[i]
    if s.entity_type is not P or "coref" in s.sources or s.entity_id and sum(x.entity_id == s.entity_id for x in spans) > 1:
        return False
    lo = hi = i
    while lo > 0 and _LIST_SEP.fullmatch(text[spans[lo - 1].end:spans[lo].start]):
        lo -= 1
    while hi + 1 < len(spans) and _LIST_SEP.fullmatch(text[spans[hi].end:spans[hi + 1].start]):
        hi += 1
    others = [spans[k] for k in range(lo, hi + 1) if k != i]
    return len(others) >= 2 and all(o.entity_type is L for o in others)


@rule("acronym-one-type", stage="detect", types=(), pack="core", off={},
      purpose="an acronym introduced in brackets after a name keeps the type it took there wherever else a layer other than NER found it")
def _bracketed_acronyms(text: str, spans: list[DetectedSpan]) -> dict[str, EntityType]:
    """Acronym → the type it takes in brackets right after a name ("Teachta Dála (TD)")."""
    out: dict[str, EntityType] = {}
    for prv, s in zip(spans, spans[1:]):
        if (s.text.isupper() and 2 <= len(s.text) <= 6 and text[prv.end:s.start].strip() == "("
                and text[s.end:s.end + 1] == ")" and s.entity_type is prv.entity_type):
            out.setdefault(s.text, s.entity_type)
    return out


def usage_retype(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with the rules of the module docstring applied."""
    acronyms = _bracketed_acronyms(text, spans)
    out = []
    for i, s in enumerate(spans):
        new = usage_type(text, s)
        if new is None and (_joined_to_club(text, spans, i)):
            new = O
        if new is None and _list_of_places(text, spans, i):
            new = L
        if new is None and s.text in acronyms and "ner" not in s.sources:
            new = acronyms[s.text]
        if new is not None and new is not s.entity_type and parser_accepts(s.text, new):
            s = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
        out.append(s)
    return out
