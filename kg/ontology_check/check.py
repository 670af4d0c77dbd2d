"""``taxogen kg check``: the overlay and the truth rules, checked together and against the store.

:func:`check_ontology` reads the rule files (rdflib), the store's class graph around every
class they name (:mod:`kg.ontology_check.neighbourhood`), writes both as one OWL ontology
(:mod:`kg.ontology_check.owl_model`), has HermiT classify it through owlready2, and turns
everything into :class:`Finding` records with the file and line to edit.

An inconsistent ontology has no classification to read. A literal outside its property's
``rdfs:range`` datatype (``tg:maxDepth "deep"``) is the usual cause and is read off the
rules directly (also without Java); otherwise the statement that makes it inconsistent is
found by bisection: the rule triples in file and line order, the shortest
prefix that is inconsistent together with the generated axioms ends with a statement every
explanation of the inconsistency needs (OWL is monotonic), and that statement's line is
reported — ⌈log₂ n⌉ more reasoner runs, only when the rules are inconsistent.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterable

from rdflib import RDFS, XSD, Literal

from kg.ontology_check.findings import CheckReport, Finding
from kg.ontology_check.neighbourhood import ClassGraph, read_neighbourhood
from kg.ontology_check.owl_model import CHK, CheckModel, check_graph, full_graph
from kg.ontology_check.reasoning import ReasonerUnavailable, reason
from kg.ontology_check.rules import RuleSet, read_rules
from kg.ontology_check.structural import absent_findings, cut_off_findings, short, unsatisfiable_cause
from kg.store import KGStore, overlay_paths
from kg.vocab import WD


def check_ontology(kg: KGStore, paths: Iterable[str | Path] | None = None, *, reasoner: str | None = "hermit",
                   on_progress: Callable[[str], None] | None = None) -> CheckReport:
    """Check the rule files ``paths`` (default: the shipped ontology/*.ttl) against ``kg``.

    ``reasoner=None`` skips the OWL reasoning (the structural findings only). Raises
    :class:`kg.errors.KGError` for an unreadable file; without Java the report carries a
    ``reasoner`` warning instead of the reasoner's findings.
    """
    start = time.perf_counter()
    say = on_progress or (lambda _msg: None)
    files = [Path(p) for p in (paths if paths is not None else overlay_paths())]
    rules = read_rules(files)
    graph = read_neighbourhood(kg, rules.named, rules.offered())
    report = CheckReport(files=files, named_classes=len(rules.named), store_classes=len(graph.classes - graph.absent))
    report.findings += absent_findings(rules, graph) + cut_off_findings(rules, graph)
    model = check_graph(rules, graph)
    report.ontology = full_graph(rules, model)
    report.findings += conflict_findings(rules, model)
    if reasoner is not None:
        say(f"reasoning over {len(graph.classes)} classes with {reasoner} …")
        t0 = time.perf_counter()
        try:
            report.findings += reasoner_findings(rules, graph, model, reasoner, say)
            report.reasoner = reasoner
        except ReasonerUnavailable as exc:
            report.findings.append(Finding(str(files[0]), 0, "reasoner", "warning", f"not reasoned over: {exc}"))
        report.reasoner_seconds = time.perf_counter() - t0
    if not report.reasoner:  # what needs no reasoner to see: a value outside its datatype
        report.findings += range_violations(rules)
    report.findings.sort(key=lambda f: (f.severity != "error", str(f.file), f.line, f.kind))
    report.seconds = time.perf_counter() - start
    return report


def conflict_findings(rules: RuleSet, model: CheckModel) -> list[Finding]:
    """An entity type that allows and forbids the same kind."""
    out = []
    for rule, kind in model.both:
        file, line = rules.where(rule, "allowsKind", kind)
        f_file, f_line = rules.forbids_line(rule, kind)
        out.append(Finding(file, line, "type-conflict", "error",
                           f"{rules.type_names.get(rule, rule)} both allows and forbids tg:{kind} "
                           f"(forbidden at {short(f_file)}:{f_line}): forbidding wins, the allowance does nothing"))
    return out


def reasoner_findings(rules: RuleSet, graph: ClassGraph, model: CheckModel, reasoner: str,
                      say: Callable[[str], None]) -> list[Finding]:
    """Inconsistency, unsatisfiable classes and type conflicts, from the reasoner's classification."""
    verdict = reason(full_graph(rules, model), reasoner)  # a fresh graph: reasoning adds nothing to the report's
    if not verdict.consistent:
        say("inconsistent: looking for the statement that makes it so …")
        return [inconsistency_finding(rules, model, reasoner)]
    out = []
    for iri in verdict.unsatisfiable:
        if iri in model.probes:
            out.append(_probe_finding(rules, graph, model, iri))
        elif iri.startswith(WD):
            out.append(_unsatisfiable_finding(rules, graph, iri[len(WD):]))
        else:
            file, line = rules.lines.term_line(iri) or (str(rules.files[0]), 0)
            out.append(Finding(file, line, "unsatisfiable", "error", f"<{iri}> can have no instance"))
    return out


def _probe_finding(rules: RuleSet, graph: ClassGraph, model: CheckModel, iri: str) -> Finding:
    probe = model.probes[iri]
    name = rules.type_names.get(probe.rule, probe.rule)
    forbidden = rules.forbids.get(probe.rule, set())
    roots = {r for k in forbidden for r in rules.kinds.get(k, ())}
    path = graph.path_up(probe.root, roots)
    kinds = sorted(k for k in forbidden if path and path[-1] in rules.kinds.get(k, ()))
    via = " → ".join(f"wd:{q}" for q in path) if path else "through the rules' own axioms"
    file, line = rules.where(probe.rule, "allowsKind", probe.kind)
    return Finding(file, line, "type-conflict", "error",
                   f"{name} allows tg:{probe.kind}, but every class of its root {graph.name(probe.root)} is in forbidden "
                   f"{', '.join('tg:' + k for k in kinds) or 'kinds'} ({via}): {name} never takes it")


def _unsatisfiable_finding(rules: RuleSet, graph: ClassGraph, qid: str) -> Finding:
    cause = unsatisfiable_cause(rules, graph, qid)
    if cause is not None:
        (file, line), message = cause
        # Wikidata's own P279 edges meet a reader rule's owl:disjointWith: the rule is an
        # exception to Wikidata by design (ontology/reader_rules.ttl); say where it bites
        return Finding(file, line, "unsatisfiable", "warning",
                       message + ": in OWL the rule contradicts the store's P279 edges")
    file, line = rules.where_term(qid)
    return Finding(file, line, "unsatisfiable", "error",
                   f"{graph.name(qid)} can have no instance, by the axioms of the rule files")


def inconsistency_finding(rules: RuleSet, model: CheckModel, reasoner: str) -> Finding:
    """The inconsistency, at the line of the statement that causes it: a value outside its
    property's declared datatype (read off the rules), else the statement the bisection finds."""
    ranged = range_violations(rules)
    if ranged:
        return ranged[0]
    ordered = sorted({tuple(str(x) for x in t) for t in rules.graph},
                     key=lambda t: rules.lines.order_key(rules.lines.triple_line(*t)))
    lo, hi = 0, len(ordered)  # invariant: prefix lo is consistent (no rule triple at all is), prefix hi is not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if reason(full_graph(rules, model, keep=set(ordered[:mid])), reasoner).consistent:
            lo = mid
        else:
            hi = mid
    s, p, o = ordered[hi - 1]
    file, line = rules.lines.triple_line(s, p, o) or rules.lines.subject_line(s) or (str(rules.files[0]), 0)
    return Finding(file, line, "inconsistent", "error",
                   f"the ontology is inconsistent (no model) once this statement is added: <{s}> <{p}> {_show(o)}")


_INTEGERS = {XSD.integer, XSD.int, XSD.long, XSD.short, XSD.byte, XSD.nonNegativeInteger, XSD.positiveInteger,
             XSD.negativeInteger, XSD.nonPositiveInteger, XSD.unsignedInt, XSD.unsignedLong, XSD.unsignedShort, XSD.unsignedByte}


def range_violations(rules: RuleSet) -> list[Finding]:
    """Literals outside the ``rdfs:range`` datatype of their property (integer, boolean, string):
    each makes the ontology inconsistent."""
    out = []
    for prop, rng in rules.graph.subject_objects(RDFS.range):
        if rng not in (XSD.integer, XSD.boolean, XSD.string):
            continue
        for s, o in rules.graph.subject_objects(prop):
            if not isinstance(o, Literal):
                continue
            if rng == XSD.integer:
                fits = o.datatype in _INTEGERS and not o.ill_typed
            elif rng == XSD.boolean:
                fits = o.datatype == XSD.boolean and not o.ill_typed
            else:
                fits = o.language is None and o.datatype in (None, XSD.string)
            if fits:
                continue
            file, line = rules.lines.triple_line(str(s), str(prop), str(o)) or rules.lines.subject_line(str(s)) or (str(rules.files[0]), 0)
            r_file, r_line = rules.lines.triple_line(str(prop), str(RDFS.range), str(rng)) or ("?", 0)
            shown = o.n3().replace("http://www.w3.org/2001/XMLSchema#", "xsd:")
            out.append(Finding(file, line, "inconsistent", "error",
                               f"{_qname(rules, prop)} {shown} is not an xsd:{rng.split('#')[-1]}, the property's rdfs:range "
                               f"({short(r_file)}:{r_line}): the ontology is inconsistent"))
    return sorted(out, key=lambda f: (f.file, f.line))


def _qname(rules: RuleSet, term) -> str:
    try:
        return rules.graph.namespace_manager.normalizeUri(term)
    except Exception:  # rdflib: no prefix fits
        return f"<{term}>"


def _show(term: str) -> str:
    return f"<{term}>" if term.startswith(("http://", "https://", "urn:")) else repr(term)



