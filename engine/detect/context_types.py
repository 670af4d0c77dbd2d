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
"""

from __future__ import annotations

import re

from engine.detect.graph_types import parser_accepts
from engine.detect.retype import STUDY_BEFORE
from engine.detect.spans import DetectedSpan
from engine.types import EntityType

P, L, O, D, M = EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC

_AWARD_HEAD = re.compile(
    r"\s(?:Awards?|Trophy|Prize|Medal|Cross|Cup|Bowl|Olympics|War|Accords?|Championships?|Games|Hall of Fame)"
    r"(?:\s(?:[IVXLC]+|\d{4}))?$")
#: what a player does with a team, right before its name
_TEAM_VERBS = (r"(?:played|playing|plays|signed|appeared|appearances|debut|début|captained|goals|caps|matches|games|"
               r"season|seasons|innings)\s+(?:[\w'’]+\s+){0,3}?for")
_TEAM_BEFORE = re.compile(
    rf"\b(?:{_TEAM_VERBS}|against|joined|to join|returned to|transferred to|traded to|"
    r"(?:seasons?|years|spell|career) with|(?:club|side)|(?:club|team)s? such as)\s+(?:the\s+)?(?:newly promoted\s+)?$",
    re.I)
#: "represented Bermuda at One Day International level" (a team), not "represented Kilkenny in the Dáil" (a place)
_REPRESENTED_BEFORE = re.compile(r"\brepresent(?:ed|ing|s)\s+(?:the\s+)?$", re.I)
_AT_AFTER = re.compile(r"\s+at\b")
_CLUB_BEFORE = re.compile(
    rf"\b(?:{_TEAM_VERBS}|returned to|transferred to|traded to|researcher with|contributor to)\s+(?:the\s+)?$", re.I)
_NAME_BEFORE = re.compile(
    r"\b(?:courtesy name|spouse of|wife of|husband of|credited as|stage name|married name:?|pen name)\s+[\"'“]?"
    r"(?:[^\s,;()]+(?:\s[^\s,;()]+)?\s+or\s+[\"'“]?)?$", re.I)
#: "known as" names a person only right after one ("Lt Gen Bilimoria, popularly known as 'General Billy'"),
#: not a style or a band ("a style known as Baroque")
_KNOWN_AS_BEFORE = re.compile(r"\bknown as\s+[\"'“]?$", re.I)
_STAGE_NAME_BEFORE = re.compile(r"\b(?:stage name|pen name|credited as|married name:?)\s+[\"'“]?$", re.I)
_WORK_NOUN = re.compile(
    r"\b(?:films?|movies?|(?:television |TV )?series|sitcoms?|shows?|albums?|singles?|songs?|novels?|books?|plays|operas?)"
    r"\s+(?:such as\s+|including\s+)?$", re.I)
#: a role after a copula ("was previously the Chief of Staff"); a field of study is :data:`engine.detect.retype.STUDY_BEFORE`
_ROLE_BEFORE = re.compile(
    r"\b(?:was|is|became|served as|appointed|elected|named)\s+(?:(?:a|an|the)\s+)?(?:(?:previously|former|current|"
    r"first|then|later)\s+(?:the\s+)?)?$", re.I)
#: what may follow a role ("Chief of Staff to", "Senator from", "Federal Deputy during"), not a noun it modifies
_ROLE_AFTER = re.compile(r"\s*(?:[.,;:()]|$|(?:to|of|in|from|during|for|at|under|until|since|with)\b)")
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


def context_type(text: str, s: DetectedSpan, after_person: bool = False) -> EntityType | None:
    """The type the words around ``s`` give it, or None (``after_person``: a person's name
    ends shortly before it in its sentence)."""
    et = s.entity_type
    words = s.text.split()
    if et in (P, L, O, D) and len(words) >= 2 and s.text[:1].isupper() and _AWARD_HEAD.search(s.text):
        return M
    before = _before(text, s)
    if et is M and s.text[:1].isupper() and (
            STUDY_BEFORE.search(before) or _ROLE_BEFORE.search(before) and _ROLE_AFTER.match(text, s.end)):
        return D
    if et is P and "coref" not in s.sources and _ROLE_BEFORE.search(before) and before.rstrip().endswith((" a", " an")):
        return D  # "served as a Teachta Dála", "was a Berlin Sturmführer"
    if et is M and _DECIMAL.fullmatch(s.text):
        return EntityType.QUANTITY  # ".295" read as a product
    if et is M and s.sources == frozenset({"syntax"}) and (
            _ACRONYM.fullmatch(s.text) or s.text[:1].isupper() and _ACRONYM_AFTER.match(text, s.end)):
        return O
    if et in (M, L, O) and _SCRIPT_AFTER.match(text, s.end) and text[:s.start].count("(") > text[:s.start].count(")"):
        return D
    if et is L and s.ner_label in ("FAC", "LOC") and _TEAM_NAME.fullmatch(s.text):  # not a GPE: "Los Angeles"
        return O
    if et is L and (_TEAM_BEFORE.search(before) or _REPRESENTED_BEFORE.search(before) and _AT_AFTER.match(text, s.end)):
        return O
    if et is P and "coref" not in s.sources and _CLUB_BEFORE.search(before):
        return O
    if et in (O, D, M) and s.text[:1].isupper() and (
            _NAME_BEFORE.search(before) or after_person and _KNOWN_AS_BEFORE.search(before)) \
            or et is L and _STAGE_NAME_BEFORE.search(before):
        return P
    return None


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
        if new is not None and s.entity_type is P and "coref" not in s.sources:
            pass  # one text, one type: the other person-typed mentions of a retyped name follow it ("Haka won")
        elif s.entity_type in (L, O, M) and (s.text in persons or i and _alias_of_subject(text, out, i)):
            new = P  # the name of a linked person ("Crystal Nicole signed …"), the subject's other name ("Dathus or Datus")
        elif i and _ACRONYM_OF.fullmatch(s.text) and out[i - 1] is not spans[i - 1] and out[i - 1].entity_type in (D, O, M) \
                and text[out[i - 1].end:s.start].strip() == "(" and text[s.end:s.end + 1] == ")":
            new = out[i - 1].entity_type  # "Teachta Dála (TD)": the acronym of a retyped name takes its type
        else:
            continue
        if new is not s.entity_type:
            out[i] = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
    return out


def _after_person(text: str, spans: list[DetectedSpan], i: int, width: int = 80) -> bool:
    """A person-typed span ends within ``width`` characters before ``spans[i]``, in its sentence."""
    s = spans[i]
    for p in reversed(spans[max(0, i - 4):i]):
        if p.entity_type is P and s.start - p.end <= width:
            return not _FULL_STOP.search(text, p.end, s.start)
    return False


def _alias_of_subject(text: str, spans: list[DetectedSpan], i: int) -> bool:
    """``spans[i]`` follows "<the document's first name> or " in its first sentence ("Dathus or Datus, was …")."""
    first = spans[0]
    return (first.entity_type is P and not text[:first.start].strip() and i == 1
            and text[first.end:spans[i].start] == " or " and spans[i].text[:1].isupper())
