"""A name's parts and its own words, before the persons are linked.

Applied after :mod:`engine.detect.dialogue`; each rule one function of a span's words and the
words between it and its neighbour:

- **fragments of one name**: two capitalised spans, one of them a person, on one line and
  joined only by the lower-case words that join a name's parts in other languages ("der",
  "de la", "rechts der": ``detect_persons.name_joiners``, with any word that is neither
  an English function word nor a span of its own) are one name, one span: "Klinikum rechts
  der Isar" is not two persons with "rechts der" left between them;
- **an organisation by its own words**: a person-typed name that opens or ends with a word
  naming a kind of organisation in any language ("Klinikum …", "Bank Pekao", "Dagens
  Nyheter": ``detect_organisations.kind_words``), ends with a company's legal form ("…
  AB", "… GmbH"), or ends in a one-word compound of such a head ("Handelsbanken",
  "Aftonbladet") is an organisation;
- **a name's words**: a capitalised word right before a person's name inside a sentence
  (not after its end, a colon or a quote), no span of its own and no title, article or
  greeting, is the name's first word ("her colleague Per Hansen": not "Per PERSON 1");
- **a form of address**: a name typed an organisation, a place, a work or a role and
  written after "Mr", "Ms", "Dr", "Herr" … ("Ms Agata Nowak") is a person.

A retyped span keeps the layers' type in ``retyped_from`` (the masking decision reads it).
"""

from __future__ import annotations

import re
from engine.detect.spans import DetectedSpan
from engine.knowledge import rule, words
from engine.types import EntityType

P, L, O, D, M = EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC
_NOT_NAMES = (EntityType.DATETIME, EntityType.QUANTITY, EntityType.CODE)

_JOINERS = words("detect_persons.name_joiners")
_KIND_WORDS = words("detect_organisations.kind_words")
_LEGAL_FORMS = words("detect_organisations.legal_forms")
_COMPOUND_HEADS = words("detect_organisations.compound_heads")
_HONORIFICS = words("detect_persons.honorifics")
_ORG_HEADS = words("detect_organisations.heads")
_GAP_WORD = re.compile(r"[^\W\d_][\w'’-]*")
#: a capitalised word of two letters or more and one blank, right before a name ("Per Hansen")
_WORD_BEFORE = re.compile(r"(?<![\w'’.-])([^\W\d_]{2,}(?:-[^\W\d_]+)?) \Z")
_ARTICLES = words("detect_grammar.capitalised_articles")
_COURTESY = words("detect_dialogue.courtesy_words")
_TITLES = words("detect_persons.titles")
#: a compound's head needs this many letters before it ("Handels|banken")
_COMPOUND_MIN = 3


def _english_function_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


@rule("name-fragments-bridged", stage="detect", types=(EntityType.PERSON, EntityType.ORG, EntityType.LOC), pack="core", off=False,
      purpose="two capitalised spans, one a person, joined on one line only by the lower-case words that join a name's parts ('rechts der', 'de la') are one name")
def bridged(text: str, left: DetectedSpan, right: DetectedSpan) -> bool:
    """``left`` and ``right``, neighbours, are fragments of one name (see the module docstring)."""
    if P not in (left.entity_type, right.entity_type) or left.entity_type in _NOT_NAMES or right.entity_type in _NOT_NAMES:
        return False
    if not (left.text[:1].isupper() and right.text[:1].isupper()):
        return False
    gap = text[left.end:right.start]
    if "\n" in gap or not gap[:1].isspace() or not gap[-1:].isspace():
        return False
    found = _GAP_WORD.findall(gap)
    if not 1 <= len(found) <= 4 or "".join(found) != "".join(gap.split()):
        return False  # only words in the gap, no punctuation
    if any(not w.islower() for w in found):
        return False
    joined = " ".join(found)
    function_words = _english_function_words()
    if joined in _JOINERS:
        return True
    return any(w in _JOINERS for w in found) and all(w in _JOINERS or w not in function_words for w in found)


