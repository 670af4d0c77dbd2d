"""Entity types from a name's own words and the phrase it sits in, applied last.

After :mod:`engine.detect.usage_types`, each rule one function of a span's text, the words
around it and its neighbours; a retyped span keeps the layers' type in ``retyped_from``
(the masking decision reads that one), and no span changes its boundaries:

- **a title headed by a role**: a capitalised name of two words or more typed as a body, a
  work or a place whose head noun (its last word before "of", or its last word) is a role
  ("Speaker of the Parliament of Ghana", "Deputy Head of Mission", "Central Army
  Commander") is the position, DEM; not a work's title ("The Last Emperor");
- **a name with its article**: a role-typed name written with a capitalised "The" inside a
  sentence ("– The Economist, 14 September 1996") is a publication or a body, ORG;
- **an employer**: a capitalised name no store item carries, typed MISC (or a one-word
  person named nowhere else) after "worked for", "employed by", "joined", "hired by" … is
  an organisation ("She worked for Equinor"; not "worked for John Smith"); so is a plural
  nickname after "season(s) with the" ("one more season with the Riders");
- **a branch**: a place-typed capitalised name of two words or more, no list, that matches
  two store items or more, the longest an organisation ("Sony Taiwan"), is the
  organisation's branch, ORG;
- **a place by its apposition or its use**: an unlinked name followed by ", the (state)
  capital", ", a city" …, or a bare name after "elected … from" or "born <date>," is a
  place ("Hermosillo, the state capital", "elected … from Theni", "born 1946, Vichy");
- **a party in power**: a plural group name after "the", before "came to power", "seized
  power", "won the election" ("the Nazis came to power") is the party, ORG;
- **a numbered legislature** ("LXI Legislature of the Mexican Congress", "8th Parliament")
  is a period of the body, MISC, as in :mod:`engine.detect.usage_types`;
- **a person-typed name after "in"**, named nowhere else, is a place ("the squares in Donji
  Grad"; not "in Smith's book");
- **a person's name in another case** ("YiDA" for "Yida Huang") is the person's;
- **a person's other surname** in brackets right after a person's name ("Johanna Hageman
  [Hargraves]") is the person's, PERSON;
- **a title and a linked person's surname** ("President Nixon" after "President Richard
  Nixon") is the person, PERSON;
- **no person left**: a name the person linker made a person only because it is a word of
  another name ("Berlin" of "Berlin Sturmführer", now a role), one word NER read as a place
  whose cluster's other spans are no longer persons, takes its NER type back; a
  nationality NER read between "the" and a lower-case word ("the Republican presidential
  primary") is DEM.
"""

from __future__ import annotations

import re

from engine.detect.coref.persons import TITLES
from engine.detect.spans import DetectedSpan
from engine.types import EntityType

P, L, O, D, M = EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC

#: head nouns of a position ("Speaker", "Commander", "Vice-Chairman"); singular only ("the Kansas City Chiefs" is a team)
ROLE_HEADS = frozenset(
    """speaker president vice-president chairman vice-chairman chairwoman chairperson chair commander minister secretary
    governor mayor ambassador head deputy director member chancellor premier consul consul-general representative
    senator commissioner emperor empress king queen prince princess duke duchess leader officer admiral marshal judge
    justice attorney treasurer registrar rector dean provost bishop archbishop envoy counsellor councillor
    lieutenant-governor viceroy regent sheriff comptroller""".split())
_NER_TYPE = {"GPE": L, "LOC": L, "NORP": D}
#: what an employer follows ("worked for", "employed by", "joined")
_EMPLOYER_BEFORE = re.compile(
    r"\b(?:work(?:ed|s|ing)?\s+(?:for|at)|employed\s+(?:by|at)|hired\s+by|joined|join|joining|"
    r"signed\s+with|recruited\s+by)\s+(?:the\s+)?$", re.I)
_SEASON_WITH = re.compile(r"\b(?:seasons?|years|spell|stint)\s+with\s+the\s+$", re.I)
_PLURAL_NAME = re.compile(r"[A-Z][a-z]+s")
_PLACE_APPOSITION = re.compile(
    r",\s+(?:the|a|an)\s+(?:(?:state|provincial|regional|national|county|district|federal|former|small|large|coastal)\s+)?"
    r"(?:capital|city|town|village|municipality|county seat|suburb|port|commune|hamlet)\b", re.I)
_ELECTED_FROM = re.compile(r"\belected\b[^.;()]{0,80}\bfrom\s+$", re.I)
_BORN_AT = re.compile(r"\bborn\s+[^(),;.]{1,25},\s*$", re.I)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s*|\n\s*)$")
#: a legislature numbered by a Roman numeral or an ordinal ("LXI Legislature of the Mexican Congress")
_NUMBERED_LEGISLATURE = re.compile(
    r"(?:[IVXLC]{2,}|\d+(?:st|nd|rd|th))\s+(?:Legislature|Parliament|Congress|Dáil|Assembly|Session)\b")
#: what a party does, after "the <Name>s" ("the Nazis came to power")
_PARTY_AFTER = re.compile(r"\s+(?:came|come|comes|coming|rose|took|seized|returned)\s+(?:to\s+)?power\b|\s+won\s+the\s+election")
_IN_BEFORE = re.compile(r"\b(?:in|near)\s+$")


