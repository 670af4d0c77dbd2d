"""Sentence starts and capitals: whether a replacement starts a sentence, and capitalising it.

(The articles a replacement takes are fitted by the phrase rules of :mod:`engine.render.phrase`.)
"""

from __future__ import annotations


def at_sentence_start(before: str) -> bool:
    """Whether text following ``before`` starts a sentence."""
    stripped = before.rstrip(" \t\"'“‘([")
    return not stripped.strip() or stripped.endswith((".", "!", "?", "\n"))


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
