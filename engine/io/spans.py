"""Span boundaries that never split what a reader sees as one character or one word.

- :func:`snap_to_graphemes` widens a span to whole grapheme clusters (Unicode extended
  grapheme clusters, the ``regex`` package's ``\\X``): a mention that ends between "Jose"
  and a combining acute accent covers the accent too, so no stray mark is left behind
  ("PERSON 1́"). We widen rather than reject: the caller meant the character, and
  widening can only mask more, never less.
- :func:`widen_to_words` widens a span to whole words; it is applied to spans merged from
  overlapping mentions, whose ends come from different annotations and may cut a word
  ("was born" → "bor" + replacement).
"""

from __future__ import annotations

import regex

_GRAPHEME = regex.compile(r"\X", flags=regex.DOTALL)


def _cluster_bounds(text: str, pos: int) -> tuple[int, int]:
    """The grapheme cluster of ``text`` containing index ``pos`` (``0 <= pos < len(text)``)."""
    # a cluster boundary always precedes a space or tab: start matching from one (or 0);
    # clusters are short, so looking 256 code points back is enough for real text
    start = pos
    while start > 0 and pos - start < 256 and text[start] not in " \t":
        start -= 1
    m = _GRAPHEME.match(text, start)
    while m is not None and m.end() <= pos:
        m = _GRAPHEME.match(text, m.end())
    return (m.start(), m.end()) if m is not None else (pos, pos + 1)


def snap_to_graphemes(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` widened so that neither end falls inside a grapheme cluster."""
    if text.isascii() and "\r" not in text:
        return start, end
    if start > 0:
        start = min(start, _cluster_bounds(text, start)[0])
    if end < len(text):
        lo, hi = _cluster_bounds(text, end - 1)
        end = max(end, hi)
    return start, end


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def widen_to_words(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` widened so that neither end cuts a word (letters, digits, ``_``)."""
    while 0 < start < len(text) and _is_word(text[start - 1]) and _is_word(text[start]):
        start -= 1
    while 0 < end < len(text) and _is_word(text[end - 1]) and _is_word(text[end]):
        end += 1
    return snap_to_graphemes(text, start, end)
