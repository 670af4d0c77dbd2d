"""Number words and numeric tokens shared by the DATETIME and QUANTITY rules."""

from __future__ import annotations

import re

_CARDINALS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
    "thousand million billion trillion dozen dozens hundreds thousands millions billions half"
).split()
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth fortieth "
    "fiftieth sixtieth seventieth eightieth ninetieth hundredth thousandth"
).split()
_MULTIPLICATIVES = ["once", "twice", "thrice"]
NUMBER_WORDS = frozenset(_CARDINALS + _ORDINALS + _MULTIPLICATIVES)
NUMBER_WORD = "(?:" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + ")"
_NUMERIC = re.compile(r"^[#(]?[+-]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:st|nd|rd|th|s)?[)]?$")


def is_number_token(token: str) -> bool:
    """``12``, ``1,178``, ``.983``, ``12th``, ``(10)``, ``#182``, ``four``, ``Nine``, ``twice``…"""
    t = token.strip()
    if _NUMERIC.match(t):
        return True
    parts = re.split(r"[-–]", t.lower())
    return all(p in NUMBER_WORDS for p in parts if p) and any(parts)
