"""What every sense of an ambiguous name shares.

A name the store holds for several items of the span's type ("Paris": the capital of
France and a town in Texas; "Cambridge": the English university city and a New Zealand
service town) is linked to the best-ranked one, but nothing in the span says that it is
the one meant. A rung true of that item only ("big city", "college town") is then a guess,
and judged blind, such guesses were the largest share of false replacements. So the
ladder keeps only the rungs that the ladders of *every* homonym of the type hold ("city"
for both Parises); when they share none, the name gets no class.

A homonym far less prominent in the store than the linked item (:data:`DOMINANCE`: London,
Ontario beside London) does not compete: the name alone most likely means the prominent
one. The document may settle it as well: a homonym that lies in a country the document names, when
the others do not, is the one meant (:func:`engine.generate.context.prefer_in_document`
puts it first); so is the one the place after a comma names ("Manchester, Connecticut",
:func:`engine.generate.context.in_named_region`, which drops the others). A division the
linked place lies in and takes its name from (the province of Ankara around the city of
Ankara, :func:`division_of_its_seat`) does not compete with a place name either: the name
alone means the town, and a span that means the division says so ("the province of Ankara").
"""

from __future__ import annotations

from typing import Callable, Sequence

from engine.generate.context import COUNTRY_CLASSES, NAME_LINKS, item_countries
from engine.generate.linking import Linker, fold
from engine.knowledge import pattern, rule
from engine.types import Candidate, EntityType, Link, LinkMethod, Span

#: How many times more prominent (:meth:`kg.index.LabelIndex.prominences`: facts naming the item)
#: the linked item must be than a homonym for the name alone to mean it.
DOMINANCE = 10

#: Types whose spans are names (a DEM span is a common noun whose senses other rules weigh).
NAME_TYPES = frozenset({EntityType.LOC, EntityType.ORG, EntityType.MISC})

def homonyms_of(link: Link, fitting: Sequence[Link]) -> list[Link]:
    """The other items ``fitting`` holds under the same name, by the same kind of link."""
    if link.method not in NAME_LINKS:
        return []
    return [l for l in fitting if l.qid != link.qid and l.method is link.method and fold(l.matched) == fold(link.matched)]


def competing(link: Link, others: Sequence[Link], prominences: Callable[[list[str]], list[int]],
              ratio: int = DOMINANCE) -> list[Link]:
    """The homonyms of ``others`` that compete with ``link``: a sense far less prominent in the
    store than the linked one (``ratio`` times less: London, Ontario beside London) is not what
    a name alone most likely means, and does not constrain it."""
    if not others:
        return []
    counts = prominences([link.qid] + [o.qid for o in others])
    first = counts[0] if counts else 0
    return [o for o, n in zip(others, counts[1:]) if n * ratio >= first]


@rule("division-of-its-seat", stage="ladder", types=("LOC",), off=False,
      purpose='a division named after the place it lies around ("Ankara", the province, beside Ankara, the city) does not compete with the place: the name alone means the town')
def division_of_its_seat(link: Link, other: Link, taxonomy) -> bool:
    """``other`` is an administrative division ``link``'s place lies in (P131) under the same name."""
    return other.qid in set(taxonomy.values(link.qid, "P131"))


#: Words before a place name that make it the division ("Governor of New York"), ``linking.division_reading_before``.
_DIVISION_READING = pattern("linking.division_reading_before")


@rule("prominent-place-named-by-alias", stage="link", types=("LOC",), off=None,
      purpose='a place the name is an alias of, whose full name says more ("New York City"), lying in the item the name is the label of (the state), is what the name alone means when the store names it far more often; not where the words before say the division ("Governor of New York"), nor in a country ("Mexico" is not Mexico City)')
def prominent_place_by_alias(linker: Linker, span: Span, links: Sequence[Link], ratio: int = DOMINANCE) -> Link | None:
    """The item the span names by an alias, whose main label extends the span, that lies in
    the first link (P131) and is ``ratio`` times more prominent in the store (:meth:`kg.index.LabelIndex.prominences`) than
    the first link, a place named exactly and no country; None when there is none, or the
    sentence reads the name as the division (:data:`_DIVISION_READING`)."""
    if not links or links[0].method is not LinkMethod.EXACT or not span.context:
        return None
    first, taxonomy, index = links[0], linker.taxonomy, linker.index
    if set(taxonomy.parents(first.qid, "P31")) & COUNTRY_CLASSES:
        return None
    at = span.context.find(span.text)
    if at >= 0 and _DIVISION_READING.search(span.context[max(0, at - 40):at]):
        return None
    key = fold(span.text)
    named = [q for q, method in index.lookup(key) if method is LinkMethod.ALIAS and q != first.qid]
    if not named:
        return None
    labels = index.main_labels(named)
    named = [q for q in named if key in fold(labels.get(q, "")) and fold(labels.get(q, "")) != key
             and first.qid in set(taxonomy.values(q, "P131"))]
    if not named:
        return None
    counts = index.prominences([first.qid] + named)
    best = max(zip(named, counts[1:]), key=lambda qn: qn[1])
    if best[1] < ratio * max(counts[0], 1):
        return None
    return Link(best[0], labels[best[0]], LinkMethod.ALIAS, first.matched, first.score)


def settled_by_document(link: Link, others: Sequence[Link], countries: frozenset[str], taxonomy) -> bool:
    """The document names a country the linked item lies in and none of the others does."""
    if not countries:
        return False
    if not item_countries(taxonomy, link.qid) & countries:
        return False
    return not any(item_countries(taxonomy, o.qid) & countries for o in others)


def shared_rungs(candidates: Sequence[Candidate], others: Sequence[Link], holds: Callable[[Link, Candidate], bool | None]) -> list[Candidate]:
    """``candidates`` (the first sense's ladder) less every rung that some other sense is not.

    ``holds(other, rung)``: whether ``rung`` is true of the item ``other`` (its class is one
    of the item's, through P31 and P279; a composed rung is composed for it too), or None
    when the store says nothing of what the item is: such a sense does not constrain."""
    kept = list(candidates)
    for other in others:
        verdicts = [holds(other, c) for c in kept]
        if all(v is None for v in verdicts):
            continue
        kept = [c for c, v in zip(kept, verdicts) if v]
        if not kept:
            break
    return kept
