"""Words of a span and its sentence, as the truth rules read them (:mod:`engine.generate.truth`):
the head noun of a name, ordinals and plural heads, the years a sentence names, the word
after each use of a span."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from engine.generate.linking import fold
from engine.knowledge import Pattern, pattern, rule, words
from engine.types import EntityType, LinkMethod

#: A sentence naming a year before this one is "dated": no time-bound status is offered
#: for it (rule 7). The store's classes are today's; a generation back is where regimes,
#: legal statuses and population classes of the truth set's places changed.
TIME_BOUND_BEFORE = 1990
#: A year in a sentence: four digits (1000–2099), or three after a month or "in"/"AD" ("April 258").
YEAR = pattern("truth.year")
#: Words after a language name that keep it the language ("Hebrew: …", "Bosnian pronunciation",
#: works in it: "Malayalam films", "Urdu poetry").
LANGUAGE_NOUNS = words("truth.language_nouns")
#: Nouns of what a country has, not its people: a demonym before one names the country ("the Tanzanian border").
COUNTRY_NOUNS = words("truth.country_nouns")
#: Words after which a name's head noun has ended ("Order of Santiago" → "order").
PREPOSITIONS = words("truth.name_prepositions")
WORD = re.compile(r"[\w'’.-]+")
#: Modifiers that make a noun name something it is not: a vice president is no president.
NON_SUBSECTIVE = words("truth.non_subsective")
#: the ones that negate any noun, not only a person word (``truth.non_subsective_any_noun``)
NON_SUBSECTIVE_ANY_NOUN = words("truth.non_subsective_any_noun")
#: Endings of a word in "s" that is no plural ("class", "campus", "analysis").
NOT_PLURAL_ENDINGS = words("truth.not_plural_endings")
#: Endings of a lower-case word that may be a participle ("created", "consisting").
PARTICIPLE_ENDINGS = words("truth.participle_endings")
#: "in" right before a span ("written in *Indonesian*").
_IN_BEFORE = pattern("truth.in_before")


def dated_before(context: str | None, year: int) -> bool:
    """The sentence names a year before ``year`` ("born in 1932", "March or April 258")."""
    for m in YEAR.finditer(context or ""):
        if int(m.group(1) or m.group(2)) < year:
            return True
    return False


def dated_since(context: str | None, year: int) -> bool:
    """The sentence names a year, and none before ``year``."""
    years = [int(m.group(1) or m.group(2)) for m in YEAR.finditer(context or "")]
    return bool(years) and min(years) >= year


def is_plural(text: str, label: str | None) -> bool:
    """The span is the plural of its linked class's label ("presidents" of "president")."""
    words, lab = span_words(text), fold(label or "").split()
    if not words or not lab or not words[-1].endswith("s") or words[-1] == lab[-1]:
        return False
    last = words[-1]
    return lab[-1] in (last[:-1], last[:-2], last[:-3] + "y")


def words_after(text: str, context: str) -> list[str]:
    """The word (or punctuation mark) after each occurrence of ``text`` in ``context``
    (a span carries no offset in its sentence, and later mentions of an entity reuse
    the first one's replacement: every use counts)."""
    out = []
    for m in re.finditer(rf"(?<!\w){re.escape(text)}(?!\w)\s*([\w’'-]+|\S)?", context):
        out.append(m.group(1) or "")
    return out


def _starts(text: str, context: str) -> list[int]:
    """Where each use of ``text`` as whole words begins in ``context``."""
    return [m.start() for m in re.finditer(rf"(?<!\w){re.escape(text)}(?!\w)", context)]


#: A year in brackets after a name ("Samurai Assassin (1965)"), which marks a title, ``truth.title_year_after``.
_TITLE_YEAR_AFTER = pattern("truth.title_year_after")


@rule("dated-title-has-no-head-class", stage="ladder", types=(EntityType.MISC,), off=False,
      purpose='a MISC name followed by a year in brackets is a title: its head noun names no class of it but a kind of work ("Northern Railway (1961)", a film, is no railway company)')
