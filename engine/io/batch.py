"""Sanitizing files: documents in batches, bad records reported, output written atomically.

Output formats: ``jsonl`` (one result object per line), ``json`` (one indented JSON array
of the result objects) and ``text`` (the sanitized text of each document, each ending
with a newline)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from tqdm import tqdm

from engine.io.docio import AtomicWriter, BadRecord, DocRecord, Skipped, position_order, read_documents, result_to_dict
from engine.errors import InputError
from engine.io.cli_checks import OUTPUT_FORMATS, plural
from engine.doc import SanitizeResult


@dataclass
class RunSummary:
    documents: int = 0
    mentions: int = 0
    failed_spans: int = 0
    bad: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    merged: list[tuple[str, str]] = field(default_factory=list)
    aborted: bool = False
    privacy: list[object] = field(default_factory=list)  # the documents' privacy reports

    def add(self, position: str, result: SanitizeResult) -> None:
        """Count one sanitized document (its mentions, failed spans, merged overlaps, privacy)."""
        self.documents += 1
        self.mentions += len(result.replacements)
        self.failed_spans += len(result.errors)
        self.merged += [(position, note) for note in merged_notes(result)]
        if result.privacy is not None:
            self.privacy.append(result.privacy)

    def privacy_line(self) -> str | None:
        """One line on k: a document's own summary, or for several how many reached the target
        and why the others did not (None when the guard did not run)."""
        reports = self.privacy
        if not reports:
            return None
        if len(reports) == 1:
            return f"privacy: {reports[0].summary}"
        target = reports[0].target_k
        if target == 0:
            return f"privacy: guard off (k measured only); smallest k {min(r.k_after for r in reports):,}"
        reached = sum(1 for r in reports if r.reached)
        no_persons = sum(1 for r in reports if r.persons == 0)
        absent = sum(1 for r in reports if not r.reached and r.persons != 0 and not r.subject_in_store)
        short = len(reports) - reached - no_persons - absent
        parts = [f"{reached:,} of {plural(len(reports), 'document')} reached k ≥ {target}"]
        if no_persons:
            parts.append(f"{no_persons:,} not established: the store holds no persons to count (their spans generalized as far as they go)")
        if absent:
            parts.append(f"{absent:,} not established: the person is not in the store (spans generalized as far as the guard could)")
        if short:
            parts.append(f"{short:,} below k: nothing more general was left")
        return "privacy: " + "; ".join(parts)

    def report(self, source: object, target: object, annotator: str | None = None) -> tuple[list[str], str]:
        """What ``taxogen sanitize`` prints for one file: stderr lines (bad records, notes), then
        its summary line. ``taxogen spark sanitize`` prints the same."""
        err = [f"bad record {pos}: {reason}" for pos, reason in self.bad] + [f"note {pos}: {note}" for pos, note in self.merged]
        skipped = f", {plural(len(self.skipped), 'document')} not annotated by {annotator} left out" if self.skipped else ""
        line = (f"{source} → {target}: {plural(self.documents, 'document')}, {plural(self.mentions, 'mention')}, "
                f"{plural(len(self.bad), 'bad record')} skipped{skipped}, {plural(self.failed_spans, 'span')} failed closed")
        return err, line


class _Abort(Exception):
    pass


class _Empty(Exception):
    pass


def merged_notes(result: SanitizeResult) -> list[str]:
    """The notes of mentions merged from overlapping ones (reported as ``note POSITION: …``)."""
    return [rep.note for rep in result.replacements if "merged overlapping" in rep.note]


def sanitize_batch(engine, docs: Sequence[DocRecord], *, overlap: str = "merge") -> list[SanitizeResult | BadRecord]:
    """Sanitize ``docs`` ranked together: a result per document, or a :class:`BadRecord` for a
    document the engine refuses (then the others are redone one by one). Documents without
    mentions are detected first. Shared by ``taxogen sanitize`` and Spark."""
    docs = [d if d.mentions is not None else DocRecord(d.doc_id, d.text, tuple(engine.detect_mentions(d.text)), d.position)
            for d in docs]
    try:
        return list(engine.sanitize_many([(d.text, d.mentions) for d in docs], overlap=overlap))
    except InputError:
        pass
    out: list[SanitizeResult | BadRecord] = []
    for d in docs:  # one document is invalid: redo them one by one to find it
        try:
            out.append(engine.sanitize(d.text, d.mentions, overlap=overlap))
        except InputError as exc:
            out.append(BadRecord(d.position, str(exc)))
    return out


def result_line(doc_id: str, result: SanitizeResult, *, with_originals: bool = False) -> str:
    """One output line (JSON, no newline) of a sanitized document."""
    return json.dumps(result_to_dict(doc_id, result, with_originals=with_originals), ensure_ascii=False)


class ResultWriter:
    """Writes results to an open text file in one of the output formats (``jsonl``, ``json``,
    ``text``, ``tab``: one JSON object of every document's masked ranges in its original text,
    ``{doc_id: [[start, end], …]}``, the form TAB's evaluation reads)."""

    def __init__(self, fh, out_format: str, *, with_originals: bool = False) -> None:
        if out_format not in OUTPUT_FORMATS or out_format == "auto":
            raise ValueError(f"unknown output format {out_format!r}; expected one of {', '.join(OUTPUT_FORMATS[1:])}")
        self.fh, self.format, self.with_originals, self.count = fh, out_format, with_originals, 0

    def write(self, doc_id: str, result: SanitizeResult) -> None:
        if self.format == "jsonl":
            self.fh.write(result_line(doc_id, result, with_originals=self.with_originals) + "\n")
        elif self.format == "json":
            body = json.dumps(result_to_dict(doc_id, result, with_originals=self.with_originals), ensure_ascii=False, indent=2)
            self.fh.write(("[\n" if self.count == 0 else ",\n") + body)
        elif self.format == "tab":
            body = json.dumps(masked_ranges(result))
            self.fh.write(("{\n" if self.count == 0 else ",\n") + f"{json.dumps(doc_id, ensure_ascii=False)}: {body}")
        else:
            self.fh.write(result.text if result.text.endswith("\n") else result.text + "\n")
        self.count += 1

    def close(self) -> None:
        if self.format == "json":
            self.fh.write("[]\n" if self.count == 0 else "\n]\n")
        elif self.format == "tab":
            self.fh.write("{}\n" if self.count == 0 else "\n}\n")


def masked_ranges(result: SanitizeResult) -> list[list[int]]:
    """``[[start, end], …]``: the ranges of the original text that ``result`` replaced (a
    generalization, a placeholder or a mask alike), in order; a mention kept as written is
    not masked."""
    return sorted([r.mention.start, r.mention.end] for r in result.replacements if not r.kept)


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
    out_format: str = "jsonl",
    encoding: str = "utf-8",
    detect: bool = False,
) -> RunSummary:
    """Sanitize every document of ``source`` into ``target`` (``-``: standard output) in
    ``out_format`` (jsonl, json, text or tab); ``encoding``: the input's; ``detect``: the
    input's mentions are dropped and every document's spans detected.

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
        for d, r in zip(pending, sanitize_batch(engine, pending, overlap=overlap)):
            if isinstance(r, BadRecord):
                summary.bad.append((r.position, r.reason))
                if strict:
                    raise _Abort
                continue
            writer.write(d.doc_id, r)
            summary.add(d.position, r)
        bar.update(len(pending))
        pending.clear()

    bar = tqdm(desc=f"sanitizing {source.name}", unit="doc", disable=not progress, file=sys.stderr)
    try:
        with AtomicWriter(target, private=with_originals) as fh:
            writer = ResultWriter(fh, out_format, with_originals=with_originals)
            for rec in read_documents(source, fmt, annotator=annotator, encoding=encoding, detect=detect):
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
            writer.close()
    except _Abort:
        summary.aborted = True
    except _Empty:
        pass
    finally:
        bar.close()
    summary.bad.sort(key=lambda b: position_order(b[0]))  # in input order, whether found reading or sanitizing
    return summary
