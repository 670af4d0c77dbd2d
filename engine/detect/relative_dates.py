"""Dates told only relative to another ("the following year", "later that year", "the same
day"): they name no date, so they are no personal span.

A DATETIME candidate whose words are all relative words and time words
(``detect_dates.relative_date_words``, ``detect_dates.relative_time_words``), with at least one
word that points to another time (``detect_dates.relative_markers``), is dropped. A number
keeps it ("two years later" says how long), as does a month, a season or a year.
TAB's and WikiReplace's annotators leave such spans unmasked.
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.knowledge import rule, words
from engine.types import EntityType

_RELATIVE = words("detect_dates.relative_date_words")
_TIME = words("detect_dates.relative_time_words")
_MARKERS = words("detect_dates.relative_markers")
_WORD = re.compile(r"[^\W\d_]+|\d+")


@rule("relative-date-not-personal", stage="detect", types=("DATETIME",), pack="core", off=False,
      purpose='a date told only relative to another ("the following year", "later that year") names no date: no personal span')
def is_relative_date(span: DetectedSpan) -> bool:
    """``span`` is a DATETIME candidate of relative and time words only, one of them a marker."""
    if span.entity_type is not EntityType.DATETIME:
        return False
    ws = [w.casefold() for w in _WORD.findall(span.text)]
    return bool(ws) and all(w in _RELATIVE or w in _TIME for w in ws) and any(w in _MARKERS for w in ws)


def drop_relative_dates(spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` without the relative dates (:func:`is_relative_date`)."""
    return [s for s in spans if not is_relative_date(s)]
