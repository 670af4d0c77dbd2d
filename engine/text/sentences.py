"""An approximate sentence splitter: the sentence around a span of plain text.

A break is whitespace after ``.``, ``!`` or ``?`` before an upper-case letter, a quote or
a parenthesis; not after an initial ("B. S. Chandrasekhar") or an abbreviation of
``sentences.abbreviations`` ("Dr. Rajendra Prasad"). Used by the pipeline (the reader's sentence in render and the privacy
guard), by training-data preparation and by the evaluations.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from engine.knowledge import words

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")
#: The word before a period that ends a break candidate.
_WORD_BEFORE_PERIOD = re.compile(r"(?<![\w.])([\w]+)\.$")
#: Abbreviations written with a period that no sentence ends with ("Dr", "Gen", "St"), lower case.
_ABBREVIATIONS = words("sentences.abbreviations")


def _breaks(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """The sentence breaks of ``text[start:end]`` in order: :data:`_SENTENCE_END`, less those
    after an initial (one capital letter) or an abbreviation."""
    for m in _SENTENCE_END.finditer(text, start, len(text) if end is None else end):
        if text[m.start() - 1] == ".":
            w = _WORD_BEFORE_PERIOD.search(text, max(0, m.start() - 16), m.start())
            if w and ((len(w.group(1)) == 1 and w.group(1).isupper()) or w.group(1).lower() in _ABBREVIATIONS):
                continue
        yield m.start(), m.end()


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Offsets of the sentence of ``text`` that holds ``text[start:end]`` (approximate splitter)."""
    left = 0
    for _, left in _breaks(text, 0, start):
        pass
    right = next((a for a, _ in _breaks(text, end)), len(text))  # the first break after the span only
    while left < start and text[left].isspace():
        left += 1
    while right > end and text[right - 1].isspace():
        right -= 1
    return left, right


class SentenceIndex:
    """:func:`sentence_bounds` for many spans of one text: the sentence breaks are found
    once and looked up by binary search (linear in mentions, where calling
    :func:`sentence_bounds` per span rescans the text before each span)."""

    def __init__(self, text: str) -> None:
        self.text = text
        breaks = list(_breaks(text))
        self._starts = [a for a, _ in breaks]
        self._ends = [b for _, b in breaks]

    def bounds(self, start: int, end: int) -> tuple[int, int]:
        """The same as ``sentence_bounds(text, start, end)``."""
        text = self.text
        # a break counts on the left when the character after it lies before ``start``
        i = bisect.bisect_left(self._ends, start)
        left = self._ends[i - 1] if i else 0
        j = bisect.bisect_left(self._starts, end)
        right = self._starts[j] if j < len(self._starts) else len(text)
        while left < start and text[left].isspace():
            left += 1
        while right > end and text[right - 1].isspace():
            right -= 1
        return left, right


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` that holds ``text[start:end]``."""
    left, right = sentence_bounds(text, start, end)
    return text[left:right]
