"""Rungs of a common-noun DEM or MISC span the graph cannot link: its head noun, or the age it gives.

A compound of modifiers and a noun names a kind of what the noun names ("winter grazing" is
grazing, "psychotic illness" an illness, "student at a military academy" a student), unless a
modifier denies the noun ("former", "prosthetic", "non-commissioned": ``truth.non_subsective``,
``truth.non_subsective_any_noun``, ``truth.negating_prefixes``). The head noun alone is then
true of the span and less specific: :func:`compound_head_noun` offers it, lower-case common
English nouns only (a name's last word is no class: "Taxed Mountains Case", nor a foreign
title's: "Sans plus attendre"), never for a coordination ("hunting, fishing and collecting":
no one head). Only where no word of the span links to an item: where one does, the graph's
judgment of the head noun stands ("analytic number theory" is no theory, "club captain" not
said of which captain).

A DEM span that gives an age ("63 years old", "eighteen years of age") gets the age rungs of
the DATETIME ladder (:func:`engine.generate.sources.datetime.age_rungs`): :func:`age_in_dem`.
"""

from __future__ import annotations

import re

from lemminflect import getAllLemmas

from engine.generate.sources.datetime import age_rungs
from engine.knowledge import rule, words
from engine.types import Candidate, Span

_POSTMODIFIERS = words("truth.compound_head_postmodifiers")
_COORDINATORS = words("truth.compound_head_coordinators")
_DETERMINERS = words("truth.compound_head_determiners")
_NON_SUBSECTIVE = words("truth.non_subsective")
_NON_SUBSECTIVE_ANY_NOUN = words("truth.non_subsective_any_noun")
_NEGATING_PREFIXES = words("truth.negating_prefixes")
_GERUND_ENDINGS = words("truth.gerund_endings")

_WORD = re.compile(r"[^\s]+")
_LOWER_NOUN = re.compile(r"[a-z][a-z'’-]*[a-z]")


def _english_noun(word: str) -> bool:
    """``word`` is an English noun, or a verb's gerund ("grazing"): not a word of a foreign
    title ("Sans plus attendre") nor a participle ("arrested")."""
    if getAllLemmas(word, upos="NOUN"):
        return True
    return any(word.endswith(e) for e in _GERUND_ENDINGS) and bool(getAllLemmas(word, upos="VERB"))


def _denies(modifier: str) -> bool:
    """``modifier`` makes the noun after it name something it is not."""
    low = modifier.lower().strip("-")
    if low in _NON_SUBSECTIVE or low in _NON_SUBSECTIVE_ANY_NOUN:
        return True
    return any(low == p or low.startswith(p + "-") or (len(p) >= 3 and low.startswith(p)) for p in _NEGATING_PREFIXES)


@rule("compound-head-noun", stage="ladder", types=("DEM", "MISC"), off=None,
      purpose='a common-noun compound the graph cannot link reads as its head noun ("winter grazing" → "grazing", "student at a military academy" → "student")')
def compound_head_noun(text: str) -> str | None:
    """The head noun of the compound ``text``, or None when it has none that is true of it alone."""
    tokens = _WORD.findall(text)
    if any(t.lower().strip(",;") in _COORDINATORS or t.endswith((",", ";")) for t in tokens):
        return None
    cut = next((i for i, t in enumerate(tokens) if i > 0 and t.lower() in _POSTMODIFIERS), len(tokens))
    phrase = tokens[:cut]
    while phrase and phrase[0].lower() in _DETERMINERS:
        phrase = phrase[1:]
    if not phrase or (len(phrase) < 2 and cut == len(tokens)):
        return None  # one word and no postmodifier: nothing to leave out
    head, modifiers = phrase[-1], phrase[:-1]
    if not _LOWER_NOUN.fullmatch(head) or not _english_noun(head) or any(_denies(m) for m in modifiers):
        return None
    if any(not re.search(r"[A-Za-z]", m) for m in modifiers):
        return None  # a number or a code before the noun ("plot 900"): a name, not a kind
    return head


def compound_head_candidates(span: Span) -> list[Candidate]:
    """The head-noun rung of ``span`` (:func:`compound_head_noun`), with its provenance."""
    head = compound_head_noun(span.text)
    if head is None:
        return []
    return [Candidate(head, source="head", path=f"head noun of {span.text!r}", rule="compound-head-noun", depth=1)]


@rule("age-in-dem", stage="ladder", types=("DEM",), off=None,
      purpose='a DEM span that gives an age gets the age rungs of a DATETIME span ("63 years old" → "60–69 years old")')
def age_in_dem(span: Span, before: str) -> list[Candidate] | None:
    """The age rungs of ``span`` (``before``: the text right before it), or None when it gives no age."""
    rungs = age_rungs(span.text, before)
    if not rungs:
        return None
    return [Candidate(label, source="datetime", rule=name) for label, name in rungs]
