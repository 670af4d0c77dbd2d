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

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from pyparsing import ParseException, ParseResults
from rdflib import Literal, URIRef, Variable
from rdflib.plugins.sparql.algebra import translateQuery, triples as flat_triples
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue

from kg.errors import QueryError

WDQS_PREFIXES: dict[str, str] = {
    "wd": "http://www.wikidata.org/entity/",
    "wds": "http://www.wikidata.org/entity/statement/",
    "wdv": "http://www.wikidata.org/value/",
    "wdref": "http://www.wikidata.org/reference/",
    "wdt": "http://www.wikidata.org/prop/direct/",
    "wdtn": "http://www.wikidata.org/prop/direct-normalized/",
    "wdno": "http://www.wikidata.org/prop/novalue/",
    "wdata": "http://www.wikidata.org/wiki/Special:EntityData/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "psv": "http://www.wikidata.org/prop/statement/value/",
    "psn": "http://www.wikidata.org/prop/statement/value-normalized/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "pqv": "http://www.wikidata.org/prop/qualifier/value/",
    "pqn": "http://www.wikidata.org/prop/qualifier/value-normalized/",
    "pr": "http://www.wikidata.org/prop/reference/",
    "prv": "http://www.wikidata.org/prop/reference/value/",
    "prn": "http://www.wikidata.org/prop/reference/value-normalized/",
    "wikibase": "http://wikiba.se/ontology#",
    "bd": "http://www.bigdata.com/rdf#",
    "bds": "http://www.bigdata.com/rdf/search#",
    "gas": "http://www.bigdata.com/rdf/gas#",
    "hint": "http://www.bigdata.com/queryHints#",
    "mwapi": "https://www.mediawiki.org/ontology#API/",
    "schema": "http://schema.org/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "prov": "http://www.w3.org/ns/prov#",
    "cc": "http://creativecommons.org/ns#",
    "geo": "http://www.opengis.net/ont/geosparql#",
    "ontolex": "http://www.w3.org/ns/lemon/ontolex#",
    "dct": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
}

WIKIBASE = WDQS_PREFIXES["wikibase"]
BD = WDQS_PREFIXES["bd"]
WD = WDQS_PREFIXES["wd"]
LABEL_SERVICE = WIKIBASE + "label"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SCHEMA_DESCRIPTION = "http://schema.org/description"
SKOS_ALTLABEL = "http://www.w3.org/2004/02/skos/core#altLabel"

# WDQS extensions taxogen cannot run, by SERVICE IRI or predicate namespace, with the
# name a 400 answer gives them.
UNSUPPORTED_SERVICES: dict[str, str] = {
    WIKIBASE + "mwapi": "SERVICE wikibase:mwapi (MediaWiki API service)",
    WIKIBASE + "around": "SERVICE wikibase:around (geographic search)",
    WIKIBASE + "box": "SERVICE wikibase:box (geographic search)",
    WDQS_PREFIXES["gas"] + "service": "SERVICE gas:service (graph-analysis service)",
    BD + "sample": "SERVICE bd:sample (sampling service)",
    BD + "slice": "SERVICE bd:slice (slice service)",
    WDQS_PREFIXES["bds"] + "search": "SERVICE bds:search (full-text search)",
}
UNSUPPORTED_NAMESPACES: dict[str, str] = {
    WDQS_PREFIXES["bds"]: "bds: full-text search predicates",
    WDQS_PREFIXES["gas"]: "gas: graph-analysis predicates",
    WDQS_PREFIXES["mwapi"]: "mwapi: MediaWiki API parameters",
}
HINT_NS = WDQS_PREFIXES["hint"]
LANGUAGE_TAG = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")
_LABEL_KINDS = {"Label": RDFS_LABEL, "Description": SCHEMA_DESCRIPTION, "AltLabel": SKOS_ALTLABEL}
_KIND_BY_PREDICATE = {v: k for k, v in _LABEL_KINDS.items()}


class WdqsError(QueryError):
    """A query uses WDQS or SPARQL features the endpoint refuses (answered with 400)."""

    def __init__(self, message: str, *, feature: str) -> None:
        super().__init__(message, query="request")
        self.feature = feature


class UnsupportedFeature(WdqsError):
    """A WDQS/Blazegraph extension taxogen cannot run; ``feature`` names it."""


class ServiceNotAllowed(WdqsError):
    """A ``SERVICE`` clause names an IRI outside the configured allow-list."""


class ReadOnlyError(WdqsError):
    """The text is a SPARQL update; the endpoint is read-only (answered with 403)."""


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


