"""The sanitized text as it is built, with the map from its offsets back to the original.

:class:`TextBuilder` copies the original text up to each replaced span, emits the span's
phrase and lets the rules rewrite the copied words just before it ("the" → "a"), recording
every changed region as a :class:`engine.types.Segment`. :class:`OffsetMap` turns original
offsets outside those regions into offsets of the output.
"""

from __future__ import annotations

import bisect
import re
from typing import Sequence

from engine.types import Segment


class TextBuilder:
    """The output text with its offset map; the tail after the last unit may be rewritten.

    The output is kept as frozen chunks (everything up to the last emitted unit) and a
    live tail, so building it is linear in the document's length: no step copies the
    whole output (a string grown with ``+=`` through an attribute is copied each time).
    """

    #: Characters of recent output the phrase rules see (they look a few words back).
    WINDOW = 400

    def __init__(self, text: str) -> None:
        self.text = text
        self._head: list[str] = []   # frozen output chunks
        self._head_len = 0
        self._tail = ""              # output after the last emitted unit
        self.pos = 0            # original offset copied up to
        self.locked = 0         # output before this offset belongs to earlier units
        self.segments: list[Segment] = []
        self.edits: list[str] = []

    @property
    def length(self) -> int:
        return self._head_len + len(self._tail)

    @property
    def out(self) -> str:
        """The whole output so far (joins every chunk: for the end, not for every unit)."""
        return "".join(self._head) + self._tail

    def _freeze(self) -> None:
        if self._tail:
            self._head.append(self._tail)
            self._head_len += len(self._tail)
            self._tail = ""

    def endswith(self, suffix: str | tuple[str, ...]) -> bool:
        """Whether the output so far ends with ``suffix``."""
        return self.recent()[1].endswith(suffix)

    def text_from(self, pos: int) -> str:
        """``out[pos:]``."""
        if pos >= self._head_len:
            return self._tail[pos - self._head_len:]
        return self.out[pos:]

    def recent(self) -> tuple[int, str]:
        """``(cut, out[cut:])``: enough recent output for the phrase rules to decide as on
        the whole output — it starts after a whitespace character, at least
        :attr:`WINDOW` characters back, and holds a word well before its end (else the
        whole output is returned)."""
        total = self.length
        if total <= self.WINDOW:
            return 0, self.text_from(0)
        parts, n, i = [self._tail], len(self._tail), len(self._head)
        while n < 2 * self.WINDOW and i > 0:
            i -= 1
            parts.append(self._head[i])
            n += len(self._head[i])
        recent = "".join(reversed(parts))
        base = total - n
        c0 = len(recent) - self.WINDOW
        j = max(recent.rfind(" ", 0, c0), recent.rfind("\n", 0, c0), recent.rfind("\t", 0, c0))
        if j >= 0 and _WORD_SPACE.search(recent, j + 9, len(recent) - 100):
            return base + j + 1, recent[j + 1:]
        return 0, self.out

    def copy_to(self, orig: int) -> None:
        """Copy the original text from where copying stopped up to ``orig``."""
        self._tail += self.text[self.pos:orig]
        self.pos = orig

    def shift(self) -> int:
        """Original offset minus output offset at the end of the output."""
        return self.pos - self.length

    def rewrite_tail(self, cut: int, new_tail: str, desc: str) -> bool:
        """Replace ``out[cut:]`` (copied original text) by ``new_tail``."""
        if cut < self.locked or self.text_from(cut) == new_tail:
            return False
        orig_start = cut + self.shift()
        old_len = self.length - cut
        self._tail = self._tail[:cut - self._head_len] + new_tail
        self.segments.append(Segment(cut, self.length, orig_start, orig_start + old_len))
        self.edits.append(f"{desc} (offset {orig_start})")
        return True

    def emit(self, phrase: str, orig_start: int, orig_end: int) -> tuple[int, int]:
        """Write ``phrase`` for the original region ``orig_start:orig_end`` and lock the
        output before it; returns the phrase's ``(start, end)`` in the output."""
        start = self.length
        self._tail += phrase
        self.segments.append(Segment(start, self.length, orig_start, orig_end))
        self.pos = orig_end
        self.locked = self.length
        self._freeze()
        return start, self.length


_WORD_SPACE = re.compile(r"\w\s")


def new_offset(segments: Sequence[Segment], orig: int) -> int:
    """The output offset of original offset ``orig`` outside the changed regions."""
    return OffsetMap(segments).new_offset(orig)


class OffsetMap:
    """:func:`new_offset` for many offsets of one document: segments sorted once, and a
    binary search when they do not overlap (the usual case) — linear in mentions."""

    def __init__(self, segments: Sequence[Segment]) -> None:
        self.segments = sorted(segments, key=lambda g: g.orig_start)
        self.ends = [g.orig_end for g in self.segments]
        self.monotonic = all(a <= b for a, b in zip(self.ends, self.ends[1:]))

    def new_offset(self, orig: int) -> int:
        """The output offset of original offset ``orig`` (see :func:`new_offset`)."""
        if self.monotonic:
            i = bisect.bisect_right(self.ends, orig)  # segments[:i] end at or before orig
            if i < len(self.segments) and self.segments[i].orig_start <= orig:
                return self.segments[i].new_start
            return orig + (self.segments[i - 1].new_end - self.segments[i - 1].orig_end if i else 0)
        return _scan_offset(self.segments, orig)


def _scan_offset(segments: Sequence[Segment], orig: int) -> int:
    """:meth:`OffsetMap.new_offset` by a linear scan (for overlapping segments)."""
    shift = 0
    for seg in segments:
        if seg.orig_end <= orig:
            shift = seg.new_end - seg.orig_end
        elif seg.orig_start <= orig:
            return seg.new_start
        else:
            break
    return orig + shift