def titled(text: str, context: str, entity_type: EntityType = EntityType.MISC) -> bool:
    """``entity_type`` is MISC and every use of ``text`` in ``context`` stands before a
    bracketed year. Quotes mark no title: a judgment quotes the names of organisations (the
    “Eastern Mediterranean University”), and detection reads a quoted work as MISC already."""
    if entity_type is not EntityType.MISC:
        return False
    starts = _starts(text, context)
    return bool(starts) and all(_TITLE_YEAR_AFTER.match(context[at + len(text):]) for at in starts)


#: A rank of an order of merit ("Officer of the Order of Canada"), ``truth.honour_rank``.
_HONOUR_RANK = pattern("truth.honour_rank")


@rule("honour-rank-names-no-holder", stage="ladder", types=(EntityType.DEM,), off=False,
      purpose='a rank of an order of merit ("Officer of the Order of Canada", "Person of Cultural Merit") is an honour: its head noun names no officer and no person')
def honour_rank(text: str) -> bool:
    """``text`` names a rank of an order of merit."""
    return bool(_HONOUR_RANK.search(text))


def after_in(text: str, context: str) -> bool:
    """Some use of ``text`` in ``context`` comes right after "in" ("written in *Indonesian*")."""
    return any(_IN_BEFORE.search(context[:at]) for at in _starts(text, context))


#: A verb of speaking, learning or translating right before a span ("she learned *Dutch*").
_LANGUAGE_VERB_BEFORE = pattern("truth.language_verb_before")


def _preceded(words_before: Pattern, text: str, context: str, reach: int) -> bool:
    """Some use of ``text`` in ``context`` has ``words_before`` end within the ``reach``
    characters right before it."""
    return any(words_before.search(context[max(0, at - reach):at]) for at in _starts(text, context))


def after_language_verb(text: str, context: str) -> bool:
    """Some use of ``text`` in ``context`` comes right after a verb of speaking, learning or
    translating (:data:`_LANGUAGE_VERB_BEFORE`): a language name there is the language."""
    return _preceded(_LANGUAGE_VERB_BEFORE, text, context, 40)


def attributive(text: str, context: str) -> bool:
    """A use of ``text`` is followed by a word in lower case that is no preposition nor
    "and": the span qualifies that noun ("officer rank", "officer who"), it names no holder."""
    return any(nxt[:1].isalpha() and nxt[:1].islower() and nxt.lower() not in PREPOSITIONS
               for nxt in words_after(text, context))


#: Closed-class words (prepositions, conjunctions, copulas …): none is a noun a demonym qualifies.
_CLOSED = words("render.closed_words")


def qualifies_a_noun(text: str, context: str) -> bool:
    """Every use of a demonym ``text`` in ``context`` is followed by a lower-case word that is no
    closed-class word nor a noun that keeps it the language ("a Polish *engineer*"; not
    "from Polish into French", "Polish literature"): stricter than :func:`attributive`, which
    one such use satisfies."""
    after = words_after(text, context)
    return bool(after) and all(w[:1].isalpha() and w[:1].islower() and w.lower() not in LANGUAGE_NOUNS | _CLOSED for w in after)


def nouns_after(text: str, context: str, most: int = 3) -> list[list[str]]:
    """For each use of ``text`` in ``context``, the lower-case words right after it, up to a
    punctuation mark, a closed-class word or a preposition (at most ``most``): the noun phrase
    the span qualifies ("a Norwegian *marine geologist*"); an empty list where none follows."""
    out = []
    for at in _starts(text, context):
        phrase = []
        for w in re.findall(r"[\w’'-]+|\S", context[at + len(text):at + len(text) + 80])[:most]:
            if not (w[:1].isalpha() and w[:1].islower()) or w.lower() in _CLOSED | PREPOSITIONS:
                break
            phrase.append(w)
        out.append(phrase)
    return out