# --- tokens -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # ws, comment, string, iri, lbrace, rbrace, word, punct
    text: str
    start: int
    end: int


_TOKEN = re.compile(
    r"""(?P<ws>\s+)
    |(?P<comment>\#[^\n\r]*)
    |(?P<string>'''(?:(?:'|'')?(?:[^'\\]|\\.))*'''|\"\"\"(?:(?:"|"")?(?:[^"\\]|\\.))*\"\"\"
       |'(?:[^'\\\n\r]|\\.)*'|"(?:[^"\\\n\r]|\\.)*")
    |(?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    |(?P<lbrace>\{)
    |(?P<rbrace>\})
    |(?P<word>[%?$]?[^\s{}()\[\]<>"'\#.,;=!|^*+/]+)
    |(?P<punct>.)""",
    re.VERBOSE | re.DOTALL,
)


def tokenize(text: str) -> list[Token]:
    """SPARQL text as tokens; strings, IRIs and comments are single tokens, so a brace or a
    keyword inside them is never mistaken for structure."""
    return [Token(m.lastgroup or "punct", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _significant(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.kind not in ("ws", "comment")]


def _match_brace(sig: list[Token], i: int) -> int:
    """Index in ``sig`` of the ``}`` closing the ``{`` at ``i``."""
    depth = 0
    for j in range(i, len(sig)):
        if sig[j].kind == "lbrace":
            depth += 1
        elif sig[j].kind == "rbrace":
            depth -= 1
            if depth == 0:
                return j
    raise QueryError("unbalanced braces: a '{' is never closed", query="request")


def _is_kw(tok: Token, word: str) -> bool:
    return tok.kind == "word" and tok.text.upper() == word


# --- named subqueries ---------------------------------------------------------------------

def expand_named_subqueries(text: str) -> tuple[str, list[str]]:
    """Replace Blazegraph's ``WITH { … } AS %name`` / ``INCLUDE %name`` by sub-selects.

    Returns the new text and the names found. Raises :class:`UnsupportedFeature` for an
    ``INCLUDE`` of an undefined name.
    """
    sig = _significant(tokenize(text))
    if not any(t.kind == "word" and t.text.startswith("%") for t in sig):
        return text, []
    bodies: dict[str, str] = {}
    cut: list[tuple[int, int]] = []  # spans of the query text removed (the WITH blocks)
    depth, i = 0, 0
    while i < len(sig):
        tok = sig[i]
        if tok.kind == "lbrace":
            depth += 1
        elif tok.kind == "rbrace":
            depth -= 1
        elif depth == 0 and _is_kw(tok, "WITH") and i + 1 < len(sig) and sig[i + 1].kind == "lbrace":
            close = _match_brace(sig, i + 1)
            if close + 2 >= len(sig) or not _is_kw(sig[close + 1], "AS") or not sig[close + 2].text.startswith("%"):
                raise UnsupportedFeature("WITH { … } must be followed by AS %name", feature="named subqueries")
            name = sig[close + 2].text
            body = text[sig[i + 1].end: sig[close].start]
            bodies[name] = _include(body, bodies)
            cut.append((tok.start, sig[close + 2].end))
            i = close + 3
            continue
        i += 1
    out, pos = [], 0
    for start, end in cut:
        out.append(text[pos:start])
        pos = end
    out.append(text[pos:])
    return _include("".join(out), bodies), list(bodies)


def _include(text: str, bodies: dict[str, str]) -> str:
    sig = _significant(tokenize(text))
    out, pos = [], 0
    for i, tok in enumerate(sig):
        if _is_kw(tok, "INCLUDE"):
            if i + 1 >= len(sig) or not sig[i + 1].text.startswith("%"):
                raise UnsupportedFeature("INCLUDE needs a %name", feature="named subqueries")
            name = sig[i + 1].text
            if name not in bodies:
                raise UnsupportedFeature(f"INCLUDE {name}: no named subquery {name} is defined before it",
                                         feature="named subqueries")
            out.append(text[pos:tok.start])
            out.append("{ " + bodies[name] + " }")
            pos = sig[i + 1].end
    out.append(text[pos:])
    return "".join(out)


# --- algebra walks ------------------------------------------------------------------------

def _walk(node: Any) -> Iterator[Any]:
    """Every value in an rdflib parse tree or algebra (CompValues, lists, terms)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        if isinstance(cur, CompValue):
            stack.extend(v for k, v in cur.items() if k not in ("_vars",))
        elif isinstance(cur, (list, tuple, ParseResults)):
            stack.extend(cur)


def _service_nodes(node: Any) -> list[CompValue]:
    return [n for n in _walk(node) if isinstance(n, CompValue) and n.name == "ServiceGraphPattern"]


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
    for n in _walk(algebra):
        if isinstance(n, URIRef):
            for ns, what in UNSUPPORTED_NAMESPACES.items():
                if str(n).startswith(ns):
                    raise UnsupportedFeature(f"unsupported WDQS extension: {what} (<{n}>)", feature=what)
            if str(n).startswith(HINT_NS):
                hints = True
    return hints


def _variables(node: Any) -> set[str]:
    return {str(v) for v in _walk(node) if isinstance(v, Variable)}


# --- the label service ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LabelRequest:
    """Fill ``out`` with the ``kind`` (Label, Description, AltLabel) of ``entity``."""

    entity: str
    out: str
    kind: str


def parse_languages(value: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """``"en,fr"`` → ``("en", "fr")``; ``[AUTO_LANGUAGE]`` is the configured default list."""
    langs: list[str] = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        if part.upper() == "[AUTO_LANGUAGE]":
            langs.extend(default)
        elif LANGUAGE_TAG.match(part):
            langs.append(part.lower())
        else:
            raise UnsupportedFeature(f"label service: {part!r} is not a language code", feature="label service")
    return tuple(dict.fromkeys(langs)) or default


def _label_patterns(req: LabelRequest, langs: tuple[str, ...], fresh: Iterator[str]) -> str:
    """Plain SPARQL computing one label variable; terms serialized by rdflib."""
    x, out = Variable(req.entity).n3(), Variable(req.out).n3()
    pred = URIRef(_LABEL_KINDS[req.kind]).n3()
    parts: list[str] = []
    if req.kind == "AltLabel":
        found = []
        for lang in langs:
            a, v = Variable(next(fresh)).n3(), Variable(next(fresh)).n3()
            parts.append(
                f"OPTIONAL {{ {{ SELECT {x} (GROUP_CONCAT({a}; separator=\", \") AS {v}) WHERE {{ "
                f"{x} {pred} {a} FILTER(LANG({a}) = {Literal(lang).n3()}) }} GROUP BY {x} }} }}"
            )
            found.append(v)
        parts.append(f"BIND(COALESCE({', '.join(found)}) AS {out})")
        return " ".join(parts)
    tmp = Variable(next(fresh)).n3()
    # each OPTIONAL binds ?tmp only while it is still unbound: the first language that has one wins
    for lang in langs:
        parts.append(f"OPTIONAL {{ {x} {pred} {tmp} FILTER(LANG({tmp}) = {Literal(lang).n3()}) }}")
    if req.kind == "Label":
        wd = Literal(WD).n3()
        fallback = f"IF(isIRI({x}), IF(STRSTARTS(STR({x}), {wd}), STRAFTER(STR({x}), {wd}), STR({x})), STR({x}))"
        parts.append(f"BIND(COALESCE({tmp}, {fallback}) AS {out})")
    else:
        parts.append(f"BIND({tmp} AS {out})")
    return " ".join(parts)


def _service_params(node: CompValue, default_langs: tuple[str, ...]) -> tuple[tuple[str, ...], list[LabelRequest]]:
    langs: tuple[str, ...] = ()
    manual: list[LabelRequest] = []
    graph = node.get("graph")
    for part in (graph.get("part") if isinstance(graph, CompValue) else None) or []:
        if not isinstance(part, CompValue) or part.name != "TriplesBlock":
            raise UnsupportedFeature(f"label service: only triples are allowed in its body, not {getattr(part, 'name', part)}",
                                     feature="label service")
        for s, p, o in flat_triples(part.triples):
            if str(s) == BD + "serviceParam" and str(p) == WIKIBASE + "language":
                langs = parse_languages(str(o), default_langs)
            elif isinstance(s, Variable) and isinstance(o, Variable) and str(p) in _KIND_BY_PREDICATE:
                manual.append(LabelRequest(str(s), str(o), _KIND_BY_PREDICATE[str(p)]))
            else:
                raise UnsupportedFeature(f"label service: unsupported parameter {s.n3()} {p.n3()} {o.n3()}",
                                         feature="label service")
    return langs or default_langs, manual


def _group_vars(prologue: str, group_text: str) -> list[str]:
    """The variables a group binds, from rdflib's parse tree of ``SELECT * { group }``.

    As rdflib's own ``SELECT *`` projection, but a FILTER (and the EXISTS in it) or a MINUS
    binds nothing, so variables used only there are not in scope.
    """
    where = parseQuery(f"{prologue}\nSELECT * WHERE {{ {group_text} }}")[1].where
    found: dict[str, None] = {}
    stack = [where]
    while stack:
        cur = stack.pop()
        if isinstance(cur, Variable):
            found[str(cur)] = None
        elif isinstance(cur, CompValue):
            if cur.name in ("Filter", "MinusGraphPattern"):
                continue
            if cur.name == "Bind":
                found[str(cur.var)] = None
                continue
            if cur.name == "SubSelect":
                for v in cur.projection or []:
                    found[str(v.var or v.evar)] = None
                continue
            stack.extend(reversed(list(cur.values())))
        elif isinstance(cur, (list, tuple, ParseResults)):
            stack.extend(reversed(list(cur)))
    return list(found)


def _squash(text: str) -> str:
    return " ".join(t.text for t in _significant(tokenize(text)))


def _rewrite_label_services(text: str, mentioned: set[str], default_langs: tuple[str, ...],
                            prologue_end: int, nodes: list[CompValue]) -> str:
    """Replace each label SERVICE (innermost group first) by the plain SPARQL it stands for."""
    services = {_squash(str(n.service_string)): n for n in nodes}
    counter = iter(range(10**6))
    used = set(mentioned)

    def fresh() -> Iterator[str]:
        while True:
            name = f"_tg{next(counter)}"
            if name not in used:
                used.add(name)
                yield name

    names = fresh()
    while True:
        sig = _significant(tokenize(text))
        found = None
        for i, tok in enumerate(sig):
            if _is_kw(tok, "SERVICE"):
                j = i + 1 + (1 if j_is_silent(sig, i + 1) else 0)
                target = sig[j] if j < len(sig) else None
                if target is not None and _resolves_to(target, LABEL_SERVICE, text[:prologue_end]):
                    found = (i, j)
                    break
        if found is None:
            return text
        i, j = found
        body_open = j + 1
        body_close = _match_brace(sig, body_open)
        # the innermost group enclosing the SERVICE
        depth, open_idx = 0, None
        for k in range(i - 1, -1, -1):
            if sig[k].kind == "rbrace":
                depth += 1
            elif sig[k].kind == "lbrace":
                if depth == 0:
                    open_idx = k
                    break
                depth -= 1
        if open_idx is None:
            raise UnsupportedFeature("label service outside a group", feature="label service")
        close_idx = _match_brace(sig, open_idx)
        prologue = text[:prologue_end]
        service_text = text[sig[i].start: sig[body_close].end]
        node = services.get(_squash(service_text))
        if node is None:  # not seen by the parser as written (cannot happen for parsed text): parse it alone
            svc = translateQuery(parseQuery(f"{prologue}\nSELECT * WHERE {{ {service_text} }}"),
                                 initNs=_prefixes_for(service_text))
            node = _service_nodes(svc.algebra)[0]
        langs, manual = _service_params(node, default_langs)
        rest = text[sig[open_idx].end: sig[i].start] + " " + text[sig[body_close].end: sig[close_idx].start]
        scope = _group_vars(prologue, rest)
        requests = list(manual)
        for base in scope:
            for kind in _LABEL_KINDS:
                out = base + kind
                if out in mentioned and out not in scope and all(r.out != out for r in requests):
                    requests.append(LabelRequest(base, out, kind))
        outs = [r.out for r in requests]
        projection = " ".join(Variable(v).n3() for v in dict.fromkeys(scope + outs)) or "*"
        patterns = " ".join(_label_patterns(r, langs, names) for r in requests)
        new_group = f" {{ SELECT {projection} WHERE {{ {rest} {patterns} }} }} "
        text = text[: sig[open_idx].end] + new_group + text[sig[close_idx].start:]


def j_is_silent(sig: list[Token], j: int) -> bool:
    return j < len(sig) and _is_kw(sig[j], "SILENT")


def _declared_prefixes(text: str) -> dict[str, str]:
    sig = _significant(tokenize(text))
    out = {}
    for i, tok in enumerate(sig[:-2]):
        if _is_kw(tok, "PREFIX") and sig[i + 1].text.endswith(":") and sig[i + 2].kind == "iri":
            out[sig[i + 1].text[:-1]] = sig[i + 2].text[1:-1]
    return out


def _resolves_to(tok: Token, iri: str, prologue: str) -> bool:
    return _resolve(tok, prologue) == iri


def _resolve(tok: Token, prologue: str) -> str | None:
    if tok.kind == "iri":
        return tok.text[1:-1]
    if tok.kind == "word" and ":" in tok.text and not tok.text.startswith(("?", "$", "%")):
        prefix, _, local = tok.text.partition(":")
        prefixes = {**WDQS_PREFIXES, **_declared_prefixes(prologue)}
        if prefix in prefixes:
            return prefixes[prefix] + local
    return None


def _prologue_end(text: str) -> int:
    """Offset where the prologue (BASE/PREFIX declarations) ends."""
    sig = _significant(tokenize(text))
    i, end = 0, 0
    while i < len(sig):
        if _is_kw(sig[i], "PREFIX") and i + 2 < len(sig):
            end, i = sig[i + 2].end, i + 3
        elif _is_kw(sig[i], "BASE") and i + 1 < len(sig):
            end, i = sig[i + 1].end, i + 2
        else:
            break
    return end


def _drop_hints(text: str, prologue_end: int) -> str:
    """Remove ``hint:… hint:… value .`` triples (Blazegraph optimizer hints)."""
    prologue = text[:prologue_end]
    sig = _significant(tokenize(text))
    cuts = []
    for i, tok in enumerate(sig):
        if tok.start < prologue_end or i + 2 >= len(sig):
            continue
        subj = _resolve(tok, prologue)
        pred = _resolve(sig[i + 1], prologue)
        if subj and pred and subj.startswith(HINT_NS) and pred.startswith(HINT_NS):
            end = sig[i + 2].end
            if i + 3 < len(sig) and sig[i + 3].text == ".":
                end = sig[i + 3].end
            cuts.append((tok.start, end))
    for start, end in reversed(cuts):
        text = text[:start] + " " + text[end:]
    return text


def guard_services(text: str, allow: tuple[str, ...]) -> None:
    """Second guard on the exact text that runs: every ``SERVICE`` must name an allowed IRI."""
    sig = _significant(tokenize(text))
    prologue = text[: _prologue_end(text)]
    for i, tok in enumerate(sig):
        if _is_kw(tok, "SERVICE"):
            j = i + 1 + (1 if j_is_silent(sig, i + 1) else 0)
            iri = _resolve(sig[j], prologue) if j < len(sig) else None
            if iri is None or iri not in allow:
                raise ServiceNotAllowed(f"SERVICE {sig[j].text if j < len(sig) else ''} is not allowed",
                                        feature="SERVICE")


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
        used = _used_prefixes(text)
        declared = _declared_prefixes(text[: _prologue_end(text)])
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
        query = translateQuery(parsed, initNs=_prefixes_for(expanded))
    except Exception as exc:  # rdflib raises plain Exception for an unknown prefix
        raise QueryError(f"SPARQL error: {exc}", query="request") from None
    declared = _declared_prefixes(expanded[: _prologue_end(expanded)])
    if any(p in WDQS_PREFIXES and p not in declared for p in _used_prefixes(expanded)):
        features.append("predeclared prefixes")
    algebra = query.algebra
    label_services = []
    for node in _service_nodes(algebra):
        if isinstance(node.term, URIRef) and str(node.term) == LABEL_SERVICE:
            label_services.append(node)
        else:
            _check_service(node, allow)
    hints = _check_terms(algebra)
    final = expanded
    prologue_end = _prologue_end(expanded)
    if hints:
        features.append("query hints")
        final = _drop_hints(final, prologue_end)
    if label_services:
        features.append("label service")
        try:
            final = _rewrite_label_services(final, _variables(algebra), languages, prologue_end, label_services)
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
    end = _prologue_end(text)
    prologue = text[:end]
    sig = _significant(tokenize(text))
    rest = [t for t in sig if t.start >= end]
    if not rest or rest[0].kind != "word" or rest[0].text.upper() not in _FORMS:
        return None
    for tok in rest:
        if tok.kind == "word" and (tok.text.startswith("%") or tok.text.upper() in ("SERVICE", "INCLUDE")):
            return None
        if tok.kind in ("word", "iri"):
            iri = _resolve(tok, prologue)
            if iri is not None and iri.startswith(_SLOW_NAMESPACES):
                return None
    return _FORMS[rest[0].text.upper()]


def _prefixes_for(text: str) -> dict[str, str]:
    """The WDQS prefixes a text uses (binding all of them costs rdflib milliseconds a query)."""
    used = _used_prefixes(text)
    return {k: v for k, v in WDQS_PREFIXES.items() if k in used}


def _used_prefixes(text: str) -> set[str]:
    out = set()
    for tok in _significant(tokenize(text)):
        if tok.kind == "word" and ":" in tok.text and not tok.text.startswith(("?", "$", "%", "_:")):
            out.add(tok.text.split(":", 1)[0])
    return out
