"""Rendering one chosen rung as a phrase that fits its slot in the sentence.

A ladder rung is a label ("date in the 1980s", "city of the United States", "***",
"PERSON 2"); the reader needs a phrase. :func:`kind_of` sorts rungs into kinds, and
:func:`render_phrase` turns a rung into the phrase for its slot, given the output so far
(``before``) and the original text after the mention (``after``):

=====================  ====================================================================
slot                   phrase
=====================  ====================================================================
date after a           "in the 2010s" (in, during, since, from, until, by, to, of, …:
preposition            ``date in the`` → ``the``); "on"/"at" become "in" ("On date in the
                       2010s," → "In the 2010s,")
date after a word      "born in the 1980s" ("in" inserted)
date at the start      "In the 2010s"
date after a           "the 2000s season", "his 20th-century work"
determiner
"between" range        "between 1988 and 1990" → "between the 1980s and the 1990s" (no
                       doubled "between"); after "from": "from the 1980s to the 1990s"
class label            an article where English needs one: "born in a city of the United
                       States", "by the state of India" → "by a state of India", "an [city]"
                       → "a [city]", "at the start" → "A city …"; plural heads take none
``***`` or a class     dropped ("a *** earth scientist" → "an earth scientist", "an ethnic
label as a modifier    group politician" → "a politician"): a modifier says little, and a
                       class label in that slot is not English
=====================  ====================================================================

Words are classified with lemminflect's English lexicon (is the next word a noun or
adjective, or a verb? is a noun plural?) — a small pure-Python library that ships its
lexicon and loads in under a second; articles follow the spelling rules of
:func:`engine.text.articles.indefinite_article` ("an MP", "a university", "an hour").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from kg.vocab import TAXONOMY_PROPS

from engine.render.readability import at_sentence_start, capitalise
from engine.text.articles import indefinite_article
from engine.types import MASK, Candidate

_PERSON = re.compile(r"PERSON(?: \d+| X)?")


class RungKind(str, Enum):
    """How a rung reads in a sentence."""

    MASK = "mask"
    PERSON = "person"
    DATE_PHRASE = "date phrase"   # "date in the 1980s", "date in the 20th century"
    DATE_RANGE = "date range"     # "between the 1980s and the 1990s"
    DATE = "date"                 # "1919", "April 1919", "DATE", "X years"
    CLASS = "class"               # a common-noun class label from the graph
    OTHER = "other"               # rule placeholders: "X", "X km", codes


def kind_of(label: str, candidate: Candidate | None, entity_type: str = "") -> RungKind:
    """The kind of a rung (``candidate`` gives its source; None for a forced ``***``)."""
    if label == MASK:
        return RungKind.MASK
    if _PERSON.fullmatch(label):
        return RungKind.PERSON
    if label.startswith("date in the "):
        return RungKind.DATE_PHRASE
    if label.startswith("between the ") and (candidate is None or candidate.source == "datetime"):
        return RungKind.DATE_RANGE
    if candidate is not None and candidate.source in TAXONOMY_PROPS and _common_noun_phrase(label):
        return RungKind.CLASS
    if entity_type == "DATETIME" or (candidate is not None and candidate.source == "datetime"):
        return RungKind.DATE
    return RungKind.OTHER


def _common_noun_phrase(label: str) -> bool:
    """A class label: lower case, or a lower-case head after a proper adjective
    ("Mediterranean country", "Populated place in Nepal"; not "North America")."""
    words = label.split()
    if not words:
        return False
    if label[:1].islower():
        return True
    head = words[0]
    for w in words[1:]:
        if w in PREPOSITIONS:
            break
        head = w
    return head[:1].islower()


# --- words ---------------------------------------------------------------------------------
PREPOSITIONS = frozenset(
    "in on at by since from until till during of to after before between around circa near into onto upon "
    "through throughout within outside inside over under for with without as than like via per towards toward "
    "against among amongst across along behind beyond despite except".split()
)
COPULAS = frozenset("is was are were be been being became become becomes remained remains".split())
DETERMINERS = frozenset(
    "a an the his her their its our my your this that these those another any each every some no".split()
)
#: Auxiliaries that, after a noun phrase, make it the subject of their clause ("[a] team has won").
AUXILIARIES = frozenset("has had have will would could did does can should may might must".split())
#: The words after a noun phrase that make it their clause's subject.
SUBJECT_VERBS = COPULAS | AUXILIARIES
#: After these a singular class label needs an article ("born in [a] city").
NEEDS_ARTICLE_AFTER = PREPOSITIONS | COPULAS
#: Prepositions after which "date in the 1980s" reads as "the 1980s".
DATE_PREPOSITIONS = frozenset(
    "in during since from until till by to before after around circa between through throughout of within "
    "c ca and or than into".split()
)
#: Closed-class words (prepositions, copulas, determiners, pronouns, conjunctions, …): never a noun.
CLOSED_WORDS = PREPOSITIONS | COPULAS | DETERMINERS | frozenset(
    "and or but nor so yet who whom whose which that where when while because although though if unless "
    "whereas whether both either neither has have had having do does did will would shall should can could "
    "may might must not also he she it they we i you him them me us himself herself itself themselves there "
    "then thus only even just still already again too very more most less least such same other own "
    "here now later ago once twice alone today tomorrow yesterday tonight".split()
)
#: A year kept as written, then the word that ends a range at the replacement ("from 2012 to ").
_YEAR_TO = re.compile(r"\b(\d{4})[ \t]+(?:to|until|till|through)[ \t]+$")
_OBJECT_START = DETERMINERS | frozenset("him her them it me us himself herself themselves".split())


def _pos(word: str) -> frozenset[str]:
    return frozenset(_lemmas(word))


#: Nouns that say nothing without the modifier before them: "of Romani *descent*" reads "of
#: *** descent", not "of descent".
NEEDS_ITS_MODIFIER = frozenset({"descent", "origin", "origins", "ancestry", "heritage", "extraction", "background"})
#: Endings of past participles ("known", "based", "written", "born").
PARTICIPLE_ENDS = ("ed", "wn", "rn", "tten", "ken", "ven", "sen")


def is_noun_like(word: str, following: str = "") -> bool:
    """Whether ``word`` (lower case, after a replacement) is a noun or adjective the
    replacement would modify, rather than a verb, adverb or function word.

    ``following`` is the word after it: a plural-looking word that can also be a verb is
    taken as the verb when an object follows ("*** plays the …").
    """
    w = word.lower().strip("'’")
    if not w or not w[0].isalpha() or w in CLOSED_WORDS:
        return False
    if "-" in w.strip("-") and w.split("-")[-1].endswith(("ing", "ed", "born", "based", "time", "old")):
        return True  # a compound adjective: "award-winning", "Oslo-based", "one-time"
    parts = _pos(w) or _pos(w.split("-")[-1])
    if not parts:
        return not w.endswith(("ed", "ly", "ing"))  # an unknown word: a noun (a name, a loan word)
    if not parts & {"NOUN", "ADJ", "PROPN"}:
        return False
    if following.lower() in PREPOSITIONS and ("NOUN" not in parts or ("VERB" in parts and w.endswith(PARTICIPLE_ENDS))):
        return False  # a participle or adjective after the noun: "a physicist *known for*", "famous for"
    if "VERB" in parts or "AUX" in parts:
        if w.endswith("ing") or (w.endswith("ed") and "ADJ" not in parts):
            return False
        if w.endswith("ed") and (following[:1].isdigit() or following == "X"):
            return False  # a participle before a number: "died in *** aged 75"
        nxt = following.lower()
        if w.endswith("s") and (nxt in _OBJECT_START or following[:1].isupper() or following.startswith(("***", "PERSON"))):
            return False
    return True


def noun_possible(word: str) -> bool:
    """``word`` can be a noun (lemminflect's lexicon; an unknown word is taken as one)."""
    w = word.lower().strip("'’")
    parts = _pos(w) or _pos(w.split("-")[-1])
    return not parts or "NOUN" in parts


def _is_verb(word: str) -> bool:
    """A verb form that takes an object ("loved", "attended", "joins"), not a noun or adjective."""
    if not word or word in CLOSED_WORDS:
        return False
    parts = _pos(word)
    if "VERB" not in parts:
        return False
    return not parts & {"NOUN", "ADJ", "ADV"} or (word.endswith("ed") and "ADJ" not in parts)


#: Subjects before a verb: pronouns, and the placeholders a subject becomes.
_SUBJECTS = frozenset("he she they we i who then later also".split())


def _past_after_subject(word: str, subject: str) -> bool:
    """A past form that is also an adjective ("studied", "married") right after a subject
    ("she studied [a] …", "PERSON 2 married [a] …"): the verb, whose object takes an article."""
    if not word.endswith("ed") or word in CLOSED_WORDS or "VERB" not in _pos(word):
        return False
    return subject.lower() in _SUBJECTS or bool(re.fullmatch(r"\d+|\*\*\*", subject))


#: Words "'s" contracts "is" after ("she's a geologist"); after any other word it is a possessive.
_IS_CONTRACTED_AFTER = frozenset("he she it that there who what here this".split())


#: Prepositions that open a sentence's adverbial phrase ("At the end of the season …").
_OPENERS = frozenset("at in on after before during by from since until with for following".split())


def _after_opening_phrase(before: str) -> bool:
    """``before`` ends a sentence's opening prepositional phrase that no comma closes and no
    verb continues ("At the end of the season "): what follows is the clause's subject."""
    sentence = re.split(r"[.!?]\s+", before)[-1]
    words = [w.lower() for w in re.findall(r"[\w'’*-]+", sentence)]
    if len(words) < 2 or words[0] not in _OPENERS or "," in sentence or words[-1].endswith(("'s", "’s")):
        return False
    return not any(w in SUBJECT_VERBS or _is_verb(w) for w in words[1:])


def _possessive(prev: str, before: str) -> bool:
    """``prev`` is a possessive "'s" ("the ***'s [director]", "Norway's [capital]"): a determiner,
    so no article goes before the noun; "she's a …" is "is"."""
    if prev not in ("'s", "’s"):
        return False
    word = re.search(r"([\w*]+)$", before)
    return not (word and word.group(1).lower() in _IS_CONTRACTED_AFTER)


def _modifies_like_an_adjective(prev: str) -> bool:
    """The word before a placeholder makes it a modifier of the next noun: a determiner
    ("the PERSON 2 film") or a noun or adjective ("a landlord PERSON 2 family"), not a
    verb, preposition or title before a name ("referee PERSON 3 took")."""
    w = prev.lower()
    if w in ("the", "a", "an", "his", "her", "their", "its"):
        return True
    return bool(w) and prev[:1].islower() and w not in CLOSED_WORDS and not _is_verb(w) and is_noun_like(w)


def _head_at(words: list[str]) -> int:
    """Position of a class label's head noun: the last word before a preposition, a
    participle or a relative word ("city *of* …", "countries *bordering* …"), else the last."""
    for i, w in enumerate(words):
        if i and (w in PREPOSITIONS or w.endswith("ing") or w in ("who", "which", "that")):
            return i - 1
    return len(words) - 1


def head_is_plural(label: str) -> bool:
    """Whether a class label's head noun is plural ("countries bordering the Baltic Sea",
    but not "city of the United States" or "city with millions of inhabitants")."""
    words = label.split()
    head = words[_head_at(words)] if words else ""
    if not head or not head[:1].islower():
        return False
    return _is_plural_noun(head)


@lru_cache(maxsize=20_000)
def _is_plural_noun(word: str) -> bool:
    if word.endswith(("ss", "us", "is", "ics")) or not word.endswith("s"):
        return word in ("people", "children", "men", "women")
    lemmas = _lemmas(word).get("NOUN")
    if lemmas is None:
        return True  # an unknown word ending in -s: a plural
    return word not in lemmas


@lru_cache(maxsize=20_000)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    from lemminflect import getAllLemmas

    return dict(getAllLemmas(word))


def plural_of(label: str) -> str:
    """``label`` with its head noun in the plural ("educator" → "educators", "city of the
    United States" → "cities of the United States"); unchanged when it is plural already or
    the lexicon knows no plural."""
    if head_is_plural(label):
        return label
    words = label.split()
    at = _head_at(words)
    from lemminflect import getInflection

    forms = getInflection(words[at], tag="NNS")
    if not forms or forms[0] == words[at]:
        return label
    return " ".join(words[:at] + [forms[0]] + words[at + 1:])


def names_several(original: str) -> bool:
    """The span is a common noun phrase in the plural ("the first *professors*")."""
    words = original.split()
    return bool(words) and original[:1].islower() and _is_plural_noun(words[-1].lower())


def load_lemma_tables() -> None:
    """Load lemminflect's tables now (about 1 s of CPU on first use), not in the first document."""
    _lemmas("cities")


# --- slots -----------------------------------------------------------------------------------
_WORD_BEFORE = re.compile(r"(?:^|(?<=[^\w'’-]))([\w'’-]+)([ \t]+)$")
_CLAUSE_FOLLOWS = re.compile(r"^\s*[,;:]|^\s+(?:he|she|it|they|we|i|you|the|a|an|his|her|their|PERSON|\*\*\*|[A-Z]\w*)\b")
_WORD_AFTER = re.compile(r"^[ \t]+([A-Za-z][\w'’-]*)(?:[ \t]+(\S+))?")


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a replacement sits: the word before it and whether it modifies the next word."""

    prev: str             # the word right before (and only spaces between), or ""
    prev_start: int       # offset of ``prev`` in the output so far
    sentence_start: bool
    modifier: bool        # a lower-case noun or adjective follows: the replacement modifies it
    next_word: str

    @classmethod
    def of(cls, before: str, after: str) -> "Slot":
        m = _WORD_BEFORE.search(before[-60:])
        prev, prev_start = "", len(before)
        if m:
            prev = m.group(1)
            prev_start = len(before) - len(m.group(0))
        a = _WORD_AFTER.match(after)
        nxt = a.group(1) if a else ""
        modifier = bool(a) and nxt[:1].islower() and is_noun_like(nxt, a.group(2) or "")
        return cls(prev, prev_start, at_sentence_start(before), modifier, nxt)


@dataclass(frozen=True, slots=True)
class Rendered:
    """The phrase for a slot, and how the words before it change (if at all).

    ``new_prev`` replaces ``before[prev_start:]`` when not None (an article inserted,
    "the" → "a", "on" → "in"); ``drop`` says the replacement vanishes (with one of the
    spaces around it).
    """

    phrase: str
    prev_start: int = 0
    new_prev: str | None = None
    note: str = ""

    @property
    def drop(self) -> bool:
        return self.phrase == ""


def same_case(word: str, like: str) -> str:
    """``word`` capitalised when ``like`` is ("The" → "A"), else as it is."""
    return capitalise(word) if like[:1].isupper() else word


#: Adjectives that name a part of the place after them: "northern Italy" is the north of
#: a country, not "a northern country".
PART_ADJECTIVES = {
    "northern": "the north of", "southern": "the south of", "eastern": "the east of", "western": "the west of",
    "central": "the centre of", "north-eastern": "the north-east of", "northeastern": "the north-east of",
    "north-western": "the north-west of", "northwestern": "the north-west of", "south-eastern": "the south-east of",
    "southeastern": "the south-east of", "south-western": "the south-west of", "southwestern": "the south-west of",
    "rural": "rural parts of", "urban": "urban parts of",
}


def _adjective(word: str) -> bool:
    """``word`` reads as an adjective: the lexicon says so (and not only a verb's form), or,
    unknown to it, it ends as adjectives do."""
    parts = _pos(word)
    if not parts:
        return word.endswith(("al", "ern", "ic", "ian", "ish", "ese", "ous", "ive", "ful", "less"))
    return "ADJ" in parts and ("VERB" not in parts or word.endswith(("ing", "ed")))


def _determiner_within(earlier: str, words: int = 2) -> bool:
    """One of the last ``words`` words of ``earlier`` is a determiner ("the newly")."""
    return any(w.lower() in DETERMINERS for w in re.findall(r"[\w'’-]+", earlier)[-words:])


def _adjective_before(prev: str, earlier: str) -> str | None:
    """``prev``, the word right before a class, when it is a lower-case adjective with no
    determiner of its own: a preposition, a verb or the sentence start stands before it
    ("of *colonial* Nigeria", "in *northern* Italy"; not "to *study* medicine"); None otherwise."""
    if not prev or not prev[:1].islower() or not re.fullmatch(r"[a-z]+(?:-[a-z]+)*", prev) or prev in CLOSED_WORDS \
            or _is_verb(prev):
        return None
    if "-" not in prev and prev not in PART_ADJECTIVES and not _adjective(prev):
        return None  # "colonial", "northern" are; "study" is a verb, "science" a noun
    two_back = re.search(r"([\w'’-]+)\s+$", earlier)
    word = two_back.group(1).lower() if two_back else ""
    if word in NEEDS_ARTICLE_AFTER or (word and _is_verb(word) and word not in DETERMINERS) or not earlier.strip():
        return prev
    return None


def adjective_article(label: str, prev: str, prev_start: int, tail: str) -> Rendered:
    """The class after a modifier that stood before a name: the article goes before the
    modifier ("of a colonial country"), or a part of a place is said so ("in the north of a
    country")."""
    art = indefinite_article(label)
    part = PART_ADJECTIVES.get(prev.lower())
    if part is not None:
        return Rendered(label, prev_start, f"{part} {art} ", f"'{prev}' → '{part} {art}' before '{label}'")
    lead = indefinite_article(prev)
    return Rendered(label, prev_start, f"{lead} {tail}", f"inserted '{lead}' before '{prev} {label}'")


def render_phrase(label: str, kind: RungKind, before: str, after: str, *, own_head: bool = False) -> Rendered:
    """The phrase for ``label`` between ``before`` (output so far) and ``after`` (original text).
    ``own_head``: the label is the head noun of the span's own common-noun phrase ("law" for
    "international law"): where the span stood without an article, so does the label
    ("studied law", not "studied a law")."""
    slot = Slot.of(before, after)
    prev = slot.prev.lower()
    tail = before[slot.prev_start:]
    if kind in (RungKind.MASK, RungKind.CLASS) and slot.modifier and slot.next_word.lower() in NEEDS_ITS_MODIFIER:
        return Rendered(MASK, note="modifier masked: the noun after it says nothing without it")
    if kind in (RungKind.MASK, RungKind.CLASS) and slot.modifier and not slot.sentence_start:
        art = indefinite_article(slot.next_word)
        if prev in ("a", "an") and prev != art:
            return Rendered("", slot.prev_start, same_case(art, slot.prev) + " ", f"modifier dropped; article '{slot.prev}' → '{art}' before '{slot.next_word}'")
        return Rendered("", note="modifier dropped")
    if kind is RungKind.PERSON and slot.modifier and not slot.sentence_start and _modifies_like_an_adjective(slot.prev):
        # "the [Roger Corman] science fiction film", "a landlord [Mudaliar] family": a
        # placeholder is not an adjective ("the PERSON 2 science fiction film")
        return Rendered("", note="person placeholder in a modifier slot dropped")
    if kind is RungKind.DATE_PHRASE:
        period = label[len("date in the "):]
        if prev in DETERMINERS:
            return Rendered(period.replace(" century", "-century").replace(" millennium", "-millennium") if slot.modifier else period)
        kept = _YEAR_TO.search(before[-40:])
        if kept and re.fullmatch(r"\d{1,3}0s", period) and kept.group(1)[:-1] == period[:-2]:
            # "from 2012 to [2015]": the year kept as written lies in the period ("from 2012 to the 2010s");
            # "to" wants a noun phrase, "until" takes "later in …" ("from 2012 until later in the 2010s")
            word = before[slot.prev_start:slot.prev_start + len(slot.prev)]
            if prev in ("to", "through"):
                return Rendered("later in the " + period, slot.prev_start, same_case("until", word) + tail[len(word):],
                                f"'{word}' → 'until' before 'later in the {period}'")
            return Rendered("later in the " + period)
        if prev in DATE_PREPOSITIONS:
            return Rendered("the " + period)
        if prev in ("on", "at"):
            return Rendered("the " + period, slot.prev_start, same_case("in", slot.prev) + tail[len(slot.prev):], f"'{slot.prev}' → 'in' before a period")
        if slot.sentence_start:
            # an adverbial before a clause ("In the 2010s, she …"), else the subject ("The 2010s saw …")
            return Rendered(("In the " if _CLAUSE_FOLLOWS.match(after) else "The ") + period)
        if slot.prev:
            return Rendered("in the " + period)
        return Rendered("the " + period)
    if kind is RungKind.DATE_RANGE:
        if prev in DETERMINERS:  # "in the [1919–20] season" → "in the 1910s–1920s season"
            return Rendered("–".join(p.removeprefix("the ") for p in label[len("between "):].split(" and ", 1)))
        if prev == "between":
            return Rendered(label[len("between "):])
        if prev == "from":
            return Rendered(label[len("between "):].replace(" and ", " to ", 1))
        return Rendered(capitalise(label) if slot.sentence_start else label)
    if kind is RungKind.CLASS:
        plural = head_is_plural(label)
        art = indefinite_article(label)
        if prev in ("a", "an"):
            if plural:
                return Rendered(label, slot.prev_start, "", f"article '{slot.prev}' removed before '{label}'")
            if prev != art:
                return Rendered(label, slot.prev_start, same_case(art, slot.prev) + tail[len(slot.prev):], f"article '{slot.prev}' → '{art}' before '{label}'")
            return Rendered(label)
        if prev == "the":
            if plural:
                shown = capitalise(label) if slot.prev[:1].isupper() else label
                return Rendered(shown, slot.prev_start, "", f"'the' removed before '{label}'")
            return Rendered(label, slot.prev_start, same_case(art, slot.prev) + tail[len(slot.prev):], f"'the' → '{art}' before '{label}'")
        if plural or prev in DETERMINERS or _possessive(prev, before[:slot.prev_start]) or (own_head and slot.prev):
            return Rendered(capitalise(label) if slot.sentence_start and not slot.prev else label)
        if slot.sentence_start and not slot.prev:
            return Rendered(label, len(before), capitalise(art) + " ", f"inserted '{capitalise(art)}' before '{label}'")
        # "in a country, [a] city"; "for *** and [a] university"
        listed = (not slot.prev and before.rstrip().endswith((",", " and", " or"))) or prev in ("and", "or")
        two_back = re.search(r"([\w'’-]+)\s+$", before[:slot.prev_start])
        infinitive = bool(two_back) and two_back.group(1).lower() == "to" and "VERB" in _pos(prev)  # "to study [an] …"
        after_verb = (_is_verb(prev) or infinitive or _past_after_subject(prev, two_back.group(1) if two_back else "")) \
            and not _determiner_within(before[:slot.prev_start])  # not "a practising [a] …", "the newly founded [an] …"
        # "At the end of the season [a] sports team was relegated": the subject after an opening phrase
        subject = slot.next_word.lower() in SUBJECT_VERBS and _after_opening_phrase(before)
        if prev in NEEDS_ARTICLE_AFTER or after_verb or listed or subject:
            return Rendered(label, len(before), art + " ", f"inserted '{art}' before '{label}'")
        adjective = _adjective_before(slot.prev, before[:slot.prev_start])
        if adjective is not None:  # "of colonial [Nigeria]" → "of a colonial country"
            return adjective_article(label, slot.prev, slot.prev_start, tail)
        return Rendered(label)
    if prev in ("a", "an") and kind is not RungKind.PERSON:
        art = indefinite_article(label)
        if prev != art:
            return Rendered(label, slot.prev_start, same_case(art, slot.prev) + tail[len(slot.prev):], f"article '{slot.prev}' → '{art}' before '{label}'")
    if slot.sentence_start and not slot.prev:
        return Rendered(capitalise(label))
    return Rendered(label)
