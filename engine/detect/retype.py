"""Retyping merged candidate spans: general rules for the entity types NER gets wrong.

The entity type picks the replacement ladder, so a state typed PERSON becomes "PERSON 2"
and a name with a number in it becomes "X". Measured with the type accuracy of
``taxogen evaluate detection``; each rule is one function of the text around a span and
the evidence the span carries (NER label, gazetteer kind, merged-in spans):

- **context words before a person-typed span**: "the state of Wei", "regent of Wei",
  "born in Darnall" → LOC; "the film Mortal Kombat", "the series MacGyver" → MISC;
  "studied Law" → DEM (a field of study);
- **a work**: a person- or organisation-typed span in quotes ("His song "Jerk""), followed
  by a year in brackets ("Blade (1998)") → MISC; the
  other person/organisation members of the same comma list take MISC too ("Dreams,
  Threesome, The Craft, Dick, Nancy Drew"), and so does a name in brackets right after a
  retyped work (its translation: "Chou Nan Ren" (Jerk));
- **a position of a place**: a person-typed "<position> of <Name>" ("Chief Minister of Tamil
  Nadu", "Bishop of Ravenna") → DEM;
- **an organisation's head word**: a person- or place-typed span ending in FC, RFC, School,
  College, Institute, Club, Party … or holding "School of", "College of" … → ORG;
- **numbers**: a year or year range typed QUANTITY ("1992–93", "in 2011", "between 251 and
  258", "April 258", "in 255" in a document dated 258) → DATETIME, without a leading
  "between"/"from"; a quantity inside a name ("Three Kingdoms", "Five Nations",
  "Pet Sematary Two") → MISC;
- **one text, one type**: a text retyped by a rule is retyped the same way wherever else
  it occurs in the document as a person (the six mentions of the state "Wei").
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.types import EntityType

P, L, O, D, M, Q, T = (EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM,
                       EntityType.MISC, EntityType.QUANTITY, EntityType.DATETIME)

#: words right before a person-typed span that make it a place / a work / a field of study
_PLACE_BEFORE = re.compile(
    r"\b(?:(?:state|kingdom|empire|dynasty|city|province|county|town|village|region|duchy|republic|rulers?|regent|capital|"
    r"emperor|king|queen|governor|mayor|people|army|court)\s+of|born\s+in|near)\s+(?:the\s+)?$", re.I)
_WORK_BEFORE = re.compile(
    r"\b(?:film|films|movie|movies|series|sitcom|show|shows|album|albums|single|singles|song|songs|novel|novels|book|books|"
    r"play|opera|soundtrack|(?:films|movies|series|shows|songs|albums|singles|novels|books),? (?:such as|including)|"
    r"starred in|appeared in)\s*[\"“]?$", re.I)
#: a list of works announced a few words before its first member ("11 albums, including Sans plus attendre, …")
_LIST_CUE = re.compile(r"\b(?:films|movies|series|shows|songs|albums|singles|novels|books|plays|operas),?\s+(?:such as|including)\b[^.;:]*$", re.I)
#: words before a field of study ("studied Law", "degree in Political Science")
STUDY_BEFORE = re.compile(r"\b(?:studied|studying|study of|degree in|majored in|major in|diploma in|graduated in)\s+$", re.I)
_YEAR_AFTER = re.compile(r"\s*\((?:\d{4})\)")
_LIST_SEP = re.compile(r"^(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+)$")
_ORG_HEADS = frozenset("""FC RFC AFC CF SC AC United Rovers Wanderers School College University Institute Academy Club
Party Company Corporation Inc Inc. Ltd Ltd. Association Society Council Committee Board Band Orchestra Church Hospital Bank
Records Studios Federation League Union Commission Agency Ministry Department Force Forces""".split())
_NUMBER_WORDS = frozenset("""one two three four five six seven eight nine ten eleven twelve twenty hundred thousand first
second third fourth fifth sixth seventh eighth ninth tenth""".split())
_MONTHS = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_YEAR_RANGE = re.compile(r"\d{4}\s*[–—/-]\s*\d{2,4}")
_MONTH_YEAR = re.compile(rf"(?:c\.\s*)?{_MONTHS}\s+\d{{1,4}}", re.I)
_RANGE_WORD = re.compile(r"(?:between|from|c\.|circa|about|around)\s+(\d{1,4})", re.I)
_YEAR_BEFORE = re.compile(r"\b(?:in|since|until|till|by|from|between|c\.|circa|during|and|to|of)\s+$", re.I)
_NOUN_AFTER = re.compile(r"\s+(?!(?:and|or|to|in|at|on|as|when|with|after|before)\b)[a-z]")  # "1500 people": a number counting something


def _before(text: str, span: DetectedSpan, width: int = 48) -> str:
    return text[max(0, span.start - width):span.start]


def _context_type(text: str, s: DetectedSpan) -> EntityType | None:
    """Place / work / field of study from the words before a person-typed span."""
    before = _before(text, s)
    if _WORK_BEFORE.search(before):
        return M
    if STUDY_BEFORE.search(before):
        return D
    if _PLACE_BEFORE.search(before):
        return L
    return None


def _is_work(text: str, s: DetectedSpan) -> bool:
    quoted = s.start > 0 and text[s.start - 1] in "\"“" and text[s.end:s.end + 1] in ("\"", "”")
    return quoted or bool(_YEAR_AFTER.match(text, s.end))


def _position_of_place(s: DetectedSpan) -> bool:
    if " of " not in s.text:
        return False
    head = s.text.split(" of ", 1)[0]
    has_role = s.gaz_kind in ("position", "occupation") or any(i.startswith(("DEM:position", "DEM:occupation")) for i in s.inner)
    return has_role and bool(head) and head[:1].isupper()


_ORG_OF = re.compile(r"\b(?:School|College|University|Institute|Academy|Conservatory|Conservatoire|Society|Museum) of\b")


def _org_head(s: DetectedSpan) -> bool:
    words = s.text.replace(",", " ").split()
    # a club's prefix may follow a numeral ("1. FC Magdeburg")
    return len(words) >= 2 and (words[-1] in _ORG_HEADS or any(w in ("FC", "AFC", "SC", "AC") for w in words[:2])
                                or bool(_ORG_OF.search(s.text)))


def org_head(s: DetectedSpan) -> bool:
    """The span is a name ending in an organisation's head word ("Neath RFC", "Croatian
    Football Federation") or holding "School of", "College of" …"""
    return _org_head(s)


