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
  frequent wrong (annotated → detected) pairs. Also on the mentions a detected span
  matches exactly (the same characters): a wider span ("President John Dramani Mahama"
  over the annotated "President") is a boundary error, which recall and precision count,
  before it is a typing one. The type picks the replacement ladder, so a
  wrong type is a wrong or odd replacement even when the span is right.

With ``tune_precision`` P, one more system: the threshold and thresholds per entity type
of each outer fold chosen by an inner cross-validation on that fold's training documents
to reach precision P with the most QUASI recall (nested: nothing is tuned on a test fold).

**TAB's own measures** (:mod:`taxogen_tools.evaluation.tab_measures`, as TAB's evaluation
script defines them): entity-level recall of DIRECT and QUASI identifiers and token-level
precision, of taxogen and of every candidate, and along the same thresholds.

``train_with``: annotated documents of another corpus added to the training documents of
every fold (never scored): the court judgments are decided by a model that has also read
the biographies, as the shipped one has.

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
from engine.detect.decide import DEFAULT_THRESHOLD, Decider, gold_label
from engine.detect.ner import ner_spans
from engine.detect.spans import DetectedSpan
from engine.types import EntityType, IdentifierType
from engine.io.wikireplace import WRDocument, WRMention
from taxogen_tools.evaluation.tab_measures import MaskedText, entities, tab_measures

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
    exact = [0, 0]  # [matched by a span of the same characters, same type]
    wrong: dict[tuple[str, str], int] = defaultdict(int)
    examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    for doc, spans in zip(docs, predicted):
        for m in doc.mentions:
            c = _chars(doc.text, m.start, m.end)
            if not c:
                continue
            found = next(((s, e, t) for s, e, t in spans if c <= _chars(doc.text, s, e)), None)
            if found is None:
                continue
            hit = found[2]
            gold = m.entity_type.value
            if c == _chars(doc.text, found[0], found[1]):
                exact[0] += 1
                exact[1] += hit == gold
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
        "exact_matched": exact[0], "exact_accuracy": round(exact[1] / exact[0], 4) if exact[0] else None,
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


def _rows(prep: Prepared | None, idx: Iterable[int] | None = None) -> list[tuple[list[DetectedSpan], np.ndarray, list[IdentifierType]]]:
    if prep is None:
        return []
    return [(prep.cands[i].spans, prep.X[i], prep.y[i]) for i in (range(len(prep.docs)) if idx is None else idx)]


def cross_validate(prep: Prepared, *, folds: int = 5, seed: int = 13, threshold: float | None = None,
                   type_thresholds: dict[str, float] | None = None, kind_thresholds: dict[str, float] | None = None,
                   default_threshold: float = DEFAULT_THRESHOLD, extra: Prepared | None = None) -> list[list]:
    """Decided spans of every document, each from a model trained on the other folds (and on
    every document of ``extra``) that masks from ``default_threshold``, or its document
    kind's of ``kind_thresholds``; ``threshold`` overrides both (see :meth:`Decider.decide`)."""
    assign = fold_ids(len(prep.docs), folds, seed)
    decided: list[list] = [[] for _ in prep.docs]
    for f in range(folds):
        train = [i for i, a in enumerate(assign) if a != f]
        model = Decider.train(_rows(prep, train) + _rows(extra), seed=seed, threshold=default_threshold)
        model.kind_thresholds = dict(kind_thresholds or {})
        for i, a in enumerate(assign):
            if a == f:
                decided[i] = model.decide(prep.cands[i].spans, prep.X[i], threshold, type_thresholds)
    return decided


def masked_texts(prep: Prepared, masked: list[list[tuple[int, int]]]) -> list[MaskedText]:
    """Each document of ``prep`` with the spans a system masks, for :func:`tab_measures`."""
    return [MaskedText(d.text, c.doc, entities(d.mentions), m) for d, c, m in zip(prep.docs, prep.cands, masked)]


TAB_KEYS = ("entity_recall", "entity_recall_direct", "entity_recall_quasi", "token_recall", "token_precision", "mention_precision")


TUNE_GRID = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)


def _decided_at(spans_p: list[tuple[list[DetectedSpan], np.ndarray]], default: float, per_type: dict[str, float]) -> list[list[Span3]]:
    return [[(s.start, s.end, s.entity_type.value) for s, q in zip(spans, p)
             if q >= per_type.get(s.entity_type.value, default)] for spans, p in spans_p]


def tune_type_thresholds(prep: Prepared, train: list[int], *, target_precision: float, min_direct: float = 0.95,
                         folds: int = 4, seed: int = 13) -> tuple[float, dict[str, float]]:
    """A global threshold and thresholds per entity type, chosen on ``train`` documents only.

    P(mask) of every training document comes from an inner grouped cross-validation over
    ``train`` (a document is never scored by a model that saw it); the global threshold is
    the lowest of :data:`TUNE_GRID` whose precision reaches ``target_precision`` (the
    highest precision if none does); then each entity type's threshold is moved along the
    grid, twice round, while QUASI strict recall rises with precision still at the target
    and DIRECT strict recall at ``min_direct`` or more (or precision rises while it is
    below). The test fold is never looked at.
    """
    sub = Prepared([prep.docs[i] for i in train], [prep.cands[i] for i in train], [prep.X[i] for i in train],
                   [prep.y[i] for i in train])
    inner = cross_validate(sub, folds=min(folds, len(train)), seed=seed, threshold=0.0)
    spans_p = [(spans, np.array([s.score or 0.0 for s in spans])) for spans in inner]

    def objective(default: float, per_type: dict[str, float]) -> tuple[float, float]:
        r = score(sub.docs, _decided_at(spans_p, default, per_type))
        p, q, d = r["precision"] or 0.0, r["quasi_strict"] or 0.0, r["direct_strict"] or 0.0
        return (q, p) if p >= target_precision and d >= min_direct else (p - 1.0 - max(0.0, min_direct - d), q)

    default = max(TUNE_GRID, key=lambda t: (objective(t, {}), -t))
    best, per_type = objective(default, {}), {}
    types = sorted({s.entity_type.value for spans, _ in spans_p for s in spans})
    for _ in range(2):
        for t in types:
            for g in TUNE_GRID:
                trial = dict(per_type, **{t: g})
                v = objective(default, trial)
                if v > best:
                    best, per_type = v, trial
    return default, {t: v for t, v in per_type.items() if v != default}


