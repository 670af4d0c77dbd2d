"""The store's class graph around the classes the rules name.

Not the whole store: the named classes, every superclass above them over P279 (up to the
roots), and, for the classes a rule offers, their direct subclasses and instances (the
ways a walk comes up into them). Read with the named queries ``class_presence``,
``chain_edges_p279`` and ``class_feeders``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable

from kg.store import KGStore
from kg.vocab import local_id

#: The row limit of ``queries/class_feeders.rq``: a class with this many ways in is not all pruned.
FEEDER_LIMIT = 1000


@dataclass
class ClassGraph:
    """P279 edges and labels of the classes around the rules, and which named classes the store holds."""

    parents: dict[str, set[str]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)
    absent: set[str] = field(default_factory=set)
    #: class → its direct subclasses and instances (feeder, "P279" | "P31"), at most FEEDER_LIMIT
    feeders: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    @property
    def classes(self) -> set[str]:
        """Every class of the neighbourhood (named, present or not, and their superclasses)."""
        out = set(self.parents) | self.present | self.absent
        for ps in self.parents.values():
            out |= ps
        return out

    def above(self, qid: str) -> set[str]:
        """``qid`` and every class above it over P279."""
        seen, queue = {qid}, deque([qid])
        while queue:
            for parent in self.parents.get(queue.popleft(), ()):
                if parent not in seen:
                    seen.add(parent)
                    queue.append(parent)
        return seen

    def path_up(self, start: str, goals: set[str]) -> list[str]:
        """The shortest P279 path from ``start`` to a class in ``goals`` (empty when there is none)."""
        back: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if node in goals:
                path = [node]
                while back[path[-1]] is not None:
                    path.append(back[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            for parent in sorted(self.parents.get(node, ())):
                if parent not in back:
                    back[parent] = node
                    queue.append(parent)
        return []

    def name(self, qid: str) -> str:
        """``wd:Q515 (city)``: an id with its label for messages."""
        label = self.labels.get(qid)
        return f"wd:{qid} ({label})" if label else f"wd:{qid}"


def read_neighbourhood(kg: KGStore, named: Iterable[str], offered: Iterable[str]) -> ClassGraph:
    """The class graph around ``named`` classes; direct feeders of the ``offered`` ones."""
    graph = ClassGraph()
    for qid in sorted(set(named)):
        row = kg.select("class_presence", **{"class": qid})[0]
        if row.get("label"):
            graph.labels[qid] = str(row["label"])
        if row.get("subject") == "true" or row.get("object") == "true":
            graph.present.add(qid)
        else:
            graph.absent.add(qid)
    for qid in sorted(graph.present):
        for row in kg.select("chain_edges_p279", item=qid):
            child, parent = local_id(row["child"]), local_id(row["parent"])
            graph.parents.setdefault(child, set()).add(parent)
            if row.get("parentLabel"):
                graph.labels.setdefault(parent, str(row["parentLabel"]))
    for qid in sorted(set(offered) & graph.present):
        graph.feeders[qid] = [(local_id(r["feeder"]), str(r["prop"])) for r in kg.select("class_feeders", **{"class": qid})]
    return graph
