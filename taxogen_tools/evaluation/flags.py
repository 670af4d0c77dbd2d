"""Readability flags: named awkward constructions found in sanitized text.

The detectors read only the final text, where each replacement sits in it
(:class:`Region`) and which replacements the annotators say name one person. They share
no code with the rendering (``engine.render.readability``, ``engine.pipeline``): the
measurement is not the implementation.

Each pattern is named after the awkward construction it catches:

``born date in …``         a raw date rung after a word that is not a preposition or
                           "a"/"an" ("born date in the 20th century", "following the
                           date in the 1970s election")
``In date in …``           a raw date rung after a preposition ("In date in the 2010s")
``Date in … (start)``      a raw date rung opening a sentence
``DATE ***``               the DATE placeholder followed by ``***`` ("sentenced to DATE ***")
``*** ***``                two masks side by side
``a *** noun``             ``***`` in a modifier slot ("a *** earth scientist")
``class label modifier``   a class label in a modifier slot ("an ethnic group politician")
``missing article``        a singular class label after a preposition, copula, "and" or
                           "or" with no determiner ("Born in city of the United States",
                           "for *** and university")
``the class label``        "the" before a class label ("by the state of India", "at the university")
``adjacent replacements``  two replacements with only spaces between them
                           ("date in the 2000s state of India")
``class before PERSON``    a class label right before a person placeholder
                           ("a position PERSON 2")
``class of class``         two class labels joined by "of" ("a profession of a position")
``decade modifier``        a decade in the modifier slot of a definite noun phrase
                           ("at the 2010s general election")
``repeated period``        one period twice across a range ("from the 1940s through the
                           1940s": two dates of one decade, each generalized on its own)
``*** (***)``              masks joined only by brackets ("the *** (***) ***": a name, its
                           abbreviation and what follows, all masked)
``decade before a name``   a decade between "the" and a name ("at the 2010s World Taekwondo
                           Championships")
``PERSON modifier``        a person placeholder in a modifier slot ("the PERSON 2 science
                           fiction film", "a landlord PERSON 2 family")
``year in its period``     a range from a year kept as written to the period that holds it
                           ("from 2012 to the 2010s")
``*** beside a period``    a masked date listed with a period ("in the *** and the 2000s")
``class, ***``             a class label, then a mask closing the phrase ("living in a country, ***")
``***, class``             a mask, then a class label in apposition ("held in ***, a country,")
``class in a list of masks`` a list of three or more replacements mixing class labels and masks
                           ("cities like a municipality, ***, *** and ***")
``profession as a person`` "profession" or "occupation" where the person's role stood ("he has
                           been a profession of the ***", "an actress, former profession,
                           singer"); not after a possessive ("his profession")
``*** and later modifier`` a mask or class joined by "and"/"or" to another modifier of one noun
                           ("a *** and later Bosnian footballer")
``in seasons in …``        a plural time noun between "in" and a period ("in *** in seasons in the
                           1940s": a collapsed "between the 1943 and 1949 seasons")
``former PERSON``          a word that qualifies a title before a person placeholder ("lost to
                           former PERSON 3": the title was merged into the person)
``*** before a name's noun`` a bare mask after a preposition, then capitalised words and their
                           lower-case noun ("on *** Best Seller list": the span's "The" is gone)
``to later in …``          "to" before an adverbial period ("from 1945 to later in the 1940s": "to"
                           wants a noun phrase; "until later in the 1940s" reads)
``chained range``          one range running on into another ("from the 2000s to the 2010s to the
                           2020s": two terms, 2007–2011 and 2015–2020, read as one span)
``native name numbered apart`` a person's name in another script, in brackets after the
                           name, numbered as another person ("PERSON 1 (Persian: PERSON 2, born …)")
``mask inside a word``     a mask glued to letters ("Listed a***": the annotated span began inside
                           the word "at")
``*** before a determiner`` a mask between a preposition and a determiner with its own mask
                           ("complicity in *** the ***": a masked verb)
``clause cut by a mask``   a conjunction that needs a clause, then only a determiner and a mask
                           ("when his ***.": the annotators masked the rest of the clause)
``the PERSON``             a determiner before a person placeholder ("was the PERSON 1 (the 1800s)",
                           "the PERSON 2–PERSON 3 constituency": a title or a place annotated as
                           the person)

The last five come from annotated spans more than from our rendering; they are counted
because a reader stumbles over them all the same.

``partial-name numbering`` mentions of one person (same annotated entity) given different
                           numbers ("Hussein" = PERSON 5, "Saddam Hussein" = PERSON 4)
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

from engine.render.phrase import NEEDS_ITS_MODIFIER, PARTICIPLE_ENDS

FLAG_NAMES = (
    "born date in …", "In date in …", "Date in … (start)", "DATE ***", "*** ***", "a *** noun",
    "class label modifier", "missing article", "the class label", "adjacent replacements",
    "class before PERSON", "class of class", "decade modifier", "repeated period", "*** (***)",
    "decade before a name", "PERSON modifier", "year in its period", "*** beside a period", "class, ***",
    "***, class", "class in a list of masks", "profession as a person", "*** and later modifier",
    "in seasons in …", "former PERSON",
    "*** before a name's noun", "to later in …", "chained range", "native name numbered apart",
    "mask inside a word", "*** before a determiner", "clause cut by a mask", "the PERSON",
    "partial-name numbering",
)

MASK = "***"
PREPOSITIONS = frozenset(
    "in on at by since from until till during of to after before between around circa near into onto "
    "through throughout within outside inside over under for with without as than like via per "
    "against among amongst toward towards upon alongside beside besides beyond despite except versus".split()
)
COPULAS = frozenset("is was are were be been being became become becomes".split())
_CONJUNCTIONS = frozenset(("and", "or"))  # "for *** and university"
DETERMINERS = frozenset("a an the his her their its our my your this that these those another any each every some no".split())
def _participle_then_preposition(word: str, rest: str) -> bool:
    """A participle followed by a preposition ("known for", "written by"): it follows the
    noun, it is no noun the replacement modifies."""
    nxt = re.match(r"\s+([a-z]+)", rest)
    return word.lower().endswith(PARTICIPLE_ENDS.in_order()) and bool(nxt) and nxt.group(1) in PREPOSITIONS


#: Words that may follow a noun phrase without it being a modifier (closed classes and
#: frequent verbs of biographies).
FOLLOWERS = PREPOSITIONS | COPULAS | DETERMINERS | frozenset(
    "and or but nor so yet who whom whose which that where when while because although though if "
    "has have had having does did do will would shall should can could may might must not also "
    "he she it they we i you him them himself herself itself themselves there then thus "
    "won lost made took gave went came left moved joined played served held led ran wrote said "
    "received married died born lived worked studied taught became remained returned founded "
    "put set sent got began saw met found built brought fought read spoke broke chose drove grew knew rose "
    "stood told thought threw wore beat bore sold paid kept felt meant "
    "until unless whereas whether both either neither only even just still already again more less "
    "today tomorrow yesterday tonight".split()
)
_PERSON = re.compile(r"PERSON(\s+(\d+|X))?")
_WORD_BEFORE = re.compile(r"(\w+)[ \t]+$")
_WORD_AFTER = re.compile(r"^[ \t]+([A-Za-z][\w-]*)")
_PERIOD = re.compile(r"(?:the\s+)?(\d{1,4}0s|\d+(?:st|nd|rd|th)[ -]century|\d+(?:st|nd|rd|th)[ -]millennium)")
_RANGE_GAP = re.compile(r"\s*(?:through|to|until|till|and|or|[–—-])\s*(?:the\s+)?", re.IGNORECASE)
_BRACKET_GAP = re.compile(r"\s*[()\[\]]\s*|\s*\)\s*\(\s*")
_YEAR_TO = re.compile(r"\b(\d{4})\s*(?:\s(?:to|until|till|through)\s|[–—-])\s*(?:the\s+)?$")
_ROLE_AS_CATEGORY = re.compile(r"\b(?:been|was|is|became|as)\s+(?:an?|the)\s+(?:[a-z]+\s+)?(?:profession|occupation)\s+(?:of|at|for|with)\b")
_LIST_GAP = re.compile(r"\s*,?\s*(?:and|or)\s*")  # "and"/"or": a bare comma joins clauses too
_COORDINATED = re.compile(
    r"[ \t]+(?:and|or)[ \t]+(?:(?:later|then|now|subsequently|formerly|eventually|also)[ \t]+)?"
    r"([A-Za-z][\w'’-]*)[ \t]+(?!PERSON\b)([a-z][\w'’-]*)"
)
_NAME_THEN_NOUN = re.compile(r"(?:[ \t]+(?!PERSON\b)[A-Z][\w'’.-]*)+[ \t]+([a-z][\w'’-]*)")
#: "PERSON 1 (Persian: PERSON 2" — a language or script label, then a placeholder.
_NATIVE_NAME = re.compile(r"PERSON (\d+),?\s*\((?:[A-Z][\w-]*(?: [A-Za-z][\w-]*)?):\s*PERSON (\d+)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(*])")


@dataclass(frozen=True, slots=True)
class Region:
    """Where one replacement sits in the sanitized text."""

    start: int
    end: int
    entity_type: str = ""


@dataclass(frozen=True, slots=True)
class Flag:
    """One awkward construction at ``start``–``end`` of the sanitized text."""

    name: str
    start: int
    end: int


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence (a simple splitter of its own)."""
    out, left = [], 0
    for m in _SENTENCE_END.finditer(text):
        out.append((left, m.start()))
        left = m.end()
    if left < len(text):
        out.append((left, len(text)))
    return [(a, b) for a, b in out if text[a:b].strip()]