def _bridge(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    # a lower-case span between two fragments of one name is one of the words joining them
    # ("links" of "Klinikum links der Weser", which a gazetteer may know as a word of its own)
    spans = [s for i, s in enumerate(spans)
             if not (s.text[:1].islower() and 0 < i < len(spans) - 1 and bridged(text, spans[i - 1], spans[i + 1]))]
    out: list[DetectedSpan] = []
    for s in spans:
        prev = out[-1] if out else None
        if prev is not None and bridged(text, prev, s):
            etype = P if prev.entity_type is P and s.entity_type is P else (s.entity_type if prev.entity_type is P else prev.entity_type)
            out[-1] = prev.with_(end=s.end, text=text[prev.start:s.end], entity_type=etype, sources=prev.sources | s.sources,
                                 ner_label=prev.ner_label or s.ner_label, inner=prev.inner + (f"{s.entity_type.value}:joined",),
                                 retyped_from=None)
            continue
        out.append(s)
    return out


@rule("name-widened-to-its-words", stage="detect", types=("PERSON",), pack="core", off=False,
      purpose="a capitalised word right before a person's name inside a sentence, no span of its own, is a word of the name: 'her colleague Per Hansen', not 'Per' left beside 'PERSON 1'")
def widened(text: str, s: DetectedSpan, prev_end: int) -> int | None:
    """Where ``s`` begins once the capitalised word right before it is taken in, or None;
    ``prev_end``: where the span before it ends."""
    m = _WORD_BEFORE.search(text, max(prev_end, s.start - 40), s.start)
    if m is None or m.end() != s.start:
        return None
    word = m.group(1)
    if not word[:1].isupper() or word.isupper():
        return None  # a lower-case word, an acronym
    before = text[:m.start()].rstrip(" \t")
    if not before or before[-1] in ".!?:;\n\"“(" or word in _ARTICLES or word.casefold() in _COURTESY:
        return None  # a sentence's first word, an article, a greeting
    if word in _TITLES or word in _HONORIFICS or word.casefold() in _KIND_WORDS:
        return None
    return m.start()


def _widen(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    out: list[DetectedSpan] = []
    for s in spans:
        if s.entity_type is P and "ner" in s.sources and (start := widened(text, s, out[-1].end if out else 0)) is not None:
            s = s.with_(start=start, text=text[start:s.end])
        out.append(s)
    return out


def _bare(word: str) -> str:
    return word.strip(",.;:()[]\"'“”‘’")


@rule("organisation-kind-word", stage="detect", types=("ORG",), pack="core", off=False,
      purpose="a person-typed name opening or ending with a word for a kind of organisation ('Klinikum …', 'Bank Pekao', 'Dagens Nyheter'), a legal form ('… AB') or a compound of one ('Handelsbanken') is an organisation")
def organisation_by_kind(s: DetectedSpan) -> bool:
    words_ = [_bare(w) for w in s.text.split()]
    words_ = [w for w in words_ if w]
    if not words_:
        return False
    first, last = words_[0].casefold(), words_[-1].casefold()
    if len(words_) >= 2 and (first in _KIND_WORDS or last in _KIND_WORDS or words_[-1] in _LEGAL_FORMS):
        return True
    return any(last.endswith(h) and len(last) - len(h) >= _COMPOUND_MIN for h in _COMPOUND_HEADS.get())


@rule("honorific-names-a-person", stage="detect", types=("PERSON",), pack="core", off=False,
      purpose="a name typed an organisation, a place, a work or a role and written after 'Mr', 'Ms', 'Dr', 'Herr' ('Ms Agata Nowak') is a person")
def honorific_person(s: DetectedSpan) -> bool:
    words_ = s.text.split()
    if not 2 <= len(words_) <= 5 or words_[0] not in _HONORIFICS or " of " in s.text:
        return False
    rest = words_[1:]
    if not all(w[:1].isupper() for w in rest) or any(_bare(w).casefold() in _KIND_WORDS or _bare(w) in _ORG_HEADS for w in rest):
        return False
    return not organisation_by_kind(s)


def name_parts_retype(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with the rules of the module docstring applied."""
    out = []
    for s in _widen(text, _bridge(text, spans)):
        new = None
        if s.entity_type is P and (organisation_by_kind(s)):
            new = O
        elif s.entity_type in (O, L, M, D) and honorific_person(s):
            new = P
        if new is not None:
            s = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
        out.append(s)
    return out
