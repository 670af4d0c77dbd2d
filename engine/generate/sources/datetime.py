"""DATETIME spans → ladders in WikiReplace's style, most specific first.

=============================  ==========================================================
span                           ladder (before ``***``)
=============================  ==========================================================
``1885``                       date in the 1880s · date in the 19th century · DATE
``24 April 1919`` (any order)  April 1919 · 1919 · date in the 1910s · … century · DATE
``May 2009``                   2009 · date in the 2000s · date in the 21st century · DATE
``21 May``                     May · DATE
``1990s``, ``early 2000s``     date in the 1990s · date in the 20th century · DATE
``between 1988 and 1990``      between the 1980s and the 1990s · date in the 20th century · DATE
``1990/91 season``             date in the 1990s · date in the 20th century · DATE
``seven years``, ``age 19``    X years / age X (a duration or an age is not a date)
``twenty-eight years'``        X years'
``19th century``               date in the 2nd millennium
``19th``, ``third``            (nothing: an ordinal alone is not a date; only ``***``)
anything else with a year      <year> · date in the <decade>s · … century · DATE
anything else                  DATE
=============================  ==========================================================
"""

from __future__ import annotations

import re

from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.generate.sources.numbers import NUMBER_WORD
from engine.types import Candidate, Span

MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
]
_MONTH_ABBR = {m[:3]: m for m in MONTHS}
_MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
_YEAR = r"(\d{3,4})"
_UNITS = r"(years?|months?|weeks?|days?|decades?|centuries|century|hours?|minutes?|seasons?)"
GENERIC = "DATE"


def ordinal(n: int) -> str:
    """1 → 1st, 2 → 2nd, 11 → 11th, 21 → 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def decade(year: int) -> str:
    return f"{year // 10 * 10}s"


def century(year: int) -> str:
    return f"{ordinal(year // 100 + 1)} century"


def year_rungs(year: int) -> list[str]:
    """date in the <decade>s · date in the <century>."""
    return [f"date in the {decade(year)}", f"date in the {century(year)}"]


def _month_name(token: str) -> str:
    """Full, capitalised month name of a month token ("Sept." → "September")."""
    t = token.lower().rstrip(".")
    return _MONTH_ABBR.get(t[:3], t).capitalize()


def datetime_ladder(text: str) -> tuple[list[str], str]:
    """The ladder of a DATETIME span and the name of the rule that made it."""
    s = " ".join(text.strip().split())
    low = s.lower()
    m = re.fullmatch(r"(?:in |the year )?(\d{3,4})(?: ad| ce)?", low)
    if m and 130 <= int(m.group(1)) <= 2999:
        return year_rungs(int(m.group(1))) + [GENERIC], "year"
    m = re.fullmatch(r"(?:the )?(?:(early|mid|late|mid-)\s*-?\s*)?(\d{3}0)['’]?s", low)
    if m:
        y = int(m.group(2))
        return [f"date in the {decade(y)}", f"date in the {century(y)}", GENERIC], "decade"
    m = re.fullmatch(rf"(?:between |from )?(?:the )?{_YEAR}(?:s)?\s*(?:and|to|–|-|—|/|until)\s*(?:the )?(\d{{2,4}})(?:s)?(?: season)?", low)
    if m:
        y1 = int(m.group(1))
        y2_raw = m.group(2)
        y2 = int(y2_raw) if len(y2_raw) >= 3 else (y1 // 100 * 100 + int(y2_raw) if len(y2_raw) == 2 else None)
        if y2 is not None and y2 < y1 and len(y2_raw) == 2:
            y2 += 100
        if y2 is not None and 130 <= y1 <= y2 <= 2999:
            if decade(y1) == decade(y2):
                return year_rungs(y1) + [GENERIC], "range"
            rungs = [f"between the {decade(y1)} and the {decade(y2)}"]
            if century(y1) == century(y2):
                rungs.append(f"date in the {century(y1)}")
            else:
                rungs.append(f"between the {century(y1)} and the {century(y2)}")
            return rungs + [GENERIC], "range"
    day_first = re.fullmatch(rf"(?:on )?(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH},? {_YEAR}", low)
    month_first = re.fullmatch(rf"(?:on )?{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?,? {_YEAR}", low)
    iso = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", low)
    numeric = re.fullmatch(r"(\d{1,2})[./](\d{1,2})[./](\d{4})", low)
    if day_first or month_first or iso or numeric:
        if day_first:
            month, year = _month_name(day_first.group(2)), int(day_first.group(3))
        elif month_first:
            month, year = _month_name(month_first.group(1)), int(month_first.group(3))
        elif iso:
            month, year = MONTHS[int(iso.group(2)) - 1].capitalize() if 1 <= int(iso.group(2)) <= 12 else "", int(iso.group(1))
        else:
            month, year = "", int(numeric.group(3))
        head = [f"{month} {year}"] if month else []
        return head + [str(year)] + year_rungs(year) + [GENERIC], "full-date"
    m = re.fullmatch(rf"(?:in )?{_MONTH},? {_YEAR}", low)
    if m:
        year = int(m.group(2))
        return [str(year)] + year_rungs(year) + [GENERIC], "month-year"
    m = re.fullmatch(rf"(?:on )?(?:(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH}|{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?)", low)
    if m:
        month = _month_name(m.group(2) or m.group(3))
        return [month, GENERIC], "day-month"
    m = re.fullmatch(rf"(?:at )?(?:the )?age(?: of)? (\d{{1,3}}|{NUMBER_WORD})", low)
    if m:
        return ["age X"], "age"
    m = re.fullmatch(rf"((?:\d+(?:[.,]\d+)?|{NUMBER_WORD}|a|an|several|many|few)(?:[- ](?:{NUMBER_WORD}))*)[- ]{_UNITS}((?:[- ]long| later| earlier| ago| old)?)(['’]?)", low)
    if m:
        sep = "-" if "-" in s[len(m.group(1)):len(m.group(1)) + 1] else " "
        return [f"X{sep}{m.group(2)}{m.group(3)}{m.group(4)}"], "duration"
    m = re.fullmatch(rf"(?:the )?(\d{{1,2}})(?:st|nd|rd|th)(?:[- ](?:century|centuries))?(?: (?:ad|ce|bc|bce))?", low)
    if m:
        if "centur" not in low or "bc" in low:
            return [], "ordinal"
        n = int(m.group(1))
        return [f"date in the {ordinal((n - 1) // 10 + 1)} millennium"], "century"
    if re.fullmatch(rf"(?:the )?(?:\d+|{NUMBER_WORD})(?:st|nd|rd|th)?", low) or re.fullmatch(
        r"(?:the )?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)", low
    ):
        return [], "ordinal"
    years = re.findall(r"(?<!\d)(\d{4})(?!\d)", low)
    if years and 130 <= int(years[0]) <= 2999 and low != years[0]:
        y = int(years[0])
        return [str(y)] + year_rungs(y) + [GENERIC], "contains-year"
    return [GENERIC], "generic"


class DatetimeSource(CandidateSource):
    """DATETIME → the ladder of :func:`datetime_ladder`."""

    name = "datetime"

    def generate(self, span: Span, state: DocumentState) -> SourceResult:
        labels, rule = datetime_ladder(span.text)
        reason = "" if labels else f"{span.text!r} is an ordinal, not a date: only ***"
        return SourceResult([Candidate(label, source=self.name, rule=rule) for label in labels], reason=reason)
