"""Rungs for a span whose items the store keeps without a class.

Wikidata's truthy dump, and more so a sample of it, holds many places with a country
(P17) and an administrative parent (P131) but no class (no P31, no P279): "Caerphilly",
"Konya", "Allier" on the seed. Nothing says *what* they are, yet their country is a fact,
and a LOC span names a place: "place in the United Kingdom" is true of it and keeps more
than ``***``.

The overlay's composed rules marked ``tg:forUnclassedItems`` (``ontology/overlay.ttl``:
``tg:placeInCountry``) compose such rungs. A rule applies to a span whose type its class
fits (a geographic location fits LOC), and only when *every* homonym the span names
exactly (exact, alias or normalised link) that the store keeps without a class composes
the same label, and no homonym with class facts fits the type: "Caerphilly", the town and
the county borough, both lie in the United Kingdom, so the rung holds whichever is meant;
a name whose homonyms lie in two countries gets nothing.
"""

from __future__ import annotations

from kg.chains import ChainIndex
from engine.generate.context import NAME_LINKS
from engine.generate.truth import TruthFilter
from engine.types import Candidate, EntityType, Link, Span


def unclassed_rungs(span: Span, links: list[Link], truth: TruthFilter, chains: ChainIndex,
                    countries: frozenset[str] = frozenset(), mentioned: frozenset[str] = frozenset()
                    ) -> tuple[list[Candidate], Link | None]:
    """The rungs the unclassed rules compose for ``span`` (see the module docstring), and the
    link they were composed for; ``([], None)`` when none holds for every homonym, or when the
    document is placed (its unambiguous places give ``countries``) and neither those nor any
    country it names (``mentioned``) holds the item: the store may hold the English Tamworth
    only, while an Australian biography speaks of the one in New South Wales."""
    rules = [r for r in chains.rules.composed if r.unclassed and truth.class_fits(r.applies_to, span.entity_type, strict=True)]
    named = [l for l in links if l.method in NAME_LINKS]
    if not rules or not named or span.entity_type is EntityType.PERSON:
        return [], None
    if any(truth.has_class_facts(l.qid) and truth.item_fits(l.qid, span.entity_type) for l in named):
        return [], None  # a classed homonym of the type: its own ladder speaks, not its country
    unclassed = [l for l in named if not truth.has_class_facts(l.qid)]
    if not unclassed:
        return [], None
    if countries and not any(_lies_in(truth.taxonomy, l.qid, countries | mentioned) for l in unclassed):
        return [], None
    out: list[Candidate] = []
    for rule in rules:
        shared: list[str] | None = None
        for link in unclassed:
            labels = chains.composed_labels(link.qid, rule)
            shared = labels if shared is None else [t for t in shared if t in labels]
            if not shared:
                break
        for text in shared or ():
            out.append(Candidate(text, source="P31", qid=None, path=f"no class + {rule.via}", rule=rule.name, depth=2,
                                 link_qid=unclassed[0].qid))
    return out, (unclassed[0] if out else None)


def _lies_in(taxonomy, item: str, countries: frozenset[str]) -> bool:
    """The item's country or administrative parent (P17, P131) is one of ``countries`` or the
    country one of them lies in (Caerphilly, in the United Kingdom and in Wales, for a
    document that names Wales)."""
    around = set(countries) | {v for c in countries for v in taxonomy.values(c, "P17")}
    return bool((set(taxonomy.values(item, "P17")) | set(taxonomy.values(item, "P131"))) & around)
