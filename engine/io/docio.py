"""Reading documents to sanitize and writing results, atomically.

Input formats:

- ``jsonl``: one document per line, ``{"id"?, "text", "mentions": [{"start", "end",
  "entity_type", "identifier_type"?, "entity_id"?, "related"?, "id"?}]}``; streamed.
- ``wikireplace``: a JSON list of WikiReplace/TAB documents (``doc_id``, ``text``,
  ``annotations[annotator]["entity_mentions"]``); the mentions of one annotator are used
  (``annotator=None``: the first one of each document).
- ``tab``: TAB's JSON (the Text Anonymization Benchmark's judgments: ``doc_id``, ``text``,
  ``annotations[annotator]["entity_mentions"]`` with ``identifier_type`` DIRECT, QUASI or
  NO_MASK), read as ``wikireplace``, whose shape it is; ``detect=True`` (``--detect``) keeps
  the texts and detects their spans instead.
- ``json``: one document object in the ``jsonl`` shape.
- ``text`` (``txt``): a plain-text file is one document (its file name is its id).

``auto`` tells them by name: ``.jsonl``/``.ndjson`` are JSON lines, ``.json`` a document or
(starting with ``[``) a WikiReplace list, anything else (``.txt``, ``.md``, no extension)
plain text. Every input is read in one encoding (``encoding``, default UTF-8; a BOM is
dropped), and every document's text is held to one size limit
(:func:`engine.io.contract.check_text_size`); a plain-text file too large for it is
refused before it is read.

A document **without** a ``mentions`` key gets ``mentions=None``: its spans are detected
(:mod:`engine.detect`); ``"mentions": []`` means there is nothing to mask.

Every bad record yields a :class:`BadRecord` with its position (``file:line`` or
``file#index``) instead of being dropped; the caller skips it or stops.
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

from engine.errors import InputError
from engine.io import contract
from engine.io.files import output_mode, part_prefix, sweep_stale_parts
from engine.doc import SanitizeResult
from engine.types import Mention

FORMATS = ("auto", "jsonl", "wikireplace", "tab", "json", "text", "txt")  # txt: another name of text; tab: TAB's JSON, WikiReplace's shape
#: ``--out -``: the results go to standard output.
STDOUT = "-"


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
    """The input format of ``path`` by its name: jsonl, json or wikireplace (by the first
    character), or text for any other name (``.txt``, ``.md``, no extension)."""
    name = path.name.lower()
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if not name.endswith(".json"):
        return "text"
    with open(path, encoding="utf-8", errors="replace") as fh:
        head = fh.read(4096).lstrip()
    return "wikireplace" if head.startswith("[") else "json"


def check_encoding(encoding: str) -> str:
    """The codec's canonical name of ``encoding``; a one-line :class:`InputError` if Python has none."""
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r} (e.g. utf-8, latin-1, cp1252, utf-16)") from None


def _decode(raw: bytes, encoding: str) -> str:
    text = raw.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def read_text_document(p: Path, encoding: str = "utf-8") -> DocRecord | BadRecord:
    """A plain-text file as one raw document (its spans to be detected), or why it cannot be one.

    A file whose size alone puts it over the limit is refused without being read."""
    limit = contract.LIMITS["text_chars"]
    per_char = 1 if codecs.lookup(encoding).name in ("latin-1", "iso8859-1", "ascii", "cp1252") else 4
    size = p.stat().st_size
    if size > per_char * limit + 4:  # 4: a BOM
        return BadRecord(p.name, f"{size:,} bytes: more than the limit of {limit:,} characters of text; split the file")
    try:
        text = _decode(p.read_bytes(), encoding)
    except UnicodeDecodeError as exc:
        return BadRecord(p.name, f"not {encoding} text: {exc.reason} at byte {exc.start} (--encoding names another)")
    try:
        contract.check_text_size(text)
    except InputError as exc:
        return BadRecord(p.name, f"{exc}; split the file")
    return DocRecord(p.stem, text, None, p.name)


