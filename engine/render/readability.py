"""Readability of replacements: articles and capitals.

- "an [city]" → "a [city]", "a [earth scientist]" → "an [earth scientist]";
- a class label after a preposition or copula without a determiner gets one:
  "born in [big city]" → "born in a [big city]", "she is [earth scientist]" → "she is an …"
  (graph classes only: dates and placeholders read without one);
- a replacement (or an inserted article) that starts a sentence is capitalised.
"""

from __future__ import annotations

import re

from kg.vocab import TAXONOMY_PROPS

from engine.text.articles import indefinite_article
from engine.types import Candidate

_NEEDS_ARTICLE_AFTER = frozenset(
    "in at from of to near into for with by on as is was are were be been being became become becomes "
    "like than within outside inside".split()
)
_DETERMINERS = frozenset(
    "a an the his her their its our my your this that these those another any each every some no one".split()
)


def is_class_label(candidate: Candidate) -> bool:
    """A singular common-noun class from the graph, which reads with an article ("city in Norway")."""
    label = candidate.label
    if not label or not label[0].islower():
        return False
    if candidate.source in TAXONOMY_PROPS:
        return not label.endswith("s") or label.endswith(("ss", "us", "is"))
    return False


def at_sentence_start(before: str) -> bool:
    """Whether text following ``before`` starts a sentence."""
    stripped = before.rstrip(" \t\"'“‘([")
    return not stripped.strip() or stripped.endswith((".", "!", "?", "\n"))


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def article_fix(before: str, candidate: Candidate) -> tuple[str, str, str] | None:
    """How to change the text before a replacement: (new tail, old tail, description) or None.

    ``before`` is the output so far; the returned tails replace its last characters.
    """
    label = candidate.label
    m = re.search(r"(?:^|(?<=\W))(a|an|A|An|AN)(\s+)$", before)
    if m:
        want = indefinite_article(label)
        have = m.group(1)
        if have.lower() != want:
            fixed = want.capitalize() if have[0].isupper() else want
            return fixed + m.group(2), have + m.group(2), f"article '{have}' → '{fixed}' before '{label}'"
        return None
    if not is_class_label(candidate):
        return None
    w = re.search(r"(\w+)(\s+)$", before)
    if w is None:
        return None
    prev = w.group(1).lower()
    if prev in _DETERMINERS or prev not in _NEEDS_ARTICLE_AFTER:
        return None
    art = indefinite_article(label)
    return art + " ", "", f"inserted '{art}' before '{label}'"
