"""The kind of a document: a court judgment or any other text.

Detection reads the kind (the masking decider's ``court_document`` feature, the legal pack's
rules act in judgments only, :mod:`engine.detect.legal`) and so does the verify stage, whose
operating point may be set per kind (:mod:`engine.generate.verifier`: a judgment's rungs are
kept from the point the court judgments' readers measured). The words are entries of
``packs/legal/detect_court.yaml``; without the legal pack no text is a judgment.
"""

from __future__ import annotations

from engine.knowledge import pattern, rule

_PARTY = pattern("detect_court.party_reference")
_COURT = pattern("detect_court.court_reference")
_MARKER = pattern("detect_court.judgment_marker")
#: how often a judgment names a party by its role, at least
PARTY_MENTIONS = 3
#: the kind of a court judgment (any other text: ``""``)
COURT = "court"


@rule("court-judgment", stage="detect", pack="legal", off=False,
      purpose="a text that names a party by its role again and again and has a judgment's heading or formula is a court judgment")
def is_court_judgment(text: str) -> bool:
    """``text`` reads as a court judgment (see the module docstring)."""
    parties = sum(1 for _ in zip(range(PARTY_MENTIONS), _PARTY.finditer(text)))
    if parties < PARTY_MENTIONS:
        return False
    return _MARKER.search(text) is not None or sum(1 for _ in zip(range(2), _COURT.finditer(text))) >= 2


def document_kind(text: str) -> str:
    """:data:`COURT` for a court judgment, ``""`` for any other text."""
    return COURT if is_court_judgment(text) else ""
