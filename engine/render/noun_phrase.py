"""Reading the noun phrase around a replaced span, for the rewrite rules.

Each function looks at the original text after (or the output before) one span and says
whether a rewrite applies and where: a decade before its noun ("the [2010s] general
election"), a person before a work ("the [Roger Corman] film"), a modifier coordinated
with another ("a [Yugoslav] and later Bosnian footballer"), a date span ending in its own
noun ("[1996/97 season]"), a masked name that keeps its article ("[The New York Times]
Best Seller list"). The decisions are the rewrite rules' (:mod:`engine.render.rewrites`);
the words and phrase shapes read here are ``packs/core/render.yaml``.
"""

from __future__ import annotations

import re

from engine.knowledge import pattern, rule, words
from engine.render.phrase import CLOSED_WORDS, RungKind, is_noun_like, noun_possible
from engine.types import GRAPH_TYPES, EntityType

#: A determiner (or possessive) right before a span: the span sits inside a noun phrase.
DETERMINER_BEFORE = pattern("render.determiner_before")
#: "from" or "between" (and "the") before the first date of a range.
RANGE_START = pattern("render.range_start")
#: What follows the first date of a range ("to …", "–1999").
RANGE_AFTER = pattern("render.range_after")


_DECADE = re.compile(r"\d{1,4}0s")
#: "the" right before a span (the article and the space after it as groups).
THE_BEFORE = pattern("render.the_before")
#: An article right before a span.
ARTICLE_BEFORE = pattern("render.article_before")
#: "of" alone between two spans ("the tour of [Fiji]").
_OF_BETWEEN = pattern("render.of_between")
#: A name that starts with its article ("The New York Times").
_THE_AT_START = pattern("render.the_at_start")
#: A name after a decade: capitalised words, with "de", "of", "and", … between two of them
#: ("World Taekwondo Championships", "Tour de France"); not a placeholder.
_NAME_AFTER = pattern("render.name_after")
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z][\w'’-]*)")
_WORD_AT = re.compile(r"([A-Za-z][\w'’-]*)")


def decade_after_noun(text: str, kind: RungKind, phrase: str, before: str, end: int, limit: int,
                      next_end: int | None = None) -> tuple[int, int, int, bool] | None:
    """A decade in the modifier slot of a definite noun phrase ("the [2010s] general
    election") reads after its noun, the phrase made indefinite ("a general election in
    the 2010s": one of the decade's). Returns (end of the noun phrase, start of its first
    word, where the decade goes) in the original, or None. The noun phrase is the run of
    nouns and adjectives after the date, up to ``limit`` (the next replacement); its last
    word must be able to be a noun. When "of" and the next replacement follow it ("the
    [1984] tour of [Fiji]"), the decade goes after that replacement ("a tour of *** in
    the 1980s"). Before a name ("the [2011] World Taekwondo Championships") the decade
    goes after the name and "the" stays ("the World Taekwondo Championships in the 2010s");
    the last value says so."""
    if kind is not RungKind.DATE_PHRASE or not _DECADE.fullmatch(phrase) or not THE_BEFORE.search(before):
        return None
    name = _NAME_AFTER.match(text, end)
    pos, words, last_noun = end, [], None
    if name and name.end() <= limit:
        nxt = _NEXT_WORD.match(text, name.end())
        if not (nxt and nxt.end() <= limit and nxt.group(1)[:1].islower() and noun_possible(nxt.group(1))
                and is_noun_like(nxt.group(1))):
            # "the [2011] World Taekwondo Championships" → "the World Taekwondo Championships in the 2010s"
            return name.end(), name.start(1), name.end(), True
        # a name modifying a noun ("the [2015] NFL season"): one noun phrase, "an NFL season in the 2010s"
        pos = name.end()
    while len(words) < 4:
        m = _NEXT_WORD.match(text, pos)
        if not m or m.end() > limit or not m.group(1)[:1].islower():
            break
        after = _NEXT_WORD.match(text, m.end())
        if not is_noun_like(m.group(1), after.group(1) if after else ""):
            break
        words.append(m)
        pos = m.end()
        if noun_possible(m.group(1)):
            last_noun = m
    if not words or last_noun is None:
        return None
    np_end = last_noun.end()
    at = np_end
    if next_end is not None and _OF_BETWEEN.fullmatch(text[np_end:limit]):
        at = next_end
    return np_end, (name.start(1) if pos != end and name else words[0].start(1)), at, False


#: Nouns of works a person makes: a person before them reads after them, with "by".
WORK_NOUNS = words("render.work_nouns")


def work_after(text: str, end: int, limit: int) -> int | None:
    """The end of the noun phrase after a person placeholder in a modifier slot, when its
    head names a work ("[Roger Corman] science fiction film"), else None."""
    pos, last = end, None
    for _ in range(4):
        m = (_NEXT_WORD if text[pos:pos + 1] in " \t" else _WORD_AT).match(text, pos)
        if not m or m.end() > limit or not m.group(1)[:1].islower():
            break
        after = _NEXT_WORD.match(text, m.end())
        if not is_noun_like(m.group(1), after.group(1) if after else ""):
            break
        pos = m.end()
        if m.group(1).lower() in WORK_NOUNS:
            last = m.end()
    return last


def r_next(text: str, pos: int) -> str:
    """The next word of ``text`` from ``pos`` (for edit descriptions)."""
    m = re.match(r"\s*(\S+)", text[pos:])
    return m.group(1) if m else ""


_COORDINATED = pattern("render.coordinated")


#: Parts of speech of a word after a span that the span, attached to it, modifies (``render.modified_parts_of_speech``).
_MODIFIED_POS = words("render.modified_parts_of_speech")
#: Dependencies of a word that passes the span's attachment on to the noun after it (``render.modifier_dependencies``).
_MODIFIER_DEPS = words("render.modifier_dependencies")


@rule("parse-says-the-span-heads-its-phrase", stage="render", types=(*GRAPH_TYPES, EntityType.PERSON),
      purpose='where the document was parsed, a span whose head attaches to a word before it (the object of a verb or a preposition) or to a verb is no modifier of the word after it, whatever that word looks like ("visited [Japan] several times" → "visited a country several times", not "visited several times")')
def parse_says_the_span_heads_its_phrase(parse, start: int, end: int) -> bool | None:
    """True when the spaCy ``parse`` of the original text attaches the span ``start:end``
    to no noun after it: its root's head is before it, or a verb or a function word after it
    ("after the [Philippine Revolution] broke out"). A span coordinated with a word before it
    ("housing and [community] projects") is left to the words' own reading: spaCy attaches
    such a modifier to the first conjunct. None (the rule does not apply) without a parse."""
    if parse is None:
        return None
    span = parse.char_span(start, end, alignment_mode="expand")
    if span is None or len(span) == 0:
        return None
    root = span.root
    if root.dep_ == "conj":
        return None
    head = root.head
    # "a [Croatian] retired politician": the span hangs on a participle that modifies the noun
    while head.i >= span.end and head.pos_ not in _MODIFIED_POS and head.dep_ in _MODIFIER_DEPS and head.head.i > head.i:
        head = head.head
    if head.i >= span.end and head.pos_ in _MODIFIED_POS:
        return False
    return True


def coordinated_modifier(text: str, kind: RungKind, before: str, end: int, limit: int) -> int | None:
    """A mask or class in a modifier slot joined by "and"/"or" to another modifier of one
    noun ("a [Yugoslav] and later Bosnian footballer"): "a *** and later Bosnian
    footballer" reads as two things. Returns where the other modifier starts (the mask,
    its conjunction and adverb are dropped: "a Bosnian footballer"), or None."""
    if kind not in (RungKind.MASK, RungKind.CLASS) or not ARTICLE_BEFORE.search(before):
        return None
    m = _COORDINATED.match(text, end)
    if m is None or m.end() + len(m.group(1)) + 1 + len(m.group(2)) > limit:
        return None
    modifier, noun = m.group(1), m.group(2)
    after = re.match(r"[ \t]+(\S+)", text[m.end() + len(modifier) + 1 + len(noun):])
    if modifier.lower() in CLOSED_WORDS or not is_noun_like(modifier, noun) or not is_noun_like(noun, after.group(1) if after else ""):
        return None  # "at the [University of X] and held posts": "held" is a verb, no second modifier
    return m.end()


def own_noun(original: str, kind: RungKind, phrase: str) -> str | None:
    """The noun that ends a date span itself ("[1996/97 season]", "[2001 and 2002 seasons]"),
    when the span became a bare period after "the": that noun is what the period dates."""
    if kind is not RungKind.DATE_PHRASE or not _DECADE_OR_CENTURY.fullmatch(phrase):
        return None
    m = re.search(r"\d\S*[ \t]+([a-z]+)$", original.strip())
    if m is None or not noun_possible(m.group(1)):
        return None
    return m.group(1)


_DECADE_OR_CENTURY = pattern("date_labels.decade_or_century")


def keeps_its_article(original: str, before: str, after: str) -> bool:
    """A masked span that starts with "The" and modifies what follows ("on [The New York
    Times] Best Seller list"): without its article, "on *** Best Seller list" reads as
    broken English. Not after another determiner, nor before a closed-class word ("the
    film [The Craft] and …")."""
    if not _THE_AT_START.match(original) or DETERMINER_BEFORE.search(before):
        return False
    m = re.match(r"[ \t]+([A-Za-z][\w'’-]*)", after)
    return bool(m) and m.group(1).lower() not in CLOSED_WORDS and m.group(1) != "PERSON"
