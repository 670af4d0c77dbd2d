"""A fourth, high-recall layer read off spaCy's parse: spans the other layers miss.

- **proper-noun runs**: capitalised words joined by "of", "the", "&", "de", "von" …
  ("Cape Cod Baseball League", "Dravida Munnetra Kazhagam", "Bank of the West");
- **acronyms** ("LTTE", "ISKF", "TD");
- **quoted titles** ("Control", "微光");
- **nouns with their modifiers** not covered by anything else ("presidency", "foreign
  policy", "defensive midfielder", "offensive coordinator"), typed DEM when the head is a
  role noun (-er, -or, -ist, -ian …) and MISC otherwise.

These spans only propose: the masking decision (:mod:`engine.detect.decide`) learns
which of them annotators mask; in a merge they never decide the type of a longer span.

The connectors, modifiers and role endings are entries of ``packs/core/detect_grammar.yaml``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, words
from engine.types import EntityType

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

#: the kinds of span the parse proposes (their ``ner_label``)
PROPN = "propn"
ACRONYM = "acronym"
QUOTED = "quoted"
NOUN = "noun"
COMPOUND = "compound"
SYNTAX_KINDS = (PROPN, ACRONYM, QUOTED, NOUN, COMPOUND)

#: words that join the capitalised words of one name ("Bank of the West", "Tales from the Crypt")
_CONNECT = words("detect_grammar.name_connectors")
#: modifiers that say nothing of the role itself ("former lawyer", "professional footballer")
_NOT_MODIFIER = words("detect_grammar.idle_modifiers")
#: gazetteer kinds of a role noun that a compound before it belongs to ("tennis coach", "club captain")
ROLE_KINDS = frozenset({"occupation", "position"})
_ARTICLES = words("detect_grammar.name_articles")
#: connectors that join two capitalised words only with an article after them ("Tales from the Crypt")
_ARTICLE_ONLY = words("detect_grammar.article_only_connectors")
#: connectors that join only a capitalised word right after them ("and the" ends a name)
_UNJOINING = words("detect_grammar.unjoining_connectors")
#: connectors written without spaces around them ("A-League", "Coca-Cola")
_TIGHT = words("detect_grammar.tight_connectors")
#: the tags of a capitalised word that may be part of a proper-noun run
_NAME_TAGS = words("detect_grammar.name_word_tags")
_ROLE = pattern("detect_grammar.role_suffix")
_QUOTED = re.compile(r"[\"“«]([^\"”»\n]{1,60})[\"”»]")
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9&]{1,7}\b")


def syntax_spans(doc: "Doc", text: str | None = None) -> list[DetectedSpan]:
    """Proper-noun runs, acronyms and other spans the parse shows; ``text``: ``doc.text``
    where the caller has read it (Doc.text joins every token each time it is read)."""
    text = doc.text if text is None else text
    out: list[DetectedSpan] = []
    # proper-noun runs
    i, n = 0, len(doc)
    while i < n:
        tok = doc[i]
        if _cap(tok):
            j = i
            last = i
            while j + 1 < n:
                nxt = doc[j + 1]
                if _cap(nxt) or _cap_inside(nxt) or _connects(doc, j + 1):
                    j += 1
                    if _cap(doc[j]):
                        last = j
                else:
                    break
            if i > 0 and doc[i - 1].text == "The" and not doc[i - 1].is_sent_start:
                i -= 1  # "The Doon School", "The Craft" (a capitalised "The" inside a sentence)
            span = doc[i:last + 1]
            if len(span) > 1 or not tok.is_sent_start:
                out.append(_make(text, span.start_char, span.end_char, EntityType.MISC, PROPN))
            i = last + 1
        else:
            i += 1
    for m in _ACRONYM.finditer(text):
        out.append(_make(text, m.start(), m.end(), EntityType.ORG, ACRONYM))
    for m in _QUOTED.finditer(text):
        out.append(_make(text, m.start(1), m.end(1), EntityType.MISC, QUOTED))
    # nouns with their lower-case modifiers
    for tok in doc:
        if tok.pos_ != "NOUN" or not tok.is_alpha:
            continue
        left = tok
        k = tok.i - 1
        while (k >= 0 and doc[k].head.i in range(tok.i - 3, tok.i + 1) and doc[k].dep_ in ("amod", "compound")
               and doc[k].is_lower and doc[k].is_alpha and doc[k].lower_ not in _NOT_MODIFIER):
            left = doc[k]
            k -= 1
        etype = EntityType.DEM if _ROLE.search(tok.lower_) else EntityType.MISC
        out.append(_make(text, left.idx, tok.idx + len(tok), etype, NOUN))
        # the same noun with its noun compounds only ("tennis coach", "defensive midfielder", not "skilled player")
        k, left = tok.i - 1, tok
        while (k >= 0 and doc[k].head.i in range(tok.i - 3, tok.i + 1) and doc[k].is_lower and doc[k].is_alpha
               and (doc[k].dep_ == "compound" or doc[k].lower_.endswith("ive")) and doc[k].lower_ not in _NOT_MODIFIER):
            left = doc[k]
            k -= 1
        if left is not tok:
            out.append(_make(text, left.idx, tok.idx + len(tok), etype, COMPOUND))
    return out


def _cap(tok) -> bool:
    return tok.is_alpha and tok.text[:1].isupper() and tok.pos_ in _NAME_TAGS or (tok.pos_ == "PROPN" and tok.text[:1].isupper())


def _connects(doc: "Doc", k: int) -> bool:
    """Whether the token at ``k`` starts one or two connectors followed by a capitalised word
    ("of the Mexican Congress", "from the Crypt", "A-League")."""
    n = len(doc)
    tok = doc[k]
    if tok.text in _TIGHT:
        return k + 1 < n and not doc[k - 1].whitespace_ and not tok.whitespace_ and _cap(doc[k + 1])
    if not (tok.lower_ in _CONNECT and tok.whitespace_) or k + 1 >= n:
        return False
    if tok.lower_ not in _ARTICLE_ONLY and _cap(doc[k + 1]):
        return True
    # two connectors: a preposition and an article ("of the", "from the"; not "and the")
    return (tok.lower_ not in _UNJOINING and k + 2 < n and doc[k + 1].lower_ in _ARTICLES
            and doc[k + 1].whitespace_ and _cap(doc[k + 2]))


def _cap_inside(tok) -> bool:
    """A capitalised word inside a run that the tagger did not call a noun ("Best Supporting Actress")."""
    return tok.is_alpha and tok.text[:1].isupper() and not tok.is_sent_start and tok.pos_ in ("VERB", "ADV")


def _make(text: str, start: int, end: int, etype: EntityType, kind: str) -> DetectedSpan:
    return DetectedSpan(start, end, text[start:end], etype, frozenset({"syntax"}), ner_label=kind)


def uncovered(spans: list[DetectedSpan], others: list[DetectedSpan]) -> list[DetectedSpan]:
    """Syntax spans that add something: nouns only where no other span is; the rest always."""
    out = []
    for s in spans:
        if s.ner_label == COMPOUND:
            inside = [o for o in others if s.start < o.end and o.start < s.end]
            if _role_compound(s, inside):
                out.append(s)
            continue
        if s.ner_label == NOUN and any(s.start < o.end and o.start < s.end for o in others):
            continue
        out.append(s)
    return out


def _role_compound(noun: DetectedSpan, inside: list[DetectedSpan]) -> bool:
    """A noun phrase ending in a gazetteer role ("tennis coach", "head basketball coach") that
    reaches left of it over lower-case words and gazetteer words only."""
    head = [o for o in inside if o.end == noun.end and o.gaz_kind in ROLE_KINDS]
    return (bool(head) and noun.start < head[0].start
            and all(o.start >= noun.start and o.end <= noun.end for o in inside)
            and all(o.gaz_kind not in (None, "nationality") or "ner" not in o.sources for o in inside)
            and all(o.entity_type is not EntityType.PERSON for o in inside))
