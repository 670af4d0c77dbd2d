"""JSON lines of WikiReplace documents: the input of ``taxogen sanitize`` and of Spark."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from engine.io.docio import DocRecord, read_documents
from engine.types import Mention


def mention_to_dict(m: Mention) -> dict[str, Any]:
    """The JSON form of a mention that :func:`engine.io.contract.parse_mention` reads back."""
    d: dict[str, Any] = {"start": m.start, "end": m.end, "entity_type": m.entity_type.value,
                         "identifier_type": m.identifier_type.value}
    if m.entity_id is not None:
        d["entity_id"] = m.entity_id
    if m.related:
        d["related"] = list(m.related)
    if m.mention_id is not None:
        d["id"] = m.mention_id
    return d


def wikireplace_jsonl(path: str | Path, annotator: str | None = None) -> Iterator[str]:
    """One JSON line (no newline) per document of a WikiReplace file, its annotator's mentions kept."""
    for rec in read_documents(path, "wikireplace", annotator=annotator):
        if isinstance(rec, DocRecord):
            doc: dict[str, Any] = {"id": rec.doc_id, "text": rec.text}
            if rec.mentions is not None:
                doc["mentions"] = [mention_to_dict(m) for m in rec.mentions]
            yield json.dumps(doc, ensure_ascii=False)


def document_lines(paths: list[str | Path]) -> list[str]:
    """The documents of every file, in order, as JSON lines: a ``.jsonl`` file's non-empty
    lines as they are, any other file read as WikiReplace."""
    out: list[str] = []
    for path in paths:
        if str(path).endswith(".jsonl"):
            out += [line for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
        else:
            out += list(wikireplace_jsonl(path))
    return out


def repeated_lines(lines: list[str], copies: int, *, batch: int = 16) -> list[str]:
    """``lines`` ``copies`` times, the whole list after itself (a document's copies are
    ``len(lines)`` lines apart, so never in one batch of ``batch``), copy ``k`` ≥ 2 of a
    document with the id ``<id>~<k>`` (a document without an id gets one from its line).
    Raises ``ValueError`` when there are fewer documents than ``batch`` (copies would share
    a batch)."""
    if copies < 1:
        raise ValueError(f"copies must be at least 1, not {copies}")
    if copies == 1:
        return list(lines)
    if len(lines) < batch:
        raise ValueError(f"{len(lines)} documents are fewer than a batch ({batch}): copies of one document would be ranked together")
    out = list(lines)
    for k in range(2, copies + 1):
        for line in lines:
            try:
                doc = json.loads(line)
            except ValueError:
                out.append(line)  # a bad record stays one, each copy reported
                continue
            if isinstance(doc, dict) and "id" in doc:
                doc["id"] = f"{doc['id']}~{k}"
                line = json.dumps(doc, ensure_ascii=False)
            out.append(line)
    return out
