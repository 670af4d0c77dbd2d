"""``taxogen evaluate detection``: how much of what annotators masked the detector masks.

Gold: the mentions of the **first annotator** of each document (every one of the 75
shared documents has exactly one annotator for spans, so first = union there; on files
with several, the first is used and the report says so). DIRECT and QUASI mentions must
be masked; NO_MASK and unannotated text need not.

Metrics (characters are counted without whitespace):

- **strict mention recall**: a DIRECT/QUASI mention counts when all its characters are
  masked; **loose**: when any is.
- **entity recall** (TAB-style): an entity (``entity_id``) is protected when all its
  DIRECT/QUASI mentions are strictly masked; DIRECT when any mention is DIRECT.
- **precision**: masked characters inside annotated DIRECT/QUASI spans / masked characters.
- all of it per entity type (recall by the annotated type, precision by the predicted one).
- **type accuracy**: of the annotated mentions (any identifier type) that a detected span
  matches (the span covers all the mention's characters, the strict rule), the share whose
  detected entity type equals the annotated one; overall, per annotated type, and the most
  frequent wrong (annotated → detected) pairs. The type picks the replacement ladder, so a
  wrong type is a wrong or odd replacement even when the span is right.

Systems, in one run: taxogen (the masking decision in grouped k-fold cross-validation:
no document is scored by a model that saw it), spaCy alone (every entity the model
finds, masked), Presidio's AnalyzerEngine with the same spaCy model (every result
masked) when the ``presidio`` extra is installed, and "all candidates" (every merged
candidate masked: the recall ceiling of the candidate layers).
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

from engine.detect import Detector
from engine.detect.candidates import Candidates
from engine.detect.decide import Decider, gold_label
from engine.detect.ner import ner_spans
from engine.types import EntityType, IdentifierType
from engine.io.wikireplace import WRDocument, WRMention

MASKED = (IdentifierType.DIRECT, IdentifierType.QUASI)
Span3 = tuple[int, int, str]  # start, end, predicted entity type


@dataclass
class GoldDoc:
    doc_id: str
    text: str
    annotator: str
    mentions: list[WRMention]


def gold_documents(docs: Iterable[WRDocument]) -> list[GoldDoc]:
    """The first annotator's mentions of each document."""
    out = []
    for d in docs:
        if not d.mentions:
            continue
        name = next(iter(d.mentions))
        out.append(GoldDoc(d.doc_id, d.text, name, d.mentions[name]))
    return out


def _chars(text: str, start: int, end: int) -> set[int]:
    return {i for i in range(max(0, start), min(end, len(text))) if not text[i].isspace()}


