"""The masking decision: DIRECT, QUASI or NO_MASK for each candidate span.

A LightGBM multiclass model over :mod:`engine.detect.features`, trained on the annotated
documents (WikiReplace/TAB format; a candidate takes the identifier type of the annotated
mention it overlaps most — DIRECT before QUASI before NO_MASK — and NO_MASK when it
overlaps none). A span is masked when ``P(DIRECT) + P(QUASI) >= threshold``; it is then
DIRECT or QUASI, whichever is likelier. The shipped model lives in
``engine/models/detect/`` (``model.txt`` + ``decider.json``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from engine.detect.features import CATEGORICAL, FEATURES
from engine.detect.spans import DetectedSpan
from engine.errors import RankerError
from engine.types import IdentifierType

CLASSES = (IdentifierType.NO_MASK, IdentifierType.DIRECT, IdentifierType.QUASI)
MODEL_FILE = "model.txt"
META_FILE = "decider.json"
DEFAULT_THRESHOLD = 0.3
PARAMS: dict[str, Any] = {
    "objective": "multiclass", "num_class": 3, "learning_rate": 0.05, "num_leaves": 15, "min_data_in_leaf": 5,
    "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0, "verbosity": -1,
    "num_threads": 2, "deterministic": True, "force_row_wise": True, "max_cat_to_onehot": 16,
}
ROUNDS = 300


def shipped_decider_dir() -> Path:
    return Path(str(resources.files("engine") / "models" / "detect"))


def gold_label(span: DetectedSpan, gold: Sequence[tuple[int, int, IdentifierType]]) -> IdentifierType:
    """The identifier type of the annotated mention ``span`` overlaps (see the module docstring)."""
    best: dict[IdentifierType, int] = {}
    for s, e, ident in gold:
        ov = min(e, span.end) - max(s, span.start)
        if ov > 0:
            best[ident] = max(best.get(ident, 0), ov)
    for ident in (IdentifierType.DIRECT, IdentifierType.QUASI):
        if ident in best:
            return ident
    return IdentifierType.NO_MASK


@dataclass
class Decider:
    """A trained booster, its threshold and what it was trained on."""

    booster: Any
    threshold: float = DEFAULT_THRESHOLD
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def train(cls, X: np.ndarray, y: Sequence[IdentifierType], *, seed: int = 13, rounds: int = ROUNDS,
              threshold: float = DEFAULT_THRESHOLD, info: dict[str, Any] | None = None) -> "Decider":
        import lightgbm as lgb

        labels = np.array([CLASSES.index(v) for v in y], dtype=np.int32)
        params = dict(PARAMS, seed=seed, bagging_seed=seed, feature_fraction_seed=seed, data_random_seed=seed)
        data = lgb.Dataset(np.asarray(X, dtype=np.float64), labels, feature_name=list(FEATURES),
                           categorical_feature=list(CATEGORICAL), free_raw_data=False)
        booster = lgb.train(params, data, num_boost_round=rounds)
        return cls(booster, threshold, dict(info or {}, rows=int(len(labels)), seed=seed, rounds=rounds))

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """Rows of P(NO_MASK), P(DIRECT), P(QUASI)."""
        if len(X) == 0:
            return np.zeros((0, 3))
        return np.asarray(self.booster.predict(np.asarray(X, dtype=np.float64)))

    def decide(self, spans: list[DetectedSpan], X: np.ndarray, threshold: float | None = None) -> list[DetectedSpan]:
        """``spans`` with ``identifier_type`` and ``score`` (P(mask)) set."""
        t = self.threshold if threshold is None else threshold
        P = self.probabilities(X)
        out = []
        for s, p in zip(spans, P):
            mask = float(p[1] + p[2])
            ident = IdentifierType.NO_MASK if mask < t else (IdentifierType.DIRECT if p[1] >= p[2] else IdentifierType.QUASI)
            out.append(s.with_(identifier_type=ident, score=mask))
        return out

    def save(self, directory: str | Path) -> None:
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        self.booster.save_model(str(d / MODEL_FILE))
        meta = {"features": list(FEATURES), "classes": [c.value for c in CLASSES], "threshold": self.threshold,
                "params": PARAMS, "info": self.info}
        (d / META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, directory: str | Path | None = None) -> "Decider":
        import lightgbm as lgb

        d = Path(directory) if directory is not None else shipped_decider_dir()
        try:
            meta = json.loads((d / META_FILE).read_text(encoding="utf-8"))
            booster = lgb.Booster(model_file=str(d / MODEL_FILE))
        except (OSError, ValueError, lgb.basic.LightGBMError) as exc:
            raise RankerError(f"cannot load the detection decider from {d}: {exc}", path=str(d)) from None
        if meta.get("features") != list(FEATURES):
            raise RankerError(f"the decider in {d} was trained with another feature schema; retrain it "
                              "(taxogen train-detect)", path=str(d))
        return cls(booster, float(meta.get("threshold", DEFAULT_THRESHOLD)), meta.get("info", {}))