def is_class_label(label: str) -> bool:
    """A lower-case common-noun phrase (not a date phrase, number, mask or placeholder:
    "age X" and "X years" are rule outputs with a number placeholder)."""
    label = label.strip()
    if not label or not label[0].islower() or any(ch.isdigit() for ch in label) or re.search(r"\bX\b", label):
        return False
    return not label.lower().startswith(("date in", "the ", "a ", "an "))


def _head_is_plural(label: str) -> bool:
    words = label.split()
    for i, w in enumerate(words):
        if i and w in ("in", "of", "with", "from", "for", "by"):
            words = words[:i]
            break
    head = words[-1] if words else ""
    return head.endswith("s") and not head.endswith(("ss", "us", "is"))


def _text_flags(text: str) -> list[Flag]:
    flags = []
    for m in re.finditer(r"\b(\w+)\s+date in the\b", text):
        word = m.group(1).lower()
        if word in ("a", "an"):  # "a date in the 1980s" reads; "the date in the 1970s election" does not
            continue
        name = "In date in …" if word in PREPOSITIONS else "born date in …"
        flags.append(Flag(name, m.start(), m.end()))
    for m in re.finditer(r"(?:^|(?<=[.!?]\s))\s*Date in the\b", text):
        flags.append(Flag("Date in … (start)", m.start(), m.end()))
    for m in re.finditer(r"\bDATE\s+\*\*\*", text):
        flags.append(Flag("DATE ***", m.start(), m.end()))
    for m in re.finditer(r"\*\*\*[ \t]+\*\*\*", text):
        flags.append(Flag("*** ***", m.start(), m.end()))
    for m in _ROLE_AS_CATEGORY.finditer(text):
        flags.append(Flag("profession as a person", m.start(), m.end()))
    for m in re.finditer(r"\b(?:to|through)\s+later\s+in\s+the\b", text):
        flags.append(Flag("to later in …", m.start(), m.end()))
    for m in re.finditer(r"\bfrom\s+(?:the\s+)?\d\w*\s+to\s+(?:the\s+)?\d\w*\s+to\s+(?:the\s+)?\d", text):
        flags.append(Flag("chained range", m.start(), m.end()))
    for m in _NATIVE_NAME.finditer(text):
        if m.group(1) != m.group(2):
            flags.append(Flag("native name numbered apart", m.start(), m.end()))
    for m in re.finditer(r"[A-Za-z]\*\*\*|\*\*\*[A-Za-z]", text):
        flags.append(Flag("mask inside a word", m.start(), m.end()))
    for m in re.finditer(r"\b(?:in|of|by|for|with|from|on|at|to)\s+\*\*\*\s+(?:the|a|an|his|her|their|its)\s+(?:\*\*\*|PERSON\b)", text):
        flags.append(Flag("*** before a determiner", m.start(), m.end()))
    for m in re.finditer(r"\b(?:when|while|because|although|though|whereas)\s+(?:his|her|their|its|the|a|an)\s+\*\*\*\s*(?:[.;,]|$)", text):
        flags.append(Flag("clause cut by a mask", m.start(), m.end()))
    for m in re.finditer(r"\b(?:[Tt]he|an?|An?)\s+PERSON\s+\d+", text):
        flags.append(Flag("the PERSON", m.start(), m.end()))
    for m in re.finditer(r"\bin\s+(?:seasons|years)\s+in\s+the\s+\d", text):
        flags.append(Flag("in seasons in …", m.start(), m.end()))
    for m in re.finditer(r"\b(?:[Ff]ormer|[Oo]utgoing|[Ii]ncumbent)\s+PERSON\b|\b(?:[Tt]hen|[Ee]x)-PERSON\b", text):
        flags.append(Flag("former PERSON", m.start(), m.end()))
    return flags


