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
- **a code read whole**: a span that a code expression of :mod:`engine.detect.rules` reads whole
  (a telephone number, an e-mail address) is a CODE, whatever NER read ("0171 2345678" as a date);
- **one text, one type**: a text retyped by a rule is retyped the same way wherever else
  it occurs in the document as a person (the six mentions of the state "Wei").

Each rule is a named rule of the detect stage (``taxogen rules list``); its cue words are
entries of the packs (``packs/core/detect_*.yaml``, ``packs/biography/detect_works.yaml``,
``detect_careers.yaml``; the clubs' heads of ``packs/sport``).
"""

from __future__ import annotations

import re

from engine.detect.rules import code_matches
from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule, words
from engine.types import EntityType

P, L, O, D, M, Q, T = (EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM,
                       EntityType.MISC, EntityType.QUANTITY, EntityType.DATETIME)

#: words right before a person-typed span that make it a place / a work / a field of study
_PLACE_BEFORE = pattern("detect_places.place_before")
_WORK_BEFORE = pattern("detect_works.work_before")
#: a list of works announced a few words before its first member ("11 albums, including Sans plus attendre, …")
_LIST_CUE = pattern("detect_works.list_cue")
#: words before a field of study ("studied Law", "degree in Political Science")
STUDY_BEFORE = pattern("detect_careers.study_before")
_YEAR_AFTER = re.compile(r"\s*\((?:\d{4})\)")
_LIST_SEP = pattern("detect_grammar.list_gap_with_ampersand")
_ORG_HEADS = words("detect_organisations.heads")
_CLUB_PREFIXES = words("detect_teams.club_prefixes")
_NUMBER_WORDS = words("detect_numbers.numerals_in_names")
_YEAR_RANGE = pattern("detect_dates.year_range_shape")
_MONTH_YEAR = pattern("detect_dates.month_and_year")
_RANGE_WORD = pattern("detect_dates.year_after_range_word")
_YEAR_BEFORE = pattern("detect_dates.year_word_before")
_NOUN_AFTER = pattern("detect_dates.counted_noun_after")  # "1500 people": a number counting something
_DATE_WORD = pattern("detect_dates.date_word_near")
_ORG_OF = pattern("detect_organisations.head_of")
_TEAM_BEFORE = pattern("teams.team_before")


def _before(text: str, span: DetectedSpan, width: int = 48) -> str:
    return text[max(0, span.start - width):span.start]


@rule("work-named-before", stage="detect", types=("MISC",), pack="biography", off=False,
      purpose="a person- or organisation-typed name right after a kind of work is a work: 'the film Mortal Kombat', 'starred in'")
def work_named_before(before: str) -> bool:
    return bool(_WORK_BEFORE.search(before))


@rule("field-of-study-before", stage="detect", types=("DEM",), pack="biography", off=False,
      purpose="a name right after 'studied', 'degree in', 'majored in' is a field of study, DEM")
def studied_before(before: str) -> bool:
    return bool(STUDY_BEFORE.search(before))


@rule("place-named-before", stage="detect", types=("LOC",), pack="core", off=False,
      purpose="a person-typed name right after 'the state of', 'regent of', 'born in', 'near' is a place")
def place_named_before(before: str) -> bool:
    return bool(_PLACE_BEFORE.search(before))


@rule("team-named-before", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a person-typed name right after someone plays or signs for it, signs with it, is transferred to it or begins a career with it is a team, an organisation: 'to play for Club Nueva', 'began his career with Sud Vale' (not 'played with', which persons are too)")
def team_named_before(before: str) -> bool:
    return bool(_TEAM_BEFORE.search(before))


def _context_type(text: str, s: DetectedSpan) -> EntityType | None:
    """Place / work / field of study / team from the words before a person-typed span."""
    before = _before(text, s)
    if work_named_before(before):
        return M
    if team_named_before(before) and not text.startswith(("'s", "’s"), s.end):  # "signed with Ana Ruiz's agency"
        return O
    if studied_before(before):
        return D
    if place_named_before(before):
        return L
    return None


def _is_work(text: str, s: DetectedSpan) -> bool:
    quoted = s.start > 0 and text[s.start - 1] in "\"“" and text[s.end:s.end + 1] in ("\"", "”")
    return quoted or bool(_YEAR_AFTER.match(text, s.end))


@rule("quoted-or-dated-work", stage="detect", types=("MISC",), pack="biography", off=False,
      purpose="a person- or organisation-typed name in quotes or followed by a year in brackets is a work: 'Blade (1998)'")
def quoted_or_dated_work(text: str, s: DetectedSpan) -> bool:
    return _is_work(text, s) and "title" not in s.sources


@rule("position-of-place", stage="detect", types=("DEM",), pack="biography", off=False,
      purpose="a person-typed '<position> of <Name>' is the position, DEM: 'Chief Minister of Tamil Nadu', 'Bishop of Ravenna'")
def _position_of_place(s: DetectedSpan) -> bool:
    if " of " not in s.text:
        return False
    head = s.text.split(" of ", 1)[0]
    has_role = s.gaz_kind in ("position", "occupation") or any(i.startswith(("DEM:position", "DEM:occupation")) for i in s.inner)
    return has_role and bool(head) and head[:1].isupper()



def _org_head(s: DetectedSpan) -> bool:
    words = s.text.replace(",", " ").split()
    # a club's prefix may follow a numeral ("1. FC Magdeburg")
    return len(words) >= 2 and (words[-1] in _ORG_HEADS or any(w in _CLUB_PREFIXES for w in words[:2])
                                or bool(_ORG_OF.search(s.text)))


@rule("organisation-head-word", stage="detect", types=("ORG",), pack="core", off=False,
      purpose="a person- or place-typed name ending in FC, School, Party, Federation … or holding 'School of' is an organisation")
def _organisation_named(s: DetectedSpan) -> bool:
    return _org_head(s)


def org_head(s: DetectedSpan) -> bool:
    """The span is a name ending in an organisation's head word ("Neath RFC", "Croatian
    Football Federation") or holding "School of", "College of" …"""
    return _org_head(s)


@rule("year-typed-as-number", stage="detect", types=("DATETIME",), pack="core", off=False,
      purpose="a number typed QUANTITY that is a year or a year range by its shape and context is a date: '1992–93', 'in 2011', 'between 251 and 258'")
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
    return bool(_DATE_WORD.search(window))


@rule("number-word-in-name", stage="detect", types=("MISC",), pack="core", off=False,
      purpose="a quantity inside a capitalised name is part of the name, MISC: 'Three Kingdoms', 'Five Nations'")
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


@rule("code-read-whole", stage="detect", types=("CODE",), pack="core", off=False,
      purpose="a span a code expression reads whole (a telephone number, an e-mail address) is a code, whatever type NER gave it: '0171 2345678' is no date")
def _code_read_whole(s: DetectedSpan) -> bool:
    return any(i.startswith(f"{EntityType.CODE.value}:") for i in s.inner) \
        and any(a == 0 and b == len(s.text) for a, b, _ in code_matches(s.text))


def retype_span(text: str, s: DetectedSpan, years: frozenset[int] = frozenset()) -> EntityType | None:
    """The corrected entity type of one span, or None when no rule applies."""
    et = s.entity_type
    if et is not EntityType.CODE and _code_read_whole(s):
        return EntityType.CODE
    if et in (P, O):
        if et is P and (ctx := _context_type(text, s)) is not None:
            return ctx
        if et is O and work_named_before(_before(text, s)):
            return M
        if quoted_or_dated_work(text, s):
            return M
        if et is P and _position_of_place(s):
            return D
    if et in (P, L) and _organisation_named(s):
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
    for follow in (_list_of_works, _work_translation):
        out = follow(text, spans, out) or out
    return _same_text_same_type(out, changed) or out


@rule("list-of-works", stage="detect", types=("MISC",), pack="biography", off=None,
      purpose="the person- and organisation-typed members of a comma list with a work in it, or announced as works, are works too")
def _list_of_works(text: str, spans: list[DetectedSpan], out: list[DetectedSpan]) -> list[DetectedSpan]:
    """``out`` with the members of a list of works retyped MISC ("Dreams, Threesome, The Craft, Dick")."""
    out = list(out)
    for chain in _list_chains(text, out):
        first = out[chain[0]]
        if _WORK_BEFORE.search(_before(text, first)) or _LIST_CUE.search(_before(text, first)) or any(
                out[i].entity_type is M and (_is_work(text, out[i]) or out[i] is not spans[i]) for i in chain):
            for i in chain:
                if out[i].entity_type in (P, O) and "title" not in out[i].sources:
                    out[i] = _set(out[i], M)
    return out


@rule("work-translation-in-brackets", stage="detect", types=("MISC",), pack="biography", off=None,
      purpose="a name in brackets right after a retyped work is its translation or alias, a work too: 'Chou Nan Ren' (Jerk)")
def _work_translation(text: str, spans: list[DetectedSpan], out: list[DetectedSpan]) -> list[DetectedSpan]:
    out = list(out)
    for i in range(1, len(out)):
        if out[i].entity_type in (P, O) and out[i - 1].entity_type is M and out[i - 1] is not spans[i - 1] \
                and re.fullmatch(r"[\"”]?\s*\(", text[out[i - 1].end:out[i].start]) and text[out[i].end:out[i].end + 1] == ")":
            out[i] = _set(out[i], M)
    return out


@rule("same-text-same-type", stage="detect", types=(), pack="core", off=None,
      purpose="a text a rule retyped from PERSON is retyped the same way wherever else it is typed PERSON in the document")
def _same_text_same_type(out: list[DetectedSpan], changed: dict[str, EntityType]) -> list[DetectedSpan]:
    return [_set(s, changed[s.text]) if s.entity_type is P and s.text in changed else s for s in out]


def _set(s: DetectedSpan, new: EntityType) -> DetectedSpan:
    return s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
