"""Entity types from the words around a span, after the graph's checks.

Applied last (after :mod:`engine.detect.graph_types`), each rule one function of the text
around a span and the evidence it carries; a retyped span keeps the layers' type in
``retyped_from``, so the masking decision (which reads that type) is unchanged:

- **an award, a prize, an event or an agreement**: a capitalised name of two words or more
  ending in Award, Trophy, Prize, Medal, Cross, Cup, Bowl, Olympics, War, Accord(s),
  Championship(s), Games or Hall of Fame, or in one of them and a numeral ("Victoria Cross",
  "Helsinki Accords", "Sri Lankan Civil War", "Super Bowl XLV") is MISC, not the
  organisation NER reads;
- **a role or a field**: a capitalised name typed MISC after "was (the)", "served as (a)",
  "was previously the" and before a preposition or the end of the clause ("was previously
  the Chief of Staff to", "was a Senator from"), or after "graduated in", "studied" … is
  DEM; so is a name NER read as a person after "was a" / "served as a" ("served as a
  Teachta Dála"); a language named before a name written in its script ("(Hangul: 송기원")
  is DEM;
- **a team named after its place**: a place-typed name right after what a player does with
  a team ("played for", "made … appearances for", "against", "joined", "traded to",
  "represented … at", "seasons with", "club") is the team, an organisation ("against Scotland",
  "traded to Kenosha"), and so is a place and a plural nickname NER read as a facility
  ("the Racine Belles"); a name NER read as a person after "played for",
  "returned to", "researcher with" is one too ("played for Velež Mostar"), and so are the
  other person-typed mentions of that name ("In 1998, Haka won the league");
- **an organisation's acronym**: a name only the parse found, written as an acronym
  ("LTTE") or followed by one in brackets ("Dravida Munnetra Kazhagam (DMK)"), is ORG;
- **a person's other name**: a name after "courtesy name", "spouse of", "credited as (X or)",
  "married name:" …, or after "known as" right after a person's name, is a person
  ("courtesy name Gongxiu"; not "a style known as Baroque"), and so is
  the name after "<the document's first name> or" ("Dathus or Datus, was …") and a name
  NER typed otherwise that is, elsewhere in the document, a linked person's ("Crystal
  Nicole signed");
- **an acronym in brackets** after a name retyped here takes its type ("Teachta Dála (TD)");
- **a decimal number** NER read as a product (".295") is a QUANTITY;
- **a list of works**: the capitalised names of a comma list that follows a work noun in
  the same sentence ("the television series MacGyver, Married... with Children, Tales from
  the Crypt, Roseanne, Melrose Place, Profiler") are works (MISC), where a name or a number
  inside a title ("Married... with Children", "Hamlet 2") breaks the plain list of
  :mod:`engine.detect.retype`.

No span changes its boundaries, none becomes a DATETIME, and a QUANTITY only when the
number parser accepts it (:func:`engine.detect.graph_types.parser_accepts`).

Each rule is a named rule of the detect stage; the teams' rules and words are the sport
pack's (``packs/sport/detect_teams.yaml``), the life-story cues the biography pack's.
"""

from __future__ import annotations

import re

from engine.detect.graph_types import parser_accepts
from engine.detect.retype import studied_before
from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule
from engine.types import EntityType

P, L, O, D, M = EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC

