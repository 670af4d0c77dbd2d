"""QUANTITY spans → ladders of bounds and orders of magnitude, most specific first.

=======================================  ===================================================
span                                     ladder (before ``***``)
=======================================  ===================================================
``GBP 57.81``                            under GBP 100 · dozens of British pounds
``54,525,000 Turkish Liras (TRL)``       under 100 million Turkish Liras · tens of millions of
                                         Turkish Liras
``EUR 1,300``                            under EUR 2,000 · over a thousand euros
``58 occasions``                         fewer than 100 occasions · dozens of occasions
``seven other persons``, ``three``       several other persons; a few
``18.5%``, ``40%``, ``5/48``             under 20% · less than a quarter; under 50%; less than
                                         a quarter
``10 to 2`` (votes; ``legal``)           by a majority
``1.80 m``                               under 2 m
``aged 42``, ``9 June 1989``             the DATETIME ladder (an age, a date typed as a quantity)
anything else                            "X <unit>" keeping the unit; plain "X" without one
=======================================  ===================================================

A bound is the next round value above the amount (1, 2 or 5 times a power of ten:
``numbers.bound_steps``), so it is true of the amount and says less; an order of magnitude
is read from the amount's first digit and power of ten (``numbers.orders_of_magnitude``).
An amount the span hedges ("approximately GBP 268,000", "about 400,000 euros") is taken at
its value: its bound and order hold of a value near it only when the value is not at their
edge, so a hedged amount within a tenth of its bound gets no bound. The currency stays as
the span writes it; a currency written as a code is named in words in the order of
magnitude by Babel ("PLN" → "Polish zlotys"), which knows the ISO codes, historical ones
included (``numbers.currency_codes`` adds the few it does not). Bracketed conversions and
codes after the amount ("[approx. EUR 48]", "(TRL)") are left out of the rungs: they would
tell the amount again. Each kind of rung is a registered rule (stage ``ladder``; examples in
``packs/core/examples/ladder.values.yaml``).
"""

from __future__ import annotations

import functools
import re

from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.generate.sources.numbers import is_number_token, number_value, power_of_ten, round_text
from engine.knowledge import pattern, rule, table, words
from engine.types import Candidate, EntityType, Span

UNITS = words("numbers.units")
MULTIPLIERS = table("numbers.multipliers")
_CURRENCY_PREFIX = pattern("numbers.currency_prefix")
_NUMBER = pattern("numbers.number")
_NUMBER_WORDS = words("numbers.number_words")
_HEDGE = pattern("numbers.hedge")
_PERCENT = pattern("numbers.percent")
_FRACTION = pattern("numbers.fraction")
_VOTE = pattern("court_amounts.vote")
_CURRENCY_SYMBOLS = words("numbers.currency_symbols")
_CURRENCY_CODES = words("numbers.currency_codes")
_CURRENCY_WORDS = words("numbers.currency_words")
_MEASURE_UNITS = words("numbers.measure_units")
#: Words before a unit that make it one of area or volume ("square metres", "cubic metres").
_UNIT_POWERS = words("numbers.unit_powers")
_APPROXIMATELY = words("numbers.approximately")
_AT_MOST = words("numbers.at_most")
_AT_LEAST = words("numbers.at_least")
_HEDGE_BEFORE = pattern("render.hedge_before")
_COUNTED = words("numbers.counted_units")
_MULTIPLICATIVES = table("numbers.multiplicatives")

Rung = tuple[str, str]


