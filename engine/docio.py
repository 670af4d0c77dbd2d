"""Reading documents to sanitize and writing results, atomically.

Input formats:

- ``jsonl``: one document per line, ``{"id"?, "text", "mentions": [{"start", "end",
  "entity_type", "identifier_type"?, "entity_id"?, "related"?, "id"?}]}``; streamed.
- ``wikireplace``: a JSON list of WikiReplace/TAB documents (``doc_id``, ``text``,
  ``annotations[annotator]["entity_mentions"]``); the mentions of one annotator are used
  (``annotator=None``: the first one of each document).
- ``json``: one document object in the ``jsonl`` shape.
- ``txt``: a plain-text file is one document (its file name is its id).

A document **without** a ``mentions`` key gets ``mentions=None``: its spans are detected
(:mod:`engine.detect`); ``"mentions": []`` means there is nothing to mask.

Every bad record yields a :class:`BadRecord` with its position (``file:line`` or
``file#index``) instead of being dropped; the caller skips it or stops.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

from engine.errors import InputError
from engine.types import EntityType, IdentifierType, Mention, SanitizeResult

FORMATS = ("auto", "jsonl", "wikireplace", "json", "txt")


@dataclass(frozen=True, slots=True)
class DocRecord:
    doc_id: str
    text: str
    mentions: tuple[Mention, ...] | None  # None: detect the spans (issue 13)
    position: str


@dataclass(frozen=True, slots=True)
class BadRecord:
    position: str
    reason: str


def mention_from_dict(d: dict[str, Any], position: str) -> Mention:
    """A :class:`Mention` from its JSON form; raises :class:`InputError` with the position."""
    if not isinstance(d, dict):
        raise InputError(f"{position}: a mention must be an object", position=position)
    try:
        start, end = d["start"], d["end"]
    except KeyError as exc:
        raise InputError(f"{position}: mention lacks {exc.args[0]!r}", position=position) from None
    if type(start) is not int or type(end) is not int:
        raise InputError(f"{position}: start and end must be integers", position=position)
    if "entity_type" not in d:
        raise InputError(f"{position}: mention lacks 'entity_type'", position=position)
    related = d.get("related") or d.get("related_mentions") or ()
    return Mention(
        start, end, EntityType.parse(d["entity_type"]), IdentifierType.parse(d.get("identifier_type")),
        d.get("entity_id"), tuple(str(r) for r in related), d.get("id") or d.get("entity_mention_id"),
    )


def document_from_dict(d: Any, position: str, default_id: str) -> DocRecord:
    if not isinstance(d, dict):
        raise InputError(f"{position}: a document must be a JSON object", position=position)
    text = d.get("text")
    if not isinstance(text, str):
        raise InputError(f"{position}: document lacks a string 'text'", position=position)
    # issue 13: a document without a 'mentions' key is detected; "mentions": [] masks nothing
    if "mentions" not in d:
        return DocRecord(str(d.get("id") or d.get("doc_id") or default_id), text, None, position)
    raw = d.get("mentions")
    if not isinstance(raw, list):
        raise InputError(f"{position}: 'mentions' must be a list (leave it out to detect the spans)", position=position)
    mentions = tuple(mention_from_dict(m, f"{position} mention #{i}") for i, m in enumerate(raw))
    return DocRecord(str(d.get("id") or d.get("doc_id") or default_id), text, mentions, position)


def detect_format(path: Path) -> str:
    name = path.name.lower()
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if name.endswith(".txt"):
        return "txt"
    with open(path, encoding="utf-8") as fh:
        head = fh.read(4096).lstrip()
    return "wikireplace" if head.startswith("[") else "json"


def read_documents(path: str | Path, fmt: str = "auto", *, annotator: str | None = None) -> Iterator[DocRecord | BadRecord]:
    """Documents of ``path`` (or :class:`BadRecord` entries), in file order."""
    p = Path(path)
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if fmt == "auto":
        fmt = detect_format(p)
    if fmt == "txt":
        try:
            yield DocRecord(p.stem, p.read_text(encoding="utf-8"), None, p.name)
        except UnicodeDecodeError as exc:
            yield BadRecord(p.name, f"not UTF-8 text: {exc.reason} at byte {exc.start}")
        return
    if fmt == "jsonl":
        with open(p, encoding="utf-8") as fh:
            for no, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                pos = f"{p.name}:{no}"
                try:
                    yield document_from_dict(json.loads(line), pos, f"{p.stem}-{no}")
                except json.JSONDecodeError as exc:
                    yield BadRecord(pos, f"invalid JSON: {exc.msg} at column {exc.colno}")
                except InputError as exc:
                    yield BadRecord(pos, str(exc))
        return
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        yield BadRecord(f"{p.name}:{exc.lineno}", f"invalid JSON: {exc.msg}")
        return
    if fmt == "json":
        try:
            yield document_from_dict(data, p.name, p.stem)
        except InputError as exc:
            yield BadRecord(p.name, str(exc))
        return
    if not isinstance(data, list):
        yield BadRecord(p.name, "a WikiReplace file must hold a JSON list of documents")
        return
    for i, doc in enumerate(data):
        pos = f"{p.name}#{i}"
        try:
            if not isinstance(doc, dict) or not isinstance(doc.get("annotations"), dict) or not doc["annotations"]:
                raise InputError(f"{pos}: no annotations")
            name = annotator or next(iter(doc["annotations"]))
            if name not in doc["annotations"]:
                raise InputError(f"{pos}: no annotator {name!r} (has {', '.join(doc['annotations'])})")
            mentions = [
                {**m, "start": m.get("start_offset"), "end": m.get("end_offset")}
                for m in doc["annotations"][name].get("entity_mentions", [])
            ]
            yield document_from_dict({"id": doc.get("doc_id"), "text": doc.get("text"), "mentions": mentions}, pos, f"doc-{i}")
        except InputError as exc:
            yield BadRecord(pos, str(exc))


def result_to_dict(doc_id: str, result: SanitizeResult, *, with_originals: bool = False) -> dict[str, Any]:
    """JSON form of a result. Original span texts are left out unless ``with_originals``."""
    reps = []
    for r in result.replacements:
        d = {
            "start": r.mention.start, "end": r.mention.end, "entity_type": r.mention.entity_type.value,
            "identifier_type": r.mention.identifier_type.value, "replacement": r.replacement,
            "new_start": r.new_start, "new_end": r.new_end, "kept": r.kept,
            "alternatives": [
                {"label": a.candidate.label, "score": round(a.score, 4), "source": a.candidate.source,
                 "qid": a.candidate.qid, "path": a.candidate.path, "rule": a.candidate.rule}
                for a in r.alternatives
            ],
        }
        if r.mention.entity_id:
            d["entity_id"] = r.mention.entity_id
        if r.note:
            d["note"] = r.note
        if with_originals:
            d["original"] = r.original
        reps.append(d)
    return {
        "id": doc_id, "text": result.text, "replacements": reps, "edits": list(result.edits),
        "segments": [[s.new_start, s.new_end, s.orig_start, s.orig_end] for s in result.segments],
        "errors": list(result.errors),
    }


class AtomicWriter:
    """A text file written under a temporary name and renamed into place on success."""

    def __init__(self, target: str | Path) -> None:
        self.target = Path(target)
        self._fh: IO[str] | None = None
        self._tmp: str | None = None

    def __enter__(self) -> IO[str]:
        self.target.parent.mkdir(parents=True, exist_ok=True)
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".part", dir=self.target.parent)
        self._fh = os.fdopen(fd, "w", encoding="utf-8")
        return self._fh

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self._fh is not None and self._tmp is not None
        self._fh.close()
        if exc_type is None:
            os.replace(self._tmp, self.target)
        else:
            os.unlink(self._tmp)
