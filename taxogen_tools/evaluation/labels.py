"""One mapping from annotators' labels onto the rungs of our own ladders.

Two labels are *equivalent* when their canonical forms (:func:`canonical`) are equal:

- case, surrounding whitespace and trailing punctuation are ignored;
- a leading article ("a", "an", "the") is ignored: "a city" ≡ "city";
- a date phrase is its period: "date in the 1980s" ≡ "the 1980s" ≡ "1980s",
  "date in the 20th century" ≡ "the 20th century";
- every person placeholder is one label: "PERSON 3" ≡ "PERSON 1" ≡ "PERSON X"
  (numbering is per document and differs between tools, so it is not compared);
- "in" and "of" between a class and the place it is composed with are one relation:
  "city in the United States" ≡ "city of the United States";
- a country has one name: "United States of America" ≡ "United States" ≡ "U.S." ≡ "US",
  "People's Republic of China" ≡ "China", and a leading "U.S." modifier is the country:
  "U.S. state" ≡ "state of the United States";
- British and American spellings are one word: "theatre" ≡ "theater",
  "organisation" ≡ "organization", "centre" ≡ "center", "defence" ≡ "defense";
- ``***`` is only equivalent to itself.

The mapping serves both the end-to-end evaluation (is our chosen rung the annotators'
choice?) and training on served ladders (which of our rungs did the annotators choose?).
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

from engine.types import MASK

PERSON_KEY = "<PERSON>"
_PERSON = re.compile(r"PERSON(\s+(\d+|X))?")
_ARTICLE = re.compile(r"^(a|an|the)\s+")
_DATE_IN = re.compile(r"^date in\s+")
#: Names of one country (longest first), rewritten to one form.
_COUNTRY_NAMES = (
    (re.compile(r"\bthe united states of america\b|\bunited states of america\b|\bthe united states\b"), "united states"),
    (re.compile(r"\bthe people's republic of china\b|\bpeople's republic of china\b"), "china"),
)
#: A leading country modifier: "u.s. state" → "state of united states".
_LEADING_COUNTRY = re.compile(r"^(?:u\.s\.|us|united states|american)\s+(state|city|county|territory|senator)$")
_US = re.compile(r"\bu\.s\.(?=\s|$)|\bus$")
#: British spelling → American spelling, whole words.
_SPELLING = {"theatre": "theater", "theatres": "theaters", "organisation": "organization", "organisations": "organizations",
             "centre": "center", "centres": "centers", "defence": "defense", "programme": "program"}


def canonical(label: str) -> str:
    """The canonical form of a replacement label (see the module docstring)."""
    text = " ".join(label.split())
    if text == MASK:
        return MASK
    if _PERSON.fullmatch(text):
        return PERSON_KEY
    text = text.strip(" .,;:!?").lower()
    text = _ARTICLE.sub("", text)
    text = _DATE_IN.sub("", text)
    text = _ARTICLE.sub("", text)
    return _class_phrase(text)


def _class_phrase(text: str) -> str:
    """One form for a class phrase: spelling, country names, "in"/"of" (see the module docstring)."""
    words = [_SPELLING.get(w, w) for w in text.split(" ")]
    text = " ".join(words)
    for pattern, name in _COUNTRY_NAMES:
        text = pattern.sub(name, text)
    lead = _LEADING_COUNTRY.match(text)
    if lead:
        text = f"{lead.group(1)} of united states"
    text = _US.sub("united states", text)
    return text.replace(" in ", " of ")


def equivalent(a: str, b: str) -> bool:
    """Whether two labels name the same replacement."""
    return canonical(a) == canonical(b)


def rung_index(label: str, ladder: Sequence[str]) -> int | None:
    """Position of the first rung of ``ladder`` equivalent to ``label`` (None: not offered)."""
    key = canonical(label)
    for i, rung in enumerate(ladder):
        if canonical(rung) == key:
            return i
    return None


def majority_label(selection: Mapping[str, Sequence[str]]) -> str | None:
    """The label with most votes (ties: first in dict order, as in the evaluation protocol)."""
    best, votes = None, -1
    for label, voters in selection.items():
        if len(voters) > votes:
            best, votes = label, len(voters)
    return best


def map_selection(selection: Mapping[str, Sequence[str]], ladder: Sequence[str]) -> tuple[int | None, tuple[int, ...]]:
    """(rung of the majority choice or None, votes per rung) of an annotated mention.

    A majority choice absent from the ladder maps to nothing — except ``***``, which every
    ladder ends with. Votes of labels absent from the ladder are dropped.
    """
    votes = [0] * len(ladder)
    for label, voters in selection.items():
        i = rung_index(label, ladder)
        if i is not None:
            votes[i] += len(voters)
    gold = majority_label(selection)
    return (rung_index(gold, ladder) if gold is not None else None), tuple(votes)


def canonical_set(labels: Iterable[str]) -> frozenset[str]:
    return frozenset(canonical(l) for l in labels)