def _words(s: DetectedSpan) -> list[str]:
    return s.text.split()


def role_headed(name: str) -> bool:
    """``name`` is a capitalised title of two words or more whose head noun is a role (see the module docstring)."""
    words = name.split()
    if len(words) < 2 or words[0] in ("The", "A", "An"):
        return False
    head = name.split(" of ", 1)[0].split()
    if not head or not all(w[:1].isupper() for w in head):
        return False
    return head[-1].casefold() in ROLE_HEADS


def _unknown(s: DetectedSpan) -> bool:
    """No store item carries the span."""
    return not s.items and "gazetteer" not in s.sources


def _once(spans: list[DetectedSpan], s: DetectedSpan) -> bool:
    return not s.entity_id or sum(x.entity_id == s.entity_id for x in spans) == 1


def name_type(text: str, spans: list[DetectedSpan], i: int) -> EntityType | None:
    """The type the rules of the module docstring give ``spans[i]``, or None."""
    s = spans[i]
    et = s.entity_type
    before = text[max(0, s.start - 80):s.start]
    capital = s.text[:1].isupper()
    if et in (O, M, L) and s.ner_label != "WORK_OF_ART" and role_headed(s.text):
        return D
    if et is D and s.text.startswith("The ") and not _SENTENCE_START.search(before):
        return O
    if capital and et is M and _unknown(s) and (_EMPLOYER_BEFORE.search(before)
                                               or _SEASON_WITH.search(before) and _PLURAL_NAME.fullmatch(s.text)):
        return O
    if capital and et is P and _unknown(s) and "coref" not in s.sources and len(_words(s)) == 1 \
            and _once(spans, s) and _EMPLOYER_BEFORE.search(before):
        return O
    if et is L and s.gaz_kind == "organisation" and len(s.items) >= 2 and len(_words(s)) >= 2 and "," not in s.text \
            and all(w[:1].isupper() for w in _words(s)):
        return O
    if capital and et in (O, M, P) and "coref" not in s.sources and not s.items and _once(spans, s) and (
            _PLACE_APPOSITION.match(text, s.end)
            or len(_words(s)) == 1 and (_ELECTED_FROM.search(before) or et is M and _BORN_AT.search(before))):
        return L
    if et is D and capital and s.text.endswith("s") and before.endswith("the ") and _PARTY_AFTER.match(text, s.end):
        return O
    if et is O and _NUMBERED_LEGISLATURE.match(s.text):
        return M
    if et is P and capital and "coref" not in s.sources and _once(spans, s) and _IN_BEFORE.search(before) \
            and not re.match(r"['’]s\b", text[s.end:s.end + 2]):
        return L
    if et is M and capital and not s.text.isupper() and s.sources == frozenset({"syntax"}) and i \
            and spans[i - 1].entity_type is P and text[spans[i - 1].end:s.start].strip() in ("[", "(") \
            and text[s.end:s.end + 1] in ("]", ")"):
        return P
    return None


def _stylised(s: DetectedSpan, person_words: set[str]) -> bool:
    """``s`` is one word of a linked person's name written in another case ("YiDA" for "Yida Huang")."""
    return s.entity_type in (M, O) and " " not in s.text and s.text.casefold() in person_words \
        and not s.text.istitle() and not s.text.islower()


def _titled_person(s: DetectedSpan, surnames: set[str]) -> bool:
    """``s`` is a title and the surname of a linked person ("President Nixon")."""
    words = _words(s)
    return len(words) >= 2 and words[-1] in surnames and " ".join(words[:-1]) in TITLES


def _no_person_left(text: str, spans: list[DetectedSpan], s: DetectedSpan) -> EntityType | None:
    """The NER type of a person-typed span only the person linker made one (see the module docstring)."""
    if s.entity_type is not P or "coref" not in s.sources or s.ner_label not in ("GPE", "LOC", "NORP") or " " in s.text:
        return None
    if s.ner_label == "NORP" and text[max(0, s.start - 4):s.start].casefold() == "the " \
            and re.match(r"\s+[a-z]", text[s.end:s.end + 3]):
        return D
    cluster = [x for x in spans if x is not s and x.entity_id == s.entity_id]
    if cluster and not any(x.entity_type is P for x in cluster):
        return _NER_TYPE[s.ner_label]
    return None


def name_retype(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with the rules of the module docstring applied."""
    surnames = {s.text.split()[-1] for s in spans if s.entity_type is P and s.entity_id and len(_words(s)) >= 2}
    person_words = {w.casefold() for s in spans if s.entity_type is P and s.entity_id and " " in s.text
                    for w in s.text.split() if len(w) >= 3}
    out = []
    for i, s in enumerate(spans):
        new = name_type(text, spans, i)
        if new is None and _stylised(s, person_words):
            new = P
        if new is None and s.entity_type in (D, M) and _titled_person(s, surnames):
            new = P
        if new is None:
            new = _no_person_left(text, spans, s)
        if new is not None and new is not s.entity_type:
            s = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
        out.append(s)
    return out
