"""``taxogen evaluate truth``: how many offered rungs are false of their span.

The truth set (``tests/data/truth_set.jsonl``) holds (span, entity type, context sentence,
replacement, true/false, reason) judgments of a careful reader, drawn from the 75 shared
WikiReplace documents. A judgment is keyed by (span, entity type, replacement) — PERSON
numbers ignored — so it stays valid when the ladders change.

The evaluation regenerates the ladder of every span of the truth set (with its context)
and counts, per entity type, the offered rungs (``***`` excluded) that are judged, judged
false, and not judged yet (listed, so that a reader can judge them and add them to the
set). The false rate is false / judged; the first-rung false rate looks only at level 1;
with ``chosen`` the rung the ranker picks for each span (what a reader would receive,
``***`` apart) is scored as well.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.engine import Engine
from engine.errors import InputError
from engine.generate.sources.base import DocumentState
from engine.types import GRAPH_TYPES, MASK, EntityType, Span

#: The truth set shipped with the tests (repository checkout).
DEFAULT_TRUTH_SET = Path(__file__).resolve().parents[2] / "tests" / "data" / "truth_set.jsonl"


@dataclass(frozen=True, slots=True)
class Judgment:
    """One judged (span, replacement) pair."""

    doc_id: str
    span: str
    entity_type: str
    context: str
    replacement: str
    true: bool
    reason: str = ""
    #: the judging batch ("s4-batch1": judged out of sample before the rules written for it)
    batch: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        return judgment_key(self.span, self.entity_type, self.replacement)


def _judged_under_its_store_label(engine, table: dict, span: str, entity_type: str, cand) -> "Judgment | None":
    """The judgment of a rung whose class the overlay renamed (``tg:labelOverride``:
    "administrative area"), given while it was shown under the store's own label
    ("administrative territorial entity"): the same class, so the same verdict."""
    if cand.qid is None or cand.qid not in engine.chains.rules.label_overrides:
        return None
    own = engine.linker.taxonomy.label(cand.qid)
    return table.get(judgment_key(span, entity_type, own)) if own else None


def judgment_key(span: str, entity_type: str, replacement: str) -> tuple[str, str, str]:
    """(span, type, replacement) with PERSON numbers ignored."""
    return span, entity_type, re.sub(r"^PERSON \d+$", "PERSON N", replacement)


def load_truth_set(path: str | Path | None = None) -> list[Judgment]:
    """Read a truth set (JSON lines); raises :class:`InputError` on a bad record."""
    p = Path(path) if path is not None else DEFAULT_TRUTH_SET
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read truth set {p}: {exc}", position=str(p)) from exc
    out = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            EntityType.parse(raw["entity_type"])
            out.append(Judgment(str(raw["doc_id"]), raw["span"], raw["entity_type"], raw.get("context", ""),
                                raw["replacement"], bool(raw["true"]), raw.get("reason", ""), raw.get("batch", "")))
        except (json.JSONDecodeError, KeyError, TypeError, InputError) as exc:
            raise InputError(f"{p}:{n}: bad truth-set record ({exc})", position=f"{p}:{n}") from exc
    return out


@dataclass
class TruthReport:
    """Offered, judged, false and unjudged rungs per entity type (and over all, and graph types)."""

    per_type: dict[str, dict[str, Any]] = field(default_factory=dict)
    false_rungs: list[dict[str, Any]] = field(default_factory=list)
    unjudged: list[dict[str, Any]] = field(default_factory=list)
    spans: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _blank() -> dict[str, Any]:
    return {"spans": 0, "offered": 0, "judged": 0, "false": 0, "unjudged": 0, "first_judged": 0, "first_false": 0,
            "chosen_judged": 0, "chosen_false": 0, "chosen_mask": 0, "chosen_unjudged": 0}


def document_contexts(engine: Engine, data: str | Path | None, doc_ids: set[str]) -> dict[str, DocumentState]:
    """Per document of ``data`` (WikiReplace format) named in ``doc_ids``, the document
    state sanitizing gives its spans before their ladders: the countries of its places and
    those it names (:func:`engine.generate.context.document_state`). Empty without a readable ``data``."""
    from engine.generate.context import document_state
    from engine.io.docio import DocRecord, read_documents

    if data is None or not Path(data).is_file():
        return {}
    out = {}
    for rec in read_documents(Path(data), "wikireplace"):
        if isinstance(rec, DocRecord) and rec.doc_id in doc_ids:
            spans = (Span(rec.text[m.start:m.end], m.entity_type) for m in rec.mentions)
            out[rec.doc_id] = document_state(engine.linker, spans, rec.text)
    return out


def batch_spans(judgments: list[Judgment], batch: str) -> list[Judgment]:
    """The judgments of the spans judged in ``batch`` (every judgment of such a span, so
    that a rung judged later, in another batch, still counts); raises
    :class:`InputError` when no judgment carries that batch."""
    keys = {(j.doc_id, j.span, j.entity_type) for j in judgments if j.batch == batch}
    if not keys:
        names = sorted({j.batch for j in judgments if j.batch})
        raise InputError(f"no truth-set judgment in batch {batch!r} (batches: {', '.join(names) or 'none'})")
    return [j for j in judgments if (j.doc_id, j.span, j.entity_type) in keys]


def evaluate_truth(engine: Engine, judgments: list[Judgment], *, chosen: bool = False,
                   contexts: dict[str, DocumentState] | None = None) -> TruthReport:
    """Regenerate the ladders of the truth set's spans and score them against the judgments.

    With ``chosen`` the engine's selection policy also picks one rung per span from the
    ranker's order (as ``sanitize`` would, without the document-level steps: the privacy
    guard and the leak check): ``meaning`` the best rung other than ``***``,
    ``annotators`` the first; the chosen rungs are scored too.
    ``contexts`` (:func:`document_contexts`) gives a span the state of its document, as
    sanitizing does (homonyms linked in the document's countries).
    """
    table = {j.key: j for j in judgments}
    spans: dict[tuple[str, str, str], Judgment] = {}
    for j in judgments:
        spans.setdefault((j.doc_id, j.span, j.entity_type), j)
    stats: dict[str, dict[str, Any]] = defaultdict(_blank)
    report = TruthReport(spans=len(spans))
    for (doc_id, text, etype), j in spans.items():
        span = Span(text, EntityType.parse(etype), context=j.context or None)
        ladder = engine.candidates(span, state=(contexts or {}).get(doc_id))
        st = stats[etype]
        st["spans"] += 1
        if chosen:
            ranked = [sc.candidate.label for sc in engine.rank(span, ladder)]
            if engine.config.privacy.selection == "meaning":
                best = next((label for label in ranked if label != MASK), MASK)
            else:
                best = ranked[0]
            picked = table.get(judgment_key(text, etype, best))
            if best == MASK:
                st["chosen_mask"] += 1
            elif picked is None:
                st["chosen_unjudged"] += 1
            else:
                st["chosen_judged"] += 1
                st["chosen_false"] += not picked.true
        for cand in ladder.candidates:
            if cand.label == MASK:
                continue
            st["offered"] += 1
            judged = table.get(judgment_key(text, etype, cand.label)) or _judged_under_its_store_label(engine, table, text, etype, cand)
            row = {"doc_id": doc_id, "span": text, "entity_type": etype, "replacement": cand.label, "level": cand.level,
                   "context": j.context}
            if judged is None:
                st["unjudged"] += 1
                report.unjudged.append(row)
                continue
            st["judged"] += 1
            first = cand.level == 1
            st["first_judged"] += first
            if not judged.true:
                st["false"] += 1
                st["first_false"] += first
                report.false_rungs.append(dict(row, reason=judged.reason))
    groups = {t: stats[t] for t in sorted(stats)}
    groups["GRAPH"] = _sum(stats[t.value] for t in GRAPH_TYPES if t.value in stats)
    groups["ALL"] = _sum(stats.values())
    for st in groups.values():
        st["false_rate"] = round(st["false"] / st["judged"], 4) if st["judged"] else None
        st["first_false_rate"] = round(st["first_false"] / st["first_judged"], 4) if st["first_judged"] else None
        st["chosen_false_rate"] = round(st["chosen_false"] / st["chosen_judged"], 4) if st["chosen_judged"] else None
    report.per_type = groups
    return report


def _sum(parts) -> dict[str, Any]:
    total = _blank()
    for st in parts:
        for k in total:
            total[k] += st[k]
    return total