#: Words right before a demonym that make its sentence a claim about that nationality alone
#: ("the *only* German commander"), ``places.continent_exclusive_before``.
_EXCLUSIVE_BEFORE = pattern("places.continent_exclusive_before")


def exclusive_before(text: str, context: str) -> bool:
    """Some use of ``text`` in ``context`` follows "only", "first", "last" … (:data:`_EXCLUSIVE_BEFORE`)."""
    return _preceded(_EXCLUSIVE_BEFORE, text, context, 40)


#: Words right before a demonym that make it a person's noun ("the second *Vietnamese* to …"), ``truth.person_demonym_before``.
_PERSON_DEMONYM_BEFORE = pattern("truth.person_demonym_before")


def demonym_as_noun(text: str, context: str) -> bool:
    """Some use of the demonym ``text`` in ``context`` is a noun naming a person: after an
    article, a number or an ordinal (:data:`_PERSON_DEMONYM_BEFORE`), ending its noun phrase
    (:func:`_ends_noun_phrase`)."""
    return any(_ends_noun_phrase(nxt) and _PERSON_DEMONYM_BEFORE.search(context[max(0, at - 30):at])
               for at, nxt in zip(_starts(text, context), words_after(text, context)))


def _ends_noun_phrase(nxt: str) -> bool:
    """The word after a span lets it end its noun phrase: none, a punctuation mark other than a
    hyphen or a dash ("a Peruvian, …"), or a closed-class word other than "and"/"or" ("the
    second Vietnamese *to* …"); not a noun, a name ("the Nigerian Senate") nor a compound's
    second part ("Canadian-born")."""
    if not nxt:
        return True
    if not nxt[:1].isalnum():
        return nxt[:1] not in "-‐–—"
    return nxt[:1].islower() and nxt.lower() in _CLOSED and nxt.lower() not in ("and", "or")


#: Words right before a span that make it a field of study or of teaching: "studied
#: *sculpture*", "a master's degree in *public administration*", "professor of *law*".
_FIELD_BEFORE = pattern("truth.field_before")


def in_field_slot(text: str, context: str) -> bool:
    """Some use of ``text`` in ``context`` follows words that make it a field of study or
    of teaching (:data:`_FIELD_BEFORE`): the span names the field, not a thing of it."""
    return _preceded(_FIELD_BEFORE, text, context, 60)


#: A word written as an ordinal ("17th", "LXI").
ORDINAL = pattern("truth.ordinal")


def is_ordinal(word: str) -> bool:
    """A word as written is an ordinal: "17th", or a Roman numeral in capitals of two
    letters or more ("LXI"; not "Li", a name)."""
    return bool(ORDINAL.match(word.strip(".,;:")))


@rule("plural-name-head", stage="ladder", off=False,
      purpose="a name whose head noun is a plural names one thing made of several: its head is not looked up as the singular")
def plural_name_head(text: str, words: list[str]) -> bool:
    """The span is a name (its head word capitalised) whose head noun is a plural: it
    names one thing — a series, a team, a body — made of or about several of them, not
    one of them ("Tales from the Crypt" is no tale, "United Nations" no nation)."""
    if not words:
        return False
    raw = [w.strip(".,;:'’\"") for w in WORD.findall(re.sub(r"\([^)]*\)", " ", text)) if w.strip(".,;:'’\"")]
    if len(raw) != len(words):
        return False
    i = head_index(words)
    head = words[i]
    return raw[i][:1].isupper() and len(head) > 3 and head.endswith("s") and not head.endswith(NOT_PLURAL_ENDINGS.in_order())


def head_written_lower(text: str, words: list[str]) -> bool:
    """The head noun of the span is written in lower case: a common noun ("the Sima clan",
    "his death"), not a word of a name ("BBC News", "The Craft")."""
    raw = [w.strip(".,;:'’\"") for w in WORD.findall(re.sub(r"\([^)]*\)", " ", text)) if w.strip(".,;:'’\"")]
    if not words or len(raw) != len(words):
        return False
    return raw[head_index(words)][:1].islower()


