"""The LightGBM LambdaRank model that orders a mention's candidates.

``save(dir)`` writes ``model.txt`` (the booster) and ``ranker.json`` (feature schema,
groups, parameters, library versions, training summary); ``load(dir)`` is its inverse.
Loading raises :class:`RankerError` when a file is missing or unreadable, or when the
model's feature schema differs from the code's, or when it names a sentence model this code
does not have; it warns when the model was written by another taxogen or LightGBM version.
``versions.embedding_model`` names the sentence model of its embedding features (a ranker
without it was trained on MiniLM's): the rank stage embeds with that model.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from engine.errors import RankerError
from engine.select.embeddings import MODEL_NAME, MODEL_NAMES
from engine.select.features import CONTEXT_WORDS, FEATURE_GROUPS, feature_names

SCHEMA_VERSION = 1
MODEL_FILE = "model.txt"
META_FILE = "ranker.json"

DEFAULT_PARAMS: dict[str, Any] = {
    "objective": "lambdarank",
    "metric": "ndcg",
    "eval_at": [1],
    "learning_rate": 0.05,
    "num_leaves": 7,
    "min_data_in_leaf": 10,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "verbosity": -1,
    "num_threads": 2,
    "deterministic": True,
    "force_row_wise": True,
}
DEFAULT_ROUNDS = 100


def shipped_model_dir() -> Path:
    """Directory of the model shipped inside the package."""
    return Path(str(resources.files("engine") / "models" / "default"))


def _versions() -> dict[str, str]:
    from engine.select.booster import lightgbm_version
    from engine.version import __version__

    return {"taxogen": __version__, "lightgbm": lightgbm_version()}


def lightgbm_params(seed: int, max_relevance: int = 1, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """:data:`DEFAULT_PARAMS` with ``params`` over them, every LightGBM seed set to ``seed``
    and, for LambdaRank, a gain of ``2**r - 1`` per relevance grade up to ``max_relevance``."""
    p = dict(DEFAULT_PARAMS, **(params or {}))
    p.update({"seed": seed, "bagging_seed": seed, "feature_fraction_seed": seed, "data_random_seed": seed})
    if p.get("objective") == "lambdarank":
        p.setdefault("label_gain", [float(2**i - 1) for i in range(max(2, max_relevance + 1))])
    return p


@dataclass
class Ranker:
    """A trained booster with the feature schema it expects."""

    booster: Any
    groups: tuple[str, ...]
    features: list[str]
    params: dict[str, Any] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)
    #: the label prior of the ``prior`` feature group (engine.select.label_prior), saved in ranker.json
    prior: Any = None
    #: the sentence model its embedding features were computed with (``versions.embedding_model``
    #: in ranker.json): the rank stage embeds with it (:data:`engine.select.embeddings.MODEL_NAMES`)
    embedding_model: str = MODEL_NAME

    @classmethod
    def train(
        cls,
        X: np.ndarray,
        sizes: Sequence[int],
        relevance: np.ndarray,
        *,
        groups: Sequence[str],
        params: dict[str, Any] | None = None,
        rounds: int = DEFAULT_ROUNDS,
        seed: int = 13,
        info: dict[str, Any] | None = None,
    ) -> "Ranker":
        """Fit LambdaRank on rows ``X`` grouped by ``sizes`` with integer ``relevance``."""
        import lightgbm as lgb

        names = feature_names(groups)
        if X.shape[1] != len(names):
            raise RankerError(f"feature matrix has {X.shape[1]} columns, schema has {len(names)}")
        p = lightgbm_params(seed, int(relevance.max()) if len(relevance) else 1, params)
        data = lgb.Dataset(X, label=relevance, group=list(sizes), feature_name=[_safe(n) for n in names], free_raw_data=False)
        booster = lgb.train(p, data, num_boost_round=rounds)
        return cls(booster, tuple(groups), names, p, dict(info or {}, rounds=rounds, seed=seed))

    def score(self, X: np.ndarray) -> np.ndarray:
        """Scores of rows ``X`` (higher is better)."""
        if X.shape[1] != len(self.features):
            raise RankerError(f"expected {len(self.features)} features, got {X.shape[1]}")
        if len(X) == 0:
            return np.zeros(0)
        return np.asarray(self.booster.predict(X, num_threads=1), dtype=np.float64)

    def feature_importance(self) -> dict[str, float]:
        gains = self.booster.feature_importance(importance_type="gain")
        return dict(sorted(zip(self.features, map(float, gains)), key=lambda kv: -kv[1]))

    def save(self, directory: str | Path) -> Path:
        """Write ``model.txt`` and ``ranker.json`` into ``directory`` (created if needed)."""
        meta = {
            "schema_version": SCHEMA_VERSION,
            "groups": list(self.groups),
            "features": self.features,
            "context_words": CONTEXT_WORDS,
            "params": {k: v for k, v in self.params.items() if isinstance(v, (int, float, str, bool, list))},
            "versions": dict(_versions(), embedding_model=self.embedding_model),
            "info": self.info,
        }
        if self.prior is not None:
            meta["label_prior"] = self.prior.to_dict()
        from engine.select.booster import save_model

        return save_model(directory, self.booster, MODEL_FILE, META_FILE, meta)

    @classmethod
    def load(cls, directory: str | Path) -> "Ranker":
        """Load a saved ranker (its booster opened for prediction without importing lightgbm:
        :mod:`engine.select.booster`); see the module docstring for the checks."""
        from engine.select.booster import load_booster

        d = Path(directory)
        for name in (MODEL_FILE, META_FILE):
            if not (d / name).is_file():
                raise RankerError(f"ranker directory {d} has no {name}", path=str(d))
        try:
            meta = json.loads((d / META_FILE).read_text(encoding="utf-8"))
            booster = load_booster(d / MODEL_FILE)
        except (OSError, ValueError) as exc:
            raise RankerError(f"cannot read ranker in {d}: {exc}", path=str(d)) from exc
        if meta.get("schema_version") != SCHEMA_VERSION:
            raise RankerError(f"ranker in {d} has schema version {meta.get('schema_version')}, this code reads {SCHEMA_VERSION}", path=str(d))
        groups = tuple(meta.get("groups", ()))
        unknown = [g for g in groups if g not in FEATURE_GROUPS]
        if unknown or meta.get("features") != feature_names(groups):
            raise RankerError(
                f"ranker in {d} was trained with another feature schema "
                f"({len(meta.get('features', []))} features, groups {list(groups)}); retrain it with 'taxogen train'",
                path=str(d),
            )
        if meta.get("context_words") != CONTEXT_WORDS:
            raise RankerError(
                f"ranker in {d} was trained with {meta.get('context_words')} context words, this code uses {CONTEXT_WORDS}; retrain it",
                path=str(d),
            )
        if booster.num_feature() != len(meta["features"]):
            raise RankerError(f"ranker in {d}: model.txt has {booster.num_feature()} features, ranker.json lists {len(meta['features'])}", path=str(d))
        versions = dict(meta.get("versions", {}))
        embedding_model = versions.pop("embedding_model", MODEL_NAME)
        if embedding_model not in MODEL_NAMES:
            raise RankerError(f"ranker in {d} was trained on the embeddings of {embedding_model!r}; this code has "
                              f"{', '.join(MODEL_NAMES)}: retrain it with 'taxogen train'", path=str(d))
        skew = {k: (v, _versions().get(k)) for k, v in versions.items() if _versions().get(k) != v}
        if skew:
            warnings.warn(f"ranker in {d} was saved with other versions: {skew}", stacklevel=2)
        prior = None
        if "prior" in groups:
            from engine.select.label_prior import LabelPrior

            if "label_prior" not in meta:
                raise RankerError(f"ranker in {d} uses the label prior but ranker.json has none; retrain it", path=str(d))
            prior = LabelPrior.from_dict(meta["label_prior"])
        return cls(booster, groups, meta["features"], meta.get("params", {}), meta.get("info", {}), prior, embedding_model)


def _safe(name: str) -> str:
    return name.replace("=", "_").replace("*", "mask").replace(" ", "_")


def split_scores(scores: np.ndarray, sizes: Sequence[int]) -> list[np.ndarray]:
    """The scores of consecutive items of ``sizes`` rows each, one array per item."""
    out, pos = [], 0
    for n in sizes:
        out.append(scores[pos : pos + n])
        pos += n
    return out