#: a name ending in an event's, an award's or a competition's head word ("Victoria Cross", "Super Bowl XLV")
_AWARD_HEAD = pattern("detect_events.named_event")
_TEAM_BEFORE = pattern("detect_teams.team_before")
#: "represented Bermuda at One Day International level" (a team), not "represented Kilkenny in the Dáil" (a place)
_REPRESENTED_BEFORE = pattern("detect_teams.represented_before")
_AT_AFTER = pattern("detect_teams.at_after")
_CLUB_BEFORE = pattern("detect_teams.club_before")
_NAME_BEFORE = pattern("detect_persons.other_name_before")
#: "known as" names a person only right after one ("Lt Gen Bilimoria, popularly known as 'General Billy'"),
#: not a style or a band ("a style known as Baroque")
_KNOWN_AS_BEFORE = pattern("detect_persons.known_as_before")
_STAGE_NAME_BEFORE = pattern("detect_persons.stage_name_before")
_WORK_NOUN = pattern("detect_works.work_noun")
#: a role after a copula ("was previously the Chief of Staff"); a field of study is :func:`engine.detect.retype.studied_before`
_ROLE_BEFORE = pattern("detect_careers.role_before")
#: what may follow a role ("Chief of Staff to", "Senator from", "Federal Deputy during"), not a noun it modifies
_ROLE_AFTER = pattern("detect_careers.role_end_after")
#: an indefinite article ending the words before a span ("served as a")
_INDEFINITE_END = pattern("detect_careers.indefinite_article_end")
#: what joins the subject's name to its other name ("Dathus or Datus")
_ALIAS_GAP = pattern("detect_persons.alias_gap")
#: a language or script named before a name written in it: "(Hangul: 송기원", "(simplified Chinese: 乐大克"
_SCRIPT_AFTER = re.compile(r":\s*[^\x00-\u024f\s]")
#: a team's name: a place and a plural nickname ("Racine Belles", "Brockville Magedomas")
_TEAM_NAME = re.compile(r"[A-Z][\w'’.-]+(?:\s[A-Z][\w'’.-]+)?\s[A-Z][a-z]+[^s\W]*s")
_DECIMAL = re.compile(r"[-+]?\d*[.,]\d+%?|\d+%")  # not a bare integer: "1991 Rugby World Cup" is a year
#: an organisation's acronym: "LTTE", or the acronym in brackets after its name ("Dravida Munnetra Kazhagam (DMK)")
_ACRONYM = re.compile(r"[A-Z]{3,6}")
_ACRONYM_AFTER = re.compile(r"\s*\([A-Z]{2,6}\)")
_ACRONYM_OF = re.compile(r"[A-Z][A-Za-z]?[A-Z]{1,6}")
_FULL_STOP = re.compile(r"[.!?]\s+[A-Z]|\n")
_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]|[;:()\n]")


def _before(text: str, s: DetectedSpan, width: int = 60) -> str:
    return text[max(0, s.start - width):s.start]


@rule("named-event-or-award", stage="detect", types=("MISC",), pack="core", off=False,
      purpose="a capitalised name ending in Award, Prize, Cup, War, Accords, Games … is an award, an event or an agreement, MISC")
def _named_event(s: DetectedSpan) -> bool:
    return len(s.text.split()) >= 2 and s.text[:1].isupper() and bool(_AWARD_HEAD.search(s.text))


@rule("role-after-copula", stage="detect", types=("DEM",), pack="biography", off=False,
      purpose="a capitalised MISC name after 'was (the)', 'served as' and before a preposition or the clause's end is a role, DEM")
def _role_after_copula(text: str, s: DetectedSpan, before: str) -> bool:
    return bool(_ROLE_BEFORE.search(before) and _ROLE_AFTER.match(text, s.end))


@rule("person-read-role", stage="detect", types=("DEM",), pack="biography", off=False,
      purpose="a name NER read as a person after 'was a', 'served as a' is a role, DEM: 'served as a Teachta Dála'")
def _person_read_role(s: DetectedSpan, before: str) -> bool:
    return "coref" not in s.sources and bool(_ROLE_BEFORE.search(before)) and bool(_INDEFINITE_END.search(before))


@rule("decimal-read-as-product", stage="detect", types=("QUANTITY",), pack="core", off=False,
      purpose="a decimal number or a percentage NER read as a product or a work is a quantity: '.295'")
def _decimal(s: DetectedSpan) -> bool:
    return bool(_DECIMAL.fullmatch(s.text))


@rule("acronym-organisation", stage="detect", types=("ORG",), pack="core", off=False,
      purpose="a name only the parse found, written as an acronym or followed by one in brackets, is an organisation")
