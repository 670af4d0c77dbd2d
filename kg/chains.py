"""Hierarchy chains: per taxonomy property, the ladders from most specific to most general.

For an item and a property the walk starts with the item's values of that property and
continues upward along the *step* property:

====== =========== ============  ==================================
ladder first hop   then          SPARQL path (queries/chain_edges_*)
====== =========== ============  ==================================
P31    wdt:P31     wdt:P279      ``wdt:P31/wdt:P279*``
P279   wdt:P279    wdt:P279      ``wdt:P279+``
P8225  wdt:P8225   wdt:P279      ``wdt:P8225/wdt:P279*``
P361   wdt:P361    wdt:P361      ``wdt:P361+``
====== =========== ============  ==================================

Overlay rules apply during the walk: a ``neverOffer`` class ends the branch (nothing above
it is offered), a ``cutAbove`` class is offered and ends the branch, unlabelled classes
are walked through but not offered, and at most ``max_depth`` hops are walked. Two
ladders are built per property, as in Olstad (2023): *first* follows one parent per step
(offerable parents first, then the lowest Q-number) and *longest* is the path offering the
most rungs (ties: lowest Q-numbers, compared step by step).

Two graph views feed the same builder: :class:`PreloadedTaxonomy` (every taxonomy edge
and label read once from the store, the engine's default) and :class:`SparqlTaxonomy`
(the sub-graph above one item fetched with the property-path queries, for remote or
very large stores).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from kg.class_sets import named_class
from kg.overlay import ComposedRule, OverlayRules
from kg.store import KGStore
from kg.vocab import TAXONOMY_PROPS, WDT, is_entity_id, local_id, qid_number

#: Wikidata's "historical country" (``ontology/class_sets.ttl``): never the country of a composed "city in {country}".
HISTORICAL_COUNTRY = named_class("historicalCountry")

#: (first hop, step) property per ladder.
WALKS: dict[str, tuple[str, str]] = {
    "P31": ("P31", "P279"),
    "P279": ("P279", "P279"),
    "P8225": ("P8225", "P279"),
    "P361": ("P361", "P361"),
}


@dataclass(frozen=True, slots=True)
class Rung:
    """One generalization: an item (or a composed label), its depth and how it was reached."""

    label: str
    qid: str | None
    depth: int
    path: str
    rule: str | None = None

    def to_dict(self) -> dict:
        return {"label": self.label, "qid": self.qid, "depth": self.depth, "path": self.path, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class PropertyLadders:
    """The *first* and *longest* ladders of one property, and every offerable direct value."""

    prop: str
    first: tuple[Rung, ...] = ()
    longest: tuple[Rung, ...] = ()
    direct: tuple[Rung, ...] = ()

    def to_dict(self) -> dict:
        return {
            "direct": [r.to_dict() for r in self.direct],
            "first": [r.to_dict() for r in self.first],
            "longest": [r.to_dict() for r in self.longest],
        }


@dataclass(frozen=True, slots=True)
class Chains:
    """All ladders of one item, per property in the order P31, P279, P8225, P361."""

    qid: str
    label: str | None
    ladders: dict[str, PropertyLadders] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"qid": self.qid, "label": self.label, "ladders": {p: l.to_dict() for p, l in self.ladders.items()}}


class TaxonomyView(Protocol):
    """Read access to the taxonomy that the ladder builder needs."""

    def parents(self, qid: str, prop: str) -> Sequence[str]: ...

    def label(self, qid: str) -> str | None: ...

    def values(self, qid: str, prop: str) -> Sequence[str]: ...


def current_country(view: TaxonomyView, item: str, countries: Sequence[str],
                    named: Callable[[str], bool] = lambda c: True) -> tuple[str, ...]:
    """The one current country (``named``, not a historical country) of ``item`` among its P17 ``countries``;
    ``()`` when the store cannot say which. With several, the one most of the item's
    administrative parents (P131) lie in wins: Helsinki's P17 holds Finland and Sweden, its
    regions lie in Finland; a merged record of Rabat holds Iran and Morocco, two of its
    three parents lie in Morocco. A tie says nothing."""
    current = [c for c in countries if HISTORICAL_COUNTRY not in view.values(c, "P31") and named(c)]
    if len(current) <= 1:
        return tuple(current)
    votes = {c: sum(c in view.values(parent, "P17") for parent in view.values(item, "P131")) for c in current}
    best = max(votes.values())
    winners = [c for c, n in votes.items() if n == best]
    return (winners[0],) if best > 0 and len(winners) == 1 else ()


def item_values(kg: KGStore, qid: str, prop: str) -> tuple[list[str], dict[str, str]]:
    """Item values of ``prop`` for ``qid`` (lowest Q-number first) and their labels."""
    rows = kg.select("item_values", item=qid, prop=WDT + prop)
    items = [r for r in rows if isinstance(r["value"], str) and r["value"].startswith("http")]
    values = sorted({local_id(r["value"]) for r in items}, key=qid_number)
    labels = {local_id(r["value"]): r["label"] for r in items if r.get("label")}
    return values, labels


class PreloadedTaxonomy:
    """Every taxonomy edge and label of a store, held in dictionaries (read once)."""

    def __init__(self, kg: KGStore | None = None) -> None:
        self.kg = kg  # for statements of other properties, read lazily per item
        self.edges: dict[str, dict[str, list[str]]] = {p: defaultdict(list) for p in TAXONOMY_PROPS}
        self.labels: dict[str, str] = {}
        self.extra: dict[str, dict[str, list[str]]] = {}
        self.children_count: dict[str, int] = defaultdict(int)
        self.instance_count: dict[str, int] = defaultdict(int)

    @classmethod
    def from_store(cls, kg: KGStore, extra_props: Sequence[str] = ()) -> "PreloadedTaxonomy":
        """Load taxonomy edges, labels and ``extra_props`` statements from ``kg``.

        Statements of properties not preloaded are read per item when first asked for.
        """
        view = cls(kg)
        for row in kg.select("taxonomy_edges"):
            prop = local_id(row["prop"])
            child, parent = local_id(row["child"]), local_id(row["parent"])
            view.edges[prop][child].append(parent)
            if prop == "P279":
                view.children_count[parent] += 1
            elif prop == "P31":
                view.instance_count[parent] += 1
        for edges in view.edges.values():
            for parents in edges.values():
                parents.sort(key=qid_number)
        for row in kg.select("labels_only"):
            view.labels.setdefault(local_id(row["item"]), row["label"])
        for prop in extra_props:
            if prop in view.edges:
                continue
            table: dict[str, list[str]] = defaultdict(list)
            for row in kg.select("property_edges", prop=WDT + prop):
                if isinstance(row["o"], str) and row["o"].startswith("http"):
                    table[local_id(row["s"])].append(local_id(row["o"]))
            for vals in table.values():
                vals.sort(key=qid_number)
            view.extra[prop] = table
        return view

    def parents(self, qid: str, prop: str) -> Sequence[str]:
        return self.edges[prop].get(qid, ())

    def label(self, qid: str) -> str | None:
        return self.labels.get(qid)

    def values(self, qid: str, prop: str) -> Sequence[str]:
        if prop in self.edges:
            return self.edges[prop].get(qid, ())
        table = self.extra.setdefault(prop, defaultdict(list))
        if qid not in table and self.kg is not None:
            table[qid] = item_values(self.kg, qid, prop)[0]
        return table.get(qid, ())

    def add_statement(self, subject: str, prop: str, value: str) -> bool:
        """Add one item-to-item statement (e.g. fetched remotely); False if already known."""
        table = self.edges.get(prop)
        if table is None:
            table = self.extra.setdefault(prop, defaultdict(list))
        values = table[subject]
        if value in values:
            return False
        values.append(value)
        values.sort(key=qid_number)
        if prop == "P279":
            self.children_count[value] += 1
        elif prop == "P31":
            self.instance_count[value] += 1
        return True

    def add_label(self, qid: str, label: str) -> None:
        self.labels.setdefault(qid, label)

    @property
    def edge_count(self) -> int:
        return sum(len(v) for e in self.edges.values() for v in e.values())


class SparqlTaxonomy:
    """The sub-graph above one item, fetched with the ``chain_edges_*`` property-path queries."""

    def __init__(self, kg: KGStore, qid: str, props: Sequence[str] = TAXONOMY_PROPS) -> None:
        self.kg = kg
        self.edges: dict[str, dict[str, list[str]]] = {p: defaultdict(list) for p in TAXONOMY_PROPS}
        self.labels: dict[str, str] = {}
        self._values: dict[tuple[str, str], list[str]] = {}
        for desc in kg.select("describe_item", item=qid):
            if desc.get("label"):
                self.labels[qid] = desc["label"]
        for prop in props:
            for row in kg.select(f"chain_edges_{prop.lower()}", item=qid):
                p = local_id(row["prop"])
                child, parent = local_id(row["child"]), local_id(row["parent"])
                if parent not in self.edges[p][child]:
                    self.edges[p][child].append(parent)
                if row.get("parentLabel"):
                    self.labels[parent] = row["parentLabel"]
        for edges in self.edges.values():
            for parents in edges.values():
                parents.sort(key=qid_number)

    def parents(self, qid: str, prop: str) -> Sequence[str]:
        return self.edges[prop].get(qid, ())

    def label(self, qid: str) -> str | None:
        return self.labels.get(qid)

    def values(self, qid: str, prop: str) -> Sequence[str]:
        key = (qid, prop)
        if key not in self._values:
            vals, labels = item_values(self.kg, qid, prop)
            for value, label in labels.items():
                self.labels.setdefault(value, label)
            self._values[key] = vals
        return self._values[key]


#: How a composed label writes the name it composes with ("the United Kingdom" in "city in the
#: United Kingdom"): the engine gives the English of its packs; without it, the name as labelled.
NamePhrase = Callable[[str], str]


def _as_labelled(name: str) -> str:
    return name


class LadderBuilder:
    """Builds :class:`Chains` from a :class:`TaxonomyView` under :class:`OverlayRules`."""

    def __init__(self, rules: OverlayRules, name_phrase: NamePhrase = _as_labelled) -> None:
        self.rules = rules
        self.name_phrase = name_phrase
        self._composed: dict[str, list[ComposedRule]] = defaultdict(list)
        for rule in rules.composed:
            if not rule.unclassed:  # composed only for items without a class (engine.generate.unclassed)
                self._composed[rule.applies_to].append(rule)
        # Best upward walk from (step property, node, depth): a pure function of the view,
        # so it is kept across lookups while the view stays the same (closure cache).
        self._memo: dict[tuple[str, str, int], tuple[int, tuple[int, ...], tuple[str, ...]]] = {}
        self._first_memo: dict[tuple[str, str, int], tuple[str, ...]] = {}
        self._memo_owner: TaxonomyView | None = None

    def label(self, view: TaxonomyView, qid: str) -> str | None:
        return self.rules.label_overrides.get(qid) or view.label(qid)

    def offerable(self, view: TaxonomyView, qid: str) -> bool:
        return qid not in self.rules.never_offer and self.label(view, qid) is not None

    def chains(self, view: TaxonomyView, qid: str, props: Sequence[str] = TAXONOMY_PROPS) -> Chains:
        """Ladders of ``qid`` for each of ``props`` (properties without any rung are omitted)."""
        ladders = {}
        for prop in props:
            if not view.parents(qid, WALKS[prop][0]):
                continue
            first = self._first(view, qid, prop)
            longest = self._longest(view, qid, prop)
            direct = self._direct(view, qid, prop)
            if first or longest or direct:
                ladders[prop] = PropertyLadders(prop, first, longest, direct)
        return Chains(qid=qid, label=self.label(view, qid), ladders=ladders)

    # --- walks ----------------------------------------------------------------------
    def _step_parents(self, view: TaxonomyView, node: str, prop: str, depth: int) -> Sequence[str]:
        first_hop, step = WALKS[prop]
        return view.parents(node, first_hop if depth == 0 else step)

    def _path(self, prop: str, depth: int) -> str:
        first_hop, step = WALKS[prop]
        return "/".join([first_hop] + [step] * (depth - 1))

    def _emit(self, view: TaxonomyView, item: str, node: str, prop: str, depth: int) -> list[Rung]:
        """The composed rungs of ``node`` ("city in Norway"), then ``node`` itself ("city")."""
        rungs = []
        for rule in self._composed.get(node, ()):
            for composed in self.compose(view, item, rule):
                rungs.append(Rung(composed, None, depth, f"{self._path(prop, depth)} + {rule.via}", rule.name))
        rungs.append(Rung(self.label(view, node) or "", node, depth, self._path(prop, depth)))
        return rungs

    def compose(self, view: TaxonomyView, item: str, rule: ComposedRule, limit: int = 3) -> list[str]:
        """Composed labels, one per labelled value of ``rule.via`` (lowest Q-numbers first).

        Historical countries are skipped (Munich is not a "city in Nazi Germany" today),
        and a place lies in one country: via P17 only the current country its administrative
        parents agree on is used (:func:`current_country`: Helsinki, in Finland, not Sweden).
        """
        out: list[str] = []
        values: Sequence[str] = view.values(item, rule.via)
        if rule.via == "P17":
            limit = 1
            values = current_country(view, item, values, lambda c: self.label(view, c) is not None)
        for value in values:
            if rule.target_class is not None and rule.target_class not in view.values(value, "P31"):
                continue
            if HISTORICAL_COUNTRY in view.values(value, "P31"):
                continue
            lab = self.label(view, value)
            if lab:
                text = rule.template.replace("{label}", self.name_phrase(lab))
                if text not in out:
                    out.append(text)
            if len(out) >= limit:
                break
        return out

    def _first(self, view: TaxonomyView, item: str, prop: str) -> tuple[Rung, ...]:
        self._bind_view(view)
        step = WALKS[prop][1]
        memo = self._first_memo

        def walk(node: str, depth: int) -> tuple[str, ...]:
            """Nodes visited from ``node`` (at ``depth``) upward, one parent per step."""
            key = (step, node, depth)
            if key in memo:
                return memo[key]
            path: tuple[str, ...] = (node,)
            if node not in self.rules.cut_above and depth < self.rules.max_depth:
                options = view.parents(node, step)
                if options:
                    nxt = min(options, key=self._first_key(view))
                    if nxt not in self.rules.never_offer:
                        path = path + walk(nxt, depth + 1)
            memo[key] = path
            return path

        starts = [p for p in view.parents(item, WALKS[prop][0]) if p != item]
        if not starts or self.rules.max_depth < 1:
            return ()
        head = min(starts, key=self._first_key(view))
        if head in self.rules.never_offer:
            return ()
        return self._rungs(view, item, prop, walk(head, 1))

    def _direct(self, view: TaxonomyView, item: str, prop: str) -> tuple[Rung, ...]:
        """Every offerable value of the first hop (e.g. all P31 classes of a city)."""
        rungs: list[Rung] = []
        for value in view.parents(item, WALKS[prop][0]):
            if value != item and self.offerable(view, value):
                rungs.extend(self._emit(view, item, value, prop, 1))
        return tuple(rungs)

    def _first_key(self, view: TaxonomyView):
        never = self.rules.never_offer
        return lambda q: (q in never, self.label(view, q) is None, qid_number(q))

    def _rungs(self, view: TaxonomyView, item: str, prop: str, nodes: Sequence[str]) -> tuple[Rung, ...]:
        rungs: list[Rung] = []
        seen: set[str] = {item}
        for depth, node in enumerate(nodes, start=1):
            if node in seen:
                continue
            seen.add(node)
            if self.label(view, node) is not None:
                rungs.extend(self._emit(view, item, node, prop, depth))
        return tuple(rungs)

    def forget_walks(self) -> None:
        """Forget the cached walks (after statements were added to the view)."""
        self._memo.clear()
        self._first_memo.clear()

    def _bind_view(self, view: TaxonomyView) -> None:
        """Keep the walk caches only while the same view object is used."""
        if self._memo_owner is not view:
            self._memo.clear()
            self._first_memo.clear()
            self._memo_owner = view

    def _longest(self, view: TaxonomyView, item: str, prop: str) -> tuple[Rung, ...]:
        self._bind_view(view)
        memo = self._memo
        step = WALKS[prop][1]

        def best(node: str, depth: int) -> tuple[int, tuple[int, ...], tuple[str, ...]]:
            """(offered count, tie key, path) of the best walk starting at ``node``.

            Depth grows by one per call, so the recursion ends on cyclic graphs too.
            """
            key = (step, node, depth)
            if key in memo:
                return memo[key]
            if node in self.rules.never_offer:
                memo[key] = (0, (), ())
                return memo[key]
            gain = 1 if self.label(view, node) is not None else 0
            tail: tuple[int, tuple[int, ...], tuple[str, ...]] = (0, (), ())
            if node not in self.rules.cut_above and depth < self.rules.max_depth:
                for parent in self._step_parents(view, node, prop, depth):
                    cand = best(parent, depth + 1)
                    if cand[0] > tail[0] or (cand[0] == tail[0] and cand[0] > 0 and cand[1] < tail[1]):
                        tail = cand
            result = (gain + tail[0], (qid_number(node),) + tail[1], (node,) + tail[2])
            memo[key] = result
            return result

        top: tuple[int, tuple[int, ...], tuple[str, ...]] = (0, (), ())
        for start in self._step_parents(view, item, prop, 0):
            if start == item:
                continue
            cand = best(start, 1)
            if cand[0] > top[0] or (cand[0] == top[0] and cand[0] > 0 and cand[1] < top[1]):
                top = cand
        return self._rungs(view, item, prop, top[2])


def open_taxonomy(kg: KGStore) -> PreloadedTaxonomy:
    """The taxonomy view of ``kg``: its memory-mapped indices for an on-disk store
    (:class:`kg.indexed.IndexedTaxonomy`; :class:`KGError` when it has none), every edge
    read into memory for an in-memory store."""
    if kg.path is None:
        return PreloadedTaxonomy.from_store(kg)
    from kg.indexed import IndexedTaxonomy

    return IndexedTaxonomy.from_store(kg)  # type: ignore[return-value]


class ChainIndex:
    """Chains of any item of a store: preloaded edges by default, or SPARQL per lookup.

    ``mode="preloaded"`` opens the store's memory-mapped class graph (:mod:`kg.index`;
    in-memory stores: every taxonomy edge and label read once) and answers each lookup
    from it with a closure cache; ``mode="sparql"`` runs the property-path queries for
    every lookup.
    """

    def __init__(self, kg: KGStore, *, mode: str = "preloaded", rules: OverlayRules | None = None,
                 name_phrase: NamePhrase = _as_labelled) -> None:
        if mode not in ("preloaded", "sparql"):
            raise ValueError(f"unknown chain mode {mode!r} (preloaded or sparql)")
        self.kg = kg
        self.mode = mode
        self.rules = rules if rules is not None else OverlayRules.from_store(kg)
        self.builder = LadderBuilder(self.rules, name_phrase)
        self.view: PreloadedTaxonomy | None = open_taxonomy(kg) if mode == "preloaded" else None

    def invalidate(self) -> None:
        """Forget cached walks (call after statements were added to the view)."""
        self.builder.forget_walks()

    def chains(self, qid: str, props: Sequence[str] = TAXONOMY_PROPS) -> Chains:
        """Ladders of ``qid``; raises ``ValueError`` for a malformed id."""
        if not is_entity_id(qid):
            raise ValueError(f"not a Wikidata id: {qid!r}")
        view = self.view if self.view is not None else SparqlTaxonomy(self.kg, qid, props)
        return self.builder.chains(view, qid, props)

    def composed_labels(self, qid: str, rule: ComposedRule) -> list[str]:
        """The labels ``rule`` composes for item ``qid`` ("city in Norway"); preloaded mode only."""
        if self.view is None:
            return []
        return self.builder.compose(self.view, qid, rule)

    def label(self, qid: str) -> str | None:
        """Label of ``qid`` after overrides (preloaded mode reads the cache)."""
        if self.view is not None:
            return self.builder.label(self.view, qid)
        rows = self.kg.select("describe_item", item=qid)
        return self.rules.label_overrides.get(qid) or next((r["label"] for r in rows if r.get("label")), None)

    def description(self, qid: str) -> str | None:
        """The item's English description in the store ("German association football club"), if any."""
        return next((r["description"] for r in self.kg.select("describe_item", item=qid) if r.get("description")), None)
