"""The verifier: P(rung true of this span in this sentence) for every rung of a LOC/ORG/DEM/MISC
ladder, and the ladder without the rungs below the operating point.

A LightGBM classifier over the rung's features (:mod:`engine.generate.verify_features`),
its raw score calibrated to a probability (isotonic regression fitted on out-of-fold scores
of grouped cross-validation: a rung given 0.9 is true nine times in ten on batches the
model never saw). The operating point ``min_truth`` is a product setting: a rung whose
P(true) is below it is dropped (``***`` never is). The model's own default is the point that
kept the cross-validated false rate among the class replacements shown at or below its
target (``verifier.json``: ``operating_point``), or the point a held-out calibration batch
measured (``tools/held_out_curve.py --write``); a document kind may have its own
(``operating_point.by_kind``: court judgments); ``[taxogen] min_truth`` or ``--min-truth``
sets another for every document.

``save(dir)`` writes ``model.txt`` (the booster) and ``verifier.json`` (the feature names,
the rules whose verdicts are features, the calibration, the operating point, the
cross-validated curve, library versions); ``load(dir)`` is its inverse: it raises
:class:`engine.errors.VerifierError` when a file is missing or unreadable or a feature is one
this code cannot compute, and warns when the model was saved by other versions. The model is
trained by ``taxogen train-verifier`` (``taxogen_tools.training.verifier``).
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import InputError, VerifierError
from engine.generate.sources.base import DocumentState
from engine.generate.verify_features import FEATURE_GROUPS, RULE_VERDICTS, RungFeatures
from engine.types import MASK, Candidate, Ladder

SCHEMA_VERSION = 1
MODEL_FILE = "model.txt"
META_FILE = "verifier.json"


def shipped_verifier_dir() -> Path:
    """Directory of the verifier shipped inside the package."""
    return Path(str(resources.files("engine") / "models" / "verifier"))


def _versions() -> dict[str, str]:
    from engine.select.booster import lightgbm_version
    from engine.version import __version__

    return {"taxogen": __version__, "lightgbm": lightgbm_version()}


@dataclass(frozen=True, slots=True)
class Calibration:
    """Raw score → P(true): the isotonic fit, piecewise linear through its points (``x``
    increasing), flat outside them (as scikit-learn's ``IsotonicRegression`` predicts)."""

    x: tuple[float, ...]
    y: tuple[float, ...]
    kind: str = "isotonic"

    def __post_init__(self) -> None:
        if not self.x or len(self.x) != len(self.y):
            raise VerifierError("a calibration needs as many scores as probabilities, and at least one")

    def __call__(self, raw: np.ndarray) -> np.ndarray:
        return np.interp(np.asarray(raw, dtype=np.float64), self.x, self.y)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "x": list(self.x), "y": list(self.y)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Calibration":
        return cls(tuple(map(float, d["x"])), tuple(map(float, d["y"])), str(d.get("kind", "isotonic")))


@dataclass
class Verifier:
    """A trained booster, its calibration and operating point, and the features it reads."""

    booster: Any
    features: list[str]
    groups: tuple[str, ...]
    #: the rules whose verdicts are features (switched off while ladders are built)
    rules: tuple[str, ...]
    calibration: Calibration
    #: the default operating point: rungs with P(true) below it are dropped
    min_truth: float
    params: dict[str, Any] = field(default_factory=dict)
    #: training summary, cross-validated figures and curve, the operating point's target
    info: dict[str, Any] = field(default_factory=dict)

    def matrix(self, rows: Sequence[dict[str, float]]) -> np.ndarray:
        """The rows as the booster reads them (a feature a row lacks is 0)."""
        return np.array([[row.get(name, 0.0) for name in self.features] for row in rows], dtype=np.float64).reshape(len(rows), len(self.features))

    def raw(self, rows: Sequence[dict[str, float]]) -> np.ndarray:
        """The booster's probability of each row, before calibration."""
        if not rows:
            return np.zeros(0)
        return np.asarray(self.booster.predict(self.matrix(rows), num_threads=1), dtype=np.float64)

    def probabilities(self, rows: Sequence[dict[str, float]]) -> np.ndarray:
        """P(true) of each row, calibrated."""
        return self.calibration(self.raw(rows)) if rows else np.zeros(0)

    def save(self, directory: str | Path) -> Path:
        """Write ``model.txt`` and ``verifier.json`` into ``directory`` (created if needed)."""
        meta = {
            "schema_version": SCHEMA_VERSION,
            "groups": list(self.groups),
            "features": self.features,
            "rules": list(self.rules),
            "calibration": self.calibration.to_dict(),
            "operating_point": dict(self.info.get("operating_point", {}), min_truth=self.min_truth),
            "params": {k: v for k, v in self.params.items() if isinstance(v, (int, float, str, bool, list))},
            "versions": _versions(),
            "info": {k: v for k, v in self.info.items() if k != "operating_point"},
        }
        from engine.select.booster import save_model

        return save_model(directory, self.booster, MODEL_FILE, META_FILE, meta)

    @classmethod
    def load(cls, directory: str | Path) -> "Verifier":
        """Load a saved verifier (see the module docstring for the checks)."""
        from engine.select.booster import load_booster

        d = Path(directory)
        for name in (MODEL_FILE, META_FILE):
            if not (d / name).is_file():
                raise VerifierError(f"verifier directory {d} has no {name}", path=str(d))
        try:
            meta = json.loads((d / META_FILE).read_text(encoding="utf-8"))
            booster = load_booster(d / MODEL_FILE)
            calibration = Calibration.from_dict(meta["calibration"])
            min_truth = float(meta["operating_point"]["min_truth"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise VerifierError(f"cannot read verifier in {d}: {exc}", path=str(d)) from exc
        if meta.get("schema_version") != SCHEMA_VERSION:
            raise VerifierError(f"verifier in {d} has schema version {meta.get('schema_version')}, this code reads {SCHEMA_VERSION}",
                                path=str(d))
        groups, rules = tuple(meta.get("groups", ())), tuple(meta.get("rules", ()))
        unknown_groups = [g for g in groups if g not in FEATURE_GROUPS]
        unknown_rules = [r for r in rules if r not in RULE_VERDICTS]
        if unknown_groups or unknown_rules:
            raise VerifierError(f"verifier in {d} reads feature groups {unknown_groups} or rules {unknown_rules} this code does not "
                                f"compute; retrain it with 'taxogen train-verifier'", path=str(d))
        if booster.num_feature() != len(meta["features"]):
            raise VerifierError(f"verifier in {d}: model.txt has {booster.num_feature()} features, verifier.json lists "
                                f"{len(meta['features'])}", path=str(d))
        skew = {k: (v, _versions().get(k)) for k, v in meta.get("versions", {}).items() if _versions().get(k) != v}
        if skew:
            warnings.warn(f"verifier in {d} was saved with other versions: {skew}", stacklevel=2)
        info = dict(meta.get("info", {}), operating_point=meta["operating_point"])
        return cls(booster, list(meta["features"]), groups, rules, calibration, min_truth, meta.get("params", {}), info)


class LadderVerifier:
    """A verifier over one store: the features of a ladder's rungs, their P(true), and the
    ladder without the rungs below an operating point."""

    def __init__(self, model: Verifier, features: RungFeatures) -> None:
        missing = sorted(set(model.features) - set(features.names(model.groups)))
        if missing:
            raise VerifierError(f"the verifier reads features this code does not compute ({', '.join(missing[:5])}); "
                                "retrain it with 'taxogen train-verifier'")
        self.model = model
        self.features = features

    @property
    def min_truth(self) -> float:
        """The model's default operating point."""
        return self.model.min_truth

    def min_truth_for(self, kind: str) -> float:
        """The model's operating point for a document of ``kind``
        (:func:`engine.text.document_kind.document_kind`): ``operating_point.by_kind`` of
        ``verifier.json`` where it names the kind ("court": a judgment's rungs are kept from the
        point its readers measured), else :attr:`min_truth`."""
        point = self.model.info.get("operating_point", {}).get("by_kind", {}).get(kind) if kind else None
        return float(point["min_truth"]) if point is not None else self.model.min_truth

    def probabilities(self, ladders: Sequence[tuple[Ladder, DocumentState | None]]) -> list[list[float] | None]:
        """P(true) of every rung of each ladder (``***``: 1), in one prediction; ``None`` for a
        ladder the verifier does not weigh (a type not generalized from the graph)."""
        rows: list[dict[str, float]] = []
        spans: list[tuple[int, list[int]]] = []
        for ladder, state in ladders:
            at = self.features.graph_rungs(ladder)
            spans.append((len(rows), at))
            rows += self.features.rows(ladder, state, self.model.groups)
        probs = self.model.probabilities(rows)
        out: list[list[float] | None] = []
        for (ladder, _), (start, at) in zip(ladders, spans):
            if not ladder.span.entity_type.is_graph:
                out.append(None)
                continue
            p = [1.0] * len(ladder.candidates)
            for j, i in enumerate(at):
                p[i] = float(probs[start + j])
            out.append(p)
        return out

    def verify(self, ladder: Ladder, state: DocumentState | None = None, min_truth: float | None = None) -> tuple[Ladder, tuple[float, ...] | None]:
        """The ladder without its rungs below ``min_truth`` (default: the model's) and the P(true) of
        the rungs kept (:func:`keep`)."""
        return keep(ladder, self.probabilities([(ladder, state)])[0], self.min_truth if min_truth is None else min_truth)


def keep(ladder: Ladder, probs: Sequence[float] | None, min_truth: float) -> tuple[Ladder, tuple[float, ...] | None]:
    """``ladder`` without the rungs whose P(true) is below ``min_truth`` (``***`` always stays),
    the rungs renumbered from 1, and the P(true) of those kept; unchanged without ``probs``."""
    if probs is None:
        return ladder, None
    kept: list[tuple[Candidate, float]] = [(c, p) for c, p in zip(ladder.candidates, probs) if c.label == MASK or not p < min_truth]
    if len(kept) == len(ladder.candidates):
        return ladder, tuple(probs)
    cands = tuple(replace(c, level=n) for n, (c, _) in enumerate(kept, start=1))
    dropped = len(ladder.candidates) - len(kept)
    reason = f"{ladder.reason}; the verifier dropped {dropped} rung{'s' if dropped > 1 else ''} below P(true) {min_truth:g}"
    return replace(ladder, candidates=cands, reason=reason), tuple(p for _, p in kept)


def check_min_truth(value: float) -> float:
    """``value`` if it is a probability (0 keeps every rung); raises :class:`InputError` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InputError(f"min_truth must be a probability between 0 and 1, not {value!r}")
    return float(value)


__all__ = ["Verifier", "LadderVerifier", "Calibration", "keep", "check_min_truth", "shipped_verifier_dir", "MODEL_FILE", "META_FILE"]
