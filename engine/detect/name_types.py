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

Each rule is a named rule of the detect stage; its words are pack entries (roles and
employers: ``packs/biography/detect_careers.yaml``; places, bodies and grammar words:
``packs/core/detect_*.yaml``).
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule, words
from engine.types import EntityType

P, L, O, D, M = EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC

#: head nouns of a position ("Speaker", "Commander", "Vice-Chairman"); singular only ("the Kansas City Chiefs" is a team)
ROLE_HEADS = words("detect_careers.role_heads")
_NER_TYPE = {"GPE": L, "LOC": L, "NORP": D}
#: what an employer follows ("worked for", "employed by", "joined")
_EMPLOYER_BEFORE = pattern("detect_careers.employer_before")
_SEASON_WITH = pattern("detect_teams.season_with")
_PLURAL_NAME = re.compile(r"[A-Z][a-z]+s")
_PLACE_APPOSITION = pattern("detect_places.place_apposition")
_ELECTED_FROM = pattern("detect_careers.elected_from")
_BORN_AT = pattern("detect_persons.born_at")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s*|\n\s*)$")
#: a legislature numbered by a Roman numeral or an ordinal ("LXI Legislature of the Mexican Congress")
_NUMBERED_LEGISLATURE = pattern("detect_organisations.numbered_legislature")
#: what a party does, after "the <Name>s" ("the Nazis came to power")
_PARTY_AFTER = pattern("detect_organisations.party_after")
_IN_BEFORE = pattern("detect_places.in_before")
#: articles that open a work's title ("The Last Emperor")
_ARTICLES = words("detect_grammar.capitalised_articles")
#: a capitalised "The" opening a name ("The Economist")
_THE_OPENING = pattern("detect_grammar.the_opening")
#: "the " right before a span (case as written: "the Nazis")
_THE_BEFORE = pattern("detect_grammar.the_before")
#: "the " right before a span, in any case ("The Republican …")
_THE_BEFORE_ANY_CASE = pattern("detect_grammar.the_before_any_case")
_TITLES = words("detect_persons.titles")


def _words(s: DetectedSpan) -> list[str]:
    return s.text.split()


def role_headed(name: str) -> bool:
    """``name`` is a capitalised title of two words or more whose head noun is a role (see the module docstring)."""
    words = name.split()
    if len(words) < 2 or words[0] in _ARTICLES:
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


@rule("role-headed-title", stage="detect", types=("DEM",), pack="biography", off=False,
      purpose="a capitalised name typed a body, a work or a place whose head noun is a role is the position: 'Speaker of the Parliament of Ghana'")
def _role_headed_title(s: DetectedSpan) -> bool:
    return s.ner_label != "WORK_OF_ART" and role_headed(s.text)


@rule("name-with-article", stage="detect", types=("ORG",), pack="core", off=False,
      purpose="a role-typed name written with a capitalised 'The' inside a sentence is a publication or a body: '– The Economist'")
def _name_with_article(s: DetectedSpan, before: str) -> bool:
    return bool(_THE_OPENING.match(s.text)) and not _SENTENCE_START.search(before)


@rule("employer-named-before", stage="detect", types=("ORG",), pack="biography", off=False,
      purpose="an unknown capitalised name after 'worked for', 'employed by', 'joined', 'hired by' is an organisation: 'worked for Equinor'")
def _employer_named_before(before: str) -> bool:
    return bool(_EMPLOYER_BEFORE.search(before))


@rule("season-with-team", stage="detect", types=("ORG",), pack="sport", off=False,
      purpose="a plural nickname after 'season(s) with the' is a team: 'one more season with the Riders'")
def _season_with_team(s: DetectedSpan, before: str) -> bool:
    return bool(_SEASON_WITH.search(before) and _PLURAL_NAME.fullmatch(s.text))


@rule("organisation-branch", stage="detect", types=("ORG",), pack="core", off=False,
      purpose="a place-typed capitalised name of two words or more matching two store items or more, the longest an organisation, is its branch")
def _organisation_branch(s: DetectedSpan) -> bool:
    return s.gaz_kind == "organisation" and len(s.items) >= 2 and len(_words(s)) >= 2 and "," not in s.text \
        and all(w[:1].isupper() for w in _words(s))


@rule("place-by-apposition-or-use", stage="detect", types=("LOC",), pack="core", off=False,
      purpose="an unlinked name followed by ', the state capital', ', a city', or one word after 'elected … from' or 'born <date>,' is a place")
def _place_by_apposition(text: str, s: DetectedSpan, before: str) -> bool:
    return bool(_PLACE_APPOSITION.match(text, s.end)
                or len(_words(s)) == 1 and (_ELECTED_FROM.search(before) or s.entity_type is M and _BORN_AT.search(before)))


