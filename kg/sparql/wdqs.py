"""The Wikidata Query Service dialect, rewritten into plain SPARQL 1.1 before a query runs.

:func:`prepare` takes a query as WDQS accepts it and returns the text taxogen's store runs:

1. **Named subqueries** (Blazegraph: ``SELECT … WITH { subquery } AS %name WHERE { …
   INCLUDE %name … }``), which no SPARQL 1.1 parser reads, are found on the query's token
   stream (strings, IRIs and comments are tokens of their own, braces are matched) and each
   ``INCLUDE %name`` becomes the sub-select ``{ subquery }``.
2. The result is parsed by rdflib's SPARQL parser and translated to its algebra with WDQS's
   **predeclared prefixes** (``wd:``, ``wdt:``, ``p:``, ``ps:``, ``pq:``, ``wikibase:``,
   ``bd:``, ``schema:``, ``rdfs:``, ``skos:``, …); a syntax error is reported with its
   position, an update is refused (read-only).
3. Every ``SERVICE`` in the algebra (also inside ``EXISTS``) is checked: the **label
   service** ``SERVICE wikibase:label { bd:serviceParam wikibase:language "en,fr" }`` is
   rewritten; a WDQS extension taxogen does not support (``wikibase:mwapi``,
   ``wikibase:around``, ``wikibase:box``, ``gas:service``, ``bd:sample``, ``bds:search``,
   …) raises :class:`UnsupportedFeature` naming it; any other ``SERVICE`` IRI outside the
   configured allow-list raises :class:`ServiceNotAllowed` — before anything is fetched.
4. The label service: the group holding it becomes a sub-select that keeps the group's
   variables and adds, for every ``?x`` of the group whose ``?xLabel``, ``?xDescription``
   or ``?xAltLabel`` the query mentions (or that the service body names, as in
   ``?x rdfs:label ?name``), the label / description / comma-joined aliases in the first
   language of the list that has one. A missing label gives the item's id (``Q42``), as
   WDQS does; a missing description or alias list stays unbound. The service runs after
   the rest of its group, as in WDQS. The generated text is made only of rdflib-parsed
   variables, fixed IRIs and validated language tags, serialized by rdflib.
5. Blazegraph query hints (``hint:Query hint:optimizer "None"``) change no result and are
   dropped from the text.
6. Last, the exact text that will run is scanned once more: every ``SERVICE`` keyword in
   it must name an allowed IRI (a second guard, independent of rdflib).

A query with none of these (no ``%name``, no ``SERVICE``, no hint or extension term) is
plain SPARQL: it skips rdflib (whose parser costs tens of milliseconds) and goes to
pyoxigraph's parser as written, with the WDQS prefixes predeclared; the token guard of
step 6 still runs on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyparsing import ParseException
from rdflib import URIRef, Variable
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue

from kg.errors import QueryError
from kg.sparql.dialect import (
    BD,
    HINT_NS,
    LABEL_SERVICE,
    UNSUPPORTED_NAMESPACES,
    UNSUPPORTED_SERVICES,
    WDQS_PREFIXES,
    WIKIBASE,
    ReadOnlyError,
    ServiceNotAllowed,
    UnsupportedFeature,
)
from kg.sparql.label_service import rewrite_label_services
from kg.sparql.syntax import (
    declared_prefixes,
    drop_hints,
    expand_named_subqueries,
    find_prologue_end,
    guard_services,
    prefixes_for,
    resolve,
    service_nodes,
    significant,
    tokenize,
    used_prefixes,
    variable_names,
    walk,
)


@dataclass(frozen=True, slots=True)
class PreparedQuery:
    """A query ready to run: the text, the prefixes to run it with, and what was rewritten."""

    text: str
    form: str
    prefixes: dict[str, str] = field(default_factory=dict)
    features: tuple[str, ...] = ()

    @property
    def rewritten(self) -> bool:
        """True when the text differs from what the client sent (beyond prefixes)."""
        return any(f in self.features for f in ("named subqueries", "label service", "query hints"))


# --- checks -------------------------------------------------------------------------------------

def _check_service(node: CompValue, allow: tuple[str, ...]) -> None:
    term = node.term
    if isinstance(term, Variable):
        raise ServiceNotAllowed(f"SERVICE {term.n3()}: a variable service IRI is not allowed", feature="SERVICE")
    iri = str(term)
    if iri in UNSUPPORTED_SERVICES:
        raise UnsupportedFeature(f"unsupported WDQS extension: {UNSUPPORTED_SERVICES[iri]}", feature=UNSUPPORTED_SERVICES[iri])
    if iri.startswith((WIKIBASE, BD, WDQS_PREFIXES["gas"])):
        raise UnsupportedFeature(f"unsupported WDQS extension: SERVICE <{iri}>", feature=f"SERVICE <{iri}>")
    if iri not in allow:
        listed = ", ".join(f"<{a}>" for a in allow) or "empty"
        raise ServiceNotAllowed(f"SERVICE <{iri}> is not allowed (the endpoint's allow-list is {listed})",
                                feature=f"SERVICE <{iri}>")


def _check_terms(algebra: Any) -> bool:
    """Raise for unsupported extension predicates; True if the query has hint triples."""
    hints = False
    for n in walk(algebra):
        if isinstance(n, URIRef):
            for ns, what in UNSUPPORTED_NAMESPACES.items():
                if str(n).startswith(ns):
                    raise UnsupportedFeature(f"unsupported WDQS extension: {what} (<{n}>)", feature=what)
            if str(n).startswith(HINT_NS):
                hints = True
    return hints


# --- entry point ----------------------------------------------------------------------------

def _syntax_error(exc: ParseException, text: str) -> QueryError:
    return QueryError(f"SPARQL syntax error at line {exc.lineno}, column {exc.col}: {exc.msg}", query="request")


def prepare(text: str, *, allow: tuple[str, ...] = (), languages: tuple[str, ...] = ("en",)) -> PreparedQuery:
    """Rewrite a WDQS-dialect query into the plain SPARQL the store runs.

    :raises ReadOnlyError: the text is an update.
    :raises UnsupportedFeature: a WDQS extension taxogen cannot run (``feature`` names it).
    :raises ServiceNotAllowed: a ``SERVICE`` outside ``allow``.
    :raises QueryError: a syntax error or an undeclared prefix.
    """
    fast = _plain_form(text)
    if fast is not None:  # nothing to rewrite and no SERVICE at all: pyoxigraph's own parser reads it
        guard_services(text, allow)
        used = used_prefixes(text)
        declared = declared_prefixes(text[: find_prologue_end(text)])
        unknown = sorted(p for p in used if p not in WDQS_PREFIXES and p not in declared)
        if unknown:
            raise QueryError(f"unknown prefix {unknown[0]}: (declare it with PREFIX; WDQS's own prefixes are "
                             "predeclared)", query="request")
        features = ("predeclared prefixes",) if any(p in WDQS_PREFIXES and p not in declared for p in used) else ()
        return PreparedQuery(text=text, form=fast, prefixes=dict(WDQS_PREFIXES), features=features)
    features: list[str] = []
    expanded, names = expand_named_subqueries(text)
    if names:
        features.append("named subqueries")
    try:
        parsed = parseQuery(expanded)
    except ParseException as exc:
        try:
            parseUpdate(expanded)
        except ParseException:
            raise _syntax_error(exc, expanded) from None
        raise ReadOnlyError("the endpoint is read-only: SPARQL updates are refused", feature="update") from None
    try:
        query = translateQuery(parsed, initNs=prefixes_for(expanded))
    except Exception as exc:  # rdflib raises plain Exception for an unknown prefix
        raise QueryError(f"SPARQL error: {exc}", query="request") from None
    declared = declared_prefixes(expanded[: find_prologue_end(expanded)])
    if any(p in WDQS_PREFIXES and p not in declared for p in used_prefixes(expanded)):
        features.append("predeclared prefixes")
    algebra = query.algebra
    label_services = []
    for node in service_nodes(algebra):
        if isinstance(node.term, URIRef) and str(node.term) == LABEL_SERVICE:
            label_services.append(node)
        else:
            _check_service(node, allow)
    hints = _check_terms(algebra)
    final = expanded
    prologue_end = find_prologue_end(expanded)
    if hints:
        features.append("query hints")
        final = drop_hints(final, prologue_end)
    if label_services:
        features.append("label service")
        try:
            final = rewrite_label_services(final, variable_names(algebra), languages, prologue_end, label_services)
        except (QueryError, ParseException):
            raise
        except Exception as exc:  # a shape the rewrite does not know: a 400 naming it, never a 500
            raise UnsupportedFeature(f"label service: this query's use of it could not be rewritten ({exc})",
                                     feature="label service") from None
    guard_services(final, allow)
    return PreparedQuery(text=final, form=algebra.name, prefixes=dict(WDQS_PREFIXES), features=tuple(features))


_FORMS = {"SELECT": "SelectQuery", "ASK": "AskQuery", "CONSTRUCT": "ConstructQuery", "DESCRIBE": "DescribeQuery"}
_SLOW_NAMESPACES = (HINT_NS, *UNSUPPORTED_NAMESPACES)


def _plain_form(text: str) -> str | None:
    """The query form when the text is plain SPARQL for taxogen (no named subquery, no
    SERVICE, no hint or unsupported-extension term, not an update); else None."""
    end = find_prologue_end(text)
    prologue = text[:end]
    sig = significant(tokenize(text))
    rest = [t for t in sig if t.start >= end]
    if not rest or rest[0].kind != "word" or rest[0].text.upper() not in _FORMS:
        return None
    for tok in rest:
        if tok.kind == "word" and (tok.text.startswith("%") or tok.text.upper() in ("SERVICE", "INCLUDE")):
            return None
        if tok.kind in ("word", "iri"):
            iri = resolve(tok, prologue)
            if iri is not None and iri.startswith(_SLOW_NAMESPACES):
                return None
    return _FORMS[rest[0].text.upper()]