def _region_flags(text: str, regions: Sequence[Region]) -> list[Flag]:
    flags = []
    ordered = sorted(regions, key=lambda r: r.start)
    for i, r in enumerate(ordered):
        label = text[r.start:r.end]
        window_start = max(0, r.start - 40)
        before = _WORD_BEFORE.search(text[window_start:r.start])
        prev = before.group(1) if before else ""
        prev_start = window_start + before.start(1) if before else r.start
        after = _WORD_AFTER.match(text[r.end:r.end + 40])
        nxt = after.group(1) if after else ""
        modifier_slot = bool(nxt) and nxt[0].islower() and nxt.lower() not in FOLLOWERS and not nxt.endswith(("ed", "ly")) \
            and not _participle_then_preposition(nxt, text[r.end + after.end():r.end + after.end() + 20])
        if label == MASK and modifier_slot and nxt.lower() not in NEEDS_ITS_MODIFIER:  # "of *** descent" reads
            flags.append(Flag("a *** noun", r.start, r.end + after.end()))
        if prev.lower() == "the" and re.fullmatch(r"\d{1,4}0s", label) and nxt[:1].isupper() and nxt != "PERSON":
            flags.append(Flag("decade before a name", prev_start, r.end + after.end()))
        person_slot = bool(nxt) and nxt[0].islower() and nxt.lower() not in FOLLOWERS and not nxt.endswith("ed")  # "family"
        if _PERSON.fullmatch(label) and person_slot and prev and (
                prev.lower() in ("the", "a", "an") or (prev.islower() and prev not in FOLLOWERS and _only_noun(nxt))):
            flags.append(Flag("PERSON modifier", prev_start, r.end + after.end()))
        year = _YEAR_TO.search(text[max(0, r.start - 30):r.start])
        decade = re.fullmatch(r"(?:the\s+)?(\d{1,3})0s", label)
        if year and decade and year.group(1)[:-1] == decade.group(1):
            flags.append(Flag("year in its period", r.start - len(year.group(0)), r.end))
        if prev.lower() == "the" and modifier_slot and re.fullmatch(r"\d{1,4}0s", label):
            flags.append(Flag("decade modifier", prev_start, r.end + after.end()))
        if is_class_label(label):
            if modifier_slot:
                flags.append(Flag("class label modifier", r.start, r.end + after.end()))
            if prev.lower() in PREPOSITIONS | COPULAS | _CONJUNCTIONS and not _head_is_plural(label):
                flags.append(Flag("missing article", prev_start, r.end))
            if prev.lower() == "the":
                flags.append(Flag("the class label", prev_start, r.end))
        coordinated = _COORDINATED.match(text, r.end) if label == MASK or is_class_label(label) else None
        if coordinated and prev.lower() in ("a", "an", "the") and not {coordinated.group(1).lower(), coordinated.group(2)} & FOLLOWERS:
            flags.append(Flag("*** and later modifier", prev_start, r.end))
        if label == MASK and prev.lower() in PREPOSITIONS:
            name_noun = _NAME_THEN_NOUN.match(text, r.end)
            if name_noun and name_noun.group(1).lower() not in FOLLOWERS and not name_noun.group(1).endswith(("ed", "ly")):
                flags.append(Flag("*** before a name's noun", prev_start, name_noun.end()))
        if label in ("profession", "occupation") and prev.lower() not in ("his", "her", "their", "its", "my", "our", "your"):
            flags.append(Flag("profession as a person", r.start, r.end))
        if i + 1 < len(ordered):
            nxt_r = ordered[i + 1]
            gap = text[r.end:nxt_r.start]
            nxt_label = text[nxt_r.start:nxt_r.end]
            shown = bool(label) and bool(nxt_label)  # an empty region (a dropped modifier) shows nothing
            # "got *** X times", "toured the *** more than once" (a count, the object before it)
            times = (nxt_label in ("X", "multiple") and re.match(r"[ \t]+times?\b", text[nxt_r.end:nxt_r.end + 7])) \
                or re.fullmatch(r"(?:X|multiple) times?|more than once", nxt_label)
            if shown and nxt_r.start >= r.end and not gap.strip() and not (label == MASK and nxt_label == MASK) and not times:
                flags.append(Flag("adjacent replacements", r.start, nxt_r.end))
            if is_class_label(label) and _PERSON.fullmatch(nxt_label) and not gap.strip():
                flags.append(Flag("class before PERSON", r.start, nxt_r.end))
            if is_class_label(label) and is_class_label(nxt_label) and re.fullmatch(r"\s+of\s+((a|an|the)\s+)?", gap):
                flags.append(Flag("class of class", r.start, nxt_r.end))
            p1, p2 = _PERIOD.fullmatch(label), _PERIOD.fullmatch(nxt_label)
            if p1 and p2 and p1.group(1) == p2.group(1) and _RANGE_GAP.fullmatch(gap):
                flags.append(Flag("repeated period", r.start, nxt_r.end))
            if label == MASK and nxt_label == MASK and _BRACKET_GAP.fullmatch(gap):
                flags.append(Flag("*** (***)", r.start, nxt_r.end))
            dates = {r.entity_type, nxt_r.entity_type} <= {"DATETIME", ""}
            if dates and _LIST_GAP.fullmatch(gap) and ((label == MASK and p2) or (p1 and nxt_label == MASK)):
                flags.append(Flag("*** beside a period", r.start, nxt_r.end))
            if is_class_label(label) and nxt_label == MASK and gap == ", " and re.match(r"\s*(?:[.;!?]|$)", text[nxt_r.end:nxt_r.end + 2]):
                flags.append(Flag("class, ***", r.start, nxt_r.end))
            if label == MASK and is_class_label(nxt_label) and re.fullmatch(r", (?:an? |the )?", gap) and re.match(r"\s*(?:[.,;!?]|$)", text[nxt_r.end:nxt_r.end + 2]):
                flags.append(Flag("***, class", r.start, nxt_r.end))
    flags.extend(_mixed_lists(text, ordered))
    return flags


