"""The WDQS label service (``SERVICE wikibase:label``) rewritten into plain SPARQL.

The group holding the service becomes a sub-select that keeps the group's variables and
adds, for every ``?x`` of the group whose ``?xLabel``, ``?xDescription`` or
``?xAltLabel`` the query mentions (or that the service body names), the label /
description / comma-joined aliases in the first language of the list that has one (see
:mod:`kg.sparql.wdqs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from pyparsing import ParseResults
from rdflib import Literal, URIRef, Variable
from rdflib.plugins.sparql.algebra import translateQuery, triples as flat_triples
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue

from kg.sparql.dialect import BD, LABEL_KINDS, LABEL_SERVICE, LANGUAGE_TAG, WD, WIKIBASE, UnsupportedFeature
from kg.sparql.syntax import (
    is_keyword,
    is_silent,
    match_brace,
    prefixes_for,
    resolves_to,
    service_nodes,
    significant,
    tokenize,
)

_KIND_BY_PREDICATE = {v: k for k, v in LABEL_KINDS.items()}


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
    pred = URIRef(LABEL_KINDS[req.kind]).n3()
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
    return " ".join(t.text for t in significant(tokenize(text)))


def rewrite_label_services(text: str, mentioned: set[str], default_langs: tuple[str, ...],
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
        sig = significant(tokenize(text))
        found = None
        for i, tok in enumerate(sig):
            if is_keyword(tok, "SERVICE"):
                j = i + 1 + (1 if is_silent(sig, i + 1) else 0)
                target = sig[j] if j < len(sig) else None
                if target is not None and resolves_to(target, LABEL_SERVICE, text[:prologue_end]):
                    found = (i, j)
                    break
        if found is None:
            return text
        i, j = found
        body_open = j + 1
        body_close = match_brace(sig, body_open)
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
        close_idx = match_brace(sig, open_idx)
        prologue = text[:prologue_end]
        service_text = text[sig[i].start: sig[body_close].end]
        node = services.get(_squash(service_text))
        if node is None:  # not seen by the parser as written (cannot happen for parsed text): parse it alone
            svc = translateQuery(parseQuery(f"{prologue}\nSELECT * WHERE {{ {service_text} }}"),
                                 initNs=prefixes_for(service_text))
            node = service_nodes(svc.algebra)[0]
        langs, manual = _service_params(node, default_langs)
        rest = text[sig[open_idx].end: sig[i].start] + " " + text[sig[body_close].end: sig[close_idx].start]
        scope = _group_vars(prologue, rest)
        requests = list(manual)
        for base in scope:
            for kind in LABEL_KINDS:
                out = base + kind
                if out in mentioned and out not in scope and all(r.out != out for r in requests):
                    requests.append(LabelRequest(base, out, kind))
        outs = [r.out for r in requests]
        projection = " ".join(Variable(v).n3() for v in dict.fromkeys(scope + outs)) or "*"
        patterns = " ".join(_label_patterns(r, langs, names) for r in requests)
        new_group = f" {{ SELECT {projection} WHERE {{ {rest} {patterns} }} }} "
        text = text[: sig[open_idx].end] + new_group + text[sig[close_idx].start:]
