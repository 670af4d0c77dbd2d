"""Era markers: "BC", "AD", "BCE", "CE" (and "B.C.", "A.D.") written after or before a year
("325 BC", "AD 79") are part of the date, never a name. NER reads one alone as an
organisation or a place, and the store then offers a university ("BC": Boston College) or a
disease; such a span is no candidate. The year keeps its own span and its ladder, and the
marker reads after its rung as written ("c. the 230s BC").

A number right before a marker is that year ("died after 38 BC": a date, not a count of
38), and a span holding year and marker ("105 AD") is cut to the year, whose ladder the
date rules build (rule ``year-of-an-era-marker``).

The marker and the year's shapes are the ``core`` pack's (``packs/core/detect_dates.yaml``);
the rules are ``era-marker-of-a-year`` and ``year-of-an-era-marker``.
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule
from engine.types import EntityType

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


#: A number, then blanks and an era marker, the whole of a span ("105 AD"); group 1 is the number.
_YEAR_AND_MARKER = pattern("detect_dates.year_and_era_marker")
#: Blanks and an era marker right after a number ("38 BC").
_MARKER_AFTER = pattern("detect_dates.era_marker_after")


@rule("year-of-an-era-marker", stage="detect", types=("DATETIME",), pack="core", off=None,
      purpose="a number right before an era marker is its year, a date ('died after 38 BC'); a span of year and marker ('105 AD') is cut to the year")
def year_of_era(text: str, s: DetectedSpan) -> DetectedSpan | None:
    """``s`` as the year of an era marker (a DATETIME span of the number alone), or None."""
    m = _YEAR_AND_MARKER.fullmatch(s.text)
    if m is not None:
        return s.with_(end=s.start + m.end(1), text=m.group(1), entity_type=EntityType.DATETIME)
    if s.entity_type in (EntityType.QUANTITY, EntityType.DATETIME) and re.fullmatch(r"\d[\d,]*", s.text) \
            and text[s.end:s.end + 1] == " " and _MARKER_AFTER.match(text, s.end):
        return s.with_(entity_type=EntityType.DATETIME)
    return None


def drop_era_markers(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` without the era markers of a year (:func:`era_marker`), a year before one typed as
    a date and cut from its marker (:func:`year_of_era`)."""
    return [year_of_era(text, s) or s for s in spans if not era_marker(text, s)]