def cross_validate_tuned(prep: Prepared, *, target_precision: float, folds: int = 5, seed: int = 13) -> tuple[list[list], list[dict]]:
    """Like :func:`cross_validate`, with the thresholds of each fold from :func:`tune_type_thresholds`
    on that fold's training documents (nested: the test fold chooses nothing)."""
    assign = fold_ids(len(prep.docs), folds, seed)
    decided: list[list] = [[] for _ in prep.docs]
    chosen = []
    for f in range(folds):
        train = [i for i, a in enumerate(assign) if a != f]
        default, per_type = tune_type_thresholds(prep, train, target_precision=target_precision, seed=seed)
        chosen.append({"fold": f, "threshold": default, "type_thresholds": per_type})
        model = Decider.train([(prep.cands[i].spans, prep.X[i], prep.y[i]) for i in train], seed=seed)
        for i, a in enumerate(assign):
            if a == f:
                decided[i] = model.decide(prep.cands[i].spans, prep.X[i], default, per_type)
    return decided, chosen


def presidio_predictions(docs: list[GoldDoc]) -> list[list[Span3]] | None:
    """Every result of Presidio's AnalyzerEngine (same spaCy model), or None without the extra."""
    try:
        from engine.integrations.presidio import PRESIDIO_TYPES, offline_analyzer
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
                       baselines: bool = True, tune_precision: float | None = None, train_with: list[GoldDoc] | None = None,
                       progress: Callable[[str], None] | None = None) -> dict:
    """The report of ``taxogen evaluate detection`` (see the module docstring)."""
    prep = prepare(docs, detector, progress)
    extra = prepare(train_with, detector, progress) if train_with else None
    shipped = detector.decider
    thr = threshold if threshold is not None else (detector.threshold or shipped.threshold)
    per_type = type_thresholds if type_thresholds is not None else shipped.type_thresholds
    # an explicit threshold overrides the shipped decider's thresholds per document kind
    explicit = threshold if threshold is not None else detector.threshold
    per_kind = {} if explicit is not None else dict(shipped.kind_thresholds)
    decided = cross_validate(prep, folds=folds, seed=seed, threshold=explicit, type_thresholds=per_type,
                             kind_thresholds=per_kind, default_threshold=thr, extra=extra)
    systems: dict[str, dict] = {}
    systems["taxogen"] = score(docs, [[(s.start, s.end, s.entity_type.value) for s in spans if s.masked] for spans in decided])
    systems["all candidates"] = score(docs, [[(s.start, s.end, s.entity_type.value) for s in c.spans] for c in prep.cands])
    tab = {
        "taxogen": tab_measures(masked_texts(prep, [[(s.start, s.end) for s in spans if s.masked] for spans in decided])),
        "all candidates": tab_measures(masked_texts(prep, [[(s.start, s.end) for s in c.spans] for c in prep.cands])),
    }
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
    tuned = None
    if tune_precision is not None:
        t0 = time.perf_counter()
        dec_t, chosen = cross_validate_tuned(prep, target_precision=tune_precision, folds=folds, seed=seed)
        name = f"taxogen tuned≥{tune_precision:g}"
        systems[name] = score(docs, [[(s.start, s.end, s.entity_type.value) for s in spans if s.masked] for spans in dec_t])
        tuned = {"system": name, "target_precision": tune_precision, "folds": chosen}
        if progress:
            progress(f"thresholds per type tuned by inner CV on each fold's training documents: {time.perf_counter() - t0:.1f} s")
    curve = {}
    for t in (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8):
        dec = [[s for s in spans if (s.score or 0) >= t] for spans in decided]
        r = score(docs, [[(s.start, s.end, s.entity_type.value) for s in spans] for spans in dec])
        curve[str(t)] = {k: r[k] for k in ("direct_strict", "quasi_strict", "precision", "dem_strict")}
        m = tab_measures(masked_texts(prep, [[(s.start, s.end) for s in spans] for spans in dec]))
        curve[str(t)].update({f"tab_{k}": m[k] for k in TAB_KEYS})
    annotators = sorted({d.annotator for d in docs})
    return {
        "documents": len(docs), "folds": folds, "seed": seed, "threshold": thr, "type_thresholds": per_type,
        "kind_thresholds": per_kind, "train_with": len(train_with or []), "tab_measures": tab,
        "gold": f"first annotator of each document ({', '.join(annotators[:5])}{'…' if len(annotators) > 5 else ''})",
        "systems": systems, "threshold_curve": curve, "type_accuracy": types, "tuned": tuned,
    }


TYPES = tuple(t.value for t in EntityType)
