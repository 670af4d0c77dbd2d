"""``taxogen evaluate truth --curve``: the verifier's precision–coverage curve under grouped
cross-validation.

For each operating point ``min_truth`` (a rung whose P(true) is below it is dropped):

- **offered**: the judged rungs of the truth set's ladders (their spans' rungs matched to the
  judgments, :mod:`taxogen_tools.training.verifier_data`) that the verifier keeps, each scored by
  the model of the fold that left its group out; false among them, and the share of the true
  ones kept;
- **shown**: every judged document (the 75 shared WikiReplace biographies, first annotator,
  and the invented ones of ``tests/data/fresh_biographies*.jsonl``) sanitized at the engine's
  defaults (the selection policy, the privacy guard at ``k``), its rungs weighed by the model of
  the fold that left its group out: the class replacements a reader receives for its masked
  LOC/ORG/DEM/MISC mentions, judged false, judged true or unjudged (by span, type and
  equivalent label, as ``evaluate privacy`` reads the truth set) — on all of them, and on the
  invented biographies of the batches judged blind;
- **class share**: on the 75 shared biographies, the share of masked LOC/ORG/DEM/MISC mentions
  kept as a true class (as ``taxogen evaluate privacy`` counts it: a class no judgment calls
  false; unjudged ones counted apart).

Groups keep a document and a batch in one fold (:func:`taxogen_tools.training.verifier_data.groups_of`).
The default operating point keeps the false rate among the class replacements shown at or
below the target, and of those points the largest class share (:func:`operating_point`).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.doc import Doc
from engine.generate.verifier import keep
from engine.types import MASK, IdentifierType
from taxogen_tools.evaluation.utility import CLASS_KINDS, UtilityScorer, shown_of
from taxogen_tools.training.verifier_fit import CrossValidation, Dataset, verifier_of
from taxogen_tools.training.verifier_data import judged_sources

#: The operating points the curve visits.
THRESHOLDS: tuple[float, ...] = (0.0, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96)
#: The target of the default operating point: false among the class replacements shown.
TARGET_FALSE = 0.05
#: The stages after the verifier's, run again for each operating point.
LATER = ("rank", "select", "guard", "render")


@dataclass
class CurvePoint:
    """The figures of one operating point (module docstring)."""

    min_truth: float
    offered_judged: int = 0
    offered_false: int = 0
    offered_true_kept: float = 0.0
    shown_class: int = 0
    shown_judged: int = 0
    shown_false: int = 0
    shown_unjudged: int = 0
    blind_judged: int = 0
    blind_false: int = 0
    shared_masked: int = 0
    shared_true_class: int = 0
    shared_unjudged: int = 0

    @property
    def offered_false_rate(self) -> float | None:
        return self.offered_false / self.offered_judged if self.offered_judged else None

    @property
    def shown_false_rate(self) -> float | None:
        return self.shown_false / self.shown_judged if self.shown_judged else None

    @property
    def blind_false_rate(self) -> float | None:
        return self.blind_false / self.blind_judged if self.blind_judged else None

    @property
    def class_share(self) -> float:
        return self.shared_true_class / self.shared_masked if self.shared_masked else 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"offered_false_rate": self.offered_false_rate, "shown_false_rate": self.shown_false_rate,
                               "blind_false_rate": self.blind_false_rate, "class_share": round(self.class_share, 4)}


def offered(thresholds: Sequence[float], probabilities: np.ndarray, y: np.ndarray) -> list[CurvePoint]:
    """The points of ``thresholds`` with their offered figures: the judged rungs whose
    out-of-fold P(true) is at or above each (``y``: 1 true), the false among them, the share of
    the true ones kept."""
    true = np.asarray(y) == 1
    out = []
    for t in thresholds:
        kept = np.asarray(probabilities) >= t
        out.append(CurvePoint(t, offered_judged=int(kept.sum()), offered_false=int((kept & ~true).sum()),
                              offered_true_kept=round(float((kept & true).sum() / max(1, true.sum())), 4)))
    return out


def judged_documents(groups: dict[str, str], shared: str | Path) -> list[tuple[Any, str, bool]]:
    """(document record, its group, shared) for every document with a group of the shared
    WikiReplace biographies (``shared``) and of the invented ones; a shared document no
    judgment names joins the group of the shared documents."""
    from engine.io.docio import DocRecord, read_documents

    shared_path = Path(shared)
    if not shared_path.is_file():
        from engine.errors import InputError

        raise InputError(f"no such file: {shared_path} (the shared WikiReplace documents: --data)")
    out = []
    shared_group = None
    for path in judged_sources(shared_path):
        if not path.is_file():
            continue
        is_shared = path == shared_path
        for rec in read_documents(path, "auto"):
            if not isinstance(rec, DocRecord) or rec.mentions is None:
                continue
            group = groups.get(rec.doc_id)
            if is_shared and group is not None:
                shared_group = shared_group or group
            out.append((rec, group, is_shared))
    return [(rec, group or shared_group, is_shared) for rec, group, is_shared in out if (group or (is_shared and shared_group))]


def curve(engine, data: Dataset, cv: CrossValidation, judgments, *, shared: str | Path, thresholds: Sequence[float] = THRESHOLDS,
          k: int | None = None, progress: Callable[[str], None] | None = None) -> list[CurvePoint]:
    """The figures of every operating point of ``thresholds`` (module docstring)."""
    points = {pt.min_truth: pt for pt in offered(thresholds, cv.probabilities, data.y)}
    scorer = UtilityScorer(engine, judgments)
    blind = {j.doc_id for j in judgments if (j.batch or "").startswith("received-") and "shared" not in j.batch}
    docs = judged_documents(_all_groups(data), shared)
    by_group: dict[str, list] = {}
    for rec, group, shared in docs:
        by_group.setdefault(group, []).append((rec, shared))
    options = engine.options(k=k, min_truth=0.0)
    t0 = time.perf_counter()
    for group, recs in sorted(by_group.items()):
        booster, calibration = cv.models[group]
        engine.use_verifier(verifier_of(booster, calibration, data, 0.0))
        verified = engine.run([Doc(rec.text, list(rec.mentions)) for rec, _ in recs], options, until="verify")
        for t, pt in points.items():
            copies = copy.deepcopy(verified)
            for doc in copies:
                for m in doc.mentions:
                    if m.ladder is not None and m.verdicts is not None:
                        m.ladder, m.verdicts = keep(m.ladder, m.verdicts, t)
            with engine.knowledge.active():
                for stage in engine.pipeline:
                    if stage.name in LATER:
                        stage(copies, options)
            for (rec, shared), doc in zip(recs, copies):
                _measure(scorer, doc, shared, rec.doc_id in blind, pt)
        if progress:
            progress(f"  {group}: {len(recs)} documents sanitized at {len(points)} operating points ({time.perf_counter() - t0:.0f} s)")
    engine.use_verifier(None)
    return [points[t] for t in thresholds]


def _all_groups(data: Dataset) -> dict[str, str]:
    from taxogen_tools.training.verifier_data import groups_of

    return groups_of(data.spans) if data.spans else {}


def _measure(scorer: UtilityScorer, doc: Doc, shared: bool, blind: bool, pt: CurvePoint) -> None:
    """Add one sanitized document's masked graph mentions to ``pt``."""
    result = doc.result
    if result is None:
        return
    by_offset = {(r.mention.start, r.mention.end): r for r in result.replacements}
    for m in doc.mentions:
        if m.identifier_type is IdentifierType.NO_MASK or not m.entity_type.is_graph:
            continue
        r = by_offset.get((m.start, m.end))
        label, cand = (MASK, None) if r is None or r.kept else shown_of(r)
        ladder = [a.candidate for a in r.alternatives] if r is not None else []
        u = scorer.score(m.entity_type, doc.text[m.start:m.end], label, cand, ladder)
        if shared:
            pt.shared_masked += 1
            pt.shared_true_class += u.true_class
            pt.shared_unjudged += u.true_class and u.judged == "unjudged"
        if u.kind not in CLASS_KINDS:
            continue
        pt.shown_class += 1
        if u.judged == "unjudged":
            pt.shown_unjudged += 1
            continue
        pt.shown_judged += 1
        pt.shown_false += u.judged == "false"
        if blind:
            pt.blind_judged += 1
            pt.blind_false += u.judged == "false"


