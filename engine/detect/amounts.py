"""Amounts of money as one span: the number, its currency's name or code, the code in
brackets after a name, and the same amount in another currency in square brackets.

Court judgments write amounts as "5,699.21 euros (EUR)", "EUR 4,000", "1,000 Austrian
schillings (ATS)", "615 DEM" or "PLN 552.21 [approx. EUR 138]". The layers find their
parts apart — the number a quantity, "EUR" an organisation, "Turkish Liras" a person — so
each part is decided alone and a reader may see the currency of a masked number. Here
every amount becomes one QUANTITY span over its parts (a merged span that runs over an
amount keeps only its part outside it).

The shapes are entries of ``packs/core/detect_amounts.yaml``; which three capitals are a
currency code and which words name a currency comes from Babel's list of currencies
(ISO 4217, former currencies included) and its English names.
"""

from __future__ import annotations

import functools
import re

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule, words
from engine.types import EntityType

_NAMED = pattern("detect_amounts.named")
_CODE_FIRST = pattern("detect_amounts.code_first")
_CODE_AFTER = pattern("detect_amounts.code_after")
_CONVERSION = pattern("detect_amounts.conversion")
_TAILS = words("detect_amounts.name_tails")
_EXTRA_NAMES = words("detect_amounts.extra_names")
_EXTRA_FULL_NAMES = words("detect_amounts.extra_full_names")
_AMBIGUOUS_NAMES = words("detect_amounts.ambiguous_names")
_AMBIGUOUS_CODES = words("detect_amounts.ambiguous_codes")
#: the rule label of an amount's span (the money expression of :mod:`engine.detect.rules`)
AMOUNT_LABEL = "quantity1"
_YEARS = re.compile(r"\s*\([^)]*\)\s*$")  # "Turkish lira (1922–2005)"


@functools.lru_cache(maxsize=1)
def _babel() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Babel's currency codes (not the funds and metals, X…), the English names of their
    currencies (singular and plural, lower case) and the last words of those names."""
    from babel.numbers import get_currency_name, list_currencies

    codes = frozenset(c for c in list_currencies() if not c.startswith("X"))
    names: set[str] = set()
    for code in codes:
        for count in (1, 2):
            name = _YEARS.sub("", get_currency_name(code, count=count, locale="en")).lower()
            if name and name != code.lower():
                names.add(name)
    return codes, frozenset(names), frozenset(n.split()[-1] for n in names)


def is_currency_code(token: str) -> bool:
    """``token`` is a currency code that may stand before or after a number ("EUR", "TRL")."""
    return token in _babel()[0] and token not in _AMBIGUOUS_CODES


def is_currency_name(name: str) -> bool:
    """``name`` names a currency: a name Babel knows ("Austrian schillings", "euros"), a word a
    currency's name ends in that is no common word ("liras", "zlotys"), or a name ending in
    "sterling"."""
    folded = " ".join(name.lower().split())
    if not folded:
        return False
    _, names, last_words = _babel()
    if folded in names or folded in _EXTRA_FULL_NAMES:
        return True
    parts = folded.split()
    if parts[-1] in _TAILS:
        return True
    last = parts[-1]
    return (last in last_words or last in _EXTRA_NAMES) and last not in _AMBIGUOUS_NAMES


def _valid(m: re.Match[str]) -> bool:
    groups = m.groupdict()
    code = groups.get("code")
    if "name" in groups:
        return (code is not None and is_currency_code(code)) or is_currency_name(groups["name"] or "")
    return code is not None and is_currency_code(code)


def _amounts_in(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    end = len(text) if end is None else end
    found = []
    for pat in (_NAMED, _CODE_FIRST, _CODE_AFTER):
        for m in pat.finditer(text, start, end):
            if _valid(m):
                found.append((m.start(), m.end()))
    found.sort(key=lambda t: (t[0], -(t[1] - t[0])))
    out: list[tuple[int, int]] = []
    for s, e in found:
        if out and s < out[-1][1]:
            continue
        out.append((s, e))
    return out


@rule("currency-amounts-whole", stage="detect", types=("QUANTITY",), pack="core", off=[],
      purpose="a number with its currency's name or code, and its conversion in square brackets, is one amount of money")
def amount_matches(text: str) -> list[tuple[int, int]]:
    """(start, end) of every amount of money in ``text``, its conversion in square brackets included."""
    out: list[tuple[int, int]] = []
    for s, e in _amounts_in(text):
        if out and s < out[-1][1]:
            continue  # the conversion of the amount before
        m = _CONVERSION.match(text, e)
        if m is not None:
            inner = _amounts_in(text, m.start("inner"), m.end("inner"))
            if inner and inner[0] == (m.start("inner"), m.end("inner")):
                e = m.end()
        out.append((s, e))
    return out


def join_amounts(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with every amount of money one QUANTITY span (see the module docstring)."""
    amounts = amount_matches(text)
    if not amounts:
        return spans
    out: list[DetectedSpan] = []
    parts: dict[tuple[int, int], list[DetectedSpan]] = {a: [] for a in amounts}
    for sp in spans:
        hit = [a for a in amounts if a[0] < sp.end and sp.start < a[1]]
        if not hit:
            out.append(sp)
            continue
        for a in hit:
            parts[a].append(sp)
        out += _outside(text, sp, hit)
    for (s, e), inside in parts.items():
        sources = frozenset({"rule"}).union(*(p.sources for p in inside))
        inner = tuple(sorted({f"{p.entity_type.value}:{p.gaz_kind or p.ner_label or ''}" for p in inside}))
        out.append(DetectedSpan(s, e, text[s:e], EntityType.QUANTITY, sources, ner_label=AMOUNT_LABEL, inner=inner))
    return sorted(out, key=lambda sp: (sp.start, sp.end))


def _outside(text: str, span: DetectedSpan, amounts: list[tuple[int, int]]) -> list[DetectedSpan]:
    """The part of ``span`` before the first amount it overlaps and after the last, where it
    holds a capitalised word or a number ("Ministry of Defence 12,355.61" → "Ministry of
    Defence"; the "in" of "PLN 1,250.40 in costs" is no span)."""
    out = []
    first, last = amounts[0], amounts[-1]
    for s, e in ((span.start, first[0]), (last[1], span.end)):
        piece = text[s:e] if e > s else ""
        lead = len(piece) - len(piece.lstrip(" ,;:([")) if piece else 0
        trail = len(piece) - len(piece.rstrip(" ,;:)]")) if piece else 0
        s2, e2 = s + lead, e - trail
        if e2 > s2 and any(w[:1].isupper() or w[:1].isdigit() for w in text[s2:e2].split()):  # a name, not "in"
            out.append(span.with_(start=s2, end=e2, text=text[s2:e2]))
    return out


