"""The overlay and the truth rules as the check sees them, read from Turtle with rdflib."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import rdflib

from kg.errors import KGError
from kg.ontology_check.turtle_lines import SourceLines
from kg.vocab import TG, WD

OWL_DISJOINT = "http://www.w3.org/2002/07/owl#disjointWith"
OWL_IMPORTS = rdflib.OWL.imports


@dataclass
class RuleSet:
    """What the rule files say, by Wikidata id (``Q515``) and taxogen local name (``kindPlace``)."""

    files: list[Path]
    graph: rdflib.Graph
    lines: SourceLines
    never_offer: set[str] = field(default_factory=set)
    cut_above: set[str] = field(default_factory=set)
    label_override: set[str] = field(default_factory=set)
    #: composed rule name → (tg:appliesToClass, tg:targetClass or None)
    composed: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    #: kind → root classes
    kinds: dict[str, set[str]] = field(default_factory=dict)
    #: entity type rule (``typeORG``) → its type name ("ORG")
    type_names: dict[str, str] = field(default_factory=dict)
    allows: dict[str, set[str]] = field(default_factory=dict)
    forbids: dict[str, set[str]] = field(default_factory=dict)
    not_is_a: set[tuple[str, str]] = field(default_factory=set)
    disjoint: set[tuple[str, str]] = field(default_factory=set)
    #: every Wikidata class the files name
    named: set[str] = field(default_factory=set)

    @property
    def pruned(self) -> set[str]:
        """Classes above which no walk goes: never offered, or cut above."""
        return self.never_offer | self.cut_above

    def offered(self) -> dict[str, tuple[str, tuple[str, str, str]]]:
        """Classes a rule offers or relies on being offered, for the cut-off analysis:
        class → (why, the triple that says so)."""
        out: dict[str, tuple[str, tuple[str, str, str]]] = {}
        allowed = {k for ks in self.allows.values() for k in ks}
        for kind in sorted(self.kinds):
            for root in sorted(self.kinds[kind]):
                if kind in allowed:
                    out.setdefault(root, (f"a root of tg:{kind}", (kind, "rootClass", root)))
        for name, (applies, target) in sorted(self.composed.items()):
            out[applies] = (f"the class of composed rule tg:{name}", (name, "appliesToClass", applies))
            if target:
                out.setdefault(target, (f"the target class of composed rule tg:{name}", (name, "targetClass", target)))
        for qid in sorted(self.label_override):
            out.setdefault(qid, ("given a tg:labelOverride", (qid, "labelOverride", "")))
        return out

    def forbids_line(self, rule: str, kind: str) -> tuple[str, int]:
        """Where ``rule`` forbids ``kind`` (``owl:disjointWith``, or the older ``tg:forbidsKind``)."""
        hit = self.lines.triple_line(iri(rule), OWL_DISJOINT, iri(kind))
        return hit or self.where(rule, "forbidsKind", kind)

    def where(self, s: str, p: str, o: str) -> tuple[str, int]:
        """File and line of a triple, given as local names (``Q515``, ``typeORG``) or IRIs."""
        s_iri, p_iri, o_iri = (iri(x) for x in (s, p, o))
        hit = self.lines.triple_line(s_iri, p_iri, o_iri) or self.lines.subject_line(s_iri) or self.lines.term_line(s_iri)
        return hit or (str(self.files[-1]), 0)

    def where_term(self, term: str) -> tuple[str, int]:
        """File and line where a class or taxogen term is first named."""
        return self.lines.term_line(iri(term)) or (str(self.files[-1]), 0)


def iri(term: str) -> str:
    """Full IRI of a local name: ``Q515`` → wd:Q515, ``kindPlace`` → tg:kindPlace, ``true`` and IRIs unchanged."""
    if term.startswith(("http://", "https://", "urn:")) or term in ("true", "false"):
        return term
    if term[:1] in "QP" and term[1:].isdigit():
        return WD + term
    return TG + term


def _local(term: rdflib.term.Node) -> str:
    text = str(term)
    for prefix in (WD, TG):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def read_rules(paths: list[Path]) -> RuleSet:
    """Parse the rule files; raises :class:`KGError` naming the file on a syntax error."""
    graph = rdflib.Graph()
    for p in paths:
        try:
            graph.parse(str(p), format="turtle")
        except Exception as exc:  # rdflib raises many parser-specific types
            raise KGError(f"{p}: {exc}", path=str(p)) from exc
    rules = RuleSet(files=list(paths), graph=graph, lines=SourceLines.read(list(paths)))
    tg = rdflib.Namespace(TG)
    for s, o in graph.subject_objects(tg.neverOffer):
        if o.toPython() is True:
            rules.never_offer.add(_local(s))
    for s, o in graph.subject_objects(tg.cutAbove):
        if o.toPython() is True:
            rules.cut_above.add(_local(s))
    rules.label_override = {_local(s) for s in graph.subjects(tg.labelOverride)}
    for rule in graph.subjects(rdflib.RDF.type, tg.ComposedGeneralization):
        applies, target = graph.value(rule, tg.appliesToClass), graph.value(rule, tg.targetClass)
        if applies is not None:
            rules.composed[_local(rule)] = (_local(applies), _local(target) if target is not None else None)
    for kind, root in graph.subject_objects(tg.rootClass):
        rules.kinds.setdefault(_local(kind), set()).add(_local(root))
    for rule in graph.subjects(rdflib.RDF.type, tg.EntityTypeRule):
        name = _local(rule)
        rules.type_names[name] = str(graph.value(rule, tg.entityType) or name)
        rules.allows[name] = {_local(k) for k in graph.objects(rule, tg.allowsKind)}
        forbidden = set(graph.objects(rule, tg.forbidsKind)) | set(graph.objects(rule, rdflib.OWL.disjointWith))
        rules.forbids[name] = {_local(k) for k in forbidden if (k, rdflib.RDF.type, tg.ClassKind) in graph}
    rules.not_is_a = {(_local(s), _local(o)) for s, o in graph.subject_objects(tg.notIsA)}
    rules.disjoint = {(_local(s), _local(o)) for s, o in graph.subject_objects(rdflib.OWL.disjointWith)
                      if str(s).startswith(WD) and str(o).startswith(WD)}
    for s, p, o in graph:
        for term in (s, o):
            if isinstance(term, rdflib.URIRef) and str(term).startswith(WD):
                rules.named.add(_local(term))
    return rules