def _year_like(text: str, s: DetectedSpan, years: frozenset[int] = frozenset()) -> bool:
    """A number typed QUANTITY that is a year or a year range by its shape and context."""
    t = s.text.strip()
    if _YEAR_RANGE.fullmatch(t) or _MONTH_YEAR.fullmatch(t):
        return True
    m = _RANGE_WORD.fullmatch(t)
    digits = m.group(1) if m else (t if t.isdigit() else None)
    if digits is None or not 3 <= len(digits) <= 4 or int(digits) > 2100:
        return False
    if _WORK_BEFORE.search(_before(text, s).rstrip(", ")):  # "her debut album, 1000"
        return False
    if _NOUN_AFTER.match(text, s.end):
        return False
    if len(digits) == 4 and int(digits) >= 1000:
        return True
    # a 3-digit number: a year only next to a date word or another year ("between 251 and 258")
    return bool(m) or bool(_YEAR_BEFORE.search(_before(text, s, 16))) and _near_year(text, s, int(digits), years)


def _near_year(text: str, s: DetectedSpan, value: int, years: frozenset[int]) -> bool:
    """A date word around the number, or a year of the document's dates within 50 of it."""
    if any(abs(value - y) <= 50 for y in years):
        return True
    window = text[max(0, s.start - 40):s.end + 40]
    return bool(re.search(rf"\b(?:{_MONTHS}|between|died|born|reign|period|century|AD|BC|CE)\b", window, re.I))


