"""Era markers: "BC", "AD", "BCE", "CE" (and "B.C.", "A.D.") written after or before a year
("325 BC", "AD 79") are part of the date, never a name. NER reads one alone as an
organisation or a place, and the store then offers a university ("BC": Boston College) or a
disease; such a span is no candidate. The year keeps its own span and its ladder, and the
marker reads after its rung as written ("c. the 230s BC").

The marker and the year's shapes are the ``core`` pack's (``packs/core/detect_dates.yaml``);
the rule is ``era-marker-of-a-year``.
"""

from __future__ import annotations

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule

_ERA = pattern("detect_dates.era_marker")
#: a number right before the marker ("230 BC"), or right after it ("AD 79")
_YEAR_BEFORE = pattern("detect_dates.era_year_before")
_YEAR_AFTER = pattern("detect_dates.era_year_after")


@rule("era-marker-of-a-year", stage="detect", types=(), pack="core", off=False,
      purpose="an era marker after or before a year ('325 BC', 'AD 79', '116 CE') is part of the date: no span of its own")
def era_marker(text: str, s: DetectedSpan) -> bool:
    """``s`` is only an era marker, with a number right before or right after it."""
    return bool(_ERA.fullmatch(s.text.strip())) and bool(
        _YEAR_BEFORE.search(text, 0, s.start) or _YEAR_AFTER.match(text, s.end))


def drop_era_markers(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` without the era markers of a year (:func:`era_marker`)."""
    return [s for s in spans if not era_marker(text, s)]