_ITEM_GAP = re.compile(r"\s*(?:,|,?\s*and|,?\s*or)\s*(?:(?:an?|the)\s+)?")


def _mixed_lists(text: str, ordered: Sequence[Region]) -> list[Flag]:
    """Lists of three or more replacements (joined by commas, "and", "or") that mix class
    labels and masks."""
    flags: list[Flag] = []
    run: list[Region] = []

    def close() -> None:
        labels = [text[x.start:x.end] for x in run]
        if len(run) >= 3 and MASK in labels and any(is_class_label(x) for x in labels):
            flags.append(Flag("class in a list of masks", run[0].start, run[-1].end))

    for r in ordered:
        if run and r.start >= run[-1].end and _ITEM_GAP.fullmatch(text[run[-1].end:r.start]):
            run.append(r)
            continue
        close()
        run = [r]
    close()
    return flags


def _only_noun(word: str) -> bool:
    """The word can only be a noun or adjective ("family"; not "attends", "maintain",
    "previously"), by lemminflect's lexicon; an unknown word counts as a noun."""
    from lemminflect import getAllLemmas

    tags = set(getAllLemmas(word.lower()))
    return not tags or not tags & {"VERB", "AUX", "ADV"}


def numbering_flags(text: str, persons: Iterable[tuple[Region, str]]) -> list[Flag]:
    """``persons``: (region of a PERSON replacement, annotated entity key). Every region of
    an entity whose replacements differ is flagged."""
    by_entity: dict[str, list[Region]] = defaultdict(list)
    for region, entity in persons:
        by_entity[entity].append(region)
    flags = []
    for regions in by_entity.values():
        regions = [r for r in regions if r.end > r.start]  # a dropped modifier shows no number
        shown = {text[r.start:r.end] for r in regions}
        if len(shown) > 1:
            flags.extend(Flag("partial-name numbering", r.start, r.end) for r in regions)
    return flags


def flag_text(text: str, regions: Sequence[Region], persons: Iterable[tuple[Region, str]] = ()) -> list[Flag]:
    """Every flagged construction of a sanitized text, in text order."""
    flags = _text_flags(text) + _region_flags(text, regions) + numbering_flags(text, persons)
    return sorted(flags, key=lambda f: (f.start, f.name))


@dataclass
class SentenceCounts:
    sentences: int
    with_replacement: int
    flagged: int
    flagged_with_replacement: int


def count_sentences(text: str, regions: Sequence[Region], flags: Sequence[Flag]) -> SentenceCounts:
    """How many sentences there are, hold a replacement, and hold a flag."""
    spans = sentences(text)
    with_rep = flagged = both = 0
    for a, b in spans:
        has_rep = any(r.start < b and r.end > a for r in regions)
        has_flag = any(f.start < b and f.end > a for f in flags)
        with_rep += has_rep
        flagged += has_flag
        both += has_rep and has_flag
    return SentenceCounts(len(spans), with_rep, flagged, both)