def sentence_case_title(text: str, words: list[str]) -> bool:
    """A name written in sentence case, as titles are in many languages: it starts with a
    capital, its head noun is in lower case and a capitalised name follows the head ("La
    *luna* de Guadix", a film): the head is a word of the title, not a common noun naming
    the kind ("the Sima *clan*", "Gyeongsang *dialect*" end with theirs)."""
    raw = [w.strip(".,;:'’\"") for w in WORD.findall(re.sub(r"\([^)]*\)", " ", text)) if w.strip(".,;:'’\"")]
    if not words or len(raw) != len(words) or not raw[0][:1].isupper():
        return False
    at = head_index(words)
    return raw[at][:1].islower() and any(w[:1].isupper() for w in raw[at + 1:])


#: Articles that may open a head phrase without being one of its words ("the sound").
ARTICLES = words("truth.articles")


@rule("clipped-alias", stage="ladder", types=("DEM",), off=False,
      purpose="a person word that is an alias clipped from a longer label (\"head\" of \"head teacher\") names no class from the head noun")
def clipped(form: str, label: str) -> bool:
    """``form`` (an alias) is a shorter run of whole words of ``label``: "head" for "head
    teacher", a clipping whose word names other things as often ("head of news")."""
    form, label = fold(form), fold(label)
    return form != label and re.search(rf"(?<!\w){re.escape(form)}(?!\w)", label) is not None


def span_words(text: str) -> list[str]:
    """Folded words of a span, without brackets and trailing punctuation."""
    text = re.sub(r"\([^)]*\)", " ", fold(text))
    return [w.strip(".,;:'’\"") for w in WORD.findall(text) if w.strip(".,;:'’\"")]


#: Words that join two nouns or modifiers: the head is the second conjunct's ("the mining
#: and energy *committee*"; "The Master and *Margarita*", a title, names no master).
CONJUNCTIONS = words("truth.conjunctions")


@rule("coordinated-names-no-head", stage="ladder", off=False,
      purpose="a span that joins two nouns or modifiers (\"physical education and sports\") has no one head noun to name its class")
def coordinated(words: list[str]) -> bool:
    """A conjunction comes before any preposition: the span joins two nouns or modifiers
    ("physical education and sports", "the mining and energy committee", "The Master and
    Margarita"), and which one is the head the words alone do not say."""
    for i, w in enumerate(words):
        if i > 0 and w in PREPOSITIONS:
            return w in CONJUNCTIONS
    return False


#: Words that say a number follows ("Law *no.* 3713").
NUMBER_MARKERS = words("truth.number_markers")


@rule("number-after-a-name-left-out", stage="ladder", types=(EntityType.MISC, EntityType.ORG), off=None,
      purpose='a year or number after a reader rule\'s head word is no part of the name\'s head ("Police Act 1997" is an act, "Law no. 3713" a law; "Windows 95" is no window)')
def without_trailing_number(words: list[str]) -> list[str]:
    """``words`` without the year or number that ends them ("police act 1997" → "police act",
    "law no 3713" → "law"), where a word is left."""
    out = list(words)
    while len(out) > 1 and any(ch.isdigit() for ch in out[-1]) and not any(ch.isalpha() for ch in out[-1]):
        out.pop()
    if len(out) < len(words) and len(out) > 1 and out[-1] in NUMBER_MARKERS:
        out.pop()
    return out


#: Words that head a name from its end, whatever precedes them ("Expropriation of Property Act").
FINAL_HEADS = words("truth.final_heads")


@rule("name-final-head", stage="ladder", types=("MISC", "ORG"), off=False,
      purpose='a name that ends with a word such as "Act" is headed by it: "Expropriation of Property Act" is an act, no expropriation')
