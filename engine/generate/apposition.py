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

import re

from engine.generate.truth_text import PREPOSITIONS
from engine.types import Span

#: Words that end a noun phrase read backwards from the name (a determiner, a preposition, a
#: conjunction or pronoun): what stands before them is not the name's noun.
FUNCTION_WORDS = PREPOSITIONS | frozenset({
    "the", "a", "an", "his", "her", "their", "its", "our", "my", "your", "this", "that", "these", "those",
    "as", "with", "by", "or", "than", "which", "who", "whom", "into", "onto", "over", "under", "after", "before",
    "during", "since", "until", "against", "between", "among", "through", "while", "when", "where", "is", "was",
    "are", "were", "be", "been", "has", "had", "have", "not", "also", "like", "including", "such", "called", "named",
    "he", "she", "it", "they", "we", "i", "you", "him", "them", "there", "later", "earlier", "ago",
})
#: At most this many words make the phrase ("1957 Roger Corman *science fiction film*").
MAX_WORDS = 4
#: A name in a list before the span: a capitalised run without a comma, then ", " (or ", and " / " and ").
_LISTED = r"(?:[A-Z\"“][^,;]*?(?:,\s+(?:and\s+)?|\s+and\s+))*"


def noun_before(span: Span) -> list[str]:
    """The lower-case words of the noun phrase right before the span (or before the list of
    names it ends) in its sentence, at most :data:`MAX_WORDS`; empty when there is none."""
    context = span.context or ""
    text = span.text.strip()
    if not text or text[:1].islower() or not text[:1].isalnum():
        return []  # a common noun has no name before it
    pattern = re.compile(rf"(?<![\w'’-])((?:[a-z][\w-]*\s+){{1,{MAX_WORDS + 2}}}){_LISTED}[\"“]?{re.escape(text)}(?!\w)")
    for m in pattern.finditer(context):
        words = m.group(1).split()
        if words[-2:] == ["such", "as"]:
            words = words[:-2]  # "films such as Skinner, Blade and Excision": each is one of them
        words = words[-MAX_WORDS:]
        cut = max((i for i, w in enumerate(words) if w in FUNCTION_WORDS), default=-1)
        words = words[cut + 1:]
        if words:
            return words
    return []


#: A noun phrase after the name: ", a|an|the" and up to this many words.
_AFTER_WORDS = 6


def noun_after(span: Span) -> list[str]:
    """The noun phrase of an apposition after the span: "*Ulaştırmaspor*, a club of the
    Ministry of Transport", "*Hermosillo*, the state capital" (a bracket between is
    skipped), up to the first function word or punctuation; empty when there is none or its
    head noun is a plural ("the SA, the brownshirted stormtroopers" is no stormtrooper)."""
    context = span.context or ""
    text = span.text.strip()
    if not text or text[:1].islower():
        return []
    pattern = re.compile(rf"(?<![\w'’-]){re.escape(text)}(?:\s*\([^)]*\))?,\s+(?:a|an|the)\s+((?:[\w'’-]+\s*){{1,{_AFTER_WORDS}}})")
    for m in pattern.finditer(context):
        words: list[str] = []
        for w in m.group(1).split():
            if w.lower() in FUNCTION_WORDS or not w[-1:].isalnum():
                if not w[-1:].isalnum() and w.lower() not in FUNCTION_WORDS:
                    words.append(w.rstrip(",.;:)"))  # the phrase ends at its punctuation
                break
            words.append(w)
        while words and words[-1][:1].islower() and words[-1].endswith(("ed", "ing")):
            words = words[:-1]  # "a club playing in": the participle is no noun
        if not words or not words[-1][:1].islower():
            continue
        if words[-1].endswith("s") and not words[-1].endswith(("ss", "us", "is")):
            continue  # a plural: the name names the group, not one of them
        return words
    return []
