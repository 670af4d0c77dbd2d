"""Numbers in digits and words, shared by the DATETIME and QUANTITY ladders.

The number words are ``packs/core/numbers.yaml``; a run of them is read by text2num (a
maintained parser of numbers written in words, offline), what it does not read alone ("a",
"half", "a dozen", "twice") by the pack's ``numbers.word_values``. Digits are read with the
thousands separators a court writes ("1,574,919,236", "2.847.312.000") and a decimal part.
"""

from __future__ import annotations

import math
import re

from engine.knowledge import pattern, table, words

NUMBER_WORDS = words("numbers.number_words")
NUMBER_WORD = pattern("numbers.number_word", re.IGNORECASE)
_WORD_VALUES = table("numbers.word_values")
_VAGUE = words("numbers.vague_magnitudes")
_NUMERIC = re.compile(r"^[#(]?[+-]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:st|nd|rd|th|s)?[)]?$")
_DIGITS = re.compile(r"\d[\d,.]*\d|\d")


def is_number_token(token: str) -> bool:
    """``12``, ``1,178``, ``.983``, ``12th``, ``(10)``, ``#182``, ``four``, ``Nine``, ``twice``…"""
    t = token.strip()
    if _NUMERIC.match(t):
        return True
    parts = re.split(r"[-–]", t.lower())
    return all(p in NUMBER_WORDS for p in parts if p) and any(parts)


def digits_value(text: str) -> float | None:
    """The value of an amount in digits: ``57.81``, ``1,000``, ``2.847.312.000``, ``11,305.5``,
    ``359,5``; None when ``text`` is not one. With both separators the last is the decimal
    one; with one, it groups thousands when it recurs or three digits follow it."""
    t = text.strip()
    if not _DIGITS.fullmatch(t):
        return None
    seps = [ch for ch in t if ch in ",."]
    if not seps:
        return float(t)
    decimal = None
    last = seps[-1]
    if seps.count(last) == 1 and (len(set(seps)) == 2 or not re.search(r"[.,]\d{3}$", t)):
        decimal = last  # "11,305.5", "359,5"; not "1,000" nor "2,847.312.000"
    if decimal is None:
        return float(re.sub(r"[.,]", "", t))
    whole, _, frac = t.rpartition(decimal)
    return float(re.sub(r"[.,]", "", whole) + "." + frac)


def words_value(text: str) -> float | None:
    """The value of a number in words: "fifty-eight" → 58, "two and a half" → 2.5, "a" → 1,
    "a dozen" → 12; None when ``text`` is not one, or is a plural order of magnitude alone
    ("thousands", ``numbers.vague_magnitudes``)."""
    t = " ".join(text.lower().replace("-", " ").split())
    if not t or t in _VAGUE:
        return None  # "thousands": an order of magnitude, no count
    half = 0.0
    for tail in (" and a half", " and half"):
        if t.endswith(tail):
            t, half = t[: -len(tail)], 0.5
    if t in _WORD_VALUES:
        return float(_WORD_VALUES[t]) + half
    if t.startswith(("a ", "an ")) and t.split(" ", 1)[1] in _WORD_VALUES:
        return float(_WORD_VALUES[t.split(" ", 1)[1]]) + half
    from text_to_num import text2num

    try:
        return float(text2num(t, "en")) + half
    except ValueError:
        pass
    if t.startswith(("a ", "an ")):
        try:
            return float(text2num("one " + t.split(" ", 1)[1], "en")) + half
        except ValueError:
            return None
    return None


def number_value(text: str) -> float | None:
    """The value of an amount in digits or words (:func:`digits_value`, :func:`words_value`)."""
    value = digits_value(text)
    return value if value is not None else words_value(text)


def power_of_ten(value: float) -> int:
    """The power of ten of ``value``'s first digit (57.81 → 1, 6,800 → 3)."""
    return int(math.floor(math.log10(value))) if value > 0 else 0


def round_text(value: float) -> str:
    """A round value as a court writes it: 100 → "100", 10000 → "10,000", 2000000 → "2 million"."""
    names = table("numbers.large_number_names")
    for power in sorted((int(p) for p in names), reverse=True):
        if value >= 10 ** power and value % 10 ** power == 0:
            return f"{int(value // 10 ** power):,} {names[power] if power in names else names[str(power)]}"
    return f"{int(value):,}" if value == int(value) else f"{value:g}"