def final_head(words: list[str]) -> bool:
    """The last of ``words`` heads the name from its end (``truth.final_heads``) and a
    preposition comes before it."""
    return len(words) > 2 and words[-1] in FINAL_HEADS and any(w in PREPOSITIONS for w in words[1:-1])


def head_index(words: list[str]) -> int:
    """Position of the head noun: the last word before the first preposition, else the last
    word; after a conjunction that comes first, the head of what follows it; the last word of
    a name headed from its end (:func:`final_head`)."""
    if final_head(words):
        return len(words) - 1
    for i, w in enumerate(words):
        if i > 0 and w in PREPOSITIONS:
            if w in CONJUNCTIONS and i + 1 < len(words):
                return i + 1 + head_index(words[i + 1:])
            return i - 1
    return len(words) - 1


#: A preposition that ends a class label's head phrase ("city *of* Switzerland").
QUALIFIER = pattern("truth.qualifier")


def label_narrows(general: str, specific: str) -> bool:
    """Whether the class label ``specific`` names a kind of ``general`` by its words alone:
    its head phrase (before "of", "in", …) ends with all of ``general``'s words and says
    more ("big city", "city of Switzerland" and "cantonal capital of Switzerland" narrow
    "city" and "capital"; "city" does not narrow "big city", nor "capital city" "city of
    Switzerland"). The fallback of :meth:`TruthCheck.order` when the store relates neither
    class to the other."""
    g = general.lower().split()
    if not g or QUALIFIER.search(general):
        return False
    full = specific.lower().split()
    head = QUALIFIER.split(specific.lower(), maxsplit=1)[0].split()
    return len(head) >= len(g) and head[-len(g):] == g and len(full) > len(g)


def head_grams(words: list[str], *, whole: bool = False) -> list[str]:
    """Runs of words that hold the head noun and end at it or at the span's end, longest first
    (``whole``: the whole run too, for words that are not the span's own: a description)."""
    if not words:
        return []
    h = head_index(words)
    grams = []
    for end in sorted({h + 1, len(words)}, reverse=True):
        for start in range(0, h + 1):
            if whole or (start, end) != (0, len(words)):
                grams.append((end - start, start, " ".join(words[start:end])))
    grams.sort(key=lambda g: (-g[0], g[1]))
    return [g for _, _, g in grams]


#: Words after which a description's head phrase has ended ("association football club
#: *in* Greece", "film *by* Jake Kasdan", "sitcom created *by* …").
DESCRIPTION_STOPS = words("truth.description_stops")


def description_head(description: str | None) -> list[str]:
    """The words of an item's description up to the end of its head phrase: before the first
    comma, bracket or colon and before the first preposition ("association football club in
    Greece" → "association football club"); empty when the head noun is a plural ("games of
    the XVI Olympiad" describe one event, none of the games)."""
    text = re.split(r"[,;:(]", description or "", maxsplit=1)[0]
    words: list[str] = []
    for w in WORD.findall(text):
        if words and w.lower() in DESCRIPTION_STOPS:
            break
        words.append(w)
    if words and words[-1][:1].islower() and words[-1].endswith("s") and not words[-1].endswith(NOT_PLURAL_ENDINGS.in_order()):
        return []
    return words


def participle(word: str) -> bool:
    """A lower-case word that may be a participle ending a description's head phrase ("created", "consisting")."""
    return word[:1].islower() and word.endswith(PARTICIPLE_ENDINGS.in_order())


