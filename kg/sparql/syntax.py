"""Reading SPARQL text for the WDQS rewrite: tokens, prefixes, named subqueries, hints, the SERVICE guard.

The query text is read as a token stream (strings, IRIs and comments are tokens of their
own, braces are matched), so a brace or keyword inside a string is never mistaken for
structure; rdflib's parse trees and algebra are walked with :func:`walk`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

from pyparsing import ParseResults
from rdflib import Variable
from rdflib.plugins.sparql.parserutils import CompValue

from kg.errors import QueryError
from kg.sparql.dialect import HINT_NS, WDQS_PREFIXES, ServiceNotAllowed, UnsupportedFeature


# --- tokens -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Token:
    """One token of SPARQL text and where it is."""

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


def significant(tokens: list[Token]) -> list[Token]:
    """``tokens`` without white space and comments."""
    return [t for t in tokens if t.kind not in ("ws", "comment")]


def match_brace(sig: list[Token], i: int) -> int:
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


def is_keyword(tok: Token, word: str) -> bool:
    """Whether ``tok`` is the keyword ``word`` (upper case), in any case."""
    return tok.kind == "word" and tok.text.upper() == word


# --- named subqueries ---------------------------------------------------------------------

def expand_named_subqueries(text: str) -> tuple[str, list[str]]:
    """Replace Blazegraph's ``WITH { … } AS %name`` / ``INCLUDE %name`` by sub-selects.

    Returns the new text and the names found. Raises :class:`UnsupportedFeature` for an
    ``INCLUDE`` of an undefined name.
    """
    sig = significant(tokenize(text))
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
        elif depth == 0 and is_keyword(tok, "WITH") and i + 1 < len(sig) and sig[i + 1].kind == "lbrace":
            close = match_brace(sig, i + 1)
            if close + 2 >= len(sig) or not is_keyword(sig[close + 1], "AS") or not sig[close + 2].text.startswith("%"):
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
    sig = significant(tokenize(text))
    out, pos = [], 0
    for i, tok in enumerate(sig):
        if is_keyword(tok, "INCLUDE"):
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


def is_silent(sig: list[Token], j: int) -> bool:
    """Whether ``sig[j]`` is ``SILENT`` (``SERVICE SILENT <iri>``)."""
    return j < len(sig) and is_keyword(sig[j], "SILENT")


def declared_prefixes(text: str) -> dict[str, str]:
    """The ``PREFIX`` declarations of ``text``: prefix → namespace IRI."""
    sig = significant(tokenize(text))
    out = {}
    for i, tok in enumerate(sig[:-2]):
        if is_keyword(tok, "PREFIX") and sig[i + 1].text.endswith(":") and sig[i + 2].kind == "iri":
            out[sig[i + 1].text[:-1]] = sig[i + 2].text[1:-1]
    return out


def resolves_to(tok: Token, iri: str, prologue: str) -> bool:
    """Whether ``tok`` names ``iri`` (see :func:`resolve`)."""
    return resolve(tok, prologue) == iri


def resolve(tok: Token, prologue: str) -> str | None:
    """The IRI ``tok`` names (``<iri>`` or a prefixed name, WDQS's prefixes and those of
    ``prologue``), or None."""
    if tok.kind == "iri":
        return tok.text[1:-1]
    if tok.kind == "word" and ":" in tok.text and not tok.text.startswith(("?", "$", "%")):
        prefix, _, local = tok.text.partition(":")
        prefixes = {**WDQS_PREFIXES, **declared_prefixes(prologue)}
        if prefix in prefixes:
            return prefixes[prefix] + local
    return None


def find_prologue_end(text: str) -> int:
    """Offset where the prologue (BASE/PREFIX declarations) ends."""
    sig = significant(tokenize(text))
    i, end = 0, 0
    while i < len(sig):
        if is_keyword(sig[i], "PREFIX") and i + 2 < len(sig):
            end, i = sig[i + 2].end, i + 3
        elif is_keyword(sig[i], "BASE") and i + 1 < len(sig):
            end, i = sig[i + 1].end, i + 2
        else:
            break
    return end


def drop_hints(text: str, prologue_end: int) -> str:
    """Remove ``hint:… hint:… value .`` triples (Blazegraph optimizer hints)."""
    prologue = text[:prologue_end]
    sig = significant(tokenize(text))
    cuts = []
    for i, tok in enumerate(sig):
        if tok.start < prologue_end or i + 2 >= len(sig):
            continue
        subj = resolve(tok, prologue)
        pred = resolve(sig[i + 1], prologue)
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
    sig = significant(tokenize(text))
    prologue = text[: find_prologue_end(text)]
    for i, tok in enumerate(sig):
        if is_keyword(tok, "SERVICE"):
            j = i + 1 + (1 if is_silent(sig, i + 1) else 0)
            iri = resolve(sig[j], prologue) if j < len(sig) else None
            if iri is None or iri not in allow:
                raise ServiceNotAllowed(f"SERVICE {sig[j].text if j < len(sig) else ''} is not allowed",
                                        feature="SERVICE")


# --- algebra walks ------------------------------------------------------------------------

def walk(node: Any) -> Iterator[Any]:
    """Every value in an rdflib parse tree or algebra (CompValues, lists, terms)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        if isinstance(cur, CompValue):
            stack.extend(v for k, v in cur.items() if k not in ("_vars",))
        elif isinstance(cur, (list, tuple, ParseResults)):
            stack.extend(cur)


def service_nodes(node: Any) -> list[CompValue]:
    """Every ``SERVICE`` pattern in an rdflib parse tree or algebra (also inside ``EXISTS``)."""
    return [n for n in walk(node) if isinstance(n, CompValue) and n.name == "ServiceGraphPattern"]


def variable_names(node: Any) -> set[str]:
    """The names of every variable in an rdflib parse tree or algebra."""
    return {str(v) for v in walk(node) if isinstance(v, Variable)}


# --- prefixes ----------------------------------------------------------------------------------

def prefixes_for(text: str) -> dict[str, str]:
    """The WDQS prefixes a text uses (binding all of them costs rdflib milliseconds a query)."""
    used = used_prefixes(text)
    return {k: v for k, v in WDQS_PREFIXES.items() if k in used}


def used_prefixes(text: str) -> set[str]:
    """The prefixes of the prefixed names ``text`` uses."""
    out = set()
    for tok in significant(tokenize(text)):
        if tok.kind == "word" and ":" in tok.text and not tok.text.startswith(("?", "$", "%", "_:")):
            out.add(tok.text.split(":", 1)[0])
    return out
