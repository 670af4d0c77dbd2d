"""The indefinite article a word takes: "a university", "an MP", "an hour" (a spelling heuristic)."""

from __future__ import annotations

_AN_EXCEPTIONS = ("uni", "use", "usu", "eu", "one", "once", "ure", "uro")
_AN_SILENT_H = ("hour", "honest", "honor", "honour", "heir")


def indefinite_article(word: str) -> str:
    """``a`` or ``an`` for the word that follows (spelling heuristic)."""
    first = word.split()[0] if word.split() else word
    if "." in first.strip(".") and first.replace(".", "").isupper():
        first = first.replace(".", "")  # "U.S." reads letter by letter: a U.S. champion
    if len(first) >= 2 and first.isupper() and first.isalpha():
        return "an" if first[0] in "AEFHILMNORSX" else "a"  # initialisms read letter by letter: an MP, a BBC
    w = word.lower()
    if w.startswith(_AN_SILENT_H):
        return "an"
    if w.startswith(_AN_EXCEPTIONS):
        return "a"
    return "an" if w[:1] in "aeiou" else "a"
