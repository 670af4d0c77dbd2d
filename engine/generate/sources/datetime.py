"""DATETIME spans → ladders, most specific first, each rung named by the rule that made it.

==============================  ==========================================================
span                            ladder (before ``***``)
==============================  ==========================================================
``1885``                        date in the mid-1880s · date in the 1880s · … century · DATE
``24 April 1919`` (any order)   April 1919 · date in early 1919 · 1919 · date in the late
                                1910s · date in the 1910s · date in the 20th century · DATE
``May 2009``                    date in mid-2009 · 2009 · date in the late 2000s · …
``21 May``                      May · DATE
``1990s``, ``early 2000s``      date in the 1990s · date in the 20th century · DATE
``between 1988 and 1990``       between the 1980s and the 1990s · date in the 20th century
``between 1 January 1993 and    between January 1993 and December 1994 · between 1993 and
9 December 1994``               1994 · date in the early 1990s · date in the 1990s · …
``14 and 27 July 1999`` (list)  July 1999 · date in mid-1999 · 1999 · …
``summer of 1988``              1988 · date in the late 1980s · …
``7.30 p.m.``                   date in the evening
``almost two years``            about two years · a few years
``ten years``, ``two-year``     about ten years · many years; multi-year
``aged 42``, ``18-year-old``    aged 40–49; 15- to 19-year-old · teenager
``19th century``                date in the 2nd millennium
``19th``, ``third``             (nothing: an ordinal alone is not a date; only ``***``)
anything else                   DATE
==============================  ==========================================================

A single calendar date is read by python-dateutil (which of day, month and year the text
gives: it is parsed against two different defaults); ranges and lists of dates are split
by the words of ``packs/core/periods.yaml`` and each end read so, borrowing the month and
year a later end gives ("14 and 27 July 1999"). Every rung is less specific than the span
and true of it: a rung names a period that holds every date the span names. The parts of a
year and of a decade, ranges kept as ranges, the durations' and ages' rungs and the time
of day are registered rules (stage ``ladder``; examples in
``packs/core/examples/ladder.values.yaml``); a rule switched off leaves its rungs out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime as _datetime

from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.generate.sources.numbers import NUMBER_WORD, number_value
from engine.knowledge import pattern, rule, table, words
from engine.text.articles import indefinite_article
from engine.types import Candidate, Span

MONTHS = words("dates.months")
CENTURY_DECADE_PARTS = words("periods.century_decade_parts")
GENERIC = "DATE"
_MONTH = pattern("periods.month")
_PART_OF_MONTH = pattern("periods.part_of_month")
_LEADING = pattern("periods.leading_words")
_RANGE_OPEN = pattern("periods.range_open")
_RANGE_JOIN = pattern("periods.range_join")
_LIST_JOIN = pattern("periods.list_join")
_PART_OF_DECADE = pattern("periods.part_of_decade_span")
_TIME = pattern("periods.time_of_day")
_UNIT = pattern("periods.unit_word")
_TAIL = pattern("periods.duration_tail")
_AGE = pattern("periods.age")
_AGE_BEFORE = pattern("periods.age_before")
_HEDGE = pattern("numbers.hedge")
_NUMBER = pattern("numbers.number")
_SEASONS = words("periods.seasons")
_APPROXIMATELY = words("numbers.approximately")
_AT_LEAST = words("numbers.at_least")
_AT_MOST = words("numbers.at_most")

Rung = tuple[str, str]  # (label, the rule that made it)
#: The provenance of the generic rung and of a day's month without a year.
GENERIC_RULE, DAY_MONTH_RULE = "generic", "day-month"


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


def _month_name(month: int) -> str:
    return MONTHS.in_order()[month - 1].capitalize()


def _part(value: int, parts: str) -> str | None:
    """The part (early, mid, late) of table ``parts`` that holds ``value``."""
    for name, members in table(parts).items():
        if value in members:
            return name
    return None


# --- one calendar date ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Day:
    """A calendar date as precise as the span gives it (a year alone, a month of a year, a day)."""

    year: int | None
    month: int | None = None
    day: int | None = None

    def borrow(self, later: "Day") -> "Day":
        """This date with the month and year a later date of the same list gives ("14 [and 27 July 1999]")."""
        month = self.month if self.month is not None else (later.month if self.day is not None else None)
        return Day(self.year if self.year is not None else later.year, month, self.day)


_DEFAULTS = (_datetime(1, 1, 1, 0, 0), _datetime(2, 2, 2, 3, 3))
_NUMERIC_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{4}")


def read_date(text: str) -> Day | None:
    """One calendar date written with a month name or in digits ("24 April 1919", "Sept. 3,
    1955", "2013-09-25", "May 2009", "21 May"), or a year or a day alone; None otherwise. The
    words that place it in its month ("beginning of", "mid-") are dropped."""
    t = _PART_OF_MONTH.sub("", _LEADING.sub("", text.strip(" ,.;()")))
    if re.fullmatch(r"\d{3,4}", t):
        return Day(int(t)) if 130 <= int(t) <= 2999 else None
    if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", t):
        return Day(None, None, int(re.match(r"\d+", t).group(0)))
    if not (_MONTH.search(t) or _NUMERIC_DATE.fullmatch(t)):
        return None
    from dateutil import parser

    dayfirst = not re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", t)  # "1987-02-11" is year, month, day
    try:
        a, b = (parser.parse(t, default=d, dayfirst=dayfirst) for d in _DEFAULTS)
    except (ValueError, OverflowError):
        return None
    if (a.hour, a.minute) == (b.hour, b.minute):
        return None  # a time of day: not a calendar date
    year = a.year if a.year == b.year else None
    if year is not None and not (130 <= year <= 2999 and re.search(r"\d{3,4}", t)):
        return None
    return Day(year, a.month if a.month == b.month else None, a.day if a.day == b.day else None)


def _read_dates(text: str) -> tuple[list[Day], bool] | None:
    """The dates of a range ("between A and B", "A to B") or a list ("A, B and C"), each
    with the month and year a later one gives, and whether they are a range; None when a
    part is no date."""
    t = _LEADING.sub("", text.strip(" ,.;"))
    opened = _RANGE_OPEN.match(t)
    body = t[opened.end():] if opened else t
    ranged = bool(opened)
    parts = _RANGE_JOIN.split(body, maxsplit=1)
    if len(parts) == 2 and not opened and not _RANGE_JOIN.search(body).group(0).strip() in ("–", "—", "-", "/", "to", "until", "till", "through"):
        parts = []  # "A and B" without "between": a list
    if len(parts) == 2:
        ranged = True
    else:
        parts = [p for p in _LIST_JOIN.split(body) if p]
    if len(parts) < 2:
        return None
    days = [read_date(p) for p in parts]
    if any(d is None for d in days):
        return None
    out: list[Day] = []
    later = days[-1]
    for d in reversed(days):
        d = d.borrow(later)
        out.append(d)
        later = d
    out.reverse()
    if any(d.year is None for d in out):
        return None
    return out, ranged


# --- the levels of a date's ladder ---------------------------------------------------------------
def _month_key(d: Day) -> tuple | None:
    return (d.year, d.month) if d.month else None


def _part_of_year_key(d: Day) -> tuple | None:
    return (d.year, _part(d.month, "periods.parts_of_year")) if d.month else None


def _part_of_decade_key(d: Day) -> tuple | None:
    return (d.year // 10, _part(d.year % 10, "periods.parts_of_decade"))


@rule("part-of-a-year", stage="ladder", types=("DATETIME",), off=(),
      purpose='a date of a known month is also in the early, middle or late part of its year ("June 2005" → "mid-2005")')
def part_of_a_year(year: int, month: int) -> tuple[Rung, ...]:
    part = _part(month, "periods.parts_of_year")
    return ((table("periods.part_of_year_rung")[part].format(year=year), "part-of-a-year"),) if part else ()


@rule("part-of-a-decade", stage="ladder", types=("DATETIME",), off=(),
      purpose='a year is also in the early, middle or late part of its decade ("1995" → "the mid-1990s")')
def part_of_a_decade(year: int) -> tuple[Rung, ...]:
    part = _part(year % 10, "periods.parts_of_decade")
    if part and part_named_like_its_century(year, part):
        return ()
    return ((table("periods.part_of_decade_rung")[part].format(decade=decade(year)), "part-of-a-decade"),) if part else ()


@rule("part-named-like-its-century-left-out", stage="ladder", types=("DATETIME",), off=False,
      purpose='the first decade of a past century is named like the century ("the 1900s"): only the parts true of both readings are offered ("1905" → not "the mid-1900s", which reads as the 1950s; "1902" → "the early 1900s")')
def part_named_like_its_century(year: int, part: str) -> bool:
    """``year`` lies in the first decade of a century that has ended, and ``part`` of that
    decade is not one that is also true of the century read in its place."""
    century_ended = (year // 100 + 1) * 100 <= _datetime.now().year
    return year % 100 < 10 and century_ended and part not in CENTURY_DECADE_PARTS


@rule("date-range-kept-as-range", stage="ladder", types=("DATETIME",), off=(),
      purpose='a range of dates keeps its two ends, each less precise ("between 1 January 1993 and 9 December 1994" → "between 1993 and 1994")')
def date_range_kept_as_range(first: str, last: str) -> tuple[Rung, ...]:
    return ((f"between {first} and {last}", "date-range-kept-as-range"),)


@rule("dates-in-one-period", stage="ladder", types=("DATETIME",), off=False,
      purpose='a range or list of dates is generalized to the periods that hold every one of them ("14 and 27 July 1999" → "July 1999")')
def dates_in_one_period() -> bool:
    return True


def _period_rungs(days: list[Day], ranged: bool) -> list[Rung]:
    """The rungs of one or several dates: at each level (month, part of the year, year, part
    of the decade, decade, century) the period that holds them all, or for a range whose
    ends lie in different periods, the two ends ("between 1993 and 1994")."""
    one = len(days) == 1
    first, last = min(days, key=lambda d: (d.year, d.month or 0, d.day or 0)), max(days, key=lambda d: (d.year, d.month or 0, d.day or 0))
    out: list[Rung] = []
    has_day = all(d.day is not None for d in days)
    has_month = all(d.month is not None for d in days)
    if has_month and has_day:
        if len({_month_key(d) for d in days}) == 1:
            out.append((f"{_month_name(first.month)} {first.year}", "month-of-a-day" if one else "dates-in-one-period"))
        elif ranged:
            out += date_range_kept_as_range(f"{_month_name(first.month)} {first.year}", f"{_month_name(last.month)} {last.year}")
    if has_month:
        if len({_part_of_year_key(d) for d in days}) == 1:
            out += part_of_a_year(first.year, first.month)
    if len({d.year for d in days}) == 1:
        if has_month:
            out.append((str(first.year), "year-of-a-date" if one else "dates-in-one-period"))
    elif ranged and has_month:
        out += date_range_kept_as_range(str(first.year), str(last.year))
    if len({_part_of_decade_key(d) for d in days}) == 1:
        out += part_of_a_decade(first.year)
    if len({decade(d.year) for d in days}) == 1:
        out.append((f"date in the {decade(first.year)}", "decade"))
    else:
        out.append((f"between the {decade(first.year)} and the {decade(last.year)}", "range"))
    if len({century(d.year) for d in days}) == 1:
        out.append((f"date in the {century(first.year)}", "century"))
    else:
        out.append((f"between the {century(first.year)} and the {century(last.year)}", "range"))
    return out


# --- durations, ages, times of day ---------------------------------------------------------------
def _unit(word: str) -> tuple[str, dict]:
    """The singular of a unit of time and its entry in ``periods.time_units``."""
    w = word.lower()
    units = table("periods.time_units")
    if w in units:
        return w, units[w]
    for singular, entry in units.items():
        if entry["plural"] == w:
            return singular, entry
    return w, {"plural": w + "s", "adjective": ""}


def _scale(value: float, templates: str) -> tuple[int, str] | None:
    """The entry of table ``templates`` with the highest key at most ``value``."""
    rows = sorted((float(k), v) for k, v in table(templates).items())
    best = None
    for key, text in rows:
        if key <= value:
            best = (key, text)
    return best


@rule("approximate-duration", stage="ladder", types=("DATETIME",), off=(),
      purpose='a duration the span gives as almost or nearly an amount reads "about" it ("almost two years" → "about two years")')
def approximate_duration(hedge: str, amount: str, unit: str) -> tuple[Rung, ...]:
    if hedge.lower() not in _APPROXIMATELY or hedge.lower() == "about":
        return ()
    return ((table("periods.approximate_duration")["about"].format(amount=amount, unit=unit), "approximate-duration"),)


@rule("duration-in-words", stage="ladder", types=("DATETIME",), off=(),
      purpose='a duration reads as its order in words ("three months" → "a few months", "fifteen years" → "more than ten years" → "many years"); one given as at most an amount only as under the next unit up ("less than twenty-four hours" → "less than a day")')
def duration_in_words(value: float, singular: str, plural: str, hedge: str = "") -> tuple[Rung, ...]:
    fmt = {"singular": singular, "plural": plural, "a": indefinite_article(singular)}  # "about an hour"
    if hedge.lower() in _AT_LEAST:
        if value >= 10:
            # "more than twenty hours" may be more than a day: no bound above it, only "many hours"
            key, text = _scale(value, "periods.duration_scale")
            top = _scale(value, "periods.duration_many")
            return ((text.format(**fmt), "duration-in-words"),) + (((top[1].format(**fmt), "duration-in-words"),) if top else ())
        return ()
    if hedge.lower() in _AT_MOST:
        # "less than twenty-four hours": only a bound above it is true ("less than a day"), no count below it
        nxt = table("periods.under_the_next_unit").get(fmt["singular"])
        return ((nxt["say"], "duration-in-words"),) if nxt and value <= float(nxt["below"]) else ()
    if value < 1:
        return ()
    rounds = {float(k): v for k, v in table("periods.duration_round").items()}
    key, text = _scale(value, "periods.duration_scale")
    first = rounds[value] if value in rounds else text
    if first == text and value == key and key >= 10:
        return _many(value, fmt)  # "more than ten years" is not true of ten years
    return ((first.format(**fmt), "duration-in-words"), *_many(value, fmt))


def _many(value: float, fmt: dict) -> tuple[Rung, ...]:
    """The least specific rung: under the next unit up ("less than an hour"), else "many years"."""
    nxt = table("periods.under_the_next_unit").get(fmt["singular"])
    if nxt and value < float(nxt["below"]):
        return ((nxt["say"], "duration-in-words"),)
    top = _scale(value, "periods.duration_many")
    return ((top[1].format(**fmt), "duration-in-words"),) if top else ()


@rule("duration-as-an-adjective", stage="ladder", types=("DATETIME",), off=(),
      purpose='a duration of several units before its noun reads "multi-" ("a two-year sentence" → "a multi-year sentence")')
def duration_as_an_adjective(value: float, adjective: str) -> tuple[Rung, ...]:
    return ((adjective, "duration-as-an-adjective"),) if value >= 2 and adjective else ()


#: What joins the parts of a duration ("four years *and* six months", "two years*,* six months *and* …"), ``dates.duration_joiner``.
_DURATION_JOINER = pattern("dates.duration_joiner", re.IGNORECASE)


def _duration(s: str) -> tuple[list[Rung], str] | None:
    """The rungs of a duration ("ten years", "almost two years", "four years and six months",
    "two years, six months and thirteen days", "three months'", "two-year"), or None when ``s`` is none."""
    hedge = _HEDGE.match(s)
    hedge_text = hedge.group(0) if hedge and s[hedge.end():hedge.end() + 1] == " " else ""
    rest = s[len(hedge_text):].strip()
    # "four years and six months", "two years, six months and thirteen days"
    pieces = re.split(_DURATION_JOINER.pattern + r"(?=\S+\s+" + _UNIT.pattern.replace("(", "(?:", 1) + ")", rest, flags=re.I)
    total, unit_of, amount_text, tail = 0.0, None, "", ("", "")
    for i, piece in enumerate(pieces):
        m = re.fullmatch(rf"{_NUMBER.pattern}([- ]){_UNIT.pattern}{_TAIL.pattern}", piece, flags=re.I)
        if not m:
            return None
        value = number_value(m.group(1))
        if value is None:
            return None
        singular, entry = _unit(m.group(3))
        seconds = entry.get("seconds")
        if i == 0:
            unit_of, amount_text, first_sep, first_unit = (singular, entry), m.group(1), m.group(2), m.group(3)
            total = value
        elif seconds and unit_of[1].get("seconds"):
            total += value * seconds / unit_of[1]["seconds"]
        else:
            return None
        tail = (m.group(4), m.group(5))
    singular, entry = unit_of
    suffix = tail[0] + tail[1]
    if first_sep == "-" and len(pieces) == 1 and tail[0].strip(" -") in ("", "long") and not tail[1]:
        rungs = list(duration_as_an_adjective(total, entry.get("adjective", "")))
        return (rungs or [(f"X-{first_unit}", "duration")]), "duration"
    rungs = list(approximate_duration(hedge_text, amount_text, first_unit)) if len(pieces) == 1 else []
    rungs += duration_in_words(total, singular, entry["plural"], hedge_text)
    rungs = [(_with_tail(label, tail), name) for label, name in rungs]
    if not rungs:
        rungs = [(f"{hedge_text + ' ' if hedge_text else ''}X{first_sep}{first_unit}{suffix}", "duration")]
    return rungs, "duration"


def _with_tail(label: str, tail: tuple[str, str]) -> str:
    """``label`` with the words after the span's duration; a genitive of a singular unit takes
    "'s" ("two months' imprisonment" → "less than a year's imprisonment")."""
    words_after, apostrophe = tail
    if apostrophe and not label.endswith("s"):
        apostrophe += "s"
    return label + words_after + apostrophe


@rule("age-bracket", stage="ladder", types=("DATETIME", "QUANTITY"), off=(),
      purpose='an age reads as the bracket it lies in, in fives under 20, then in tens ("aged 42" → "aged 40–49", "18-year-old" → "15- to 19-year-old")')
def age_bracket(age: int, before: str, after: str) -> tuple[Rung, ...]:
    widths = sorted((int(k), int(v)) for k, v in table("periods.age_brackets").items())
    width = [w for lo, w in widths if lo <= age][-1]
    lo, hi = age // width * width, age // width * width + width - 1
    if _ADJECTIVE_AGE.search(after):
        return ((f"{lo}- to {hi}-year-old", "age-bracket"),)
    return ((f"{before}{lo}–{hi}{after}".strip(), "age-bracket"),)


@rule("life-stage", stage="ladder", types=("DATETIME", "QUANTITY"), off=(),
      purpose='an age given as years old reads as the stage of life it lies in ("an 18-year-old" → "a teenager", "at the age of 9" → "as a child")')
def life_stage(age: int, before: str, after: str) -> tuple[Rung, ...]:
    stages = sorted((int(k), v) for k, v in table("periods.life_stages").items())
    noun = [v["noun"] for lo, v in stages if lo <= age][-1]
    if _ADJECTIVE_AGE.search(after):
        return ((noun, "life-stage"),)
    if re.search(r"\bof\s*$", before, re.I) and before.lower().lstrip().startswith("at"):
        return ((f"as a{'n' if noun[0] in 'aeiou' else ''} {noun}", "life-stage"),)
    if "old" in after or "of age" in after:
        return ((f"a{'n' if noun[0] in 'aeiou' else ''} {noun}", "life-stage"),)
    return ()


@rule("age-of-majority", stage="ladder", types=("DATETIME", "QUANTITY"), pack="legal", off=(),
      purpose='an age given as "aged N" reads as under or over the age of majority ("aged 17" → "aged under 18")')
def age_of_majority(age: int, before: str) -> tuple[Rung, ...]:
    if not before.lower().strip().startswith("aged"):
        return ()
    at = int(table("court_amounts.minor_age")["majority_at"])
    rungs = table("court_amounts.minor_rungs")
    return ((rungs["aged_under" if age < at else "aged_over"].format(age=at), "age-of-majority"),)


_ADJECTIVE_AGE = re.compile(r"year[-‑–]old")


def age_rungs(s: str, before_span: str = "") -> list[Rung] | None:
    """The rungs of an age ("aged 42", "18-year-old", "at the age of 17"; a bare number after
    "aged" or "the age of" outside the span: ``before_span``), or None when ``s`` is none."""
    m = _AGE.fullmatch(s)
    if not m:
        return None
    if before_span and not (m.group(1) or m.group(3)) and _AGE_BEFORE.search(before_span):
        value = number_value(m.group(2))
        if value is None or value != int(value) or not 0 <= value < 130:
            return None
        return list(age_bracket(int(value), "", "")) or None
    return _age(s)


def _age(s: str) -> list[Rung] | None:
    m = _AGE.fullmatch(s)
    if not m or not (m.group(1) or m.group(3)):
        return None
    value = number_value(m.group(2))
    if value is None or value != int(value) or not 0 <= value < 130:
        return None
    age, before, after = int(value), m.group(1) or "", m.group(3) or ""
    rungs = [*age_bracket(age, before, after), *life_stage(age, before, after), *age_of_majority(age, before)]
    return rungs or [("age X", "age")]


@rule("time-of-day", stage="ladder", types=("DATETIME",), off=(),
      purpose='a time of day reads as the part of the day it lies in ("7.30 p.m." → "in the evening"); a time without a.m./p.m. only when the clock says which')
def time_of_day(hour: int) -> tuple[Rung, ...]:
    parts = sorted((int(k), v) for k, v in table("periods.parts_of_day").items())
    part = [v for start, v in parts if start <= hour][-1]
    return ((table("periods.part_of_day_rung")[part], "time-of-day"),)


def _time(s: str) -> list[Rung] | None:
    m = _TIME.fullmatch(s)
    if not m or not (m.group(2) or m.group(3)):
        return None
    hour, minutes, mark = int(m.group(1)), m.group(2), (m.group(3) or "").lower().replace(" ", "").replace(".", "")
    if mark in ("am", "pm"):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if mark == "pm" else 0)
    elif mark in ("hours", "h") or (minutes and ":" in s) or hour >= 13:
        if hour > 23:
            return None
    else:
        return None  # "7.30": morning or evening?
    return list(time_of_day(hour)) or [(GENERIC, "generic")]


# --- the ladder ----------------------------------------------------------------------------------
def datetime_rungs(text: str) -> tuple[list[Rung], str]:
    """The rungs of a DATETIME span, each with the rule that made it, and the span's shape
    (one of :data:`engine.select.features.DT_SHAPES`, or ``ordinal``/``century`` for spans
    that are no date); a rung
    that says what the span says is left out."""
    rungs, shape = _rungs(" ".join(text.replace("\u2011", "-").strip().split()))
    said = " ".join(text.lower().split())
    return [r for r in rungs if r[0].lower() != said], shape


_VAGUE_DURATION = re.compile(
    r"((?:\d+(?:[.,]\d+)?|a|an|several|many|few|a few)(?:[- ]\w+)*?)([- ])(years?|months?|weeks?|days?|decades?|centuries|century|hours?|minutes?|seasons?)((?:[- ]long| later| earlier| ago| old)?)(['’]?)",
    re.I)


def _rungs(s: str) -> tuple[list[Rung], str]:
    low = s.lower()
    m = re.fullmatch(r"(?:in |the year )?(\d{3,4})(?: ad| ce)?", low)
    if m and 130 <= int(m.group(1)) <= 2999:
        return _with_generic(_period_rungs([Day(int(m.group(1)))], False)), "year"
    m = re.fullmatch(r"(?:the )?(?:(early|mid|late)\s*-?\s*)?(\d{3}0)['’]?s", low)
    if m:
        y = int(m.group(2))
        return [(f"date in the {decade(y)}", "decade"), (f"date in the {century(y)}", "century"), (GENERIC, "generic")], "decade"
    m = re.fullmatch(rf"(?:between |from )?(?:the )?(\d{{3,4}})(?:s)?\s*(?:and|to|–|-|—|/|until)\s*(?:the )?(\d{{2,4}})(?:s)?(?: seasons?)?", low)
    if m:
        y1, y2_raw = int(m.group(1)), m.group(2)
        y2 = int(y2_raw) if len(y2_raw) >= 3 else y1 // 100 * 100 + int(y2_raw)
        if len(y2_raw) == 2 and y2 < y1:
            y2 += 100
        if 130 <= y1 <= y2 <= 2999:
            return _with_generic(_period_rungs([Day(y1), Day(y2)], True)), "range"
    age = _age(s)
    if age is not None:
        return age, "age"
    time = _time(s)
    if time is not None:
        return time, "generic"
    duration = _duration(s)
    if duration is not None:
        return duration
    m = _VAGUE_DURATION.fullmatch(s)
    if m:
        return [(f"X{m.group(2)}{m.group(3)}{m.group(4)}{m.group(5)}", "duration")], "duration"
    day = read_date(s)
    if day is not None and day.year is not None:
        shape = "full-date" if day.day is not None else "month-year" if day.month is not None else "year"
        rungs = _period_rungs([day], False)
        part = _PART_OF_MONTH.match(_LEADING.sub("", s))
        if part and day.day is None:  # "beginning of August 1995" → "August 1995"; "end of 1997" → "1997"
            rungs = [(f"{_month_name(day.month)} {day.year}" if day.month else str(day.year), "month-of-a-part"), *rungs]
        return _with_generic(rungs), shape
    if day is not None and day.month is not None:
        if day.day is None:
            return [(GENERIC, "generic")], "generic"  # a month alone: only DATE
        return [(_month_name(day.month), "day-month")], "day-month"  # a month names no year: nothing more general but ***
    m = re.fullmatch(rf"(?:the )?(\d{{1,2}})(?:st|nd|rd|th)(?:[- ](?:century|centuries))?(?: (?:ad|ce|bc|bce))?", low)
    if m:
        if "centur" not in low or "bc" in low:
            return [], "ordinal"
        n = int(m.group(1))
        return [(f"date in the {ordinal((n - 1) // 10 + 1)} millennium", "century")], "century"
    if re.fullmatch(rf"(?:the )?(?:\d+|{NUMBER_WORD.pattern})(?:st|nd|rd|th)?", low, re.I) or low.removeprefix("the ") in words("numbers.ordinal_words"):
        return [], "ordinal"
    if dates_in_one_period():
        listed = _read_dates(s)
        if listed is not None:
            return _with_generic(_period_rungs(*listed)), "range"
    years = sorted({int(y) for y in re.findall(r"(?<!\d)(\d{4})(?!\d)", low) if 130 <= int(y) <= 2999})
    if years and low != str(years[0]):
        if len(years) == 1:
            rungs = _period_rungs([Day(years[0])], False)
            return _with_generic([(str(years[0]), "year-in-the-span"), *rungs]), "contains-year"
        if dates_in_one_period():
            return _with_generic(_period_rungs([Day(y) for y in years], False)), "contains-year"
    return [(GENERIC, "generic")], "generic"


def _with_generic(rungs: list[Rung]) -> list[Rung]:
    return [*rungs, (GENERIC, "generic")]


def datetime_ladder(text: str) -> tuple[list[str], str]:
    """The ladder labels of a DATETIME span and its shape (:func:`datetime_rungs`)."""
    rungs, shape = datetime_rungs(text)
    return [label for label, _ in rungs], shape


#: Blanks and an era marker right after a span ("38 BC", "105 AD"), the detection pack's shape.
_ERA_AFTER = pattern("detect_dates.era_marker_after")


@rule("year-before-an-era-marker", stage="ladder", types=("DATETIME",), off=None,
      purpose='a number right before an era marker is a year, however small ("died after [38] BC" → "the 30s", read "the 30s BC"): the marker stays after the rung; before Christ no part of a decade (the years count down)')
def year_of_an_era(text: str, after: str) -> list[Rung] | None:
    """The rungs of the year ``text`` when an era marker follows it (``after``: the text after
    the span), or None when ``text`` is no bare number or no marker follows."""
    if not re.fullmatch(r"\d{1,4}", text) or not _ERA_AFTER.match(after):
        return None
    rungs = _period_rungs([Day(int(text))], False)
    if after.lstrip()[:1] == "B":  # years before Christ count down: "the late 30s BC" would read both ways
        rungs = [r for r in rungs if r[1] != "part-of-a-decade"]
    return _with_generic(rungs)


class DatetimeSource(CandidateSource):
    """DATETIME → the rungs of :func:`datetime_rungs`, each with the rule that made it."""

    name = "datetime"

    def generate(self, span: Span, state: DocumentState) -> SourceResult:
        before = state.text[max(0, span.start - 20):span.start] if state.text and span.start is not None else ""
        rungs = age_rungs(span.text, before) if before else None
        if rungs is None:
            after = state.text[span.end:span.end + 8] if state.text and span.end is not None else ""
            rungs = year_of_an_era(span.text, after)
        if rungs is None:
            rungs, _ = datetime_rungs(span.text)
        reason = "" if rungs else f"{span.text!r} is an ordinal, not a date: only ***"
        return SourceResult([Candidate(label, source=self.name, rule=name) for label, name in rungs], reason=reason)


#: The rule placeholders of old that stand for a number ("X years", "age X").
_PLACEHOLDER_RULES = frozenset({"duration", "age"})
#: Rules whose rungs stand for a number the span gives (a duration, an age): they name no
#: year, so they disclose no date.
NUMBER_RULES = _PLACEHOLDER_RULES | {f.rule.name for f in (
    approximate_duration, duration_in_words, duration_as_an_adjective, age_bracket, life_stage, age_of_majority)}
#: Rules whose rungs name no year: the number rules, the time of day, a month alone, DATE.
YEARLESS_RULES = NUMBER_RULES | {time_of_day.rule.name, GENERIC_RULE, DAY_MONTH_RULE}


def stands_for_a_number(source: str, rule: str | None) -> bool:
    """A rule rung that stands for a number the span gives (an amount, a duration, an age):
    the ranker reads it in the shape of the number placeholder it replaces ("X years",
    "GBP X"), which the shipped ranker was trained on."""
    return source == "quantity" or (source == "datetime" and rule in NUMBER_RULES)