# --- the placeholder of old: numbers become X, units stay ------------------------------------------
def _x_token(token: str) -> tuple[str, bool]:
    """Replace the numbers in one whitespace token; return (text, has_unit)."""
    lead = re.match(r"^[(\[\"']*", token).group(0)
    trail = re.search(r"[)\]\"',.;:]*$", token).group(0)
    core = token[len(lead): len(token) - len(trail)] if trail else token[len(lead):]
    if not core:
        return token, False
    prefix = ""
    if m := _CURRENCY_PREFIX.match(core):
        prefix, core = m.group(1), core[m.end():]
    parts = re.split(r"([-–—/])", core)
    out, has_unit = [], bool(prefix)
    for part in parts:
        if part in ("-", "–", "—", "/"):
            out.append(part)
        elif part.lower() in MULTIPLIERS:
            out.append(part)
            has_unit = True
        elif is_number_token(part):
            out.append("X")
        elif part.lower() in UNITS or part.lower().rstrip(".") in UNITS:
            out.append(part)
            has_unit = True
        else:
            num_unit = re.match(r"^(\d[\d,.]*)([a-zA-Z°%²µ/]+)$", part)
            if num_unit and num_unit.group(2).lower() in UNITS:
                out.append("X" + num_unit.group(2))
                has_unit = True
            else:
                out.append(part)
    text = "".join(out)
    text = re.sub(r"X(?:[-–—/]X)+", "X", text)
    return lead + prefix + text + trail, has_unit


def quantity_label(text: str) -> tuple[str, str]:
    """The placeholder of a QUANTITY span ("X <unit>", or "X") and the rule that made it."""
    pieces, any_unit = [], False
    for tok in text.split():
        piece, has_unit = _x_token(tok)
        pieces.append(piece)
        any_unit = any_unit or has_unit
    result = " ".join(pieces)
    if any_unit and "X" in result:
        return result, "unit"
    return "X", "number"


# --- currencies (Babel) ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _babel_codes() -> frozenset[str]:
    from babel.numbers import list_currencies

    return frozenset(list_currencies())


@functools.lru_cache(maxsize=1)
def _babel_name_words() -> frozenset[str]:
    """The last words of every currency's English name, singular and plural ("euros", "zloty")."""
    from babel.numbers import get_currency_name

    out = set()
    for code in _babel_codes():
        for count in (1, 2):
            name = re.sub(r"\s*\(.*\)", "", get_currency_name(code, count=count, locale="en")).strip()
            if name and name != code:
                out.add(name.split()[-1].lower())
    return frozenset(out)


def is_currency_code(token: str) -> bool:
    return token.isupper() and (token in _babel_codes() or token in _CURRENCY_CODES)


def is_currency_word(token: str) -> bool:
    t = token.lower()
    return t in _babel_name_words() or t in _CURRENCY_WORDS


def currency_in_words(code: str) -> str:
    """A currency code's English name in the plural ("PLN" → "Polish zlotys", "TRL" → "Turkish lira"); the code when Babel does not know it."""
    if code in _CURRENCY_SYMBOLS:
        from babel.numbers import get_currency_name

        for c in ("USD", "GBP", "EUR", "JPY", "INR"):
            from babel.numbers import get_currency_symbol

            if get_currency_symbol(c, "en") == code:
                return _head(re.sub(r"\s*\(.*\)", "", get_currency_name(c, count=2, locale="en")))
        return code
    if code not in _babel_codes():
        return code
    from babel.numbers import get_currency_name

    name = re.sub(r"\s*\(.*\)", "", get_currency_name(code, count=2, locale="en")).strip()
    return _head(name) if name else code


def _head(currency: str) -> str:
    """A currency's name without the adjective of its country ("Polish zlotys" → "zlotys",
    "pounds sterling" → "pounds"): the adjective would tell the country, which a document
    may mask elsewhere."""
    words_ = currency.split()
    heads = [w for w in words_ if is_currency_word(w) and w.lower() not in ("sterling",)]
    return heads[-1] if heads else currency


# --- reading an amount -----------------------------------------------------------------------------
def _without_brackets(text: str) -> str:
    """``text`` without its bracketed groups ("PLN 200 [EUR 50]" → "PLN 200")."""
    out = text
    while True:
        new = re.sub(r"\s*[(\[][^()\[\]]*[)\]]", "", out)
        if new == out:
            return re.sub(r"\s*[(\[].*$", "", out).strip()  # an unclosed bracket: everything after it
        out = new