def _acronym_organisation(text: str, s: DetectedSpan) -> bool:
    return s.sources == frozenset({"syntax"}) and bool(
        _ACRONYM.fullmatch(s.text) or s.text[:1].isupper() and _ACRONYM_AFTER.match(text, s.end))


@rule("language-before-script", stage="detect", types=("DEM",), pack="core", off=False,
      purpose="a name in brackets before ':' and a name in another script is the language or script, DEM: '(Hangul: 송기원'")
def _language_before_script(text: str, s: DetectedSpan) -> bool:
    return bool(_SCRIPT_AFTER.match(text, s.end)) and text[:s.start].count("(") > text[:s.start].count(")")


@rule("team-nickname", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a place and a plural nickname NER read as a facility or a location is a team: 'the Racine Belles'")
def _team_nickname(s: DetectedSpan) -> bool:
    return s.ner_label in ("FAC", "LOC") and bool(_TEAM_NAME.fullmatch(s.text))  # not a GPE: "Los Angeles"


@rule("team-named-after-place", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a place-typed name right after what a player does with a team ('played for', 'against', 'traded to') is the team")
def _team_after_verb(text: str, s: DetectedSpan, before: str) -> bool:
    return bool(_TEAM_BEFORE.search(before) or _REPRESENTED_BEFORE.search(before) and _AT_AFTER.match(text, s.end))


@rule("club-read-as-person", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a name NER read as a person after 'played for', 'returned to', 'researcher with' is a club: 'played for Velež Mostar'")
def _club_read_as_person(s: DetectedSpan, before: str) -> bool:
    return "coref" not in s.sources and bool(_CLUB_BEFORE.search(before))


@rule("other-name-of-person", stage="detect", types=("PERSON",), pack="biography", off=False,
      purpose="a name after 'courtesy name', 'spouse of', 'credited as', or 'known as' right after a person, is a person")
def _other_name(s: DetectedSpan, before: str, after_person: bool) -> bool:
    et = s.entity_type
    return (et in (O, D, M) and s.text[:1].isupper() and bool(
        _NAME_BEFORE.search(before) or after_person and _KNOWN_AS_BEFORE.search(before))
        or et is L and bool(_STAGE_NAME_BEFORE.search(before)))


def context_type(text: str, s: DetectedSpan, after_person: bool = False) -> EntityType | None:
    """The type the words around ``s`` give it, or None (``after_person``: a person's name
    ends shortly before it in its sentence)."""
    et = s.entity_type
    if et in (P, L, O, D) and _named_event(s):
        return M
    before = _before(text, s)
    if et is M and s.text[:1].isupper() and (studied_before(before) or _role_after_copula(text, s, before)):
        return D
    if et is P and _person_read_role(s, before):
        return D  # "served as a Teachta Dála", "was a Berlin Sturmführer"
    if et is M and _decimal(s):
        return EntityType.QUANTITY  # ".295" read as a product
    if et is M and _acronym_organisation(text, s):
        return O
    if et in (M, L, O) and _language_before_script(text, s):
        return D
    if et is L and _team_nickname(s):
        return O
    if et is L and _team_after_verb(text, s, before):
        return O
    if et is P and _club_read_as_person(s, before):
        return O
    if _other_name(s, before, after_person):
        return P
    return None


@rule("list-of-works-after-noun", stage="detect", types=("MISC",), pack="biography", off=frozenset(),
      purpose="the person- and organisation-typed names of a comma list after a work noun are works, titles with names or numbers in them too")
def _work_list(text: str, spans: list[DetectedSpan]) -> set[int]:
    """Indices of the person- or organisation-typed names in a list of works (see the module docstring)."""
    out: set[int] = set()
    i = 0
    while i < len(spans):
        s = spans[i]
        if not _WORK_NOUN.search(_before(text, s, 40)) or not s.text[:1].isupper():
            i += 1
            continue
        run, j = [i], i + 1
        while j < len(spans):
            gap = text[spans[j - 1].end:spans[j].start]
            if len(gap) > 12 or _SENTENCE_END.search(gap) or not (spans[j].text[:1].isupper() or spans[j].text[:1].isdigit()):
                break
            run.append(j)
            j += 1
        if len(run) >= 4 and sum("," in text[spans[a].end:spans[b].start] for a, b in zip(run, run[1:])) >= 2:
            out.update(k for k in run if spans[k].entity_type in (P, O) and "title" not in spans[k].sources)
        i = j
    return out


def context_retype(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with the rules of the module docstring applied."""
    works = _work_list(text, spans)
    out = []
    changed: dict[tuple[str, EntityType], EntityType] = {}
    for i, s in enumerate(spans):
        new = M if i in works else context_type(text, s, _after_person(text, spans, i))
        if new is not None and new is not s.entity_type and new is not EntityType.DATETIME and parser_accepts(s.text, new):
            changed.setdefault((s.text, s.entity_type), new)
            s = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
        out.append(s)
    # a linked person's name, but not one a rule here retyped ("returned to Haka", "In 1998, Haka won")
    persons = {s.text for s in out if s.entity_type is P and s.entity_id and (s.text, P) not in changed}
    for i, s in enumerate(out):
        new = changed.get((s.text, s.entity_type))
        if new is not None and s.entity_type is P and "coref" not in s.sources and _follows_retyped_name():
            pass  # one text, one type: the other person-typed mentions of a retyped name follow it ("Haka won")
        elif s.entity_type in (L, O, M) and (_linked_person_name(s, persons) or i and _alias_of_subject(text, out, i)):
            new = P  # the name of a linked person ("Crystal Nicole signed …"), the subject's other name ("Dathus or Datus")
        elif i and _acronym_of_retyped(text, spans, out, i):
            new = out[i - 1].entity_type  # "Teachta Dála (TD)": the acronym of a retyped name takes its type
        else:
            continue
        if new is not s.entity_type:
            out[i] = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
    return out


@rule("same-name-follows-retype", stage="detect", types=(), pack="core", off=False,
      purpose="the other person-typed mentions of a name a rule here retyped take its new type ('returned to Haka' … 'Haka won')")
def _follows_retyped_name() -> bool:
    return True


@rule("linked-person-name", stage="detect", types=("PERSON",), pack="core", off=False,
      purpose="a name typed a place, an organisation or a work whose text is, elsewhere in the document, a linked person's is the person")
def _linked_person_name(s: DetectedSpan, persons: set[str]) -> bool:
    return s.text in persons


@rule("acronym-of-retyped-name", stage="detect", types=(), pack="core", off=False,
      purpose="an acronym in brackets right after a name retyped here takes its type: 'Teachta Dála (TD)'")
def _acronym_of_retyped(text: str, spans: list[DetectedSpan], out: list[DetectedSpan], i: int) -> bool:
    s = out[i]
    return bool(_ACRONYM_OF.fullmatch(s.text)) and out[i - 1] is not spans[i - 1] and out[i - 1].entity_type in (D, O, M) \
        and text[out[i - 1].end:s.start].strip() == "(" and text[s.end:s.end + 1] == ")"


def _after_person(text: str, spans: list[DetectedSpan], i: int, width: int = 80) -> bool:
    """A person-typed span ends within ``width`` characters before ``spans[i]``, in its sentence."""
    s = spans[i]
    for p in reversed(spans[max(0, i - 4):i]):
        if p.entity_type is P and s.start - p.end <= width:
            return not _FULL_STOP.search(text, p.end, s.start)
    return False


@rule("subject-alias", stage="detect", types=("PERSON",), pack="biography", off=False,
      purpose="the name after '<the document's first name> or' is the subject's other name, a person: 'Dathus or Datus, was …'")
def _alias_of_subject(text: str, spans: list[DetectedSpan], i: int) -> bool:
    """``spans[i]`` follows "<the document's first name> or " in its first sentence ("Dathus or Datus, was …")."""
    first = spans[0]
    return (first.entity_type is P and not text[:first.start].strip() and i == 1
            and bool(_ALIAS_GAP.fullmatch(text[first.end:spans[i].start])) and spans[i].text[:1].isupper())
