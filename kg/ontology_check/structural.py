"""Findings read off the class graph directly: classes absent from the store, and classes a
rule offers that pruning keeps off every ladder.

A walk comes up into a class C from one of its direct subclasses (P279) or instances
(P31), the *ways in*. It does not pass a class marked ``tg:neverOffer`` (the walk stops
there) nor go above one marked ``tg:cutAbove``, nor follow a ``tg:notIsA`` edge. A way in
that is none of these is itself the start of a walk (an item, or a class a span links
to), so C is *cut off* exactly when it has ways in and every one of them is blocked.
"""

from __future__ import annotations

from kg.ontology_check.findings import Finding
from kg.ontology_check.neighbourhood import FEEDER_LIMIT, ClassGraph
from kg.ontology_check.rules import OWL_DISJOINT, RuleSet

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def short(path: str) -> str:
    """A rule file's name for messages (``entity_types.ttl``)."""
    return path.rsplit("/", 1)[-1]


def absent_findings(rules: RuleSet, graph: ClassGraph) -> list[Finding]:
    """One warning per named class the store does not hold, at its first mention."""
    out = []
    for qid in sorted(graph.absent, key=lambda q: rules.where_term(q)):
        file, line = rules.where_term(qid)
        out.append(Finding(file, line, "absent", "warning",
                           f"wd:{qid} is not in the store (no label, no P31/P279 edge): a typo, or a class the dump filter dropped"))
    return out


def _blocked(rules: RuleSet, feeder: str, target: str) -> str | None:
    """Why the way in ``feeder`` → ``target`` is not walked (None when it is)."""
    if feeder in rules.never_offer:
        return "tg:neverOffer"
    if feeder in rules.cut_above:
        return "tg:cutAbove"
    if (feeder, target) in rules.not_is_a:
        return "tg:notIsA"
    return None


def _cause_line(rules: RuleSet, feeder: str, target: str, why: str) -> tuple[str, int]:
    if why == "tg:notIsA":
        return rules.where(feeder, "notIsA", target)
    return rules.where(feeder, why.removeprefix("tg:"), "true")


def cut_off_findings(rules: RuleSet, graph: ClassGraph) -> list[Finding]:
    """Classes a rule offers that no walk reaches, or that are themselves never offered."""
    out = []
    for qid, (why, triple) in rules.offered().items():
        named_at = rules.where(*triple)
        if qid in rules.never_offer:
            composed = not why.startswith("a root")
            file, line = rules.where(qid, "neverOffer", "true")
            out.append(Finding(file, line, "pruned-rule", "error" if composed else "warning",
                               f"{graph.name(qid)} is {why} ({short(named_at[0])}:{named_at[1]}) but tg:neverOffer: "
                               + ("the rule never applies" if composed else "it is never offered (its kind still applies)")))
            continue
        ways = graph.feeders.get(qid)
        if not ways or len(ways) >= FEEDER_LIMIT:
            continue
        blocked = [(f, _blocked(rules, f, qid)) for f, _ in ways]
        if any(reason is None for _, reason in blocked):
            continue
        causes = sorted({(f, reason) for f, reason in blocked}, key=lambda c: _cause_line(rules, c[0], qid, c[1] or ""))
        file, line = _cause_line(rules, causes[0][0], qid, causes[0][1] or "")
        listed = ", ".join(f"{graph.name(f)} ({r})" for f, r in causes[:4]) + (" …" if len(causes) > 4 else "")
        out.append(Finding(file, line, "cut-off", "error",
                           f"{graph.name(qid)}, {why} ({short(named_at[0])}:{named_at[1]}), is cut off from every ladder: "
                           f"its only way{'s' if len(causes) > 1 else ''} in, {listed}, "
                           f"{'are' if len(causes) > 1 else 'is'} pruned"))
    return out


def unsatisfiable_cause(rules: RuleSet, graph: ClassGraph, qid: str) -> tuple[tuple[str, int], str] | None:
    """The ``owl:disjointWith`` line that makes class ``qid`` unsatisfiable, with a message
    (None when no disjoint pair of the rules lies above it)."""
    above = graph.above(qid)
    for a, b in sorted(rules.disjoint):
        if a in above and b in above:
            path_a, path_b = graph.path_up(qid, {a}), graph.path_up(qid, {b})
            via = " → ".join(f"wd:{q}" for q in path_a) + "; " + " → ".join(f"wd:{q}" for q in path_b)
            return (rules.where(a, OWL_DISJOINT, b),
                    f"{graph.name(qid)} can have no instance: it is a subclass of {graph.name(a)} and of "
                    f"{graph.name(b)}, declared disjoint ({via})")
    return None
