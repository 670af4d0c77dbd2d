"""Court judgments: what detection leaves alone in them.

A judgment names its parties, courts and officers by their role ("the applicant", "the
Court", "the Government", "the Agent"), is cut by headings ("THE FACTS", "THE
CIRCUMSTANCES OF THE CASE") and cites provisions ("Article 6 § 1 of the Convention",
"Law no. 466"). None of that is personal, yet the layers find spans in it — "applicant" is
an occupation in the graph, "Law" a person to spaCy — and a reader of the sanitized text
would meet "An organ (“organ”) did not designate a ***". The rules here, of the ``legal``
pack, take such spans out of a judgment's candidates:

- ``court-judgment``: the text is a judgment — it names a party by its role three times or
  more and has a judgment's heading or opening formula, or names the court by its role
  twice. The other rules act in judgments only; the masking decision reads the kind
  (:mod:`engine.detect.features`).
- ``procedural-roles``: a span that is, whole, a party, court or officer named by its role
  or a term of the proceedings.
- ``judgment-headings``: a span on a line of capitals made of heading words alone.
- ``legal-provisions``: a span inside a reference to a provision or a numbered law.
- ``person-of-body``: a titled person and the body they work for read as one name ("Mr J.
  Nowak of the Ministry of Foreign Affairs") become the person and the body.

The words and patterns are entries of ``packs/legal/detect_court.yaml``.
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule, words
from engine.text.document_kind import PARTY_MENTIONS, is_court_judgment  # noqa: F401  (re-exported: detection's rules read it)
from engine.types import EntityType

_ROLES = words("detect_court.procedural_roles")
_TERMS = words("detect_court.procedural_terms")
_HEADING_WORDS = words("detect_court.heading_words")
_HEADING_LINE = pattern("detect_court.heading_line")
_PROVISION = pattern("detect_court.provision")
_LAW_NUMBER = pattern("detect_court.law_number")
_PERSON_OF_BODY = pattern("detect_court.person_of_body")
_LEADING = pattern("detect_court.leading_words")
_WORD = re.compile(r"[^\W\d_]+")


def _folded(text: str) -> str:
    t = " ".join(text.casefold().split())
    return _LEADING.sub("", t).rstrip(".,;:")


@rule("procedural-roles", stage="detect", pack="legal", off=False,
      purpose="a party, court or officer named by its role ('the applicant', 'the Court', 'the Agent') or a term of the proceedings is no personal span")
def is_procedural_reference(span_text: str) -> bool:
    """The whole of ``span_text`` names a role or a term of the proceedings."""
    t = _folded(span_text)
    return t in _ROLES or t in _TERMS


@rule("judgment-headings", stage="detect", pack="legal", off=[],
      purpose="a judgment's headings ('THE FACTS', 'THE CIRCUMSTANCES OF THE CASE') hold no personal span")
def heading_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every heading line: capitals, made of heading words alone."""
    out = []
    for m in _HEADING_LINE.finditer(text):
        ws = [w.casefold() for w in _WORD.findall(m.group(0))]
        if ws and all(w in _HEADING_WORDS for w in ws):
            out.append((m.start(), m.end()))
    return out


@rule("legal-provisions", stage="detect", pack="legal", off=[],
      purpose="a reference to a provision ('Article 6 § 1 of the Convention') or to a numbered law ('Law no. 466') is no personal span")
def provision_references(text: str) -> list[tuple[int, int]]:
    """(start, end) of every reference to a provision or a numbered law."""
    return [(m.start(), m.end()) for pat in (_PROVISION, _LAW_NUMBER) for m in pat.finditer(text)]


@rule("person-of-body", stage="detect", types=("PERSON", "ORG"), pack="legal", off=None,
      purpose="a titled person and the body they work for read as one name ('Mr J. Nowak of the Ministry of Justice') are the person and the body")
def split_person_of_body(span: DetectedSpan) -> list[DetectedSpan] | None:
    """The person and the body of ``span``, or None when it is not such a name."""
    m = _PERSON_OF_BODY.match(span.text)
    if m is None:
        return None
    person = span.with_(end=span.start + m.end("person"), text=m.group("person"), entity_type=EntityType.PERSON,
                        retyped_from=None)
    body = span.with_(start=span.start + m.start("body"), text=m.group("body"), entity_type=EntityType.ORG,
                      entity_id=None, retyped_from=None)
    return [person, body]


def _inside(span: DetectedSpan, ranges: list[tuple[int, int]]) -> bool:
    return any(s <= span.start and span.end <= e for s, e in ranges)


def judgment_spans(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """The candidates of ``text`` without what a judgment never needs masked (the module
    docstring); ``spans`` as they are when ``text`` is no judgment."""
    if not spans or not is_court_judgment(text):
        return spans
    headings = heading_lines(text)
    provisions = provision_references(text)
    out: list[DetectedSpan] = []
    for s in spans:
        if is_procedural_reference(s.text) or _inside(s, headings) or _inside(s, provisions):
            continue
        parts = split_person_of_body(s)
        out += parts if parts else [s]
    return out