def _amount(text: str) -> tuple[float, int, int] | None:
    """The value of the amount at the start of ``text`` and where it ends (a number and a
    multiplier: "5 million"), with where the multiplier ends; None when it does not start with one."""
    m = _NUMBER.match(text)
    if not m or not m.group(1).strip():
        return None
    value = number_value(m.group(1))
    if value is None:
        return None
    end = m.end()
    mult = re.match(r"\s*(\w+)", text[end:])
    if mult and mult.group(1).lower() in MULTIPLIERS and not m.group(1).lower().endswith(mult.group(1).lower()):
        value *= float(MULTIPLIERS[mult.group(1).lower()])
        end += mult.end()
    return value, m.start(1), end


def _bound(value: float) -> float:
    """The round value (1, 2 or 5 times a power of ten) just above ``value``."""
    steps = sorted(int(s) for s in words("numbers.bound_steps"))
    power = power_of_ten(value) if value > 0 else 0
    for p in (power, power + 1):
        for s in steps:
            if s * 10 ** p > value:
                return float(s * 10 ** p)
    return float(10 ** (power + 1))


def _floor_bound(value: float) -> float:
    """The round value (1, 2 or 5 times a power of ten) just below ``value``."""
    steps = sorted(int(s) for s in words("numbers.bound_steps"))
    power = power_of_ten(value) if value > 0 else 0
    best = 0.0
    for p in (power - 1, power):
        for s in steps:
            if s * 10 ** p < value:
                best = max(best, float(s * 10 ** p))
    return best


@rule("amount-under-a-round-bound", stage="ladder", types=("QUANTITY",), off=(),
      purpose='an amount reads as under the next round value above it ("GBP 57.81" → "under GBP 100", "58 occasions" → "fewer than 100 occasions")')
def amount_under_a_round_bound(value: float, kind: str, before: str, after: str, hedge: str = "") -> tuple[Rung, ...]:
    if hedge.lower() in _AT_LEAST:
        return ()  # "over 22,000": no upper bound
    bound = _bound(value)
    if hedge and bound - value < bound / 10:
        return ()  # "about 95": the value may lie above 100
    glue = "" if before and not before[-1].isalpha() else " "
    number = round_text(bound)
    said = f"{before}{glue}{number}" if before else number
    label = table("numbers.upper_bound")[kind].format(value=said)
    return ((f"{label} {after}".strip(), "amount-under-a-round-bound"),)


@rule("amount-in-words", stage="ladder", types=("QUANTITY",), off=(),
      purpose='an amount reads as its order of magnitude in words ("EUR 4,000" → "thousands of euros", "seven persons" → "several persons")')
def amount_in_words(value: float, things: str, hedge: str = "") -> tuple[Rung, ...]:
    if value < 2 or (hedge and hedge.lower() in _AT_MOST):
        return ()
    power = power_of_ten(value)
    lead = value / 10 ** power
    if hedge.lower() in _AT_LEAST:  # "over 22,000 tablets" → "over 20,000 tablets": a lower bound below it
        return ((f"over {round_text(_floor_bound(value))} {things}".strip(), "amount-in-words"),)
    if power == 0:
        small = sorted((int(k), v) for k, v in table("numbers.small_counts").items())
        fit = [v for lo, v in small if lo <= value]
        return ((f"{fit[-1]} {things}".strip(), "amount-in-words"),) if fit and value == int(value) else ()
    if lead < 2:
        if value == 10 ** power or hedge:
            return ()
        over = table("numbers.just_over")
        return ((f"over {over[power]} {things}".strip(), "amount-in-words"),) if power in over else ()
    orders = table("numbers.orders_of_magnitude")
    if hedge and (lead < 2.2 or lead > 9.5):
        return ()  # "about 2,000" may be under two thousand
    if power not in orders:
        return ()
    order = orders[power] if things else orders[power].removesuffix(" of")  # "hundreds of landowners"; "hundreds"
    return ((f"{order} {things}".strip(), "amount-in-words"),)


@rule("share-in-words", stage="ladder", types=("QUANTITY",), off=(),
      purpose='a percentage or fraction reads as under a round percentage and as a share in words ("18.5%" → "under 20%" → "less than a quarter")')
