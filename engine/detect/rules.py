"""Rules for dates, quantities and codes (regular expressions over the raw text).

Dates are taken whole: "15 November 2013", "November 15, 2013", "November 2013",
"1990/91", "1992–93", "the 1970s", bare years 1000–2099. Quantities: numbers with or
without units ("5 ft 11 in", "1.80 m", "155 lb", "3–0"), ordinals and number words.
Codes: e-mail addresses, URLs, phone numbers, ISBNs and letter-digit identifiers.
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.types import EntityType

_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan\\.?|Feb\\.?|Mar\\.?|Apr\\.?|Jun\\.?|Jul\\.?|Aug\\.?|Sep\\.?|Sept\\.?|Oct\\.?|Nov\\.?|Dec\\.?"
)
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_DAY = r"(?:[12][0-9]|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DASH = r"[-–—/]"

DATE_PATTERNS = [
    rf"\b{_DAY}\s+(?:of\s+)?(?:{_MONTHS})(?:,?\s+{_YEAR})?\b",           # 15 November 2013, 3 May
    rf"\b(?:{_MONTHS})\s+{_DAY}(?:,?\s+{_YEAR})?\b",                      # November 15, 2013
    rf"\b(?:{_MONTHS}),?\s+{_YEAR}\b",                                      # November 2013
    rf"\b{_YEAR}\s*{_DASH}\s*[0-9]{{2}}(?:\s+season)?\b",                    # 1990/91 season, 1992–93
    r"\b(?:[0-9]{4}|[0-9]{2})s\b",                                    # 1970s
    rf"\b{_YEAR}(?:\s+season)?\b",                                          # 2003
    r"\b[0-9]{1,2}[./-][0-9]{1,2}[./-](?:[0-9]{4}|[0-9]{2})\b",             # 12/03/2001
]

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    "seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|"
    "million|billion|dozen|twice|thrice|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
    "eleventh|twelfth"
)
_UNITS = (
    r"ft|feet|foot|in|inches|inch|m|cm|mm|km|kg|g|lb|lbs|pounds|miles|mi|metres|meters|kilometres|kilometers|"
    r"years?|months?|weeks?|days?|hours?|minutes?|seconds?|%|percent|per cent|points?|goals?|caps?|games?|matches"
)
QUANTITY_PATTERNS = [
    r"\b[0-9]+(?:\.[0-9]+)?\s*(?:ft|feet|foot)\s*[0-9]+(?:\.[0-9]+)?(?:\s*(?:in|inches))?\b",  # 5 ft 11 in
    r"[$€£¥]\s?[0-9][0-9,]*(?:\.[0-9]+)?(?:\s*(?:million|billion|thousand))?",
    rf"(?<![\w.])[0-9][0-9,]*(?:\.[0-9]+)?(?:\s*(?:{_UNITS})\b)?",
    r"(?<![\w.])\.[0-9]+\b",                                                    # .983
    r"\b[0-9]+\s*[–-]\s*[0-9]+\b",                                              # 3–0
    r"\b[0-9]+(?:st|nd|rd|th)\b",
    rf"\b(?:{_NUMBER_WORDS})(?:[- ](?:{_NUMBER_WORDS}))*\b",
]

CODE_PATTERNS = [
    r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b",
    r"\bhttps?://\S+",
    r"\bwww\.\S+",
    r"\bISBN(?:-1[03])?:?\s*[0-9Xx][0-9Xx -]{8,16}[0-9Xx]\b",
    r"(?<!\w)\+?[0-9]{1,3}?[ .-]?\(?[0-9]{2,4}\)?[ .-][0-9]{3,4}[ .-][0-9]{3,4}\b",
    r"\b(?=[A-Z0-9-]*[0-9])(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{2,}(?:-[A-Z0-9]+)+\b",   # AB-1234-X
    r"\b(?=\w*[0-9])(?=\w*[A-Z])[A-Z0-9]{6,}\b",                                  # X12345678
]

_COMPILED = [
    (EntityType.CODE, [re.compile(p) for p in CODE_PATTERNS]),
    (EntityType.DATETIME, [re.compile(p, re.I if i in (0, 1, 2) else 0) for i, p in enumerate(DATE_PATTERNS)]),
    (EntityType.QUANTITY, [re.compile(p, re.I) for p in QUANTITY_PATTERNS]),
]


def rule_spans(text: str) -> list[DetectedSpan]:
    """Maximal non-overlapping rule matches: codes first, then dates, then quantities."""
    taken: list[tuple[int, int]] = []
    out: list[DetectedSpan] = []
    for etype, patterns in _COMPILED:
        found: list[tuple[int, int, str]] = []
        for i, pat in enumerate(patterns):
            for m in pat.finditer(text):
                s, e = m.start(), m.end()
                while e > s and text[e - 1] in " ,.;:":
                    e -= 1
                if e > s:
                    found.append((s, e, f"{etype.value.lower()}{i}"))
        found.sort(key=lambda t: (t[0], -(t[1] - t[0])))
        for s, e, rule in found:
            if any(s < te and ts < e for ts, te in taken):
                continue
            taken.append((s, e))
            out.append(DetectedSpan(s, e, text[s:e], etype, frozenset({"rule"}), ner_label=rule))
    return sorted(out, key=lambda sp: sp.start)
