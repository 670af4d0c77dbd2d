"""Rules for dates, quantities and codes (regular expressions over the raw text).

Dates are taken whole: "15 November 2013", "November 15, 2013", "November 2013",
"1990/91", "1992–93", "the 1970s", bare years 1000–2099. Quantities: numbers with or
without units ("5 ft 11 in", "1.80 m", "155 lb", "3–0"), ordinals and number words.
Codes: e-mail addresses, URLs, phone numbers, ISBNs and letter-digit identifiers; telephone
numbers as the ``phonenumbers`` library reads them (a number with its "+" code, or a national
number valid in one of the pack's countries, ``detect_codes.phone_regions``) and numbers written
in three groups of digits or more ("4471-2290-18"), neither when a date pattern reads it whole.

The expressions are pack entries (``packs/core/detect_dates.yaml``, ``detect_numbers.yaml``,
``detect_codes.yaml``); each of the three kinds is one rule. A span's NER label names its
kind and the expression's place in its list (``datetime0``, ``quantity6``): the masking
decision reads it, so the lists keep their order.
"""

from __future__ import annotations

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule, words
from engine.types import EntityType

DATE_PATTERNS = (
    pattern("detect_dates.day_month_year"),   # 15 November 2013, 3 May
    pattern("detect_dates.month_day_year"),   # November 15, 2013
    pattern("detect_dates.month_year"),       # November 2013
    pattern("detect_dates.year_range"),       # 1990/91 season, 1992–93
    pattern("detect_dates.decade"),           # 1970s
    pattern("detect_dates.bare_year"),        # 2003
    pattern("detect_dates.numeric_date"),     # 12/03/2001
)

QUANTITY_PATTERNS = (
    pattern("detect_numbers.feet_and_inches"),   # 5 ft 11 in
    pattern("detect_numbers.money"),
    pattern("detect_numbers.number_with_unit"),
    pattern("detect_numbers.decimal_fraction"),  # .983
    pattern("detect_numbers.score"),             # 3–0
    pattern("detect_numbers.ordinal_digits"),
    pattern("detect_numbers.spelled_number"),
)

CODE_PATTERNS = (
    pattern("detect_codes.email"),
    pattern("detect_codes.url"),
    pattern("detect_codes.web_host"),
    pattern("detect_codes.isbn"),
    pattern("detect_codes.phone"),
    pattern("detect_codes.hyphenated_identifier"),  # AB-1234-X
    pattern("detect_codes.identifier"),             # X12345678
)


def _matches(text: str, etype: EntityType, patterns: tuple) -> list[tuple[int, int, str]]:
    """(start, end, rule label) of every match, trailing punctuation cut."""
    found: list[tuple[int, int, str]] = []
    for i, pat in enumerate(patterns):
        for m in pat.finditer(text):
            s, e = m.start(), m.end()
            while e > s and text[e - 1] in " ,.;:":
                e -= 1
            if e > s:
                found.append((s, e, f"{etype.value.lower()}{i}"))
    return found


#: the place of the telephone pattern in :data:`CODE_PATTERNS`: a number the library finds is labelled as its matches are
_PHONE_LABEL = 4
_PHONE_REGIONS = words("detect_codes.phone_regions")
_DIGIT_GROUPS = pattern("detect_codes.digit_groups")
_ISO_DATE = pattern("detect_codes.iso_date")
#: a run of digits, blanks and the signs a telephone number is written with, seven digits at least: where the library looks
_PHONE_SHAPE = pattern("detect_codes.phone_shape")


def _a_date(text: str) -> bool:
    """A date pattern reads ``text`` whole ("2013-09-25", "12/03/2001")."""
    return bool(_ISO_DATE.fullmatch(text)) or any(p.fullmatch(text) for p in DATE_PATTERNS)


@rule("telephone-numbers", stage="detect", types=("CODE",), pack="core", off=[],
      purpose="a telephone number (the phonenumbers library: its '+' code, or valid in a country of the pack) or digits written in three groups is a code, not a date or a quantity")
def telephone_matches(text: str) -> list[tuple[int, int, str]]:
    found: dict[tuple[int, int], str] = {}
    label = f"{EntityType.CODE.value.lower()}{_PHONE_LABEL}"
    runs = [r for r in _PHONE_SHAPE.finditer(text) if sum(ch.isdigit() for ch in r.group()) >= 7]
    if runs:
        import phonenumbers

        for r in runs:  # the library reads each run alone: much faster than the whole text once per country
            for region in _PHONE_REGIONS.in_order():
                for m in phonenumbers.PhoneNumberMatcher(r.group(), region, leniency=phonenumbers.Leniency.VALID):
                    if not _a_date(m.raw_string):
                        found.setdefault((r.start() + m.start, r.start() + m.end), label)
    for m in _DIGIT_GROUPS.finditer(text):
        if not _a_date(m.group()):
            found.setdefault((m.start(), m.end()), label)
    taken: list[tuple[int, int]] = []  # the longest of overlapping numbers ("0171 2345678", not its "2345678")
    for s, e in sorted(found, key=lambda p: (p[0] - p[1], p[0])):
        if not any(s < te and ts < e for ts, te in taken):
            taken.append((s, e))
    return [(s, e, label) for s, e in sorted(taken)]


@rule("code-expressions", stage="detect", types=("CODE",), pack="core", off=[],
      purpose="e-mail addresses, web addresses, ISBNs, telephone numbers and identifiers are codes")
def code_matches(text: str) -> list[tuple[int, int, str]]:
    return _matches(text, EntityType.CODE, CODE_PATTERNS) + telephone_matches(text)


@rule("date-expressions", stage="detect", types=("DATETIME",), pack="core", off=[],
      purpose="a day, a month and a year, a year range, a decade or a year alone is a date")
def date_matches(text: str) -> list[tuple[int, int, str]]:
    return _matches(text, EntityType.DATETIME, DATE_PATTERNS)


@rule("quantity-expressions", stage="detect", types=("QUANTITY",), pack="core", off=[],
      purpose="a number with or without its unit, an amount of money, a score, an ordinal or a number in words is a quantity")
def quantity_matches(text: str) -> list[tuple[int, int, str]]:
    return _matches(text, EntityType.QUANTITY, QUANTITY_PATTERNS)


#: the finders in the order they take the text: codes first, then dates, then quantities
_FINDERS = ((EntityType.CODE, code_matches), (EntityType.DATETIME, date_matches), (EntityType.QUANTITY, quantity_matches))


def rule_spans(text: str) -> list[DetectedSpan]:
    """Maximal non-overlapping rule matches: codes first, then dates, then quantities."""
    taken: list[tuple[int, int]] = []
    out: list[DetectedSpan] = []
    for etype, finder in _FINDERS:
        found = list(finder(text))
        found.sort(key=lambda t: (t[0], -(t[1] - t[0])))
        for s, e, label in found:
            if any(s < te and ts < e for ts, te in taken):
                continue
            taken.append((s, e))
            out.append(DetectedSpan(s, e, text[s:e], etype, frozenset({"rule"}), ner_label=label))
    return sorted(out, key=lambda sp: sp.start)
