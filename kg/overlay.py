"""The overlay's rules as the chain builder uses them, read from the store's overlay graph.

The overlay itself is Turtle in ``ontology/`` (see ``ontology/overlay.ttl`` for the
vocabulary); :func:`validate_overlay` checks a maintainer's edits with rdflib before they
are loaded.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kg.errors import KGError
from kg.store import KGStore, overlay_paths
from kg.vocab import TG, local_id

DEFAULT_MAX_DEPTH = 12
DEFAULT_MAX_LADDER = 10


@dataclass(frozen=True, slots=True)
class ComposedRule:
    """``template`` (e.g. "city in {label}") offered after class ``applies_to`` via ``via``."""

    name: str
    applies_to: str
    via: str
    template: str
    target_class: str | None = None
    #: composed only for an item the store keeps without a class ("place in Turkey" for a
    #: town the store knows by its country alone); never added to a classed item's ladder
    unclassed: bool = False


@dataclass(frozen=True, slots=True)
class OverlayRules:
    """Pruning rules, cut-offs, label overrides and composed generalizations."""

    never_offer: frozenset[str] = frozenset()
    cut_above: frozenset[str] = frozenset()
    label_overrides: dict[str, str] = field(default_factory=dict)
    max_depth: int = DEFAULT_MAX_DEPTH
    max_ladder: int = DEFAULT_MAX_LADDER
    composed: tuple[ComposedRule, ...] = ()

    @classmethod
    def from_store(cls, kg: KGStore) -> "OverlayRules":
        """Read the rules from the store's overlay graph (empty rules when there is none)."""
        never, cut = set(), set()
        for row in kg.select("overlay_pruned"):
            (never if row["rule"] == "neverOffer" else cut).add(local_id(row["class"]))
        labels = {local_id(r["item"]): r["label"] for r in kg.select("overlay_labels")}
        max_depth, max_ladder = DEFAULT_MAX_DEPTH, DEFAULT_MAX_LADDER
        for row in kg.select("overlay_settings"):
            if row.get("maxDepth") is not None:
                max_depth = int(row["maxDepth"])
            if row.get("maxLadder") is not None:
                max_ladder = int(row["maxLadder"])
        composed = tuple(
            ComposedRule(
                name=r["rule"].removeprefix(TG),
                applies_to=local_id(r["class"]),
                via=local_id(r["via"]),
                template=r["template"],
                target_class=local_id(r["targetClass"]) if r.get("targetClass") else None,
                unclassed=str(r.get("unclassed") or "").lower() in ("true", "1"),
            )
            for r in kg.select("overlay_rules")
        )
        if max_depth < 1 or max_ladder < 1:
            raise KGError(f"overlay settings must be positive (maxDepth={max_depth}, maxLadder={max_ladder})")
        return cls(frozenset(never), frozenset(cut), labels, max_depth, max_ladder, composed)


@functools.lru_cache(maxsize=1)
def _vocabulary_graph():
    """``ontology/taxogen.ttl``, the vocabulary the overlay files may use, parsed once."""
    import rdflib

    vocab = next(p for p in overlay_paths() if p.name == "taxogen.ttl")
    return rdflib.Graph().parse(str(vocab), format="turtle")


def vocabulary_terms() -> frozenset[str]:
    """The local names of the ``tg:`` terms ``ontology/taxogen.ttl`` declares (classes, properties, individuals)."""
    import rdflib

    graph = _vocabulary_graph()
    return frozenset(str(s)[len(TG):] for s in graph.subjects(rdflib.RDF.type, None)
                     if isinstance(s, rdflib.URIRef) and str(s).startswith(TG))


def validate_overlay(paths: Iterable[str | Path] | None = None) -> list[str]:
    """Parse overlay files with rdflib and list problems (empty list: valid).

    Checks: Turtle syntax, only known ``tg:`` terms, composed rules complete, templates
    containing ``{label}``.
    """
    import rdflib

    problems: list[str] = []
    graph = rdflib.Graph()
    for p in (paths if paths is not None else overlay_paths()):
        try:
            graph.parse(str(p), format="turtle")
        except Exception as exc:  # rdflib raises many parser-specific types
            problems.append(f"{p}: {exc}")
    tg = rdflib.Namespace(TG)
    known = vocabulary_terms()
    # an individual of one of the vocabulary's classes (a composed rule, a kind, a set) is known too
    classes = [t for t in known if (tg[t], rdflib.RDF.type, rdflib.OWL.Class) in _vocabulary_graph()]
    for term in set(graph.subjects()) | set(graph.predicates()) | set(graph.objects()):
        if isinstance(term, rdflib.URIRef) and str(term).startswith(TG) and str(term)[len(TG):] not in known:
            if not any((term, rdflib.RDF.type, tg[c]) in graph for c in classes):
                problems.append(f"unknown taxogen term {term}")
    for rule in graph.subjects(rdflib.RDF.type, tg.ComposedGeneralization):
        for prop in ("appliesToClass", "via", "template"):
            if graph.value(rule, tg[prop]) is None:
                problems.append(f"{rule}: missing tg:{prop}")
        tpl = graph.value(rule, tg.template)
        if tpl is not None and "{label}" not in str(tpl):
            problems.append(f"{rule}: template {tpl!s} lacks {{label}}")
    return problems