def score(docs: list[GoldDoc], predicted: list[list[Span3]]) -> dict:
    """Recall, entity recall and precision (overall and per type) of masked spans."""
    rec = defaultdict(lambda: {"mentions": 0, "strict": 0, "loose": 0})
    ent = defaultdict(lambda: {"entities": 0, "protected": 0})
    prec = defaultdict(lambda: {"masked": 0, "inside": 0})
    for doc, spans in zip(docs, predicted):
        masked: set[int] = set()
        by_type: dict[str, set[int]] = defaultdict(set)
        for s, e, t in spans:
            c = _chars(doc.text, s, e)
            masked |= c
            by_type[t] |= c
        annotated: set[int] = set()
        entities: dict[str, list[tuple[WRMention, bool]]] = defaultdict(list)
        for m in doc.mentions:
            if m.identifier_type not in MASKED:
                continue
            c = _chars(doc.text, m.start, m.end)
            annotated |= c
            strict = bool(c) and c <= masked
            loose = bool(c & masked)
            for key in (m.identifier_type.value, f"{m.identifier_type.value}:{m.entity_type.value}", f"ALL:{m.entity_type.value}", "ALL"):
                rec[key]["mentions"] += 1
                rec[key]["strict"] += strict
                rec[key]["loose"] += loose
            entities[m.entity_id or f"{m.mention_id}"].append((m, strict))
        for ms in entities.values():
            ident = IdentifierType.DIRECT if any(m.identifier_type is IdentifierType.DIRECT for m, _ in ms) else IdentifierType.QUASI
            ok = all(st for _, st in ms)
            for key in (ident.value, "ALL", f"ALL:{ms[0][0].entity_type.value}"):
                ent[key]["entities"] += 1
                ent[key]["protected"] += ok
        prec["ALL"]["masked"] += len(masked)
        prec["ALL"]["inside"] += len(masked & annotated)
        for t, c in by_type.items():
            prec[t]["masked"] += len(c)
            prec[t]["inside"] += len(c & annotated)

    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    recall = {k: {"mentions": v["mentions"], "strict": ratio(v["strict"], v["mentions"]), "loose": ratio(v["loose"], v["mentions"])}
              for k, v in sorted(rec.items())}
    entity = {k: {"entities": v["entities"], "recall": ratio(v["protected"], v["entities"])} for k, v in sorted(ent.items())}
    precision = {k: {"masked_chars": v["masked"], "precision": ratio(v["inside"], v["masked"])} for k, v in sorted(prec.items())}
    return {
        "direct_strict": recall.get("DIRECT", {}).get("strict"), "quasi_strict": recall.get("QUASI", {}).get("strict"),
        "direct_loose": recall.get("DIRECT", {}).get("loose"), "quasi_loose": recall.get("QUASI", {}).get("loose"),
        "precision": precision.get("ALL", {}).get("precision"),
        "dem_strict": recall.get("ALL:DEM", {}).get("strict"), "misc_strict": recall.get("ALL:MISC", {}).get("strict"),
        "entity_direct": entity.get("DIRECT", {}).get("recall"), "entity_quasi": entity.get("QUASI", {}).get("recall"),
        "recall": recall, "entity_recall": entity, "precision_by_type": precision,
    }


def type_accuracy(docs: list[GoldDoc], predicted: list[list[Span3]], top: int = 12) -> dict:
    """Type accuracy of the detected spans that strictly match an annotated mention.

    A mention is matched by the detected span that covers all its (non-space) characters;
    each annotated mention counts once (NO_MASK ones too: their type still decides what a
    reader sees when the detector masks them).
    """
    per = defaultdict(lambda: [0, 0])  # annotated type -> [matched, same type]
    wrong: dict[tuple[str, str], int] = defaultdict(int)
    examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    for doc, spans in zip(docs, predicted):
        for m in doc.mentions:
            c = _chars(doc.text, m.start, m.end)
            if not c:
                continue
            hit = next((t for s, e, t in spans if c <= _chars(doc.text, s, e)), None)
            if hit is None:
                continue
            gold = m.entity_type.value
            per[gold][0] += 1
            per[gold][1] += hit == gold
            if hit != gold:
                wrong[(gold, hit)] += 1
                if len(examples[(gold, hit)]) < 3:
                    examples[(gold, hit)].append(doc.text[m.start:m.end])
    matched = sum(v[0] for v in per.values())
    same = sum(v[1] for v in per.values())
    return {
        "matched": matched, "accuracy": round(same / matched, 4) if matched else None,
        "by_type": {t: {"matched": v[0], "accuracy": round(v[1] / v[0], 4) if v[0] else None} for t, v in sorted(per.items())},
        "confusions": [{"annotated": g, "detected": p, "count": n, "examples": examples[(g, p)]}
                       for (g, p), n in sorted(wrong.items(), key=lambda kv: (-kv[1], kv[0]))[:top]],
    }


@dataclass
class Prepared:
    docs: list[GoldDoc]
    cands: list[Candidates]
    X: list[np.ndarray]
    y: list[list[IdentifierType]]


def prepare(docs: list[GoldDoc], detector: Detector, progress: Callable[[str], None] | None = None) -> Prepared:
    """Candidates, features and gold labels of every document."""
    t0 = time.perf_counter()
    cands = detector.finder.find_many([d.text for d in docs])
    X, y = [], []
    for d, c in zip(docs, cands):
        X.append(detector.features(c))
        gold = [(m.start, m.end, m.identifier_type) for m in d.mentions]
        y.append([gold_label(s, gold) for s in c.spans])
    if progress:
        progress(f"candidates for {len(docs)} documents in {time.perf_counter() - t0:.1f} s "
                 f"({sum(len(c.spans) for c in cands)} spans)")
    return Prepared(docs, cands, X, y)


