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
finer periods          "date in the late 1980s" → "in the late 1980s", "date in mid-2005" →
                       "in mid-2005", "date in the evening" → "in the evening"
month or year          "on"/"at" → "in" ("On [22 June 2005]" → "In June 2005"); "the" goes
                       before one not followed by a noun ("in the [summer of 1988]" → "in 1988")
"between" range        "between 1988 and 1990" → "between the 1980s and the 1990s" (no
                       doubled "between"); after "from": "from the 1980s to the 1990s";
                       after "in"/"on" the range takes their place
amount                 a hedge before a bound goes ("approximately [EUR 1,300]" → "under
                       EUR 2,000"); "by [10 to 2]" → "by a majority"; "the [three] cases" →
                       "the few cases"; "an [18-year-old] boy" → "a teenage boy"
class label            an article where English needs one: "born in a city of the United
                       States", "by the state of India" → "by a state of India", "an [city]"
                       → "a [city]", "at the start" → "A city …"; plural heads take none
``***`` or a class     dropped ("a *** earth scientist" → "an earth scientist", "an ethnic
label as a modifier    group politician" → "a politician"): a modifier says little, and a
                       class label in that slot is not English; also before a noun in "-ing"
                       ("the most valuable [Brazilian] painting" → "the most valuable painting")
raw placeholder        a date or number with no generalization ("DATE", "X", "X years") never
("DATE", "X")          shows as such: a count of two or more before its noun reads "multiple"
                       ("a [3]-time medalist" → "a multiple-time medalist"; "[twice]" → "more
                       than once"; the count is read from the span); between a determiner and
                       its noun it is dropped ("the [1998] members" → "the members"); after
                       "in"/"on"/"at"/"during" a date reads "at one time"; anywhere else the
                       placeholder is ``***``, a noun phrase of its own
range from a kept      said at the grain of the replaced end ("between 2012 and [2015]" → "in
year                   the 2010s", "from 2003 to [2016]" → "from the 2000s to the 2010s"); a
                       range span shown as one period reads "in" it after "from"/"between"
=====================  ====================================================================

Words are classified with lemminflect's English lexicon (is the next word a noun or
adjective, or a verb? is a noun plural?) — a small pure-Python library that ships its
lexicon and loads in under a second; articles follow the spelling rules of
:func:`engine.text.articles.indefinite_article` ("an MP", "a university", "an hour").

Each row of the table is a registered rule (stage ``render``; :data:`PHRASE_RULES`, tried in
order, the first that applies decides; examples in ``packs/core/examples/render.phrase.yaml``).
A rule switched off does not apply, and the next one (or the rung as it is) decides. The
words they read — prepositions, copulas, determiners, the endings of word shapes — are
``packs/core/render.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from kg.vocab import TAXONOMY_PROPS

from engine.generate.sources.datetime import GENERIC as GENERIC_DATE
from engine.generate.sources.numbers import is_number_token, number_value
from engine.knowledge import current, pattern, rule, table, words
from engine.render.grains import coarsened_to, grain
from engine.render.readability import at_sentence_start, capitalise
from engine.text.articles import indefinite_article
from engine.types import GRAPH_TYPES, MASK, Candidate

_PERSON = re.compile(r"PERSON(?: \d+| X)?")


class RungKind(str, Enum):
    """How a rung reads in a sentence."""

    MASK = "mask"
    PERSON = "person"
    DATE_PHRASE = "date phrase"   # "date in the 1980s", "date in the late 1980s", "date in mid-2005", "date in the evening"
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
    if label.startswith("date in "):
        return RungKind.DATE_PHRASE
    if label.startswith("between the ") and (candidate is None or candidate.source == "datetime"):
        return RungKind.DATE_RANGE
    if label.startswith("between ") and candidate is not None and candidate.source == "datetime":
        return RungKind.DATE_RANGE  # "between 1993 and 1994"
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


# --- words (packs/core/render.yaml) --------------------------------------------------------
PREPOSITIONS = words("render.prepositions")
COPULAS = words("render.copulas")
#: Nouns of what a country has ("Government", "Embassy"): capitalised after "the", still common nouns.
COUNTRY_NOUNS = words("truth.country_nouns")
DETERMINERS = words("render.determiners")
#: Auxiliaries that, after a noun phrase, make it the subject of their clause ("[a] team has won").
AUXILIARIES = words("render.auxiliaries")
#: The words after a noun phrase that make it their clause's subject (copulas and auxiliaries).
SUBJECT_VERBS = words("render.subject_verbs")
#: After these a singular class label needs an article ("born in [a] city"): prepositions and copulas.
NEEDS_ARTICLE_AFTER = words("render.needs_article_after")
#: Prepositions after which "date in the 1980s" reads as "the 1980s".
DATE_PREPOSITIONS = words("render.date_prepositions")
#: Closed-class words (prepositions, copulas, determiners, pronouns, conjunctions, …): never a noun.
CLOSED_WORDS = words("render.closed_words")
#: A year kept as written, then the word that ends a range at the replacement ("from 2012 to ").
_YEAR_TO = pattern("render.year_to")
_OBJECT_START = words("render.object_start")
#: A span that is itself a range of dates ("1945 to 1946").
_RANGE_IN_A_SPAN = pattern("render.range_in_a_span")
#: A year kept as written joined to the replacement as a range ("between 2012 and ", "1985–").
_KEPT_YEAR_RANGE = pattern("render.kept_year_range")


def _pos(word: str) -> frozenset[str]:
    return frozenset(_lemmas(word))


#: Nouns that say nothing without the modifier before them: "of Romani *descent*" reads "of
#: *** descent", not "of descent".
NEEDS_ITS_MODIFIER = words("render.needs_its_modifier")
#: Endings of past participles ("known", "based", "written", "born").
PARTICIPLE_ENDS = words("render.participle_endings")
#: Last parts of a hyphenated compound adjective ("award-winning", "Oslo-based", "one-time").
_COMPOUND_ADJECTIVE_ENDS = words("render.compound_adjective_endings")
#: Endings of an unknown word that make it a verb form or an adverb, not a noun.
_VERB_FORM_ENDS = words("render.verb_form_endings")


def is_noun_like(word: str, following: str = "") -> bool:
    """Whether ``word`` (lower case, after a replacement) is a noun or adjective the
    replacement would modify, rather than a verb, adverb or function word.

    ``following`` is the word after it: a plural-looking word that can also be a verb is
    taken as the verb when an object follows ("*** plays the …").
    """
    w = word.lower().strip("'’")
    if not w or not w[0].isalpha() or w in CLOSED_WORDS:
        return False
    if "-" in w.strip("-") and w.split("-")[-1].endswith(_COMPOUND_ADJECTIVE_ENDS.in_order()):
        return True  # a compound adjective: "award-winning", "Oslo-based", "one-time"
    parts = _pos(w) or _pos(w.split("-")[-1])
    if not parts:
        return not w.endswith(_VERB_FORM_ENDS.in_order())  # an unknown word: a noun (a name, a loan word)
    if not parts & {"NOUN", "ADJ", "PROPN"}:
        return False
    if following.lower() in PREPOSITIONS and ("NOUN" not in parts or ("VERB" in parts and w.endswith(PARTICIPLE_ENDS.in_order()))):
        return False  # a participle or adjective after the noun: "a physicist *known for*", "famous for"
    if "VERB" in parts or "AUX" in parts:
        if (w.endswith("ing") and w not in _lemmas(w).get("VERB", ())) or (w.endswith("ed") and "ADJ" not in parts):
            return False  # a gerund or participle; not a noun that ends so ("king", "wing", "string")
        if w.endswith("ed") and (following[:1].isdigit() or following == "X"):
            return False  # a participle before a number: "died in *** aged 75"
        nxt = following.lower()
        if w.endswith(("s", "ed")) and (nxt in _OBJECT_START or following[:1].isupper() or following.startswith(("***", "PERSON"))):
            return False  # a verb with its object: "*** plays the …", "the *** ordered him …"
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
_SUBJECTS = words("render.subjects")


def _past_after_subject(word: str, subject: str) -> bool:
    """A past form that is also an adjective ("studied", "married") right after a subject
    ("she studied [a] …", "PERSON 2 married [a] …"): the verb, whose object takes an article."""
    if not word.endswith("ed") or word in CLOSED_WORDS or "VERB" not in _pos(word):
        return False
    return subject.lower() in _SUBJECTS or bool(re.fullmatch(r"\d+|\*\*\*", subject))


#: Words "'s" contracts "is" after ("she's a geologist"); after any other word it is a possessive.
_IS_CONTRACTED_AFTER = words("render.is_contracted_after")


#: Prepositions that open a sentence's adverbial phrase ("At the end of the season …").
_OPENERS = words("render.sentence_openers")


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


#: Determiners before a placeholder that make it a modifier of the next noun ("the PERSON 2 film").
_ADJECTIVE_DETERMINERS = words("render.adjective_determiners")
#: Relative words after which a class label's head noun has ended ("person *who* …").
_RELATIVE_WORDS = words("render.relative_words")


def _modifies_like_an_adjective(prev: str) -> bool:
    """The word before a placeholder makes it a modifier of the next noun: a determiner
    ("the PERSON 2 film") or a noun or adjective ("a landlord PERSON 2 family"), not a
    verb, preposition or title before a name ("referee PERSON 3 took")."""
    w = prev.lower()
    if w in _ADJECTIVE_DETERMINERS:
        return True
    return bool(w) and prev[:1].islower() and w not in CLOSED_WORDS and not _is_verb(w) and is_noun_like(w)


def _head_at(words: list[str]) -> int:
    """Position of a class label's head noun: the last word before a preposition, a
    participle or a relative word ("city *of* …", "countries *bordering* …"), else the last."""
    for i, w in enumerate(words):
        if i and (w in PREPOSITIONS or w.endswith("ing") or w in _RELATIVE_WORDS):
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


def _is_plural_noun(word: str) -> bool:
    return _plural_noun(word, current().key)


#: Nouns that are singular though they end in -s ("class", "campus", "thesis", "physics").
_SINGULAR_ENDINGS = words("render.singular_endings")
#: Plural nouns that do not end in -s.
_IRREGULAR_PLURALS = words("render.irregular_plurals")


@lru_cache(maxsize=20_000)
def _plural_noun(word: str, knowledge: object) -> bool:
    """:func:`_is_plural_noun` remembered per knowledge (``knowledge``: its key)."""
    if word.endswith(_SINGULAR_ENDINGS.in_order()) or not word.endswith("s"):
        return word in _IRREGULAR_PLURALS
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
    from lemminflect import getInflection

    return _head_replaced(label, lambda head: getInflection(head, tag="NNS"))


def singular_of(label: str) -> str:
    """``label`` with its head noun in the singular ("countries bordering the Baltic Sea" →
    "country bordering the Baltic Sea"); unchanged when it is singular already or the lexicon
    knows no other singular."""
    if not head_is_plural(label):
        return label
    from lemminflect import getLemma

    return _head_replaced(label, lambda head: getLemma(head, upos="NOUN"))


def _head_replaced(label: str, forms_of) -> str:
    """``label`` with its head noun replaced by the first of ``forms_of(head)``; unchanged
    when there is none or it is the head itself."""
    words = label.split()
    at = _head_at(words)
    forms = forms_of(words[at])
    if not forms or forms[0] == words[at]:
        return label
    return " ".join(words[:at] + [forms[0]] + words[at + 1:])


def plural_looking_name(original: str) -> bool:
    """The span's last word is a plural noun ("the Faroe Islands", "the United States")."""
    words = original.split()
    return bool(words) and _is_plural_noun(words[-1].lower())


def names_several(original: str) -> bool:
    """The span is a common noun phrase in the plural ("the first *professors*"), not a name
    after its article ("the United States", "the Netherlands": one country)."""
    words = original.split()
    return bool(words) and original[:1].islower() and words[-1][:1].islower() and plural_looking_name(original)


def load_lemma_tables() -> None:
    """Load lemminflect's tables now (about 1 s of CPU on first use), not in the first document."""
    _lemmas("cities")


# --- slots -----------------------------------------------------------------------------------
_WORD_BEFORE = re.compile(r"(?:^|(?<=[^\w'’-]))([\w'’-]+)([ \t]+)$")
_CLAUSE_FOLLOWS = pattern("render.clause_follows")
_WORD_AFTER = re.compile(r"^[ \t]+([A-Za-z][\w'’-]*)(?:[ \t]+(\S+))?")


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a replacement sits: the word before it and whether it modifies the next word."""

    prev: str             # the word right before (and only spaces between), or ""
    prev_start: int       # offset of ``prev`` in the output so far
    sentence_start: bool
    modifier: bool        # a lower-case noun or adjective follows: the replacement modifies it
    next_word: str
    heads_its_phrase: bool = False  # the parse says the span modifies nothing after it

    @classmethod
    def of(cls, before: str, after: str, heads_its_phrase: bool | None = None) -> "Slot":
        """``heads_its_phrase``: what the document's parse says (None: no parse, the words
        after the span decide alone)."""
        m = _WORD_BEFORE.search(before[-60:])
        prev, prev_start = "", len(before)
        if m:
            prev = m.group(1)
            prev_start = len(before) - len(m.group(0))
        a = _WORD_AFTER.match(after)
        nxt = a.group(1) if a else ""
        modifier = bool(a) and nxt[:1].islower() and not heads_its_phrase and is_noun_like(nxt, a.group(2) or "")
        return cls(prev, prev_start, at_sentence_start(before), modifier, nxt, bool(heads_its_phrase))


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
PART_ADJECTIVES = table("render.part_adjectives")
#: Endings of a word the lexicon does not know that make it an adjective ("colonial", "northern").
_ADJECTIVE_ENDINGS = words("render.adjective_endings")


def _adjective(word: str) -> bool:
    """``word`` reads as an adjective: the lexicon says so (and not only a verb's form), or,
    unknown to it, it ends as adjectives do."""
    parts = _pos(word)
    if not parts:
        return word.endswith(_ADJECTIVE_ENDINGS.in_order())
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


@dataclass(frozen=True, slots=True)
class Fitting:
    """What the phrase rules see: the rung, its kind, its slot and the text around it."""

    label: str
    kind: RungKind
    before: str           # the output so far
    after: str            # the original text after the span
    slot: Slot
    own_head: bool = False
    original: str = ""    # the span's own text (a count's value, where the rung hides it)

    @property
    def prev(self) -> str:
        """The word right before, lower case."""
        return self.slot.prev.lower()

    @property
    def tail(self) -> str:
        """The output from the word right before on."""
        return self.before[self.slot.prev_start:]

    @property
    def when(self) -> str:
        """The noun phrase of a date phrase ("date in the 1980s" → "the 1980s", "date in mid-2005" → "mid-2005")."""
        return self.label[len("date in "):]

    @property
    def period(self) -> str:
        """The period of a date phrase without its article ("date in the 1980s" → "1980s")."""
        return self.when.removeprefix("the ")


#: The entity types whose rungs are classes of the graph (the types of the class rules).
_GRAPH = tuple(t.value for t in GRAPH_TYPES)
#: The kinds of rung that read as a noun's modifier when one stands in a modifier slot.
_MODIFIER_KINDS = (RungKind.MASK, RungKind.CLASS)


# --- phrase rules: each returns the phrase for its slot, or None when it does not apply ----------
#: The continents' adjectives a demonym's rung may read as (``places.continent_adjectives``).
_CONTINENT_ADJECTIVES = table("places.continent_adjectives")


def _continent_adjective(label: str) -> bool:
    """``label`` is a continent's adjective ("European")."""
    return label in _CONTINENT_ADJECTIVES.values()
#: The word before a language's name: "in", "into", "from", a verb of speaking or learning (``render.language_slot_before``).
_LANGUAGE_SLOT_BEFORE = pattern("render.language_slot_before")


@rule("nationality-read-as-a-language-masked", stage="render", types=("DEM", "MISC"),
      purpose='a demonym shown as a nationality ("European") is masked where its sentence names the language, as a later mention may ("She married a Polish engineer. He translated it from [Polish] into French" → "from *** into French", not "from European into French")')
def nationality_read_as_a_language_masked(f: Fitting) -> Rendered | None:
    nxt = f.slot.next_word
    if (f.label == "nationality" or _continent_adjective(f.label)) and _LANGUAGE_SLOT_BEFORE.fullmatch(f.prev) \
            and (f.slot.heads_its_phrase or not (nxt[:1].isalpha() and nxt[:1].islower() and nxt.lower() not in CLOSED_WORDS)):
        return Rendered(MASK, note=f"'{f.label}' masked: after '{f.prev}' the span names a language")
    return None


#: A hyphen right after a span, then a word: the span is the first part of a compound ("German-language", "Swiss-born").
_COMPOUND_AFTER = re.compile(r"[-‐–](?=[^\W\d_])")


@rule("class-in-a-compound-masked", stage="render", types=_GRAPH,
      purpose='a class that is no adjective, as the first part of a hyphenated compound, is shown as "***" ("a [German]-language theatre" → "a ***-language theatre", not "a language-language theatre"); a continent\'s adjective stays ("a European-born architect")')
def class_in_a_compound_masked(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.CLASS and _COMPOUND_AFTER.match(f.after) and not _continent_adjective(f.label):
        return Rendered(MASK, note=f"'{f.label}' masked: the first part of a compound")
    return None


@rule("modifier-kept-before-a-noun-that-needs-it", stage="render", types=_GRAPH,
      purpose='a mask or class before a noun that says nothing without its modifier stays "***" ("of *** descent", not "of descent")')
def modifier_kept_before_a_noun_that_needs_it(f: Fitting) -> Rendered | None:
    if f.kind in _MODIFIER_KINDS and f.slot.modifier and f.slot.next_word.lower() in NEEDS_ITS_MODIFIER:
        return Rendered(MASK, note="modifier masked: the noun after it says nothing without it")
    return None


#: Words that make a noun phrase a claim about its modifier alone ("the *only* German commander"), ``render.exclusive_words``.
_EXCLUSIVE = words("render.exclusive_words")


@rule("modifier-kept-after-an-exclusive-word", stage="render", types=_GRAPH,
      purpose='a mask or class in a modifier slot after "only", "first", "last" … stays "***": dropped, the claim would change ("the only [German] commander" → "the only *** commander", not "the only commander")')
def modifier_kept_after_an_exclusive_word(f: Fitting) -> Rendered | None:
    if f.kind in _MODIFIER_KINDS and f.slot.modifier and f.prev in _EXCLUSIVE:
        return Rendered(MASK, note=f"modifier masked: after '{f.prev}' the noun phrase is a claim about it")
    return None


@rule("modifier-dropped-before-a-capitalised-body", stage="render", types=_GRAPH,
      purpose='a mask or class after "the" and before a capitalised noun of what a country has is a modifier, dropped ("The [German] Government" → "The Government", not "The nationality Government")')
def modifier_dropped_before_a_capitalised_body(f: Fitting) -> Rendered | None:
    slot = f.slot
    if f.kind in _MODIFIER_KINDS and slot.prev.lower() == "the" and slot.next_word[:1].isupper() \
            and slot.next_word.lower() in COUNTRY_NOUNS:
        return Rendered("", note=f"modifier dropped before '{slot.next_word}'")
    return None


@rule("modifier-dropped", stage="render", types=_GRAPH,
      purpose='a mask or class in a modifier slot is dropped, the article fitted to the noun ("a *** earth scientist" → "an earth scientist")')
def modifier_dropped(f: Fitting) -> Rendered | None:
    slot = f.slot
    if f.kind in _MODIFIER_KINDS and slot.modifier and not slot.sentence_start:
        art = indefinite_article(slot.next_word)
        if f.prev in ("a", "an") and f.prev != art:
            return Rendered("", slot.prev_start, same_case(art, slot.prev) + " ", f"modifier dropped; article '{slot.prev}' → '{art}' before '{slot.next_word}'")
        return Rendered("", note="modifier dropped")
    return None


#: A lower-case word in "-ing" right after a replacement, and the word after it.
_GERUND_AFTER = pattern("render.gerund_after")


def _gerund_noun_after(f: Fitting) -> str | None:
    """The "-ing" noun the replacement modifies ("the most valuable [Brazilian] *painting*",
    "in [Hollywood] *filmmaking*"), or None: a word the lexicon does not know (a compound
    like "filmmaking"), or a noun that is also a verb after a determiner or an adjective,
    and no object after it ("in [Oslo] painting portraits" is a verb)."""
    m = _GERUND_AFTER.match(f.after)
    if m is None:
        return None
    word, following = m.group(1), m.group(2) or ""
    if word in CLOSED_WORDS or following.lower() in _OBJECT_START or following[:1].isupper() or following.startswith(("***", "PERSON")):
        return None
    parts = _pos(word)
    if not parts:
        return word if "-" not in word else None
    if "NOUN" in parts and (f.prev in DETERMINERS or _adjective(f.prev)):
        return word
    return None


@rule("modifier-before-an-ing-noun-dropped", stage="render", types=_GRAPH,
      purpose='a mask or class before a noun in "-ing" it modifies is dropped ("the most valuable [Brazilian] painting" → "the most valuable painting", "in [Hollywood] filmmaking" → "in filmmaking")')
def modifier_before_an_ing_noun_dropped(f: Fitting) -> Rendered | None:
    slot = f.slot
    if f.kind not in _MODIFIER_KINDS or slot.modifier or slot.sentence_start or slot.heads_its_phrase:
        return None
    noun = _gerund_noun_after(f)
    if noun is None:
        return None
    art = indefinite_article(noun)
    if f.prev in ("a", "an") and f.prev != art:
        return Rendered("", slot.prev_start, same_case(art, slot.prev) + " ", f"modifier dropped; article '{slot.prev}' → '{art}' before '{noun}'")
    return Rendered("", note=f"modifier dropped before '{noun}'")


@rule("person-in-a-modifier-slot-dropped", stage="render", types=("PERSON",),
      purpose='a person placeholder in a modifier slot is dropped ("the [Roger Corman] science fiction film" → "the science fiction film")')
def person_in_a_modifier_slot_dropped(f: Fitting) -> Rendered | None:
    # "the [Roger Corman] science fiction film", "a landlord [Mudaliar] family": a
    # placeholder is not an adjective ("the PERSON 2 science fiction film")
    slot = f.slot
    if f.kind is RungKind.PERSON and slot.modifier and not slot.sentence_start and _modifies_like_an_adjective(slot.prev):
        return Rendered("", note="person placeholder in a modifier slot dropped")
    return None


# --- raw placeholders: a date or a number that got no generalization ("DATE", "X", "X years") -----
#: A number placeholder in a rung ("X", "X years", "X-time"); not "PERSON X".
_X = re.compile(r"(?<![\w*])X(?![\w])")
_UNKNOWN_DATE_PREPOSITIONS = words("render.unknown_date_prepositions")
_UNKNOWN_DATE_ADVERBIAL = words("render.unknown_date_adverbial")
_SEVERAL = words("render.several_count")
_COUNT_PHRASES = table("render.count_phrases")
_ORDINAL_WORDS = words("numbers.ordinal_words")
_VAGUE_COUNTS = words("render.vague_counts")
_AMOUNT_HEDGE = pattern("numbers.hedge")
#: A date or an amount joined to the span ("in [DATE] and the 2000s", "[DATE] to 1990").
_JOINED_AFTER = pattern("render.joined_after")
_COMPOUND_AFTER = re.compile(r"[-–][A-Za-z]")


def _raw_placeholder(f: Fitting) -> bool:
    """The rung is a placeholder the reader cannot read: the generic date or a number placeholder."""
    return f.kind in (RungKind.DATE, RungKind.OTHER) and (f.label == GENERIC_DATE or bool(_X.search(f.label)))


def count_in(original: str) -> float | None:
    """The one cardinal number ``original`` gives ("12 goals" → 12, "three-time" → 3, "twice" → 2);
    None for an ordinal, a span with no number or with several."""
    found = []
    for token in original.split():
        parts = re.split(r"[-–]", token.strip("()[],.;:"))
        for n in range(len(parts), 0, -1):
            head = "-".join(parts[:n])
            if head and is_number_token(head):
                found.append(head)
                break
    if not found and any(w.lower().strip(",.;:") in _VAGUE_COUNTS for w in original.split()):
        return 2.0  # "several years": two or more
    if len(found) != 1:
        return None
    token = found[0].lower()
    if re.search(r"\d(?:st|nd|rd|th)$", token) or token in _ORDINAL_WORDS or token.split("-")[-1] in _ORDINAL_WORDS:
        return None
    return number_value(token.strip("#()"))


def _followed_by_its_noun(f: Fitting) -> bool:
    """The placeholder counts a noun: one in the rung ("X years", "X-time"), or the word after it."""
    return f.label.strip() != "X" or f.slot.modifier or bool(_COMPOUND_AFTER.match(f.after))


#: A score or a tally of two numbers ("4–0", "10 to 2"): no count of anything.
_SCORE = re.compile(r"\d+\s*(?:[–-]|to)\s*\d+")


@rule("count-placeholder-read-as-multiple", stage="render", types=("QUANTITY", "DATETIME"),
      purpose='a count of two or more that got no generalization reads "multiple" before its noun ("[12] goals" → "multiple goals", "a [3]-time medalist" → "a multiple-time medalist")')
def count_placeholder_read_as_multiple(f: Fitting) -> Rendered | None:
    if not _raw_placeholder(f) or len(_X.findall(f.label)) != 1 or not _followed_by_its_noun(f):
        return None
    count = None if _SCORE.fullmatch(f.original.strip()) else count_in(f.original)  # "a [4–0] win" is a score
    if count is None or count < 2 or count != int(count) or _HEDGE_BEFORE.search(f.before[-30:]) \
            or _AMOUNT_HEDGE.search(f.label):
        return None  # "more than [20] minutes": "more than multiple minutes" says nothing
    slot = f.slot
    compound = "X-" in f.label or bool(_COMPOUND_AFTER.match(f.after))
    if f.prev in DETERMINERS and not (compound and f.prev in ("a", "an")):
        return None  # "the [10,000] metres" is no count: "the multiple metres" is not English
    if not compound and (_adjective(f.prev) or f.prev.endswith("ed")) and _determiner_within(f.before[:slot.prev_start], 1):
        return None  # "an estimated [4,000] kilometres"; not "the title [twice]"
    said = _COUNT_PHRASES.get(f.label.strip())
    phrase = said if said is not None else _X.sub(_SEVERAL.in_order()[0], f.label, count=1)
    art = indefinite_article(phrase)
    if f.prev in ("a", "an") and f.prev != art:
        return Rendered(phrase, slot.prev_start, same_case(art, slot.prev) + f.tail[len(slot.prev):], f"'{f.label}' → '{phrase}': a count of two or more")
    return Rendered(phrase, note=f"'{f.label}' → '{phrase}': a count of two or more")


@rule("placeholder-modifier-dropped", stage="render", types=("QUANTITY", "DATETIME"),
      purpose='a date or number placeholder between a determiner and its noun is dropped ("the [1998] members" → "the members", "a [.285] average" → "an average")')
def placeholder_modifier_dropped(f: Fitting) -> Rendered | None:
    slot = f.slot
    if not _raw_placeholder(f) or f.label not in (GENERIC_DATE, "X") or not slot.modifier or slot.sentence_start \
            or f.prev not in _ADJECTIVE_DETERMINERS:
        return None
    art = indefinite_article(slot.next_word)
    if f.prev in ("a", "an") and f.prev != art:
        return Rendered("", slot.prev_start, same_case(art, slot.prev) + " ", f"placeholder dropped; article '{slot.prev}' → '{art}' before '{slot.next_word}'")
    return Rendered("", note="placeholder in a modifier slot dropped")


@rule("unknown-date-read-as-at-one-time", stage="render", types=("DATETIME",),
      purpose='a date that got no generalization after "in", "on", "at" or "during" reads "at one time" in their place ("she moved in [1990]" → "she moved at one time")')
def unknown_date_read_as_at_one_time(f: Fitting) -> Rendered | None:
    if f.label != GENERIC_DATE or f.kind is not RungKind.DATE or f.slot.modifier or _JOINED_AFTER.match(f.after):
        return None  # "in [the 1990s] and the 2000s": "at one time and the 2000s" is no English
    slot, before = f.slot, f.before
    start = None
    if f.prev in _UNKNOWN_DATE_PREPOSITIONS:
        start = slot.prev_start  # "in [1990]"
    elif f.prev == "the":
        two_back = re.search(r"([\w'’-]+)\s+$", before[:slot.prev_start])
        if two_back and two_back.group(1).lower() in _UNKNOWN_DATE_PREPOSITIONS:
            start = two_back.start(1)  # "in the [summer of 1990]"
    elif f.original.split()[:1] and f.original.split()[0].lower() in _UNKNOWN_DATE_PREPOSITIONS:
        start = len(before)  # the span holds its preposition: "[in 1990]"
    if start is None:
        return None
    said = before[start:]
    phrase = _UNKNOWN_DATE_ADVERBIAL.in_order()[0]
    if at_sentence_start(before[:start]) or said[:1].isupper() or (not said and f.original[:1].isupper()):
        phrase = capitalise(phrase)
    return Rendered(phrase, start, "", f"'{(said + f.label).strip()}' → '{phrase}': a date with no generalization")


@rule("placeholder-shown-as-a-mask", stage="render", types=("QUANTITY", "DATETIME"),
      purpose='a date or number placeholder no rule above fitted is shown as "***", a noun phrase of its own ("the greatest of [his time]" → "the greatest of ***")')
def placeholder_shown_as_a_mask(f: Fitting) -> Rendered | None:
    if not _raw_placeholder(f):
        return None
    if f.label in (GENERIC_DATE, "X"):
        return Rendered(MASK, note=f"placeholder '{f.label}' shown as '***'")
    first = _X.search(f.label)
    if first is not None and len(_X.findall(f.label)) > 1:  # "X ft X in (X m)": one mask; words before the first X stay
        phrase = f.label[:first.start()] + MASK
        return Rendered(phrase, note=f"placeholder '{f.label}' → '{phrase}'")
    phrase = _X.sub(MASK, f.label)  # "X years" → "*** years"
    return Rendered(phrase, note=f"placeholder '{f.label}' → '{phrase}'")


@rule("period-after-a-determiner", stage="render", types=("DATETIME",),
      purpose='a date phrase after a determiner is the bare period ("the [2001] season" → "the 2000s season", "his 20th-century work")')
def period_after_a_determiner(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_PHRASE and f.prev in DETERMINERS:
        period = f.period  # "the [1995] season" → "the mid-1990s season", "the mid-1995 season"
        return Rendered(period.replace(" century", "-century").replace(" millennium", "-millennium") if f.slot.modifier else period)
    return None


@rule("period-later-in-a-range-from-a-kept-year", stage="render", types=("DATETIME",),
      purpose='the end of a range whose start year is kept and lies in the period reads "later in" it ("from 2012 until later in the 2010s")')
def period_later_in_a_range_from_a_kept_year(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.DATE_PHRASE:
        return None
    period, slot = f.period, f.slot
    kept = _YEAR_TO.search(f.before[-40:])
    if kept and re.fullmatch(r"\d{1,3}0s", period) and kept.group(1)[:-1] == period[:-2]:
        # "from 2012 to [2015]": the year kept as written lies in the period ("from 2012 to the 2010s");
        # "to" wants a noun phrase, "until" takes "later in …" ("from 2012 until later in the 2010s")
        word = f.before[slot.prev_start:slot.prev_start + len(slot.prev)]
        if f.prev in ("to", "through"):
            return Rendered("later in the " + period, slot.prev_start, same_case("until", word) + f.tail[len(word):],
                            f"'{word}' → 'until' before 'later in the {period}'")
        return Rendered("later in the " + period)
    return None


@rule("range-from-a-kept-year-at-one-grain", stage="render", types=("DATETIME",),
      purpose='a year kept as written that starts a range ending at a period is said at the period\'s grain ("between 2012 and [2015]" → "in the 2010s", "from 2008 to [2015]" → "from the 2000s to the 2010s")')
def range_from_a_kept_year_at_one_grain(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.DATE_PHRASE:
        return None
    m = _KEPT_YEAR_RANGE.search(f.before[-40:])
    own = grain(f.label)
    if m is None or own is None:
        return None
    opener, join = (m.group(1) or "").lower(), (m.group(3) or "").lower()
    if join and not ((opener == "between" and join == "and") or (opener == "from" and join != "and")):
        return None  # "and" joins a range after "between", "to" after "from"; else a dash
    kept = coarsened_to(m.group(2), own[0])
    if kept is None:
        return None
    at = len(f.before) - len(f.before[-40:]) + m.start()
    said = f.before[at:]
    if kept == f.label:  # the year lies in the period: the range is the period
        word = re.search(r"([\w'’-]+)\s+$", f.before[:at])
        lead = "" if not opener and (word is None or word.group(1).lower() in DATE_PREPOSITIONS) else "in "
        lead = same_case(lead, said) if lead else lead
        return Rendered(f.when, at, lead, f"'{said.strip()}' dropped: the kept year lies in '{f.when}'")
    shown = kept.removeprefix("date in ")
    return Rendered(f.when, at + m.start(2) - m.start(), shown + said[m.end(2) - m.start():], f"kept year '{m.group(2)}' → '{shown}': the range's other end is that coarse")


def _previous_word_read_as_in(f: Fitting, shown: str, why: str) -> Rendered:
    """``shown`` with the word before the span ("from", "on", "at" …) read as "in", in its case."""
    slot = f.slot
    return Rendered(shown, slot.prev_start, same_case("in", slot.prev) + f.tail[len(slot.prev):], f"'{slot.prev}' → 'in' {why}")


@rule("range-in-one-period-after-from-or-between", stage="render", types=("DATETIME",),
      purpose='a range of dates that became one period after "from" or "between" reads "in" it ("from [1945 to 1946]" → "in the mid-1940s")')
def range_in_one_period_after_from_or_between(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_PHRASE and f.prev in ("from", "between") and _RANGE_IN_A_SPAN.search(f.original):
        return _previous_word_read_as_in(f, f.when, "before a range shown as one period")
    return None


@rule("period-after-a-date-preposition", stage="render", types=("DATETIME",),
      purpose='a date phrase after a preposition of time is "the" period ("since [1985]" → "since the 1980s")')
def period_after_a_date_preposition(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_PHRASE and f.prev in DATE_PREPOSITIONS:
        return Rendered(f.when)
    return None


@rule("in-for-on-or-at-before-a-period", stage="render", types=("DATETIME",),
      purpose='"on" or "at" before a date that became a period reads "in" ("On [4 May 1990]," → "In the 1990s,")')
def in_for_on_or_at_before_a_period(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_PHRASE and f.prev in ("on", "at"):
        return _previous_word_read_as_in(f, f.when, "before a period")
    return None


@rule("period-at-sentence-start", stage="render", types=("DATETIME",),
      purpose='a period that starts a sentence reads "In the 2010s" before a clause, else "The 2010s" (the subject)')
def period_at_sentence_start(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_PHRASE and f.slot.sentence_start:
        # an adverbial before a clause ("In the 2010s, she …"), else the subject ("The 2010s saw …")
        return Rendered("In " + f.when if _CLAUSE_FOLLOWS.match(f.after) else capitalise(f.when))
    return None


@rule("in-before-a-period-after-a-word", stage="render", types=("DATETIME",),
      purpose='a period right after a word takes "in" ("born [1980]" → "born in the 1980s")')
def in_before_a_period_after_a_word(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_PHRASE and f.slot.prev:
        return Rendered("in " + f.when)
    return None


def _period_otherwise(f: Fitting) -> Rendered | None:
    """A date phrase no rule above fitted: "the" period."""
    return Rendered(f.when) if f.kind is RungKind.DATE_PHRASE else None


#: A date rung that names a month of a year, a year or a month ("June 2005", "1995", "June").
_MONTH_OR_YEAR = re.compile(r"(?:[A-Z][a-z]+ )?\d{3,4}|[A-Z][a-z]+")


@rule("in-for-on-or-at-before-a-month-or-year", stage="render", types=("DATETIME",),
      purpose='"on" or "at" before a date that became a month or a year reads "in" ("On [22 June 2005]," → "In June 2005,")')
def in_for_on_or_at_before_a_month_or_year(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE and f.prev in ("on", "at") and _MONTH_OR_YEAR.fullmatch(f.label):
        return _previous_word_read_as_in(f, f.label, "before a month or year")
    return None


@rule("the-before-a-month-or-year-dropped", stage="render", types=("DATETIME",),
      purpose='"the" before a date that became a month or a year goes, unless a noun follows ("in the [summer of 1994]" → "in 1994"; "at the [end of May 1996]" → "in May 1996")')
def the_before_a_month_or_year_dropped(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE and f.prev == "the" and not f.slot.modifier and _MONTH_OR_YEAR.fullmatch(f.label):
        slot = f.slot
        shown = capitalise(f.label) if slot.prev[:1].isupper() else f.label
        at = re.search(r"\b(at|on)\s+$", f.before[:slot.prev_start], re.I)  # "at the [end of May 1996]" → "in May 1996"
        if at:
            return Rendered(shown, at.start(), same_case("in", at.group(1)) + " ", f"'{at.group(1)} {slot.prev}' → 'in' before '{f.label}'")
        return Rendered(shown, slot.prev_start, "", f"'{slot.prev}' removed before '{f.label}'")
    return None


@rule("range-after-a-determiner", stage="render", types=("DATETIME",),
      purpose='a range of periods after a determiner is the two periods joined by a dash ("the [1919–20] season" → "the 1910s–1920s season")')
def range_after_a_determiner(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_RANGE and f.prev in DETERMINERS:
        return Rendered("–".join(p.removeprefix("the ") for p in f.label[len("between "):].split(" and ", 1)))
    return None


@rule("range-after-between-or-from", stage="render", types=("DATETIME",),
      purpose='a range after "between" drops its own "between"; after "from" it reads "the 1980s to the 1990s"')
def range_after_between_or_from(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.DATE_RANGE:
        return None
    if f.prev == "between":
        return Rendered(f.label[len("between "):])
    if f.prev == "from":
        return Rendered(f.label[len("between "):].replace(" and ", " to ", 1))
    return None


@rule("range-for-in-or-on", stage="render", types=("DATETIME",),
      purpose='a range of periods after "in", "on" or "during" takes their place ("in [1989 and 1991]" → "between the 1980s and the 1990s")')
def range_for_in_or_on(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.DATE_RANGE and f.prev in ("in", "on", "during"):
        slot = f.slot
        shown = capitalise(f.label) if slot.prev[:1].isupper() else f.label
        return Rendered(shown, slot.prev_start, "", f"'{slot.prev}' removed before a range")
    return None


def _range_otherwise(f: Fitting) -> Rendered | None:
    """A range no rule above fitted: as it is, capitalised at a sentence's start."""
    if f.kind is RungKind.DATE_RANGE:
        return Rendered(capitalise(f.label) if f.slot.sentence_start else f.label)
    return None


@rule("article-agrees-with-a-class", stage="render", types=_GRAPH,
      purpose='"a"/"an" before a class agrees with it ("an [city]" → "a city") and goes before a plural ("a countries" → "countries")')
def article_agrees_with_a_class(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.CLASS or f.prev not in ("a", "an"):
        return None
    label, slot = f.label, f.slot
    art = indefinite_article(label)
    if head_is_plural(label):
        return Rendered(label, slot.prev_start, "", f"article '{slot.prev}' removed before '{label}'")
    if f.prev != art:
        return Rendered(label, slot.prev_start, same_case(art, slot.prev) + f.tail[len(slot.prev):], f"article '{slot.prev}' → '{art}' before '{label}'")
    return Rendered(label)


@rule("the-before-a-class-becomes-a", stage="render", types=_GRAPH,
      purpose='"the" before a class becomes "a"/"an" (the class names no one thing: "by the [state of India]" → "by a state of India"); before a plural it goes')
def the_before_a_class_becomes_a(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.CLASS or f.prev != "the":
        return None
    label, slot = f.label, f.slot
    if head_is_plural(label):
        shown = capitalise(label) if slot.prev[:1].isupper() else label
        return Rendered(shown, slot.prev_start, "", f"'the' removed before '{label}'")
    art = indefinite_article(label)
    return Rendered(label, slot.prev_start, same_case(art, slot.prev) + f.tail[len(slot.prev):], f"'the' → '{art}' before '{label}'")


#: The articles (``truth.articles``): one opening a span's own text ("the Second World War") stood before its noun.
_ARTICLES = words("truth.articles")


def _opens_with_article(text: str) -> bool:
    """``text`` opens with an article ("the Second World War", "a Dutch company")."""
    first = text.split(maxsplit=1)
    return len(first) == 2 and first[0].lower() in _ARTICLES


@rule("no-article-for-a-determined-or-plural-class", stage="render", types=_GRAPH,
      purpose="a plural class, or one after a determiner, a possessive or where the span's own noun stood bare (not after its own article: \"during [the Second World War]\" → \"during a war\"), takes no article")
def no_article_for_a_determined_or_plural_class(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.CLASS:
        return None
    slot = f.slot
    if head_is_plural(f.label) or f.prev in DETERMINERS or _possessive(f.prev, f.before[:slot.prev_start]) \
            or (f.own_head and slot.prev and not _opens_with_article(f.original)):
        return Rendered(capitalise(f.label) if slot.sentence_start and not slot.prev else f.label)
    return None


@rule("article-at-sentence-start", stage="render", types=_GRAPH,
      purpose='a singular class that starts a sentence takes a capitalised article ("A city …")')
def article_at_sentence_start(f: Fitting) -> Rendered | None:
    if f.kind is RungKind.CLASS and f.slot.sentence_start and not f.slot.prev:
        art = indefinite_article(f.label)
        return Rendered(f.label, len(f.before), capitalise(art) + " ", f"inserted '{capitalise(art)}' before '{f.label}'")
    return None


@rule("article-inserted-before-a-class", stage="render", types=_GRAPH,
      purpose='a singular class after a preposition, a copula, a verb, in a list or as a subject takes an article ("born in [a] city")')
def article_inserted_before_a_class(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.CLASS:
        return None
    label, slot, prev, before = f.label, f.slot, f.prev, f.before
    # "in a country, [a] city"; "for *** and [a] university"
    listed = (not slot.prev and before.rstrip().endswith((",", " and", " or"))) or prev in ("and", "or")
    two_back = re.search(r"([\w'’-]+)\s+$", before[:slot.prev_start])
    infinitive = bool(two_back) and two_back.group(1).lower() == "to" and "VERB" in _pos(prev)  # "to study [an] …"
    after_verb = (_is_verb(prev) or infinitive or _past_after_subject(prev, two_back.group(1) if two_back else "")) \
        and not _determiner_within(before[:slot.prev_start])  # not "a practising [a] …", "the newly founded [an] …"
    # "At the end of the season [a] sports team was relegated": the subject after an opening phrase
    subject = slot.next_word.lower() in SUBJECT_VERBS and _after_opening_phrase(before)
    # the parse says the class heads its own noun phrase ("after helping [a] country win")
    heads = slot.heads_its_phrase and bool(prev) and not is_noun_like(prev) and not _determiner_within(before[:slot.prev_start])
    if prev in NEEDS_ARTICLE_AFTER or after_verb or listed or subject or heads:
        art = indefinite_article(label)
        return Rendered(label, len(before), art + " ", f"inserted '{art}' before '{label}'")
    return None


@rule("part-of-a-place-for-a-part-adjective", stage="render", types=("LOC",),
      purpose='an adjective naming a part of the place after it reads as that part ("in northern [Italy]" → "in the north of a country")')
def part_of_a_place_for_a_part_adjective(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.CLASS:
        return None
    slot = f.slot
    adjective = _adjective_before(slot.prev, f.before[:slot.prev_start])
    part = PART_ADJECTIVES.get(adjective.lower()) if adjective is not None else None
    if part is None:
        return None
    art = indefinite_article(f.label)
    return Rendered(f.label, slot.prev_start, f"{part} {art} ", f"'{slot.prev}' → '{part} {art}' before '{f.label}'")


@rule("article-before-the-adjective-of-a-class", stage="render", types=_GRAPH,
      purpose='a class after an adjective that stood before a name takes its article before the adjective ("of colonial [Nigeria]" → "of a colonial country")')
def article_before_the_adjective_of_a_class(f: Fitting) -> Rendered | None:
    if f.kind is not RungKind.CLASS:
        return None
    slot = f.slot
    adjective = _adjective_before(slot.prev, f.before[:slot.prev_start])
    if adjective is None:
        return None
    lead = indefinite_article(adjective)
    return Rendered(f.label, slot.prev_start, f"{lead} {f.tail}", f"inserted '{lead}' before '{adjective} {f.label}'")


def _class_otherwise(f: Fitting) -> Rendered | None:
    """A class no rule above fitted: as it is."""
    return Rendered(f.label) if f.kind is RungKind.CLASS else None


#: A hedge right before a replacement ("approximately [EUR 1,300]", "more than [ten]").
_HEDGE_BEFORE = pattern("render.hedge_before")
#: Rungs that bound or estimate an amount themselves ("under GBP 100", "thousands of euros").
_BOUNDED_RUNG = pattern("render.bounded_rung")


@rule("hedge-before-a-bound-dropped", stage="render", types=("QUANTITY", "DATETIME"),
      purpose='a hedge before an amount that became a bound or an order of magnitude goes ("approximately [EUR 1,300]" → "under EUR 2,000")')
def hedge_before_a_bound_dropped(f: Fitting) -> Rendered | None:
    if f.kind not in (RungKind.OTHER, RungKind.DATE) or not _BOUNDED_RUNG.match(f.label):
        return None
    hedge = _HEDGE_BEFORE.search(f.before[-30:])
    if hedge is None:
        return None
    at = len(f.before) - len(f.before[-30:]) + hedge.start()
    said = f.before[at:].strip()
    shown = capitalise(f.label) if said[:1].isupper() else f.label
    return Rendered(shown, at, "", f"'{said}' removed before '{f.label}'")


@rule("by-before-a-majority-said-once", stage="render", types=("QUANTITY",),
      purpose='a vote that became "by a majority" after "by" says "by" once ("by [ten votes to two]" → "by a majority")')
def by_before_a_majority_said_once(f: Fitting) -> Rendered | None:
    if f.prev == "by" and f.label.startswith("by "):
        return Rendered(f.label[len("by "):])
    return None


@rule("count-after-a-determiner", stage="render", types=("QUANTITY",),
      purpose='a small count in words after a determiner drops its own article ("the [three] cases" → "the few cases")')
def count_after_a_determiner(f: Fitting) -> Rendered | None:
    if f.kind in (RungKind.OTHER, RungKind.DATE) and f.prev in DETERMINERS and f.prev not in ("a", "an") and f.label.startswith("a few"):
        return Rendered(f.label[len("a "):])
    return None


#: Life stages as a noun and as the adjective before a noun ("teenager" → "teenage").
_LIFE_STAGES = table("periods.life_stages")


@rule("life-stage-before-a-noun", stage="render", types=("DATETIME", "QUANTITY"),
      purpose='a stage of life before a noun reads as its adjective ("an [18-year-old] boy" → "a teenage boy")')
def life_stage_before_a_noun(f: Fitting) -> Rendered | None:
    if not f.slot.modifier:
        return None
    adjective = next((v["adjective"] for v in _LIFE_STAGES.values() if v["noun"] == f.label), None)
    if adjective is None:
        return None
    slot = f.slot
    art = indefinite_article(adjective)
    if f.prev in ("a", "an") and f.prev != art:
        return Rendered(adjective, slot.prev_start, same_case(art, slot.prev) + f.tail[len(slot.prev):], f"'{f.label}' → '{adjective}' before a noun")
    return Rendered(adjective, note=f"'{f.label}' → '{adjective}' before a noun")


@rule("article-agrees-with-a-placeholder", stage="render", types=(),
      purpose='"a"/"an" before a mask or rule placeholder agrees with it ("an [actress]" → "a ***")')
def article_agrees_with_a_placeholder(f: Fitting) -> Rendered | None:
    if f.prev in ("a", "an") and f.kind is not RungKind.PERSON:
        art = indefinite_article(f.label)
        if f.prev != art:
            slot = f.slot
            return Rendered(f.label, slot.prev_start, same_case(art, slot.prev) + f.tail[len(slot.prev):], f"article '{slot.prev}' → '{art}' before '{f.label}'")
    return None


#: The phrase rules (and the defaults of each kind of rung), in the order they are tried:
#: the first that returns a phrase decides.
PHRASE_RULES = (
    nationality_read_as_a_language_masked,
    class_in_a_compound_masked,
    modifier_kept_before_a_noun_that_needs_it,
    modifier_kept_after_an_exclusive_word,
    modifier_dropped,
    modifier_before_an_ing_noun_dropped,
    modifier_dropped_before_a_capitalised_body,
    person_in_a_modifier_slot_dropped,
    count_placeholder_read_as_multiple,
    placeholder_modifier_dropped,
    unknown_date_read_as_at_one_time,
    placeholder_shown_as_a_mask,
    period_after_a_determiner,
    period_later_in_a_range_from_a_kept_year,
    range_from_a_kept_year_at_one_grain,
    range_in_one_period_after_from_or_between,
    period_after_a_date_preposition,
    in_for_on_or_at_before_a_period,
    period_at_sentence_start,
    in_before_a_period_after_a_word,
    _period_otherwise,
    in_for_on_or_at_before_a_month_or_year,
    the_before_a_month_or_year_dropped,
    range_after_a_determiner,
    range_after_between_or_from,
    range_for_in_or_on,
    _range_otherwise,
    article_agrees_with_a_class,
    the_before_a_class_becomes_a,
    no_article_for_a_determined_or_plural_class,
    article_at_sentence_start,
    article_inserted_before_a_class,
    part_of_a_place_for_a_part_adjective,
    article_before_the_adjective_of_a_class,
    _class_otherwise,
    hedge_before_a_bound_dropped,
    by_before_a_majority_said_once,
    count_after_a_determiner,
    life_stage_before_a_noun,
    article_agrees_with_a_placeholder,
)


def render_phrase(label: str, kind: RungKind, before: str, after: str, *, own_head: bool = False, original: str = "",
                  heads_its_phrase: bool | None = None) -> Rendered:
    """The phrase for ``label`` between ``before`` (output so far) and ``after`` (original text).
    ``own_head``: the label is the head noun of the span's own common-noun phrase ("law" for
    "international law"): where the span stood without an article, so does the label
    ("studied law", not "studied a law"). The first of :data:`PHRASE_RULES` that applies
    decides; where none does the label stands as it is (capitalised at a sentence's start).
    ``original``: the span's text, which holds the count a placeholder hides ("a [3]-time" →
    "a multiple-time"). ``heads_its_phrase``: the document's parse says the span modifies no word
    after it (None: no parse)."""
    f = Fitting(label, kind, before, after, Slot.of(before, after, heads_its_phrase), own_head, original)
    for fit in PHRASE_RULES:
        rendered = fit(f)
        if rendered is not None:
            return rendered
    if f.slot.sentence_start and not f.slot.prev:
        return Rendered(capitalise(label))
    return Rendered(label)
