"""The grain of the engine's date rungs, and a rung said at a coarser grain.

A date rung names a month ("April 1919"), a part of a year ("date in early 1919"), a year
("1919"), a part of a decade ("date in the late 1910s"), a decade ("date in the 1910s") or a
century ("date in the 20th century"). The two ends of a range are shown at one grain
(:mod:`engine.render.merge`, :mod:`engine.render.phrase`): "early 1647 – the late 1710s" reads
as two kinds of period, "the late 1640s – the late 1710s" as one range. A coarser rung is true
of every date the finer one is. The shapes are ``packs/core/date_labels.yaml``.
"""

from __future__ import annotations

from engine.generate.sources.datetime import century, decade, part_of_a_decade
from engine.knowledge import pattern

#: The grains of the engine's date rungs, finest first: each pattern's group is the year (month,
#: part of a year, year), the decade's first three digits (part of a decade, decade) or the century.
_GRAINS = (
    pattern("date_labels.month_rung"), pattern("date_labels.part_of_year_label"), pattern("date_labels.year_rung"),
    pattern("date_labels.part_of_decade_label"), pattern("date_labels.decade_label"), pattern("date_labels.century_label"),
)
#: The grains whose number is a year (the others': a decade's first three digits, a century).
_YEAR_GRAINS = (0, 1, 2)
PART_OF_DECADE, DECADE = 3, 4


def grain(rung: str) -> tuple[int, int] | None:
    """How fine a date rung is (an index of :data:`_GRAINS`) and its number there, or None."""
    for n, shape in enumerate(_GRAINS):
        m = shape.fullmatch(rung)
        if m:
            return n, int(m.group(1))
    return None


def coarsened_to(rung: str, to: int) -> str | None:
    """``rung`` said at the coarser grain ``to`` ("date in early 1647" at the part of a decade →
    "date in the late 1640s"), true of every date ``rung`` is; None when it is no finer."""
    own = grain(rung)
    if own is None or own[0] >= to:
        return None
    level, value = own
    year = value if level in _YEAR_GRAINS else value * 10
    if to == 2:
        return str(year)
    if to == PART_OF_DECADE:
        parts = part_of_a_decade(year) if level in _YEAR_GRAINS else ()
        return parts[0][0] if parts else f"date in the {decade(year)}"
    if to == DECADE:
        return f"date in the {decade(year)}"
    return f"date in the {century(year)}"
