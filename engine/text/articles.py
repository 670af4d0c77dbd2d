"""The indefinite article a word takes: "a university", "an MP", "an hour" (a spelling heuristic).

The beginnings that break the vowel rule and the letters an initialism takes "an" after
are ``packs/core/articles.yaml``.
"""

from __future__ import annotations

from engine.knowledge import pattern, words

#: Beginnings of words that start with a vowel letter but a consonant sound ("a university").
_AN_EXCEPTIONS = words("articles.a_before")
#: Beginnings of words whose "h" is silent ("an hour").
_AN_SILENT_H = words("articles.an_before")
#: Capitals whose name starts with a vowel sound ("an MP").
_AN_INITIALS = words("articles.an_initials")
_VOWELS = words("articles.vowels")


def indefinite_article(word: str) -> str:
    """``a`` or ``an`` for the word that follows (spelling heuristic)."""
    first = word.split()[0] if word.split() else word
    if "." in first.strip(".") and first.replace(".", "").isupper():
        first = first.replace(".", "")  # "U.S." reads letter by letter: a U.S. champion
    if len(first) >= 2 and first.isupper() and first.isalpha():
        return "an" if first[0] in _AN_INITIALS else "a"  # initialisms read letter by letter: an MP, a BBC
    w = word.lower()
    if w.startswith(_AN_SILENT_H.in_order()):
        return "an"
    if w.startswith(_AN_EXCEPTIONS.in_order()):
        return "a"
    return "an" if not w or w[0] in _VOWELS else "a"


_NAMES_WITH_THE = pattern("articles.names_with_the")


def with_definite_article(name: str) -> str:
    """``the United Kingdom``, ``the Netherlands``; other names unchanged (how a composed rung
    such as "city in the United Kingdom" writes the name: :class:`kg.chains.ChainIndex`)."""
    if name.lower().startswith("the ") or not _NAMES_WITH_THE.match(name):
        return name
    return "the " + name
