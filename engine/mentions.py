"""Mentions as the caller gives them, made ready for the pipeline.

Mentions are validated (offsets inside the text, start < end, known types), widened to
whole graphemes, and overlapping ones merged into one span (or rejected with
:class:`InputError` under :attr:`OverlapPolicy.REJECT`); adjacent spans stay separate.
They are then grouped into entities: the same ``entity_id``, or linked by ``related``
mention ids.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Sequence

from engine.errors import InputError
from engine.io.spans import snap_to_graphemes, widen_to_words
from engine.types import EntityType, IdentifierType, Mention


class OverlapPolicy(str, Enum):
    """What to do with overlapping mentions."""

    MERGE = "merge"
    REJECT = "reject"


_IDENT_RANK = {IdentifierType.NO_MASK: 0, IdentifierType.QUASI: 1, IdentifierType.DIRECT: 2}


def validate_mentions(text: str, mentions: Sequence[Mention], policy: OverlapPolicy = OverlapPolicy.MERGE) -> list[Mention]:
    """Mentions sorted by offset, checked, overlaps merged (or rejected)."""
    return resolve_mentions(text, mentions, policy)[0]


def resolve_mentions(
    text: str, mentions: Sequence[Mention], policy: OverlapPolicy = OverlapPolicy.MERGE
) -> tuple[list[Mention], dict[int, str]]:
    """Mentions sorted by offset, checked, widened to whole graphemes, overlaps merged.

    Returns the mentions and, per merged mention (index in the returned list), a note
    saying which mentions were merged. A merged span is widened to whole words.
    """
    checked = []
    for i, m in enumerate(mentions):
        if not isinstance(m.start, int) or not isinstance(m.end, int):
            raise InputError(f"mention #{i}: offsets must be integers", position=f"mention #{i}")
        if not 0 <= m.start < m.end <= len(text):
            raise InputError(
                f"mention #{i}: offsets {m.start}–{m.end} are not a non-empty range inside the text (length {len(text)})",
                position=f"mention #{i}",
            )
        start, end = snap_to_graphemes(text, m.start, m.end)
        if (start, end) != (m.start, m.end):
            m = dataclasses.replace(m, start=start, end=end)
        checked.append((m.start, m.end, i, m))
    checked.sort()
    out: list[Mention] = []
    origin: list[list[int]] = []
    for start, end, i, m in checked:
        if out and start < out[-1].end:
            prev = out[-1]
            if policy is OverlapPolicy.REJECT:
                raise InputError(
                    f"mention #{i} ({start}–{end}) overlaps mention #{origin[-1][0]} ({prev.start}–{prev.end})",
                    position=f"mention #{i}",
                )
            out[-1] = _merge(text, prev, m)
            origin[-1].append(i)
            while len(out) > 1 and out[-1].start < out[-2].end:  # widening reached the previous span
                out[-2:] = [_merge(text, out[-2], out[-1])]
                origin[-2:] = [origin[-2] + origin[-1]]
            continue
        out.append(m)
        origin.append([i])
    notes = {
        k: f"merged overlapping mentions {', '.join(f'#{i}' for i in sorted(group))} into {out[k].start}–{out[k].end}"
        for k, group in enumerate(origin) if len(group) > 1
    }
    return out, notes


def _merge(text: str, prev: Mention, m: Mention) -> Mention:
    """One mention covering both, widened to whole words (type of the longer one)."""
    longer = m if (m.end - m.start) > (prev.end - prev.start) else prev
    ident = max((prev.identifier_type, m.identifier_type), key=_IDENT_RANK.__getitem__)
    start, end = widen_to_words(text, min(prev.start, m.start), max(prev.end, m.end))
    return Mention(
        start, end, longer.entity_type, ident,
        prev.entity_id or m.entity_id, tuple(dict.fromkeys(prev.related + m.related)), prev.mention_id or m.mention_id,
    )


def group_entities(mentions: Sequence[Mention]) -> list[int]:
    """Entity index per mention: same entity_id, or connected through ``related`` ids; a
    group whose mentions are of different graph types (LOC, ORG, DEM, MISC) is one entity
    per type: the caller's entity "Genoa" holds the city (LOC) and its club (ORG), and the
    club's mentions are no city."""
    parent = list(range(len(mentions)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    by_id: dict[str, int] = {}
    by_mention: dict[str, int] = {}
    for i, m in enumerate(mentions):
        if m.mention_id:
            by_mention[m.mention_id] = i
    for i, m in enumerate(mentions):
        if m.entity_id:
            if m.entity_id in by_id:
                union(i, by_id[m.entity_id])
            else:
                by_id[m.entity_id] = i
        for rel in m.related:
            if rel in by_mention:
                union(i, by_mention[rel])
    roots: dict[tuple[int, str], int] = {}
    return [roots.setdefault((find(i), m.entity_type.value if m.entity_type.is_graph else ""), len(roots))
            for i, m in enumerate(mentions)]


def caller_grouped(mentions: Sequence[Mention], entity: Sequence[int]) -> set[int]:
    """Entities the caller grouped (an ``entity_id``, or ``related`` links): their PERSON
    number follows the grouping; the others are numbered by name matching."""
    sizes: dict[int, int] = {}
    for e in entity:
        sizes[e] = sizes.get(e, 0) + 1
    return {entity[i] for i, m in enumerate(mentions) if m.entity_id or m.related or sizes[entity[i]] > 1}