def _quantity_in_name(s: DetectedSpan) -> bool:
    words = s.text.split()
    if len(words) < 2:
        return False
    caps = [w for w in words if w[:1].isupper()]
    names = [w for w in caps if w.lower().strip(".,") not in _NUMBER_WORDS]
    return len(caps) == len(words) and bool(names)


def _doc_years(spans: list[DetectedSpan]) -> frozenset[int]:
    """The years written in the document's date spans ("April 258" → 258)."""
    return frozenset(int(n) for s in spans if s.entity_type is T or _MONTH_YEAR.fullmatch(s.text.strip())
                     for n in re.findall(r"\b\d{3,4}\b", s.text) if int(n) <= 2100)


def retype_span(text: str, s: DetectedSpan, years: frozenset[int] = frozenset()) -> EntityType | None:
    """The corrected entity type of one span, or None when no rule applies."""
    et = s.entity_type
    if et in (P, O):
        if et is P and (ctx := _context_type(text, s)) is not None:
            return ctx
        if et is O and _WORK_BEFORE.search(_before(text, s)):
            return M
        if _is_work(text, s) and "title" not in s.sources:
            return M
        if et is P and _position_of_place(s):
            return D
    if et in (P, L) and _org_head(s):
        return O
    if et is Q:
        if _year_like(text, s, years):
            return T
        if _quantity_in_name(s):
            return M
    return None


def _list_chains(text: str, spans: list[DetectedSpan]) -> list[list[int]]:
    """Runs of spans separated only by commas / "and" (indices into ``spans``)."""
    chains: list[list[int]] = []
    for i, s in enumerate(spans):
        if i and _LIST_SEP.match(text[spans[i - 1].end:s.start]) and chains:
            chains[-1].append(i)
        else:
            chains.append([i])
    return [c for c in chains if len(c) >= 3]


def retype(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with their entity types corrected by the rules of the module docstring
    (a retyped span keeps its former type in ``retyped_from``)."""
    out = list(spans)
    changed: dict[str, EntityType] = {}
    years = _doc_years(spans)
    for i, s in enumerate(out):
        new = retype_span(text, s, years)
        if new is not None and new is not s.entity_type:
            out[i] = _set(s, new)
            if new is T and (m := _RANGE_WORD.fullmatch(s.text.strip())):  # "between 251" → "251"
                start = s.start + s.text.index(m.group(1))
                out[i] = out[i].with_(start=start, text=text[start:s.end])
            if s.entity_type is P:
                changed.setdefault(s.text, new)
    # a list with a work in it: its person/organisation members are works too
    for chain in _list_chains(text, out):
        first = out[chain[0]]
        if _WORK_BEFORE.search(_before(text, first)) or _LIST_CUE.search(_before(text, first)) or any(
                out[i].entity_type is M and (_is_work(text, out[i]) or out[i] is not spans[i]) for i in chain):
            for i in chain:
                if out[i].entity_type in (P, O) and "title" not in out[i].sources:
                    out[i] = _set(out[i], M)
    # a name in brackets right after a work is its translation or alias ("Chou Nan Ren" (Jerk))
    for i in range(1, len(out)):
        if out[i].entity_type in (P, O) and out[i - 1].entity_type is M and out[i - 1] is not spans[i - 1] \
                and re.fullmatch(r"[\"”]?\s*\(", text[out[i - 1].end:out[i].start]) and text[out[i].end:out[i].end + 1] == ")":
            out[i] = _set(out[i], M)
    # one text, one type: the other person-typed mentions of a retyped text follow it
    for i, s in enumerate(out):
        if s.entity_type is P and s.text in changed:
            out[i] = _set(s, changed[s.text])
    return out


def _set(s: DetectedSpan, new: EntityType) -> DetectedSpan:
    return s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
