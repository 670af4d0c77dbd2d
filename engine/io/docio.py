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

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

from engine.errors import InputError
from engine.io import contract
from engine.io.files import output_mode, part_prefix, sweep_stale_parts
from engine.doc import SanitizeResult
from engine.types import Mention

FORMATS = ("auto", "jsonl", "wikireplace", "json", "txt")


@dataclass(frozen=True, slots=True)
class DocRecord:
    doc_id: str
    text: str
    mentions: tuple[Mention, ...] | None  # None: detect the spans
    position: str


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A record that breaks the input contract: ``reason`` does not repeat ``position``."""

    position: str
    reason: str


@dataclass(frozen=True, slots=True)
class Skipped:
    """A record deliberately left out (e.g. not annotated by the requested annotator)."""

    position: str
    reason: str


def mention_from_dict(d: dict[str, Any], position: str, text: str | None = None) -> Mention:
    """A :class:`Mention` from its JSON form (see :mod:`engine.io.contract`); raises :class:`InputError`."""
    return contract.parse_mention(d, text, position)


def document_from_dict(d: Any, position: str, default_id: str) -> DocRecord:
    """A document from its JSON form (see :mod:`engine.io.contract`).

    Raises :class:`InputError` with ``position``; the message itself does not repeat it.
    """
    try:
        doc_id, text, mentions = contract.parse_document(d)
    except InputError as exc:
        raise InputError(str(exc), position=position) from None
    return DocRecord(doc_id or default_id, text, mentions, position)


def jsonl_record(line: bytes | str, name: str, no: int) -> DocRecord | BadRecord | None:
    """Line ``no`` (from 1) of the JSON-lines file ``name``: a document, a bad record, or
    ``None`` for a blank line. The position is ``name:no``; the default id ``stem-no``.

    The one reader of a JSONL line: ``taxogen sanitize`` and ``taxogen spark sanitize``
    (:mod:`engine.spark.sanitize`) both parse through it. Duplicate ids are checked by
    the caller, who sees the whole file.
    """
    if not line.strip():
        return None
    pos = f"{name}:{no}"
    try:
        return document_from_dict(contract.parse_json(line), pos, f"{Path(name).stem}-{no}")
    except InputError as exc:
        return BadRecord(pos, str(exc))


def duplicate_reason(first_position: str) -> str:
    """The reason of a :class:`BadRecord` whose id was seen before, at ``first_position``."""
    return f"duplicate document id (first at {first_position})"


def position_order(position: str) -> int:
    """The line (``file:line``) or index (``file#index``) of a position, for sorting records
    of one file in input order (0 for a whole-file position)."""
    for sep in (":", "#"):
        head, _, tail = position.rpartition(sep)
        if head and tail.isdigit():
            return int(tail)
    return 0


def detect_format(path: Path) -> str:
    name = path.name.lower()
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if name.endswith(".txt"):
        return "txt"
    with open(path, encoding="utf-8", errors="replace") as fh:
        head = fh.read(4096).lstrip()
    return "wikireplace" if head.startswith("[") else "json"


def read_documents(path: str | Path, fmt: str = "auto", *, annotator: str | None = None) -> Iterator[DocRecord | BadRecord | Skipped]:
    """Documents of ``path`` (or :class:`BadRecord` / :class:`Skipped` entries), in file order.

    A document id seen before is a :class:`BadRecord` (results are keyed by id). With
    ``annotator``, WikiReplace documents that this annotator did not annotate are
    :class:`Skipped`, not bad.
    """
    p = Path(path)
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if fmt == "auto":
        fmt = detect_format(p)
    if fmt == "txt":  # a plain-text file is one raw document, its spans detected
        try:
            yield DocRecord(p.stem, p.read_text(encoding="utf-8"), None, p.name)
        except UnicodeDecodeError as exc:
            yield BadRecord(p.name, f"not UTF-8 text: {exc.reason} at byte {exc.start}")
        return
    seen: dict[str, str] = {}

    def checked(rec: DocRecord) -> DocRecord | BadRecord:
        first = seen.setdefault(rec.doc_id, rec.position)
        if first != rec.position:
            return BadRecord(rec.position, duplicate_reason(first))
        return rec

    if fmt == "jsonl":
        with open(p, "rb") as fh:
            for no, line in enumerate(fh, start=1):
                rec = jsonl_record(line, p.name, no)
                if rec is not None:
                    yield checked(rec) if isinstance(rec, DocRecord) else rec
        return
    try:
        data = contract.parse_json(p.read_bytes())
    except InputError as exc:
        yield BadRecord(p.name, str(exc))
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
                raise InputError("no annotations")
            name = annotator or next(iter(doc["annotations"]))
            if name not in doc["annotations"]:
                yield Skipped(pos, f"not annotated by {name}")
                continue
            ann = doc["annotations"][name]
            raw = ann.get("entity_mentions", []) if isinstance(ann, dict) else None
            if not isinstance(raw, list):
                raise InputError(f"annotations of {name} lack an 'entity_mentions' list")
            mentions = [
                {**m, "start": m.get("start_offset"), "end": m.get("end_offset")} if isinstance(m, dict) else m
                for m in raw
            ]
            yield checked(document_from_dict({"id": doc.get("doc_id"), "text": doc.get("text"), "mentions": mentions}, pos, f"doc-{i}"))
        except InputError as exc:
            yield BadRecord(pos, str(exc))


def result_to_dict(doc_id: str, result: SanitizeResult, *, with_originals: bool = False) -> dict[str, Any]:
    """JSON form of a result. Original span texts are left out unless ``with_originals``, and so
    are the labels of skipped candidates (a leaking label reveals another mention's text)."""
    reps = []
    for r in result.replacements:
        d = {
            "start": r.mention.start, "end": r.mention.end, "entity_type": r.mention.entity_type.value,
            "identifier_type": r.mention.identifier_type.value, "replacement": r.replacement,
            "rung": r.rung, "rendered": r.rendered,
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
    out = {
        "id": doc_id, "text": result.text, "replacements": reps, "edits": list(result.edits),
        "segments": [[s.new_start, s.new_end, s.orig_start, s.orig_end] for s in result.segments],
        "errors": list(result.errors),
        "skipped": [
            {"start": k.mention_start, "end": k.mention_end, "source": k.source, "level": k.level, "reason": k.reason}
            | ({"label": k.label} if with_originals else {})
            for k in result.skipped
        ],
    }
    if result.privacy is not None:
        out["privacy"] = result.privacy.to_dict()
    return out


class AtomicWriter:
    """A text file written under a temporary name and renamed into place on success.

    The temporary part is ``.<name>.<pid>.<random>.part``; parts left by killed runs of
    the same target are removed first, and the file mode follows
    :func:`engine.io.files.output_mode` (umask, or ``0600`` with ``private``).
    """

    def __init__(self, target: str | Path, *, private: bool = False) -> None:
        self.target = Path(target)
        self.private = private
        self._fh: IO[str] | None = None
        self._tmp: str | None = None

    def __enter__(self) -> IO[str]:
        self.target.parent.mkdir(parents=True, exist_ok=True)
        sweep_stale_parts(self.target)
        fd, self._tmp = tempfile.mkstemp(prefix=part_prefix(self.target), suffix=".part", dir=self.target.parent)
        os.fchmod(fd, output_mode(self.private))
        self._fh = os.fdopen(fd, "w", encoding="utf-8")
        return self._fh

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self._fh is not None and self._tmp is not None
        try:
            self._fh.close()
        finally:
            if exc_type is None:
                os.replace(self._tmp, self.target)
            else:
                os.unlink(self._tmp)