def operating_point(points: Sequence[CurvePoint], target: float = TARGET_FALSE) -> CurvePoint | None:
    """Among the points whose false rate among the class replacements shown is at or below
    ``target``, the one that keeps the largest class share on the shared biographies; of
    equal shares, the one with the fewest false (``None``: no point reaches the target)."""
    reached = [pt for pt in points if pt.shown_false_rate is not None and pt.shown_false_rate <= target]
    if not reached:
        return None
    return max(reached, key=lambda pt: (pt.shared_true_class, -pt.shown_false_rate, pt.min_truth))


def format_curve(points: Sequence[CurvePoint], default: float | None) -> list[str]:
    """The curve as text lines, the default operating point marked."""
    lines = [f"  {'min_truth':>9} {'offered: judged':>15} {'false':>7} {'true kept':>9}   {'shown: class':>12} {'judged':>7} "
             f"{'false':>7} {'blind false':>12}   {'class share (shared)':>20} {'unjudged':>8}"]
    for pt in points:
        mark = "  ← default" if default is not None and abs(pt.min_truth - default) < 1e-9 else ""
        lines.append(f"  {pt.min_truth:>9.2f} {pt.offered_judged:>15} {_rate(pt.offered_false_rate):>7} {pt.offered_true_kept:>9.1%}   "
                     f"{pt.shown_class:>12} {pt.shown_judged:>7} {_rate(pt.shown_false_rate):>7} "
                     f"{_rate(pt.blind_false_rate):>7} ({pt.blind_false:>3})   {pt.class_share:>20.1%} {pt.shared_unjudged:>8}{mark}")
    return lines


def _rate(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"


__all__ = ["CurvePoint", "THRESHOLDS", "TARGET_FALSE", "offered", "curve", "operating_point", "format_curve", "judged_documents"]
