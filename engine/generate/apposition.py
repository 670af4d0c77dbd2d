"""The common noun a sentence puts before a name: "the television series *MacGyver*",
"the film *Pet Sematary Two*", "the comedy series *Swedish Dicks on Pop*", "the films
*Bad Dreams* and *Threesome*". The noun says what the name names, in the sentence's own
words, so a class rung headed by it would only repeat the sentence: the selection shows
``***`` instead (:mod:`engine.select.stated`).

The noun phrase is the run of lower-case words right before the span, or its opening
quote ("his song "*Chou Nan Ren*""), or before the list of capitalised names the span
ends ("the television series MacGyver, Roseanne, *Melrose Place*"; "films such as
Skinner, Blade and *Excision*"), after the last determiner, preposition or other function word in the run: "the
custody *of the* EFCC" and "contract ended *with* Sony Taiwan" give none.
"""

from __future__ import annotations

import functools
import re
from typing import Iterator

from engine.generate.truth_text import NOT_PLURAL_ENDINGS, PARTICIPLE_ENDINGS
from engine.knowledge import current, pattern, words
from engine.types import Span

#: Words that end a noun phrase read backwards from the name (a determiner, a preposition, a
#: conjunction or pronoun): what stands before them is not the name's noun.
FUNCTION_WORDS = words("apposition.function_words")
#: At most this many words make the phrase ("1957 Roger Corman *science fiction film*").
MAX_WORDS = 4
#: A name in a list before the span: a capitalised run without a comma, then ", " (or ", and " / " and ").
_LISTED = "apposition.listed"  # the entry's name: spliced into the pattern at each use
#: The words that end a noun phrase before a list of its instances ("films *such as* …").
LIST_CUE = words("apposition.list_cue")
#: The separator of a span's text appended to its sentence (:func:`phrases_before`); a
#: sentence or text holding it is matched by a pattern compiled for the text instead.
_SEP = "\x00"
@functools.lru_cache(maxsize=8)
def _before(listed: str) -> re.Pattern[str]:
    """The words before a span and the listed names (``listed``: the pattern of the active
    knowledge), with the span's text as a back-reference to the text appended after
    :data:`_SEP` (captured by the look-ahead at each lower-case word start): one pattern for
    every span instead of a compile per span's text (0.3 ms each, and the texts of a new
    document miss ``re``'s cache). The search goes as the pattern compiled for the text does
    — the same start positions, alternatives and back-tracking, the text matched literally —
    and a match cannot reach into the appended text: the text there follows the separator,
    which neither the words nor a listed name's separator end with."""
    return re.compile(rf"(?<![\w'’-])(?=[a-z])(?=[^{_SEP}]*{_SEP}(?P<text>[^{_SEP}]*)\Z)"
                      rf"(?P<words>(?:[a-z][\w-]*\s+){{1,{MAX_WORDS + 2}}}){listed}[\"“]?(?P=text)(?!\w)")


def phrases_before(context: str, text: str) -> Iterator[list[str]]:
    r"""The words run before each occurrence of ``text`` (or of the listed names it ends) in
    ``context``, as the matches of ``(?<![\w'’-])((?:[a-z][\w-]*\s+){1,6})`` + :data:`_LISTED`
    + ``[\"“]?`` + ``re.escape(text)`` + ``(?!\w)`` find them, left to right."""
    if _SEP in context or _SEP in text:  # pragma: no cover - no sentence holds a NUL
        listed = current().pattern_text(_LISTED)
        pattern = re.compile(rf"(?<![\w'’-])((?:[a-z][\w-]*\s+){{1,{MAX_WORDS + 2}}}){listed}[\"“]?{re.escape(text)}(?!\w)")
        return (m.group(1).split() for m in pattern.finditer(context))
    return (m.group("words").split() for m in _before(current().pattern_text(_LISTED)).finditer(f"{context}{_SEP}{text}"))


def noun_before(span: Span) -> list[str]:
    """The lower-case words of the noun phrase right before the span (or before the list of
    names it ends) in its sentence, at most :data:`MAX_WORDS`; empty when there is none."""
    context = span.context or ""
    text = span.text.strip()
    if not text or text[:1].islower() or not text[:1].isalnum():
        return []  # a common noun has no name before it
    for words in phrases_before(context, text):
        cue = list(LIST_CUE.in_order())
        if cue and words[-len(cue):] == cue:
            words = words[:-len(cue)]  # "films such as Skinner, Blade and Excision": each is one of them
        words = words[-MAX_WORDS:]
        cut = max((i for i, w in enumerate(words) if w in FUNCTION_WORDS), default=-1)
        words = words[cut + 1:]
        if words:
            return words
    return []


#: What follows the name in an apposition (a bracket, ", a|an|the" and up to six words: group 1).
_APPOSITION = pattern("apposition.appositive")
#: What may not stand right before the name.
_WORD_BEFORE = re.compile(r"[\w'’-]")


def phrases_after(context: str, text: str) -> Iterator[str]:
    r"""Group 1 of each match of ``(?<![\w'’-])`` + ``re.escape(text)`` + :data:`_APPOSITION`
    in ``context``, left to right and without overlap (as ``finditer`` finds them): each
    occurrence of the text found with ``str.find``, the rest matched after it."""
    at = context.find(text)
    while at >= 0:
        m = None if at and _WORD_BEFORE.match(context, at - 1) else _APPOSITION.match(context, at + len(text))
        if m is not None:
            yield m.group(1)
            at = context.find(text, m.end())
        else:
            at = context.find(text, at + 1)


def noun_after(span: Span) -> list[str]:
    """The noun phrase of an apposition after the span: "*Ulaştırmaspor*, a club of the
    Ministry of Transport", "*Hermosillo*, the state capital" (a bracket between is
    skipped), up to the first function word or punctuation; empty when there is none or its
    head noun is a plural ("the SA, the brownshirted stormtroopers" is no stormtrooper)."""
    context = span.context or ""
    text = span.text.strip()
    if not text or text[:1].islower():
        return []
    for phrase in phrases_after(context, text):
        words: list[str] = []
        for w in phrase.split():
            if w.lower() in FUNCTION_WORDS or not w[-1:].isalnum():
                if not w[-1:].isalnum() and w.lower() not in FUNCTION_WORDS:
                    words.append(w.rstrip(",.;:)"))  # the phrase ends at its punctuation
                break
            words.append(w)
        while words and words[-1][:1].islower() and words[-1].endswith(PARTICIPLE_ENDINGS.in_order()):
            words = words[:-1]  # "a club playing in": the participle is no noun
        if not words or not words[-1][:1].islower():
            continue
        if words[-1].endswith("s") and not words[-1].endswith(NOT_PLURAL_ENDINGS.in_order()):
            continue  # a plural: the name names the group, not one of them
        return words
    return []
