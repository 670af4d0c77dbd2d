"""Streaming readers of Wikidata dumps, filtered to the triples taxogen keeps.

Both readers yield N-Triples lines (``str`` ending in ``\\n``) and record malformed input
in a :class:`DumpReport`; nothing is read whole into memory.

- :func:`read_ntriples` reads a truthy N-Triples dump (``.nt``, ``.nt.gz``, ``.nt.bz2``).
- :func:`read_json_dump` reads a JSON dump (``.json``, ``.json.gz``, ``.json.bz2``; one
  entity per line, inside ``[`` … ``]``, lines ending in ``,``) and emits the truthy
  statements: preferred-rank values when a property has any, else normal-rank ones.

Kept: ``wdt:`` statements of :data:`kg.vocab.KEPT_PROPS` whose object is an item (P1549
demonyms: English literals; P569/P570 birth and death dates: ``xsd:dateTime`` literals), and English ``rdfs:label``, ``skos:altLabel`` and
``schema:description``.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from kg.errors import DumpError
from kg.vocab import DATE_PROPS, KEPT_PREDICATES, RDFS_LABEL, SCHEMA_DESC, SKOS_ALT, TEXT_PREDICATES, WD, WDT, XSD_DATETIME

_DATE_PREDICATES = frozenset(WDT + p for p in DATE_PROPS)

_IRI = r"<[^<>\"{}|^`\\\x00-\x20]*>"
_ECHAR = r"\\[tbnrf\"'\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_LITERAL = rf"\"(?:[^\"\\\n\r]|{_ECHAR})*\"(?:@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)|\^\^{_IRI})?"
_BNODE = r"_:[A-Za-z0-9_][A-Za-z0-9_.\-]*"
NT_LINE = re.compile(
    rf"^\s*({_IRI}|{_BNODE})\s+({_IRI})\s+({_IRI}|{_BNODE}|{_LITERAL})\s*\.\s*(?:#.*)?$"
)


@dataclass
class DumpReport:
    """What a dump reader saw: lines read, triples kept, malformed lines (first few kept)."""

    path: str
    lines: int = 0
    kept: int = 0
    malformed: int = 0
    examples: list[tuple[int, str, str]] = field(default_factory=list)
    max_examples: int = 10

    def bad(self, line_no: int, line: str, reason: str, *, strict: bool) -> None:
        """Record a malformed line; in strict mode raise :class:`DumpError` at once."""
        self.malformed += 1
        if strict:
            raise DumpError(f"{self.path}:{line_no}: {reason}: {line[:120]!r}", path=self.path, line=line_no)
        if len(self.examples) < self.max_examples:
            self.examples.append((line_no, reason, line[:200]))


def open_text(path: str | Path) -> IO[str]:
    """Open a possibly gzip/bz2-compressed text file for streaming."""
    p = str(path)
    try:
        if p.endswith(".gz"):
            return io.TextIOWrapper(gzip.open(p, "rb"), encoding="utf-8", errors="strict")
        if p.endswith(".bz2"):
            return io.TextIOWrapper(bz2.open(p, "rb"), encoding="utf-8", errors="strict")
        return open(p, encoding="utf-8", errors="strict")
    except OSError as exc:
        raise DumpError(f"cannot open {p}: {exc}", path=p) from exc


def dump_format(path: str | Path) -> str:
    """``"nt"`` or ``"json"`` from a dump's file name; raises :class:`DumpError` otherwise."""
    name = str(path).lower()
    for suffix in (".gz", ".bz2"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if name.endswith((".nt", ".ntriples")):
        return "nt"
    if name.endswith((".json", ".jsonl", ".ndjson")):
        return "json"
    raise DumpError(f"unknown dump format for {path} (expected .nt/.json, optionally .gz/.bz2)", path=str(path))


def _iter_lines(fh: IO[str], report: DumpReport, strict: bool) -> Iterator[tuple[int, str]]:
    while True:
        try:
            line = fh.readline()
        except UnicodeDecodeError as exc:
            report.lines += 1
            report.bad(report.lines, "", f"invalid UTF-8 ({exc.reason})", strict=strict)
            continue
        except (EOFError, OSError) as exc:  # truncated gzip/bz2
            raise DumpError(f"{report.path}: truncated or corrupt after line {report.lines}: {exc}", path=report.path, line=report.lines) from exc
        if not line:
            return
        report.lines += 1
        yield report.lines, line


def read_ntriples(
    path: str | Path,
    report: DumpReport,
    *,
    strict: bool = False,
    on_line: Callable[[int], None] | None = None,
) -> Iterator[str]:
    """Yield the kept triples of a truthy N-Triples dump as N-Triples lines."""
    with open_text(path) as fh:
        for no, raw in _iter_lines(fh, report, strict):
            if on_line is not None and no % 10000 == 0:
                on_line(no)
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            m = NT_LINE.match(line)
            if m is None:
                report.bad(no, line, "not an N-Triples statement", strict=strict)
                continue
            pred = m.group(2)[1:-1]
            obj = m.group(3)
            if pred in KEPT_PREDICATES:
                if obj.startswith("<") and not obj[1:].startswith(WD):
                    continue
                if obj.startswith('"') and pred in _DATE_PREDICATES:
                    if not obj.endswith(f"^^<{XSD_DATETIME}>"):
                        continue
                elif obj.startswith('"') and pred != WDT + "P1549":
                    continue
                if obj.startswith('"') and m.group(4) not in ("en", None):
                    continue
            elif pred in TEXT_PREDICATES:
                if m.group(4) is None or m.group(4).lower() != "en":
                    continue
            else:
                continue
            report.kept += 1
            yield line + "\n"


_JSON_TIME = re.compile(r"^\+?(-?\d{4,})-(\d{2})-(\d{2})T")


def _nt_literal(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{out}"@en'


def _truthy(statements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ranked = [s for s in statements if s.get("rank") != "deprecated"]
    preferred = [s for s in ranked if s.get("rank") == "preferred"]
    return preferred or ranked


def entity_triples(entity: dict[str, Any]) -> Iterator[str]:
    """N-Triples lines for one Wikidata JSON entity (kept properties, English text)."""
    eid = entity.get("id")
    if not isinstance(eid, str) or not re.match(r"^[QP][1-9][0-9]*$", eid):
        raise ValueError(f"entity without a valid id: {eid!r}")
    subj = f"<{WD}{eid}>"
    label = (entity.get("labels") or {}).get("en")
    if label and label.get("value"):
        yield f"{subj} <{RDFS_LABEL}> {_nt_literal(label['value'])} .\n"
    for alias in (entity.get("aliases") or {}).get("en", []) or []:
        if alias.get("value"):
            yield f"{subj} <{SKOS_ALT}> {_nt_literal(alias['value'])} .\n"
    desc = (entity.get("descriptions") or {}).get("en")
    if desc and desc.get("value"):
        yield f"{subj} <{SCHEMA_DESC}> {_nt_literal(desc['value'])} .\n"
    claims = entity.get("claims") or {}
    if not isinstance(claims, dict):
        raise ValueError("claims is not an object")
    for prop, statements in claims.items():
        pred = WDT + prop
        if pred not in KEPT_PREDICATES:
            continue
        for st in _truthy(statements):
            snak = st.get("mainsnak") or {}
            if snak.get("snaktype") != "value":
                continue
            value = (snak.get("datavalue") or {}).get("value")
            if isinstance(value, dict) and value.get("entity-type") == "item" and value.get("id"):
                yield f"{subj} <{pred}> <{WD}{value['id']}> .\n"
            elif isinstance(value, dict) and "numeric-id" in value and value.get("entity-type") == "item":
                yield f"{subj} <{pred}> <{WD}Q{int(value['numeric-id'])}> .\n"
            elif isinstance(value, dict) and prop in DATE_PROPS and isinstance(value.get("time"), str):
                m = _JSON_TIME.match(value["time"])
                if m:  # year/month precision comes as -00: written as the first day, like the truthy dump
                    y, mo, d = m.group(1), m.group(2).replace("00", "01"), m.group(3).replace("00", "01")
                    yield f'{subj} <{pred}> "{y}-{mo}-{d}T00:00:00Z"^^<{XSD_DATETIME}> .\n'
            elif isinstance(value, dict) and value.get("language") == "en" and "text" in value:
                yield f"{subj} <{pred}> {_nt_literal(value['text'])} .\n"


def read_json_dump(
    path: str | Path,
    report: DumpReport,
    *,
    strict: bool = False,
    on_line: Callable[[int], None] | None = None,
) -> Iterator[str]:
    """Yield the kept triples of a Wikidata JSON dump (one entity per line) as N-Triples lines."""
    with open_text(path) as fh:
        for no, raw in _iter_lines(fh, report, strict):
            if on_line is not None and no % 10000 == 0:
                on_line(no)
            line = raw.strip()
            if line in ("", "[", "]"):
                continue
            if line.endswith(","):
                line = line[:-1]
            try:
                entity = json.loads(line)
                if not isinstance(entity, dict):
                    raise ValueError("not a JSON object")
                triples = list(entity_triples(entity))
            except (ValueError, TypeError, AttributeError, KeyError) as exc:
                report.bad(no, line, f"bad entity JSON ({exc})", strict=strict)
                continue
            report.kept += len(triples)
            yield from triples


def read_dump(
    path: str | Path,
    report: DumpReport,
    *,
    strict: bool = False,
    on_line: Callable[[int], None] | None = None,
) -> Iterator[str]:
    """Dispatch on the file name to :func:`read_ntriples` or :func:`read_json_dump`."""
    reader = read_ntriples if dump_format(path) == "nt" else read_json_dump
    return reader(path, report, strict=strict, on_line=on_line)
