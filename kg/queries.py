"""Named SPARQL queries: ``queries/<name>.rq`` loaded by name and run with bound values.

Every ``.rq`` file starts with a comment header::

    # summary: what the query answers
    # in: ?item iri     a Wikidata item            (one line per bindable variable)
    # out: ?child ?parent ?prop
    # dataset: union    (optional) read the Wikidata graph together with the cache graphs

Values are bound only through pyoxigraph's ``substitutions=`` (never by formatting the
query text), so a value cannot change the query's structure. A binding must be declared
in the header with its kind: ``iri`` (a Wikidata id such as ``Q42`` or a full
``http://www.wikidata.org/entity/`` IRI), ``string`` (an English literal), ``text`` (a
plain literal) or ``int``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal as TypingLiteral

import pyoxigraph as ox

from kg.errors import QueryError
from kg.vocab import WD, entity_iri, is_entity_id

BindingKind = TypingLiteral["iri", "string", "text", "int"]
_KINDS = ("iri", "string", "text", "int")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_IN = re.compile(r"^#\s*in:\s*\?(\w+)\s+(\w+)\s*(.*)$")
_OUT = re.compile(r"^#\s*out:\s*(.*)$")
_SUMMARY = re.compile(r"^#\s*summary:\s*(.*)$")
_DATASET = re.compile(r"^#\s*dataset:\s*(union|default)\b")


@dataclass(frozen=True, slots=True)
class NamedQuery:
    """A parsed ``.rq`` file: its text and the header's declared inputs and outputs."""

    name: str
    text: str
    summary: str
    inputs: dict[str, str] = field(default_factory=dict)
    outputs: tuple[str, ...] = ()
    path: str = ""
    union: bool = False


def parse_query(name: str, text: str, path: str = "", *, default_summary: str = "") -> NamedQuery:
    """Parse a query's header; raises :class:`QueryError` when the header is malformed."""
    summary, inputs, outputs, union = "", {}, (), False
    for line in text.splitlines():
        if not line.startswith("#"):
            continue
        if m := _DATASET.match(line):
            union = m.group(1) == "union"
        elif m := _SUMMARY.match(line):
            summary = m.group(1).strip()
        elif m := _IN.match(line):
            var, kind = m.group(1), m.group(2)
            if kind not in _KINDS:
                raise QueryError(f"{name}.rq declares ?{var} with unknown kind {kind!r}", query=name)
            inputs[var] = kind
        elif m := _OUT.match(line):
            outputs = tuple(v.lstrip("?") for v in m.group(1).split())
    summary = summary or default_summary
    if not summary:
        raise QueryError(f"{name}.rq has no '# summary:' header line", query=name)
    for var in inputs:
        # pyoxigraph substitutes only variables that are projected
        if not re.search(rf"SELECT[^{{]*\?{var}\b", text, flags=re.S | re.I) and not re.search(
            r"^\s*(ASK|CONSTRUCT)", _strip_comments(text), flags=re.I | re.M
        ):
            raise QueryError(f"{name}.rq: input ?{var} must appear in SELECT", query=name)
    return NamedQuery(name=name, text=text, summary=summary, inputs=inputs, outputs=outputs, path=path, union=union)


def _strip_comments(text: str) -> str:
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))


def query_dir() -> Path:
    """Directory holding the shipped ``.rq`` files."""
    return Path(str(resources.files("queries")))


def list_queries() -> list[str]:
    """Names of every shipped query, sorted."""
    return sorted(p.stem for p in query_dir().glob("*.rq"))


@lru_cache(maxsize=None)
def load_query(name: str) -> NamedQuery:
    """Load ``queries/<name>.rq`` by name (cached). Raises :class:`QueryError` if unknown."""
    if not _NAME.match(name):
        raise QueryError(f"invalid query name {name!r}", query=name)
    path = query_dir() / f"{name}.rq"
    if not path.is_file():
        raise QueryError(f"no query named {name!r}; known: {', '.join(list_queries())}", query=name)
    return parse_query(name, path.read_text(encoding="utf-8"), str(path))


def load_query_file(path: str | Path) -> NamedQuery:
    """Load a maintainer's ``.rq`` file from any path."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise QueryError(f"cannot read {p}: {exc}", query=p.stem) from exc
    # the text is kept as written, so that syntax errors point at the file's own lines
    return parse_query(p.stem, text, str(p), default_summary=p.name)


def unbound_inputs(query: NamedQuery, bindings: dict[str, Any]) -> list[str]:
    """Declared inputs of ``query`` that ``bindings`` leaves unbound (the query would match anything)."""
    return [v for v in query.inputs if v not in bindings]


_ERROR_AT = re.compile(r"error at (\d+):(\d+):?\s*")


def syntax_error_message(query: NamedQuery, exc: Exception) -> str:
    """A query's syntax error with the line and column of the query as written (1-based)."""
    where = Path(query.path).name if query.path else f"{query.name}.rq"
    m = _ERROR_AT.search(str(exc))
    if m is None:
        return f"syntax error in {where}: {exc}"
    line, col = int(m.group(1)), int(m.group(2))
    lines = query.text.splitlines()
    detail = str(exc)[m.end():]
    if line > len(lines) or not "\n".join([lines[line - 1][col - 1:], *lines[line:]]).strip():
        return f"syntax error in {where} at the end of the query (line {len(lines)}): {detail}"
    return f"syntax error in {where} at line {line}, column {col}: {detail}"


