"""QUANTITY spans → "X <unit>" keeping the unit; plain "X" only when there is no unit.

Numbers (digits, number words, ordinals, ranges such as ``3–0`` or ``63-64``) become
``X``; units of measure, currencies and multipliers are kept, hyphenated forms too
("100-acre" → "X-acre", "$5 million" → "$X million"). A span whose only words are not
units ("Lot 63-64", "#182") becomes plain ``X``.
"""

from __future__ import annotations

import re

from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.generate.sources.numbers import is_number_token
from engine.types import Candidate, Span

UNITS = frozenset(
    """
    m km cm mm nm µm metre metres meter meters kilometre kilometres kilometer kilometers
    centimetre centimetres centimeter centimeters millimetre millimetres ft foot feet in inch inches yd yard yards mi mile miles nmi
    lb lbs pound pounds oz ounce ounces kg kilogram kilograms g gram grams mg t tonne tonnes ton tons st stone
    acre acres ha hectare hectares sq square km2 m2 km² m² mph kph km/h kmh knots kn
    l litre litres liter liters ml gallon gallons °c °f ° degrees degree kelvin k
    hp kw mw gw w watt watts kwh v volt volts hz khz mhz ghz kb mb gb tb bytes bits
    % percent per cent percentage points pt pts
    million millions billion billions trillion thousand thousands crore lakh bn m. k
    $ £ € ¥ ₹ usd eur gbp dollars dollar euros euro yen rupees rupee francs franc marks kroner krona kronor
    seconds second minutes minute hours hour s sec min h
    times time
    storey storeys story stories floor floors
    """.split()
)
MULTIPLIERS = frozenset({"million", "millions", "billion", "billions", "trillion", "thousand", "thousands", "crore", "lakh"})
_CURRENCY_PREFIX = re.compile(r"^([$£€¥₹]|US\$|A\$|C\$)")


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
    out, has_unit, numbers = [], bool(prefix), 0
    for part in parts:
        if part in ("-", "–", "—", "/"):
            out.append(part)
        elif part.lower() in MULTIPLIERS:
            out.append(part)
            has_unit = True
        elif is_number_token(part):
            out.append("X")
            numbers += 1
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
    """The replacement of a QUANTITY span and the rule that made it."""
    tokens = text.split()
    pieces, any_unit = [], False
    for tok in tokens:
        piece, has_unit = _x_token(tok)
        pieces.append(piece)
        any_unit = any_unit or has_unit
    result = " ".join(pieces)
    if any_unit and "X" in result:
        return result, "unit"
    return "X", "number"


class QuantitySource(CandidateSource):
    """QUANTITY → ["X <unit>"] or ["X"]."""

    name = "quantity"

    def generate(self, span: Span, state: DocumentState) -> SourceResult:
        label, rule = quantity_label(span.text)
        return SourceResult([Candidate(label, source=self.name, rule=rule)])
