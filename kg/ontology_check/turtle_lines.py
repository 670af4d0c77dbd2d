"""Where each triple of a Turtle file is written: its file and line.

rdflib (which reads the rules) and owlready2 (which reasons over them) keep no line
numbers, so findings are mapped back to the source by a second, light reading of the
text: a tokenizer for Turtle's terms (IRIs, prefixed names, literals, punctuation;
comments skipped) and a recursive reading of its statements (subject, predicate-object
lists with ``;`` and ``,``, ``[ … ]`` and ``( … )``). Each triple is recorded with the
line of its *object* token — in a list written one object a line (the kinds' roots),
that is the line naming the class. A file this reading cannot follow still gives lines:
a term is then looked up by its first textual occurrence (:meth:`SourceLines.term_line`).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

_TOKEN = re.compile(
    r'(?P<ws>\s+)|(?P<comment>#[^\n]*)'
    r'|(?P<iri><[^>\s]*>)'
    r'|(?P<long>"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\')'
    r'|(?P<str>"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')'
    r'|(?P<dtype>\^\^)|(?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)'
    r'|(?P<num>[+-]?(?:\d+\.\d+|\d+|\.\d+)(?:[eE][+-]?\d+)?)'
    r'|(?P<pname>(?:[A-Za-z_][\w-]*(?:\.[\w-]+)*)?:(?:[\w:%-]+(?:\.[\w:%-]+)*)?)'
    r'|(?P<word>[A-Za-z_]\w*)'
    r'|(?P<punct>[;,.\[\]()])'
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    line: int


def tokens(text: str) -> list[Token]:
    """Turtle tokens with their 1-based line (comments and whitespace dropped)."""
    out: list[Token] = []
    line, pos = 1, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:  # a character Turtle does not allow here: skip it (rdflib reports syntax errors)
            line += text[pos] == "\n"
            pos += 1
            continue
        kind = m.lastgroup or ""
        if kind not in ("ws", "comment"):
            out.append(Token(kind, m.group(), line))
        line += m.group().count("\n")
        pos = m.end()
    return out


@dataclass
class SourceLines:
    """Triples of one or more Turtle files, each with the file and line that states it."""

    #: (subject, predicate, object) → (file, line); IRIs in full, literals by their lexical form
    triples: dict[tuple[str, str, str], tuple[str, int]] = field(default_factory=dict)
    #: subject → (file, line) of the statement that first describes it
    subjects: dict[str, tuple[str, int]] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, paths: list[Path]) -> "SourceLines":
        lines = cls()
        for p in paths:
            text = p.read_text(encoding="utf-8")
            lines.texts[str(p)] = text
            try:
                _Reader(str(p), tokens(text), lines).statements()
            except (IndexError, ValueError):  # past what this reading follows: keep what it read
                pass
        return lines

    def triple_line(self, s: str, p: str, o: str) -> tuple[str, int] | None:
        """Where the triple ``s p o`` is written (None when it is not)."""
        return self.triples.get((s, p, o))

    def subject_line(self, s: str) -> tuple[str, int] | None:
        """Where the first statement about ``s`` starts."""
        return self.subjects.get(s)

    def term_line(self, iri: str) -> tuple[str, int] | None:
        """Where ``iri`` first occurs: as a subject, else as an object, else textually (its local name)."""
        hit = self.subjects.get(iri)
        if hit is None:
            hit = min((where for (_, _, o), where in self.triples.items() if o == iri), default=None, key=self.order_key)
        if hit is None:
            local = re.escape(re.split(r"[/#]", iri)[-1])
            for path, text in self.texts.items():
                m = re.search(rf"(?<![\w]){local}(?![\w])", text)
                if m:
                    return path, text.count("\n", 0, m.start()) + 1
        return hit

    def order_key(self, where: tuple[str, int] | None) -> tuple[int, int]:
        """Sorts places by file (in reading order) then line; None last."""
        if where is None:
            return (1 << 30, 0)
        files = list(self.texts)
        return (files.index(where[0]) if where[0] in files else len(files), where[1])


class _Reader:
    """Reads the statements of one file's tokens into :class:`SourceLines`."""

    def __init__(self, path: str, toks: list[Token], out: SourceLines) -> None:
        self.path, self.toks, self.out, self.i = path, toks, out, 0
        self.prefixes: dict[str, str] = {}
        self.bnodes = itertools.count()

    def peek(self) -> Token:
        return self.toks[self.i]

    def take(self) -> Token:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def statements(self) -> None:
        while self.i < len(self.toks):
            tok = self.peek()
            if tok.text.lower() in ("@prefix", "prefix"):
                self.take()
                name, iri = self.take(), self.take()
                self.prefixes[name.text[:-1]] = iri.text[1:-1]
                if self.i < len(self.toks) and self.peek().text == ".":
                    self.take()
            elif tok.text.lower() in ("@base", "base"):
                self.take(), self.take()
                if self.i < len(self.toks) and self.peek().text == ".":
                    self.take()
            else:
                subject, line = self.subject()
                self.out.subjects.setdefault(subject, (self.path, line))
                if self.peek().text != ".":
                    self.predicate_objects(subject)
                self.take()  # "."

    def nested(self) -> tuple[str, int] | None:
        """A blank node or a collection starting at the next token, with its line; else None."""
        tok = self.peek()
        if tok.text == "[":
            return self.blank(), tok.line
        if tok.text == "(":
            return self.collection(), tok.line
        return None

    def subject(self) -> tuple[str, int]:
        found = self.nested()
        if found is not None:
            return found
        tok = self.take()
        return self.term(tok), tok.line

    def predicate_objects(self, subject: str) -> None:
        while True:
            verb = self.take()
            predicate = RDF_TYPE if verb.text == "a" else self.term(verb)
            while True:
                obj, line = self.object()
                self.out.triples.setdefault((subject, predicate, obj), (self.path, line))
                if self.peek().text != ",":
                    break
                self.take()
            if self.peek().text != ";":
                return
            while self.i < len(self.toks) and self.peek().text == ";":
                self.take()
            if self.peek().text in (".", "]"):
                return

    def object(self) -> tuple[str, int]:
        found = self.nested()
        if found is not None:
            return found
        tok = self.take()
        if tok.kind in ("str", "long"):
            q = 3 if tok.kind == "long" else 1
            value = tok.text[q:-q]
            if self.i < len(self.toks) and self.peek().kind == "lang":
                self.take()
            elif self.i < len(self.toks) and self.peek().kind == "dtype":
                self.take(), self.take()
            return value, tok.line
        return self.term(tok), tok.line

    def blank(self) -> str:
        self.take()  # "["
        node = f"_:b{next(self.bnodes)}"
        if self.peek().text != "]":
            self.predicate_objects(node)
        self.take()  # "]"
        return node

    def collection(self) -> str:
        self.take()  # "("
        node = f"_:c{next(self.bnodes)}"
        while self.peek().text != ")":
            self.object()
        self.take()
        return node

    def term(self, tok: Token) -> str:
        if tok.kind == "iri":
            return tok.text[1:-1]
        if tok.kind == "pname":
            prefix, _, local = tok.text.partition(":")
            if prefix not in self.prefixes:
                raise ValueError(f"unknown prefix {prefix!r}")
            return self.prefixes[prefix] + local
        return tok.text  # numbers, true/false: their lexical form
