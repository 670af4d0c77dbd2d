"""``taxogen evaluate masks``: the masked ranges a system wrote (``taxogen sanitize --format tab``,
or any system's ``{doc_id: [[start, end], …]}``) scored against a TAB file's annotation with
TAB's own measures (:mod:`taxogen_tools.evaluation.tab_measures`): entity-level recall of
DIRECT and QUASI identifiers and token-level precision.

Each document is scored against its first annotator's mentions (as ``evaluate detection``
does); a document of the TAB file that the masks do not name is scored as masking nothing,
and a masks entry naming no document of the file is an error. The part of speech TAB's
script ignores is read from the configured spaCy pipeline's parse.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.errors import InputError
from engine.io.wikireplace import load_wikireplace
from taxogen_tools.evaluation.detection import gold_documents
from taxogen_tools.evaluation.tab_measures import MaskedText, entities, tab_measures


def read_masks(path: str | Path) -> dict[str, list[tuple[int, int]]]:
    """``{doc_id: [(start, end), …]}`` of a masks file; a one-line :class:`InputError` when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a masks file ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: a masks file holds one JSON object {{doc_id: [[start, end], …]}}")
    out: dict[str, list[tuple[int, int]]] = {}
    for doc_id, spans in data.items():
        if not isinstance(spans, list) or not all(isinstance(s, list) and len(s) == 2 and all(isinstance(x, int) for x in s) for s in spans):
            raise InputError(f"{path}: the ranges of {doc_id!r} are not [[start, end], …] of integers")
        out[doc_id] = [(a, b) for a, b in spans]
    return out


def score_masks(masks_path: str | Path, data: str | Path, *, nlp: Any = None) -> dict[str, Any]:
    """TAB's measures of the masks of ``masks_path`` against the TAB file ``data``; ``nlp``: a
    spaCy pipeline for the parts of speech TAB ignores (None: characters only)."""
    masks = read_masks(masks_path)
    gold = gold_documents(load_wikireplace(data))
    known = {d.doc_id for d in gold}
    stray = sorted(set(masks) - known)
    if stray:
        raise InputError(f"{masks_path}: document {stray[0]!r} is not in {Path(data).name}")
    docs = []
    for d in gold:
        spans = masks.get(d.doc_id, [])
        bad = next(((a, b) for a, b in spans if not 0 <= a < b <= len(d.text)), None)
        if bad is not None:
            raise InputError(f"{masks_path}: range {list(bad)} of {d.doc_id!r} lies outside its text ({len(d.text)} characters)")
        parse = nlp(d.text) if nlp is not None else None
        docs.append(MaskedText(d.text, parse, entities(d.mentions), spans))
    report = tab_measures(docs)
    report["documents"] = len(gold)
    report["documents_masked"] = sum(1 for d in gold if d.doc_id in masks)
    return report


def format_masks(report: dict[str, Any], masks: str, data: str) -> str:
    f = lambda v: "-" if v is None else f"{v:.3f}"
    return "\n".join([
        f"{masks} against {data}: {report['documents_masked']} of {report['documents']} documents masked (TAB's measures)",
        f"  entity recall {f(report['entity_recall'])} (DIRECT {f(report['entity_recall_direct'])}, QUASI {f(report['entity_recall_quasi'])}), "
        f"mention recall {f(report['mention_recall'])}, token recall {f(report['token_recall'])}",
        f"  token precision {f(report['token_precision'])}, mention precision {f(report['mention_precision'])}, "
        f"{report['masked_tokens']:,} masked tokens",
    ])
