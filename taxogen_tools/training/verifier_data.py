"""The verifier's training rows: every judged rung of the truth set found again in its span's ladder.

Each LOC/ORG/DEM/MISC span of the truth set (``tests/data/truth_set.jsonl``) gets its ladder
rebuilt in its sentence, with its document's state (the countries its places name, its
sports: the shared WikiReplace documents and the invented biographies
``tests/data/fresh_biographies*.jsonl``), under the rules the verifier reads switched off
(they are features, not filters). A judgment is *matched* when its replacement is a rung of
that ladder (same document, span, type and label); each matched rung is a row: its features
(:mod:`engine.generate.verify_features`), true or false, and its group for cross-validation.

Judged batches (``--judged DIR``) add training rows only: a directory with ``classes.jsonl``
(``id``, ``doc_id``, ``entity_type``, ``sentence``, ``span``, ``replacement``, ``rung``) and
``classes.judged.jsonl`` (``id``, ``true``, ``reason``) — a class replacement of a sentence and a
reader's verdict (:func:`judged_batch`). Their spans get their document's state where the
documents are given (``--judged-docs FILE``: JSON lines of ``id`` and ``text``, or any input
``taxogen sanitize`` reads; a raw text's mentions are detected as sanitizing detects them),
none otherwise; they never enter the sanitized figures of the curve.

Groups: a document and a batch are never split between folds — a group is a connected part
of the graph whose nodes are the documents and the batches and whose edges are the
judgments. The invented biographies of one batch are one group; the shared documents, judged
over many batches, are one.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from engine.generate.sources.base import DocumentState
from engine.types import EntityType, Ladder, Span

ROOT = Path(__file__).resolve().parents[2]
#: The documents the truth set's spans come from (the shared ones are read from the shared data).
FRESH_DOCUMENTS = tuple(sorted((ROOT / "tests" / "data").glob("fresh_biographies*.jsonl")))
GRAPH = tuple(t.value for t in EntityType if t.is_graph)


@dataclass
class JudgedSpan:
    """A span of the truth set: its document, text, type, sentence, and its judgments by label."""

    doc_id: str
    text: str
    entity_type: str
    context: str
    judged: dict[str, bool] = field(default_factory=dict)
    batches: set[str] = field(default_factory=set)

    @property
    def span(self) -> Span:
        return Span(self.text, EntityType.parse(self.entity_type), context=self.context or None)


@dataclass
class Rows:
    """The matched rungs: features, labels (1 true), groups and what each row is."""

    features: list[dict[str, float]] = field(default_factory=list)
    true: list[int] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    #: (doc_id, span, type, label, level) per row
    meta: list[tuple[str, str, str, str, int]] = field(default_factory=list)
    judgments: int = 0
    matched: int = 0
    #: the graph-type judgments not found in their span's ladder, per type
    unmatched: dict[str, int] = field(default_factory=dict)


def judged_batch(directory: str | Path) -> list:
    """The class judgments of a judged batch directory (module docstring) as truth-set
    judgments of batch ``<directory name>``; a row whose replacement is not its rung (a person
    number, a plural) is judged on what the reader saw and skipped unless it is the rung's plural."""
    import json

    from engine.errors import InputError
    from taxogen_tools.evaluation.truth import Judgment

    d = Path(directory)
    try:
        rows = [json.loads(line) for line in (d / "classes.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
        verdicts = {v["id"]: v for v in (json.loads(line) for line in (d / "classes.judged.jsonl").read_text(encoding="utf-8").splitlines()
                                          if line.strip())}
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the judged batch in {d}: {exc}", position=str(d)) from exc
    out = []
    for r in rows:
        v = verdicts.get(r.get("id"))
        if v is None or "true" not in v:
            continue
        rung, shown = r.get("rung") or r["replacement"], r["replacement"]
        if shown != rung and not shown.startswith(rung):
            continue
        out.append(Judgment(str(r["doc_id"]), r["span"], r["entity_type"], r.get("sentence", ""), rung, bool(v["true"]),
                            v.get("reason", ""), d.name))
    return out


def judged_spans(judgments: Iterable) -> list[JudgedSpan]:
    """The graph-type spans of ``judgments`` (``taxogen_tools.evaluation.truth.Judgment``), in order."""
    out: dict[tuple[str, str, str], JudgedSpan] = {}
    for j in judgments:
        if j.entity_type not in GRAPH:
            continue
        s = out.setdefault((j.doc_id, j.span, j.entity_type), JudgedSpan(j.doc_id, j.span, j.entity_type, j.context))
        # two judgments of one label: false wins (as the utility scorer reads them)
        s.judged[j.replacement] = s.judged.get(j.replacement, True) and j.true
        s.batches.add(j.batch or "unbatched")
    return list(out.values())


def groups_of(spans: Sequence[JudgedSpan]) -> dict[str, str]:
    """Document id → its group: documents and batches joined by their judgments (module docstring)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for s in spans:
        for b in s.batches:
            parent[find("doc:" + s.doc_id)] = find("batch:" + b)
    roots: dict[str, list[str]] = defaultdict(list)
    for s in spans:
        roots[find("doc:" + s.doc_id)].append(s.doc_id)
    names: dict[str, str] = {}
    for root, docs in roots.items():
        batches = sorted({b for s in spans if find("doc:" + s.doc_id) == root for b in s.batches})
        name = batches[0] if len(batches) == 1 else f"shared ({len(set(docs))} documents, {len(batches)} batches)"
        for d in docs:
            names[d] = name
    return names


def document_states(engine, doc_ids: set[str], sources: Sequence[Path], detected: Sequence[Path] = ()) -> dict[str, DocumentState]:
    """The document state of each document of ``sources`` and then ``detected`` named in
    ``doc_ids`` (its countries, the text its sport rules read), as sanitizing gives it; a
    document of ``detected`` without mentions has them detected (raw text), one of
    ``sources`` without mentions is skipped. A missing file of ``sources`` is skipped, one of
    ``detected`` raises :class:`engine.errors.InputError`."""
    from engine.errors import InputError
    from engine.generate.context import document_state
    from engine.io.docio import DocRecord, read_documents

    for path in detected:
        if not Path(path).is_file():
            raise InputError(f"no judged documents file {path}", position=str(path))
    out: dict[str, DocumentState] = {}
    with engine.knowledge.active():
        for path, detect in [*((p, False) for p in sources), *((p, True) for p in detected)]:
            if not Path(path).is_file():
                continue
            for rec in read_documents(Path(path), "auto"):
                if not isinstance(rec, DocRecord) or rec.doc_id not in doc_ids or rec.doc_id in out:
                    continue
                mentions = rec.mentions if rec.mentions is not None or not detect else engine.detect_mentions(rec.text)
                if mentions is not None:
                    spans = (Span(rec.text[m.start:m.end], m.entity_type) for m in mentions)
                    out[rec.doc_id] = document_state(engine.linker, spans, rec.text)
    return out


def ladders(engine, spans: Sequence[JudgedSpan], states: dict[str, DocumentState],
            progress: Callable[[str], None] | None = None) -> list[Ladder]:
    """The ladder of each span, under the engine's knowledge (the verifier's rules off)."""
    out = []
    with engine.knowledge.active():
        for n, s in enumerate(spans, start=1):
            out.append(engine.generator.ladder(s.span, states.get(s.doc_id)))
            if progress and n % 500 == 0:
                progress(f"  {n} of {len(spans)} ladders")
    return out


def rows_of(spans: Sequence[JudgedSpan], built: Sequence[Ladder], states: dict[str, DocumentState], features,
            groups: dict[str, str], feature_groups: Sequence[str]) -> Rows:
    """The matched rungs of ``built`` (one ladder per span) as rows of ``features``
    (:class:`engine.generate.verify_features.RungFeatures`)."""
    rows = Rows()
    unmatched: dict[str, int] = defaultdict(int)
    for s, ladder in zip(spans, built):
        rows.judgments += len(s.judged)
        at = features.graph_rungs(ladder)
        found = {ladder.candidates[i].label: i for i in at}
        for label in s.judged:
            if label not in found:
                unmatched[s.entity_type] += 1
        hit = [i for i in at if ladder.candidates[i].label in s.judged]
        if not hit:
            continue
        table = features.rows(ladder, states.get(s.doc_id), feature_groups)
        for row, i in zip(table, at):
            cand = ladder.candidates[i]
            if cand.label not in s.judged:
                continue
            rows.features.append(row)
            rows.true.append(int(s.judged[cand.label]))
            rows.groups.append(groups[s.doc_id])
            rows.meta.append((s.doc_id, s.text, s.entity_type, cand.label, cand.level))
            rows.matched += 1
    rows.unmatched = dict(unmatched)
    return rows


def judged_sources(shared: str | Path) -> list[Path]:
    """The documents the truth set's spans come from: the shared WikiReplace documents
    (``shared``), then the invented biographies."""
    return [Path(shared), *FRESH_DOCUMENTS]


__all__ = ["JudgedSpan", "Rows", "judged_batch", "judged_spans", "groups_of", "document_states", "ladders", "rows_of", "FRESH_DOCUMENTS",
           "judged_sources"]