def fold_ids(n: int, folds: int, seed: int) -> list[int]:
    """Fold of each document: a seeded shuffle dealt round-robin (grouped by document)."""
    order = list(range(n))
    random.Random(seed).shuffle(order)
    out = [0] * n
    for rank, i in enumerate(order):
        out[i] = rank % folds
    return out


def cross_validate(prep: Prepared, *, folds: int = 5, seed: int = 13, threshold: float | None = None,
                   type_thresholds: dict[str, float] | None = None) -> list[list]:
    """Decided spans of every document, each from a model trained on the other folds."""
    assign = fold_ids(len(prep.docs), folds, seed)
    decided: list[list] = [[] for _ in prep.docs]
    for f in range(folds):
        train = [i for i, a in enumerate(assign) if a != f]
        model = Decider.train([(prep.cands[i].spans, prep.X[i], prep.y[i]) for i in train], seed=seed)
        for i, a in enumerate(assign):
            if a == f:
                decided[i] = model.decide(prep.cands[i].spans, prep.X[i], threshold, type_thresholds)
    return decided


def presidio_predictions(docs: list[GoldDoc]) -> list[list[Span3]] | None:
    """Every result of Presidio's AnalyzerEngine (same spaCy model), or None without the extra."""
    try:
        from engine.detect.presidio import PRESIDIO_TYPES, offline_analyzer
    except ImportError:
        return None
    analyzer = offline_analyzer()
    out = []
    for d in docs:
        results = analyzer.analyze(d.text, language="en")
        out.append([(r.start, r.end, PRESIDIO_TYPES.get(r.entity_type, EntityType.MISC).value) for r in results])
    return out


def evaluate_detection(detector: Detector, docs: list[GoldDoc], *, folds: int = 5, seed: int = 13,
                       threshold: float | None = None, type_thresholds: dict[str, float] | None = None,
                       baselines: bool = True,
                       progress: Callable[[str], None] | None = None) -> dict:
    """The report of ``taxogen evaluate detection`` (see the module docstring)."""
    prep = prepare(docs, detector, progress)
    thr = threshold if threshold is not None else (detector.threshold or Decider.load().threshold)
    per_type = type_thresholds if type_thresholds is not None else detector.decider.type_thresholds
    decided = cross_validate(prep, folds=folds, seed=seed, threshold=thr, type_thresholds=per_type)
    systems: dict[str, dict] = {}
    systems["taxogen"] = score(docs, [[(s.start, s.end, s.entity_type.value) for s in spans if s.masked] for spans in decided])
    systems["all candidates"] = score(docs, [[(s.start, s.end, s.entity_type.value) for s in c.spans] for c in prep.cands])
    types = {
        "taxogen (masked spans)": type_accuracy(docs, [[(s.start, s.end, s.entity_type.value) for s in spans if s.masked] for spans in decided]),
        "all candidates": type_accuracy(docs, [[(s.start, s.end, s.entity_type.value) for s in c.spans] for c in prep.cands]),
    }
    if baselines:
        systems["spaCy alone"] = score(docs, [[(s.start, s.end, s.entity_type.value) for s in ner_spans(c.doc)] for c in prep.cands])
        t0 = time.perf_counter()
        pres = presidio_predictions(docs)
        if pres is not None:
            systems["Presidio analyzer"] = score(docs, pres)
            if progress:
                progress(f"Presidio analyzer: {time.perf_counter() - t0:.1f} s")
    curve = {}
    for t in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6):
        dec = [[s for s in spans if (s.score or 0) >= t] for spans in decided]
        r = score(docs, [[(s.start, s.end, s.entity_type.value) for s in spans] for spans in dec])
        curve[str(t)] = {k: r[k] for k in ("direct_strict", "quasi_strict", "precision", "dem_strict")}
    annotators = sorted({d.annotator for d in docs})
    return {
        "documents": len(docs), "folds": folds, "seed": seed, "threshold": thr, "type_thresholds": per_type,
        "gold": f"first annotator of each document ({', '.join(annotators[:5])}{'…' if len(annotators) > 5 else ''})",
        "systems": systems, "threshold_curve": curve, "type_accuracy": types,
    }


TYPES = tuple(t.value for t in EntityType)