@rule("party-in-power", stage="detect", types=("ORG",), pack="core", off=False,
      purpose="a plural group name after 'the' and before 'came to power', 'won the election' is the party: 'the Nazis came to power'")
def _party_in_power(text: str, s: DetectedSpan, before: str) -> bool:
    return s.text.endswith("s") and bool(_THE_BEFORE.search(before)) and bool(_PARTY_AFTER.match(text, s.end))


@rule("numbered-legislature", stage="detect", types=("MISC",), pack="core", off=False,
      purpose="a legislature numbered by a Roman numeral or an ordinal is a period of the body, MISC: 'LXI Legislature of the Mexican Congress'")
def _numbered_legislature(s: DetectedSpan) -> bool:
    return bool(_NUMBERED_LEGISLATURE.match(s.text))


@rule("person-after-in", stage="detect", types=("LOC",), pack="core", off=False,
      purpose="a person-typed name after 'in' or 'near', named nowhere else and not possessive, is a place: 'the squares in Donji Grad'")
def _person_after_in(text: str, s: DetectedSpan, before: str) -> bool:
    return bool(_IN_BEFORE.search(before)) and not re.match(r"['’]s\b", text[s.end:s.end + 2])


@rule("other-surname-in-brackets", stage="detect", types=("PERSON",), pack="core", off=False,
      purpose="a name only the parse found, in brackets right after a person's name, is the person's other surname: 'Johanna Hageman [Hargraves]'")
def _other_surname(text: str, spans: list[DetectedSpan], i: int) -> bool:
    s = spans[i]
    return not s.text.isupper() and s.sources == frozenset({"syntax"}) and bool(i) \
        and spans[i - 1].entity_type is P and text[spans[i - 1].end:s.start].strip() in ("[", "(") \
        and text[s.end:s.end + 1] in ("]", ")")


def name_type(text: str, spans: list[DetectedSpan], i: int) -> EntityType | None:
    """The type the rules of the module docstring give ``spans[i]``, or None."""
    s = spans[i]
    et = s.entity_type
    before = text[max(0, s.start - 80):s.start]
    capital = s.text[:1].isupper()
    if et in (O, M, L) and _role_headed_title(s):
        return D
    if et is D and _name_with_article(s, before):
        return O
    if capital and et is M and _unknown(s) and (_employer_named_before(before) or _season_with_team(s, before)):
        return O
    if capital and et is P and _unknown(s) and "coref" not in s.sources and len(_words(s)) == 1 \
            and _once(spans, s) and _employer_named_before(before):
        return O
    if et is L and _organisation_branch(s):
        return O
    if capital and et in (O, M, P) and "coref" not in s.sources and not s.items and _once(spans, s) \
            and _place_by_apposition(text, s, before):
        return L
    if et is D and capital and _party_in_power(text, s, before):
        return O
    if et is O and _numbered_legislature(s):
        return M
    if et is P and capital and "coref" not in s.sources and _once(spans, s) and _person_after_in(text, s, before):
        return L
    if et is M and capital and _other_surname(text, spans, i):
        return P
    return None


@rule("stylised-person-name", stage="detect", types=("PERSON",), pack="core", off=False,
      purpose="one word of a linked person's name written in another case is the person's: 'YiDA' for 'Yida Huang'")
def _stylised(s: DetectedSpan, person_words: set[str]) -> bool:
    """``s`` is one word of a linked person's name written in another case ("YiDA" for "Yida Huang")."""
    return s.entity_type in (M, O) and " " not in s.text and s.text.casefold() in person_words \
        and not s.text.istitle() and not s.text.islower()


@rule("titled-person", stage="detect", types=("PERSON",), pack="core", off=False,
      purpose="a title and the surname of a linked person is the person: 'President Nixon' after 'President Richard Nixon'")
def _titled_person(s: DetectedSpan, surnames: set[str]) -> bool:
    """``s`` is a title and the surname of a linked person ("President Nixon")."""
    words = _words(s)
    return len(words) >= 2 and words[-1] in surnames and " ".join(words[:-1]) in _TITLES


@rule("no-person-left", stage="detect", types=(), pack="core", off=None,
      purpose="a one-word name the person linker made a person only as a word of another name, no longer a person, takes its NER type back")
def _no_person_left(text: str, spans: list[DetectedSpan], s: DetectedSpan) -> EntityType | None:
    """The NER type of a person-typed span only the person linker made one (see the module docstring)."""
    if s.entity_type is not P or "coref" not in s.sources or s.ner_label not in _NER_TYPE or " " in s.text:
        return None
    if s.ner_label == "NORP" and _THE_BEFORE_ANY_CASE.fullmatch(text[max(0, s.start - 4):s.start]) \
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