def read_documents(path: str | Path, fmt: str = "auto", *, annotator: str | None = None,
                   encoding: str = "utf-8", detect: bool = False) -> Iterator[DocRecord | BadRecord | Skipped]:
    """Documents of ``path`` (or :class:`BadRecord` / :class:`Skipped` entries), in file order.

    A document id seen before is a :class:`BadRecord` (results are keyed by id). With
    ``annotator``, WikiReplace documents that this annotator did not annotate are
    :class:`Skipped`, not bad. ``encoding``: of the file (JSON too; default UTF-8).
    ``detect``: every document's mentions are dropped, its spans detected.
    """
    for rec in _read_documents(path, fmt, annotator=annotator, encoding=encoding):
        yield DocRecord(rec.doc_id, rec.text, None, rec.position) if detect and isinstance(rec, DocRecord) else rec


def _read_documents(path: str | Path, fmt: str, *, annotator: str | None,
                    encoding: str) -> Iterator[DocRecord | BadRecord | Skipped]:
    p = Path(path)
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    encoding = check_encoding(encoding)
    utf8 = encoding == "utf-8"
    if fmt == "auto":
        fmt = detect_format(p)
    if fmt == "tab":
        fmt = "wikireplace"
    if fmt in ("text", "txt"):  # a plain-text file is one raw document, its spans detected
        yield read_text_document(p, encoding)
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
                if not utf8:
                    try:
                        line = _decode(line, encoding) if no == 1 else line.decode(encoding)
                    except UnicodeDecodeError as exc:
                        yield BadRecord(f"{p.name}:{no}", f"not {encoding} text: {exc.reason} at byte {exc.start}")
                        continue
                rec = jsonl_record(line, p.name, no)
                if rec is not None:
                    yield checked(rec) if isinstance(rec, DocRecord) else rec
        return
    try:
        raw = p.read_bytes()
        data = contract.parse_json(raw if utf8 else _decode(raw, encoding))
    except UnicodeDecodeError as exc:
        yield BadRecord(p.name, f"not {encoding} text: {exc.reason} at byte {exc.start}")
        return
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
        yield BadRecord(p.name, "a WikiReplace or TAB file must hold a JSON list of documents")
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


def is_regular_or_absent(path: str | Path) -> bool:
    """True unless ``path`` is, or links to, something other than a regular file (a device,
    a pipe, a socket, a directory). Links are followed as ``open`` follows them: a link to a
    pipe such as ``/dev/stdout`` is a pipe, though its target has no path."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


def is_stdout(target: str | Path) -> bool:
    """True for ``-``, the name of standard output."""
    return str(target) == STDOUT


class AtomicWriter:
    """A text file written under a temporary name and renamed into place on success.

    The temporary part is ``.<name>.<pid>.<random>.part``; parts left by killed runs of
    the same target are removed first, and the file mode follows
    :func:`engine.io.files.output_mode` (umask, or ``0600`` with ``private``).

    Only a regular file is ever replaced: ``-`` is standard output, a path that is (or
    links to) a device, a pipe or a socket is opened and written to directly, and a
    symbolic link to a file keeps being a link (the file it points at is replaced).
    """

    def __init__(self, target: str | Path, *, private: bool = False) -> None:
        self.target = Path(target)
        self.private = private
        self._fh: IO[str] | None = None
        self._tmp: str | None = None
        self._final: Path | None = None
        self._direct = False

    def __enter__(self) -> IO[str]:
        if is_stdout(self.target):
            self._direct, self._fh = True, sys.stdout
            return self._fh
        if not is_regular_or_absent(self.target):  # a device, a pipe (/dev/stdout): written to, never replaced
            self._direct, self._fh = True, open(self.target, "w", encoding="utf-8")
            return self._fh
        final = Path(os.path.realpath(self.target))  # through a symbolic link: the file it points at
        self._final = final
        final.parent.mkdir(parents=True, exist_ok=True)
        sweep_stale_parts(final)
        fd, self._tmp = tempfile.mkstemp(prefix=part_prefix(final), suffix=".part", dir=final.parent)
        os.fchmod(fd, output_mode(self.private))
        self._fh = os.fdopen(fd, "w", encoding="utf-8")
        return self._fh

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self._fh is not None
        if self._direct:
            if self._fh is sys.stdout:
                self._fh.flush()
            else:
                self._fh.close()
            return
        assert self._tmp is not None and self._final is not None
        try:
            self._fh.close()
        finally:
            if exc_type is None:
                os.replace(self._tmp, self._final)
            else:
                os.unlink(self._tmp)
