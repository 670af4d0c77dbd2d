"""Sanitizing files: documents in batches, bad records reported, output written atomically."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from engine.docio import AtomicWriter, BadRecord, DocRecord, Skipped, read_documents, result_to_dict
from engine.errors import InputError


@dataclass
class RunSummary:
    documents: int = 0
    mentions: int = 0
    failed_spans: int = 0
    bad: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    merged: list[tuple[str, str]] = field(default_factory=list)
    aborted: bool = False


class _Abort(Exception):
    pass


class _Empty(Exception):
    pass


def run_sanitize(
    engine,
    source: Path,
    target: Path,
    *,
    fmt: str = "auto",
    annotator: str | None = None,
    strict: bool = False,
    with_originals: bool = False,
    overlap: str = "merge",
    batch: int = 16,
    progress: bool = True,
) -> RunSummary:
    """Sanitize every document of ``source`` into ``target`` (JSON lines).

    Bad records are listed in ``summary.bad`` (position, reason); documents left out on
    purpose (another annotator's) in ``summary.skipped``; merged overlapping mentions in
    ``summary.merged``. With ``with_originals`` the output file is private (mode 0600).
    When no document is sanitized, ``target`` is not written.
    """
    summary = RunSummary()
    pending: list[DocRecord] = []

    def flush(fh) -> None:
        if not pending:
            return
        for i, d in enumerate(pending):  # issue 13: documents without mentions are detected
            if d.mentions is None:
                pending[i] = DocRecord(d.doc_id, d.text, tuple(engine.detect_mentions(d.text)), d.position)
        try:
            results = engine.sanitize_many([(d.text, d.mentions) for d in pending], overlap=overlap)
        except InputError:
            results = None
        if results is None:  # one document is invalid: redo them one by one to find it
            results = []
            for d in pending:
                try:
                    results.append(engine.sanitize(d.text, d.mentions, overlap=overlap))
                except InputError as exc:
                    summary.bad.append((d.position, str(exc)))
                    results.append(None)
                    if strict:
                        raise _Abort from exc
        for d, r in zip(pending, results):
            if r is None:
                continue
            fh.write(json.dumps(result_to_dict(d.doc_id, r, with_originals=with_originals), ensure_ascii=False) + "\n")
            summary.documents += 1
            summary.mentions += len(r.replacements)
            summary.failed_spans += len(r.errors)
            summary.merged += [(d.position, rep.note) for rep in r.replacements if "merged overlapping" in rep.note]
        bar.update(len(pending))
        pending.clear()

    bar = tqdm(desc=f"sanitizing {source.name}", unit="doc", disable=not progress, file=sys.stderr)
    try:
        with AtomicWriter(target, private=with_originals) as fh:
            for rec in read_documents(source, fmt, annotator=annotator):
                if isinstance(rec, Skipped):
                    summary.skipped.append((rec.position, rec.reason))
                    continue
                if isinstance(rec, BadRecord):
                    summary.bad.append((rec.position, rec.reason))
                    if strict:
                        raise _Abort
                    continue
                pending.append(rec)
                if len(pending) >= batch:
                    flush(fh)
            flush(fh)
            if summary.documents == 0:
                raise _Empty  # nothing to write: no empty result file either
    except _Abort:
        summary.aborted = True
    except _Empty:
        pass
    finally:
        bar.close()
    return summary