def to_term(query: NamedQuery, var: str, value: Any) -> ox.NamedNode | ox.Literal:
    """Convert one binding to an RDF term according to the header's declared kind."""
    if var not in query.inputs:
        declared = ", ".join(f"?{v}" for v in query.inputs) or "none"
        raise QueryError(f"{query.name}: ?{var} is not a declared input (declared: {declared})", query=query.name)
    kind = query.inputs[var]
    if kind == "iri":
        if isinstance(value, ox.NamedNode):
            value = value.value
        text = str(value)
        if is_entity_id(text):
            return ox.NamedNode(entity_iri(text))
        if text.startswith(WD) and is_entity_id(text[len(WD):]):
            return ox.NamedNode(text)
        if text.startswith(("http://", "https://", "urn:")) and not re.search(r"[\s<>\"{}|^`\\]", text):
            return ox.NamedNode(text)
        raise QueryError(f"{query.name}: ?{var} needs a Wikidata id or IRI, got {value!r}", query=query.name)
    if kind == "int":
        try:
            return ox.Literal(str(int(value)), datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer"))
        except (TypeError, ValueError) as exc:
            raise QueryError(f"{query.name}: ?{var} needs an integer, got {value!r}", query=query.name) from exc
    if not isinstance(value, str):
        raise QueryError(f"{query.name}: ?{var} needs a string, got {type(value).__name__}", query=query.name)
    if kind == "string":
        return ox.Literal(value, language="en")
    return ox.Literal(value)


def bind(query: NamedQuery, bindings: dict[str, Any]) -> dict[ox.Variable, ox.NamedNode | ox.Literal]:
    """Map ``{name: value}`` to pyoxigraph substitutions, validating every name and value."""
    return {ox.Variable(k): to_term(query, k, v) for k, v in bindings.items()}


def term_value(term: Any) -> Any:
    """Python value of an RDF term (IRI string, literal value, ``None`` for unbound)."""
    if term is None:
        return None
    if type(term) is ox.NamedNode:
        return term.value
    if isinstance(term, ox.Literal):
        dt = term.datatype.value if term.datatype is not None else ""
        if dt.endswith(("#integer", "#int", "#long")):
            return int(term.value)
        return term.value
    if isinstance(term, (ox.NamedNode, ox.BlankNode)):
        return term.value
    return str(term)


def render(query: NamedQuery, bindings: dict[str, Any], *, limit: int | None = None, offset: int | None = None) -> str:
    """Query text for a remote endpoint, with the bindings as a leading ``VALUES`` block.

    The template is not edited: validated terms (see :func:`to_term`) are serialized in
    N-Triples syntax by pyoxigraph and placed in a ``VALUES`` clause at the start of the
    outermost ``WHERE`` group, which is SPARQL 1.1's own way to pass values. One binding
    may be a list (one ``VALUES`` row per value). ``limit`` and ``offset`` (integers) are
    appended for paging.
    """
    multi = [k for k, v in bindings.items() if isinstance(v, (list, tuple))]
    if len(multi) > 1:
        raise QueryError(f"{query.name}: only one binding may hold several values", query=query.name)
    rows: list[dict[str, Any]] = [dict(bindings)]
    if multi:
        rows = [{**bindings, multi[0]: v} for v in bindings[multi[0]]]
        if not rows:
            raise QueryError(f"{query.name}: ?{multi[0]} has no values", query=query.name)
    text = query.text
    if bindings:
        terms_rows = [bind(query, r) for r in rows]
        names = " ".join(f"?{v.value}" for v in terms_rows[0])
        body = " ".join("(" + " ".join(str(t) for t in tr.values()) + ")" for tr in terms_rows)
        match = re.search(r"\bWHERE\s*\{", text, flags=re.I)
        if match is None:
            raise QueryError(f"{query.name}: no WHERE group to bind into", query=query.name)
        text = f"{text[: match.end()]}\n  VALUES ({names}) {{ {body} }}{text[match.end():]}"
    if limit is not None:
        text = f"{text.rstrip()}\nLIMIT {int(limit)}"
    if offset:
        text = f"{text}\nOFFSET {int(offset)}"
    return text
