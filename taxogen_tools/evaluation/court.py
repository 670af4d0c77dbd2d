"""Generalization on court judgments, masked spans given (the protocol of ``../shared/EVALUATION.md``).

Each TAB judgment is sanitized with its annotator's mentions; for every masked (DIRECT or
QUASI) mention of the types DATETIME, DEM, LOC, MISC, ORG and QUANTITY, the evaluation reads
what the reader receives and whether it is a **generalization**: not ``***``, not a date or
number placeholder ("DATE", a number masked inside its unit: "GBP X", "X minutes", "X"), and
not dropped (an empty phrase). Readers judge a sample of the generalizations blind, for
**truthful** (true of what the span denotes, in its sentence) and **less specific** (it
reveals less); :func:`judged_shares` counts their verdicts.

``part`` picks the judgments: the build part rules may be written from, the measure part
kept for blind figures, or all (:mod:`taxogen_tools.evaluation.tab_split`).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.io.docio import DocRecord, read_documents
from engine.types import MASK, IdentifierType
from taxogen_tools.evaluation.tab_split import tab_part

#: The entity types whose generalization is counted.
TYPES: tuple[str, ...] = ("DATETIME", "DEM", "LOC", "MISC", "ORG", "QUANTITY")
#: A placeholder the reader receives in place of a value: X, or a word of capitals such as DATE.
_PLACEHOLDER = re.compile(r"(?<![\w-])(?:X|DATE|TIME|NUMBER|\*\*\*)(?![\w-])")


@dataclass(frozen=True, slots=True)
class CourtReplacement:
    """One masked mention of a judgment and what the reader receives for it."""

    doc_id: str
    entity_type: str
    identifier_type: str
    span: str
    sentence: str
    replacement: str
    rung: str
    generalized: bool
    why_not: str = ""

    @property
    def key(self) -> str:
        return f"{self.doc_id}:{self.span}:{self.sentence[:40]}"


def not_generalized(replacement: str, rung: str) -> str:
    """Why a replacement is no generalization (empty when it is one)."""
    shown = replacement.strip()
    if not shown:
        return "dropped"
    if shown == MASK or rung == MASK:
        return "masked"
    if _PLACEHOLDER.search(shown):
        return "placeholder"
    return ""


def _sentence(text: str, start: int, end: int) -> str:
    from engine.text.sentences import sentence_around

    return sentence_around(text, start, end)


def court_replacements(engine, data: str | Path, *, part: str = "all", k: int | None = None, batch: int = 8,
                       progress=None) -> list[CourtReplacement]:
    """Every masked mention of the counted types in the chosen ``part`` of ``data``, sanitized."""
    records = [r for r in read_documents(Path(data), "auto") if isinstance(r, DocRecord) and r.mentions is not None
               and (part == "all" or tab_part(r.doc_id) == part)]
    out: list[CourtReplacement] = []
    for i in range(0, len(records), batch):
        chunk = records[i:i + batch]
        results = engine.sanitize_many([(r.text, r.mentions) for r in chunk], k=k)
        for rec, res in zip(chunk, results):
            for rep in res.replacements:
                m = rep.mention
                if m.identifier_type is IdentifierType.NO_MASK or m.entity_type.value not in TYPES:
                    continue
                why = not_generalized(rep.replacement, rep.rung)
                out.append(CourtReplacement(rec.doc_id, m.entity_type.value, m.identifier_type.value, rep.original,
                                            _sentence(rec.text, m.start, m.end), rep.replacement, rep.rung, not why, why))
        if progress:
            progress(f"{min(i + batch, len(records))}/{len(records)} judgments")
    return out


def reach(rows: Sequence[CourtReplacement]) -> dict[str, dict[str, Any]]:
    """Per type (and ALL): masked mentions, generalized, share, and why the others are not."""
    table: dict[str, dict[str, Any]] = {}
    for t in (*TYPES, "ALL"):
        sel = [r for r in rows if t == "ALL" or r.entity_type == t]
        gen = sum(r.generalized for r in sel)
        table[t] = {"masked": len(sel), "generalized": gen, "share": round(gen / len(sel), 4) if sel else None,
                    "not": dict(Counter(r.why_not for r in sel if not r.generalized))}
    return table


def sample(rows: Sequence[CourtReplacement], per_type: int, *, seed: int = 7) -> list[CourtReplacement]:
    """Up to ``per_type`` generalizations of each type, drawn at random (one per distinct span and
    sentence), for readers to judge."""
    rng = random.Random(seed)
    out: list[CourtReplacement] = []
    for t in TYPES:
        seen: set[str] = set()
        pool = []
        for r in rows:
            if r.entity_type == t and r.generalized and r.key not in seen:
                seen.add(r.key)
                pool.append(r)
        rng.shuffle(pool)
        out += pool[:per_type]
    return out


def write_sample(rows: Iterable[CourtReplacement], path: str | Path) -> int:
    """The rows as JSON lines a reader can judge (id, type, sentence, span, replacement); how many."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for i, r in enumerate(rows, start=1):
            fh.write(json.dumps({"id": f"c{i:04d}", "doc_id": r.doc_id, "entity_type": r.entity_type, "sentence": r.sentence,
                                 "span": r.span, "replacement": r.replacement, "rung": r.rung}, ensure_ascii=False) + "\n")
            n += 1
    return n


def judged_shares(path: str | Path) -> dict[str, dict[str, Any]]:
    """From a readers' file (JSON lines with ``entity_type``, ``truthful`` and ``less_specific``
    true/false): per type and ALL, judged, truthful and less-specific counts and shares."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    table: dict[str, dict[str, Any]] = {}
    for t in (*TYPES, "ALL"):
        sel = [r for r in rows if t == "ALL" or r.get("entity_type") == t]
        if not sel:
            continue
        truthful = sum(bool(r["truthful"]) for r in sel)
        less = sum(bool(r["less_specific"]) for r in sel)
        table[t] = {"judged": len(sel), "truthful": truthful, "truthful_share": round(truthful / len(sel), 4),
                    "less_specific": less, "less_specific_share": round(less / len(sel), 4)}
    return table


def format_reach(table: dict[str, dict[str, Any]], title: str) -> list[str]:
    lines = [title, f"  {'type':<9}{'masked':>7}{'generalized':>13}{'share':>8}  not generalized"]
    for t, row in table.items():
        share = f"{row['share']:.1%}" if row["share"] is not None else "—"
        why = ", ".join(f"{k} {v}" for k, v in sorted(row["not"].items())) or "—"
        lines.append(f"  {t:<9}{row['masked']:>7}{row['generalized']:>13}{share:>8}  {why}")
    return lines


def format_judged(table: dict[str, dict[str, Any]], title: str) -> list[str]:
    lines = [title, f"  {'type':<9}{'judged':>7}{'truthful':>10}{'share':>8}{'less specific':>15}{'share':>8}"]
    for t, row in table.items():
        lines.append(f"  {t:<9}{row['judged']:>7}{row['truthful']:>10}{row['truthful_share']:>8.1%}"
                     f"{row['less_specific']:>15}{row['less_specific_share']:>8.1%}")
    return lines


def rows_to_jsonl(rows: Iterable[CourtReplacement], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(asdict(r), ensure_ascii=False) + "\n")


__all__ = ["TYPES", "CourtReplacement", "court_replacements", "reach", "sample", "write_sample", "judged_shares",
           "format_reach", "format_judged", "not_generalized", "rows_to_jsonl"]