def share_in_words(share: float, percent: bool) -> tuple[Rung, ...]:
    out: list[Rung] = []
    if share > 0.5:
        over = sorted((float(k), v) for k, v in table("numbers.shares_over").items())
        fit = [v for k, v in over if k < share]
        return ((fit[-1], "share-in-words"),) if fit else ()
    if share <= 0 or share == 0.5:
        return ()
    bound = _bound(share * 100)
    if percent:
        out.append((f"under {round_text(bound)}%", "share-in-words"))
    under = sorted((float(k), v) for k, v in table("numbers.shares").items())
    fit = [(k, v) for k, v in under if k > share]
    if fit and (not percent or fit[0][0] * 100 != bound):
        out.append((fit[0][1], "share-in-words"))
    return tuple(out)


@rule("vote-by-a-majority", stage="ladder", types=("QUANTITY",), pack="legal", off=(),
      purpose='the votes of a decision read as "by a majority" ("by 10 votes to 2" → "by a majority")')
def vote_by_a_majority(text: str) -> tuple[Rung, ...]:
    m = _VOTE.fullmatch(text)
    if not m:
        return ()
    won, lost = number_value(m.group(1)), number_value(m.group(2))
    if won is None or lost is None or won <= lost:
        return ()
    return ((table("court_amounts.vote_rungs")["majority"], "vote-by-a-majority"),)


@rule("duration-counted-as-a-quantity", stage="ladder", types=(EntityType.QUANTITY,), off=(),
      purpose='a QUANTITY span that is a length of time the amount rules cannot bound gets the rungs of a duration ("one year and three months" → "less than two years", "one hour" → "about an hour")')
def duration_counted_as_a_quantity(text: str) -> tuple[Rung, ...]:
    from engine.generate.sources.datetime import datetime_rungs

    rungs, shape = datetime_rungs(text)
    if shape != "duration":
        return ()
    return tuple((label, name) for label, name in rungs if "X" not in label.split())  # "over X years": no bound in words


def quantity_rungs(text: str, hedge_before: str = "") -> tuple[list[Rung], str]:
    """The rungs of a QUANTITY span, each with the rule that made it, and what the span is
    (``money``, ``count``, ``share``, ``measure``, ``vote``, ``age``, ``date`` or the placeholder's
    rule). ``hedge_before``: the hedge right before the span ("over [22,000 tablets]"), which
    the amount is read with."""
    s = " ".join(text.replace("\u2011", "-").replace("\u00a0", " ").split())
    wrapped = s.startswith("(") and s.endswith(")")
    inner = s[1:-1].strip() if wrapped else s
    rungs, kind = _rungs(inner, hedge_before.strip())
    if not rungs:
        rungs = list(duration_counted_as_a_quantity(inner))
        kind = "duration" if rungs else kind
    if wrapped:
        rungs = [(f"({label})", name) for label, name in rungs]
    if rungs:
        return rungs, kind
    label, rule_name = quantity_label(text)
    return [(label, rule_name)], rule_name