def _singular(word: str) -> str:
    """``word`` without a plural "s" ("joints" → "joint"; "class" stays)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) else word


@rule("non-subsective-modifier", stage="ladder", purpose="a rung the span names after a non-subsective modifier is false: a vice president is no president",
      off=False)
def negated_by_modifier(span_text: str, label: str, modifiers: Iterable[str] | None = None) -> bool:
    """The rung's words follow a non-subsective modifier in the span ("vice president" →
    "president"), also over the nouns between them ("Deputy Judge President" is no president);
    a preposition ends the modifier's reach ("President of the Former …"). ``modifiers``: the
    modifiers read (default ``truth.non_subsective``)."""
    modifiers = NON_SUBSECTIVE if modifiers is None else modifiers
    # (word, is it a prefix joined by a hyphen: "anti-apartheid activist" is an activist)
    parts = [(w, j < len(ws) - 1) for part in span_words(span_text) for ws in [part.split("-")] for j, w in enumerate(ws)]
    words = [_singular(w) for w, _ in parts]  # "prosthetic knee joints" is no "joint" either
    lab = [_singular(w) for w in fold(label).split()]
    n = len(lab)
    for i in range(1, len(words) - n + 1):
        if words[i:i + n] != lab:
            continue
        if words[i - 1] in modifiers:
            return True
        for before, joined in reversed(parts[:i - 1]):
            if before in PREPOSITIONS:
                break
            if before in modifiers and not joined:
                return True
    return False


#: The preposition that joins a name to its complement (:func:`later_head`: "University *of* Malawi").
COMPLEMENT_JOINT = words("truth.complement_joint")
#: How words name a place for :func:`later_head`: as its own label ("Malawi"; an alias may be a
#: month's or a person's word: "April").
NAME_METHODS = (LinkMethod.EXACT,)


def later_head(words: list[str], names_place: Callable[[str], bool], names_class: Callable[[str], bool]) -> int | None:
    """Where the later of two names a name is made of starts: the word before its second "of",
    when a place's name is the first one's complement (``names_place``) and that word names a
    class (``names_class``): "University of the Philippines *College* of Medicine" is a college
    of that university. "Polytechnic School of the University of São Paulo", "Faculty of Fine
    Arts of the University of Tehran" and "Ministry of Foreign Affairs of Japan" keep their
    first head (a name of more than two parts, or "the" before the complement, may be read
    either way: "Architectural Institute of Japan Prize" is not split)."""
    ofs = [i for i, w in enumerate(words) if w in COMPLEMENT_JOINT]
    if len(ofs) < 2 or ofs[0] == 0:
        return None
    between = [w for w in words[ofs[0] + 1:ofs[1] - 1] if w not in ARTICLES]
    if not between or not names_place(" ".join(between)) or not names_class(words[ofs[1] - 1]):
        return None
    return ofs[1] - 1


@rule("demonym-names-country", stage="ladder", types=("DEM", "MISC"), off=False,
      purpose="a demonym before a noun of what a country has (\"the Tanzanian border\") names the country, no nationality")
def names_its_country(text: str, context: str) -> bool:
    """Every use of the demonym ``text`` in ``context`` stands before a noun of what a country
    has (:data:`COUNTRY_NOUNS`): it names the country, no nationality ("along the Tanzanian border")."""
    after = words_after(text, context)
    return bool(after) and all(w.lower() in COUNTRY_NOUNS for w in after)


@rule("kindless-needs-phrase", stage="ladder", off=True,
      purpose="a head noun names a class of no kind only as a phrase of two words or a lower-case common noun (\"BBC News\" is no news)")
def names_kindless(text: str, words: list[str], gram: str) -> bool:
    """A head noun ``gram`` of the span ``text`` (words ``words``) names a class of no kind only when the words leave no doubt: a head
    phrase of two words or more ("Tamil Nadu *Legislative Assembly*", "Tibet *Autonomous
    Region*"), or a head noun written in lower case, a common noun ("Sima *clan*", "his
    *death*", "defensive *midfielder*"). A capitalised single word may be a word of a
    name: "BBC *News*" is no news, "The *Craft*" no craft, "Love Never *Dies*" no death; nor
    is a lower-case head in a sentence-case title ("La *luna* de Guadix"); an article makes no phrase ("*The Sound* of the Loom")."""
    return (len([w for w in gram.split() if w not in ARTICLES]) >= 2
            or head_written_lower(text, words) and not sentence_case_title(text, words))
