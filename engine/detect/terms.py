"""Numbers inside terms: the number of "type 2 diabetes", "COVID-19" or "Windows 10" is part
of the term's name, not a quantity or a date of the person's.

A term a pack knows (``core``: products and standards named with their version,
``detect_terms.numbered_terms``; ``clinical``: medical terms, ``clinical_terms``) is no
candidate span: every span inside it is dropped, so the term reads as written ("type X
diabetes" was the number masked alone). A term the store knows is one span already: the
gazetteer's match covers its number and the merge keeps the two together.
"""

from __future__ import annotations

from engine.detect.spans import DetectedSpan
from engine.types import EntityType
from engine.knowledge import pattern, rule

_TERM_PATTERNS = (pattern("detect_terms.numbered_terms"), pattern("clinical_terms.numbered_terms"))


@rule("number-inside-term", stage="detect", types=(EntityType.QUANTITY, EntityType.DATETIME, EntityType.CODE, EntityType.MISC), pack="core", off=[],
      purpose="a number inside a term a pack names ('type 2 diabetes', 'COVID-19', 'Windows 10') is part of the term: no span of its own, the term kept")
def numbered_terms(text: str) -> list[tuple[int, int]]:
    """(start, end) of every term with a number in its name."""
    return [(m.start(), m.end()) for p in _TERM_PATTERNS for m in p.finditer(text)
            if any(ch.isdigit() for ch in m.group())]


def drop_term_spans(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` without those that lie inside a term with a number in its name."""
    terms = numbered_terms(text)
    if not terms:
        return spans
    return [s for s in spans if not any(a <= s.start and s.end <= b for a, b in terms)]