def _rungs(s: str, hedge_before: str = "") -> tuple[list[Rung], str]:
    from engine.generate.sources.datetime import datetime_rungs

    vote = vote_by_a_majority(s)
    if vote:
        return list(vote), "vote"
    dated, shape = datetime_rungs(s)
    if shape in ("age", "full-date", "month-year"):
        return dated, "age" if shape == "age" else "date"
    hedge = _HEDGE.match(s)
    hedge_text = hedge.group(0) if hedge and s[hedge.end():hedge.end() + 1] == " " else ""
    body = _without_brackets(s[len(hedge_text):].strip()).rstrip(" .,;")
    hedge_text = hedge_text or hedge_before
    m = _PERCENT.fullmatch(body)
    if m:
        value = number_value(m.group(1))
        return (list(share_in_words(value / 100, True)) if value is not None else []), "share"
    m = _FRACTION.fullmatch(body)
    if m and int(m.group(2)) > int(m.group(1)) > 0:
        return list(share_in_words(int(m.group(1)) / int(m.group(2)), False)), "share"
    # money with its currency before: "GBP 57.81", "£200", "$5 million", "US$ 20"
    prefix = re.match(r"^([A-Z]{3})\s+|^(US\$|A\$|C\$|[$£€¥₹])\s*", body)
    if prefix and (prefix.group(2) or is_currency_code(prefix.group(1))):
        code = prefix.group(1) or prefix.group(2)
        amount = _amount(body[prefix.end():])
        if amount is None:
            return [], ""
        value, _, end = amount
        rest = body[prefix.end() + end:].strip()
        if re.search(r"\d", rest):
            return [], ""
        rungs = [*amount_under_a_round_bound(value, "money", code, rest, hedge_text),
                 *amount_in_words(value, currency_in_words(code), hedge_text)]
        return rungs, "money"
    amount = _amount(body)
    if amount is None or amount[1] != 0:
        return [], ""
    value, _, end = amount
    if re.match(r"[\w%]", body[end:]):
        return [], ""  # "12th", "3rd": an ordinal
    rest = body[end:].strip()
    if body[:end].lower() in _MULTIPLICATIVES:
        rest = table("numbers.multiplicatives")[body[:end].lower()]
    if re.search(r"\d", rest) or (rest and not re.fullmatch(r"[^\W\d][\w'’.-]*(?: [^\W\d][\w'’.-]*)*", rest)):
        return [], ""
    if any(w.lower().strip("'’") in _NUMBER_WORDS for w in rest.split()):
        return [], ""  # "five years and four months", "three to six months": not one count (a duration's, or none)
    rest_words = rest.split()
    code = rest_words[-1] if rest_words else ""
    if rest_words and (is_currency_code(code) or any(is_currency_word(w) for w in rest_words)):
        things = currency_in_words(code) if is_currency_code(code) and len(rest_words) == 1 else _head(rest)
        return [*amount_under_a_round_bound(value, "money", "", things if not is_currency_code(code) else rest, hedge_text),
                *amount_in_words(value, things, hedge_text)], "money"
    unit = rest_words[1] if len(rest_words) > 1 and rest_words[0].lower() in _UNIT_POWERS else (rest_words or [""])[0]
    if unit.lower() in _MEASURE_UNITS:  # "8 square metres" → "under 10 square metres"
        return list(amount_under_a_round_bound(value, "measure", "", rest, hedge_text)), "measure"
    if rest_words and rest_words[0].lower() in UNITS and rest_words[0].lower() not in _COUNTED:
        return [], ""  # a unit the ladder does not bound ("5 ft 11", "40 mph"): the placeholder
    if value != int(value) or value < 2 or (rest_words and rest_words[0].lower() in words("numbers.ordinal_words")):
        return [], ""
    if _NUMBER.match(body).group(1).lower() in words("numbers.ordinal_words"):
        return [], ""
    rungs = [] if value < 10 else list(amount_under_a_round_bound(value, "count", "", rest, hedge_text))
    return [*rungs, *amount_in_words(value, rest, hedge_text)], "count"


class QuantitySource(CandidateSource):
    """QUANTITY → the rungs of :func:`quantity_rungs`, each with the rule that made it."""

    name = "quantity"

    def generate(self, span: Span, state: DocumentState) -> SourceResult:
        from engine.generate.sources.datetime import age_rungs

        before = state.text[max(0, span.start - 30):span.start] if state.text and span.start is not None else ""
        rungs = age_rungs(span.text, before) if before else None  # "aged [17]": an age
        after = state.text[span.end:span.end + 2] if state.text and span.end is not None else ""
        if rungs is None and re.match(r"[-‑–][^\W\d]", after):
            rungs = [quantity_label(span.text)]  # "[12]-stage": a bound in words reads not as a compound's first part
        if rungs is None:
            hedge = _HEDGE_BEFORE.search(before)
            rungs, _ = quantity_rungs(span.text, hedge.group(0) if hedge else "")
        return SourceResult([Candidate(label, source=self.name, rule=name) for label, name in rungs])
