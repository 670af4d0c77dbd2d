"""The masking decision: DIRECT, QUASI or NO_MASK for each candidate span.

A LightGBM multiclass model over :mod:`engine.detect.features` plus two *priors* learnt
from the training documents — how often annotators masked a span with the same text, and
one with the same last word ("senator", "presidency"), counted only for texts found in two
training documents or more (so no single document's names are kept in the model),
smoothed towards the overall rate and, for a training document, counted without that
document; counted apart for court judgments (the ``court_document`` feature), whose
annotators leave "the applicant" or "the Court" alone where a biography's mask a role — trained on the annotated
documents (WikiReplace/TAB format; a candidate takes the identifier type of the annotated
mention it overlaps most — DIRECT before QUASI before NO_MASK — and NO_MASK when it
overlaps none). A span is masked when ``P(DIRECT) + P(QUASI) >= threshold`` — or the
threshold of its entity type, when ``type_thresholds`` names one (a policy: ``{"DEM": 0.05}``
masks nationalities, occupations and languages more readily); it is then DIRECT or QUASI,
whichever is likelier. A document kind may have its own threshold (``kind_thresholds``:
``{"court": 0.5}``), which an explicit threshold overrides. The shipped model lives in
``engine/models/detect/`` (``model.txt`` + ``decider.json``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import numpy as np


from engine.detect.features import CATEGORICAL, FEATURES
from engine.detect.spans import DetectedSpan
from engine.errors import RankerError
from engine.text.document_kind import COURT  # noqa: F401  (re-exported: the kind whose ``court_document`` feature is set)
from engine.types import IdentifierType

CLASSES = (IdentifierType.NO_MASK, IdentifierType.DIRECT, IdentifierType.QUASI)
MODEL_FILE = "model.txt"
META_FILE = "decider.json"
DEFAULT_THRESHOLD = 0.3
PARAMS: dict[str, Any] = {
    "objective": "multiclass", "num_class": 3, "learning_rate": 0.05, "num_leaves": 7, "min_data_in_leaf": 10,
    "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0, "verbosity": -1,
    "num_threads": 2, "deterministic": True, "force_row_wise": True, "max_cat_to_onehot": 16,
}
ROUNDS = 200
PRIOR_FEATURES = ("prior_text_rate", "prior_text_n", "prior_word_rate", "prior_word_n",
                  "prior_words_unknown", "prior_words_max", "prior_words_min")
ALL_FEATURES = FEATURES + PRIOR_FEATURES
SMOOTHING = 2.0


_KIND_COLUMN = FEATURES.index("court_document")


def document_kind(X: np.ndarray) -> str:
    """The kind of the document whose feature rows are ``X``: ``court`` or ``""`` (any other)."""
    X = np.asarray(X)
    return COURT if X.size and X.reshape(len(X), -1)[0, _KIND_COLUMN] else ""


def prior_keys(span: DetectedSpan, kind: str = "") -> tuple[str, str]:
    """The text key and last-word key a span's priors are counted under (a court judgment's
    apart: ``court|t:applicant``)."""
    text = " ".join(span.text.casefold().split())
    words = [w.strip(".,;:'\"()") for w in text.split()]
    prefix = f"{kind}|" if kind else ""
    return f"{prefix}t:{text}", f"{prefix}w:{words[-1] if words else ''}"


_WORD = re.compile(r"[^\W\d_]+")


def vocabulary_keys(span: DetectedSpan, kind: str = "") -> list[str]:
    """The keys of the words of a span, each once (``v:court``): how often a span holding the
    word was masked, and whether the word is known at all — an institution's words
    ("Supreme", "Administrative") are seen in many documents, a place's or a person's name in few."""
    prefix = f"{kind}|" if kind else ""
    return [f"{prefix}v:{w}" for w in dict.fromkeys(_WORD.findall(span.text.casefold()))]


def count_priors(spans: list[DetectedSpan], labels: Sequence[IdentifierType], kind: str = "") -> dict[str, list[int]]:
    """key → [masked, total] over one document's candidates."""
    out: dict[str, list[int]] = {}
    for s, y in zip(spans, labels):
        for k in (*prior_keys(s, kind), *vocabulary_keys(s, kind)):
            c = out.setdefault(k, [0, 0])
            c[0] += int(y is not IdentifierType.NO_MASK)
            c[1] += 1
    return out


def add_priors(spans: list[DetectedSpan], X: np.ndarray, priors: dict[str, list[int]], base: float | dict[str, float],
               exclude: dict[str, list[int]] | None = None) -> np.ndarray:
    """``X`` with the :data:`PRIOR_FEATURES` columns (``exclude``: counts to leave out;
    ``base``: the masked rate the counts are smoothed towards, or one per document kind)."""
    kind = document_kind(X)
    if isinstance(base, dict):
        base = base.get(kind, base.get("", 0.5))
    def counts(k: str) -> tuple[int, int]:
        m, n = priors.get(k, (0, 0))
        if exclude and k in exclude and k in priors:
            m, n = m - exclude[k][0], n - exclude[k][1]
        return m, n

    cols = np.zeros((len(spans), len(PRIOR_FEATURES)))
    for i, s in enumerate(spans):
        for j, k in enumerate(prior_keys(s, kind)):
            m, n = counts(k)
            cols[i, 2 * j] = (m + SMOOTHING * base) / (n + SMOOTHING)
            cols[i, 2 * j + 1] = n
        known = [(m + SMOOTHING * base) / (n + SMOOTHING) for m, n in map(counts, vocabulary_keys(s, kind)) if n]
        cols[i, 4] = len(vocabulary_keys(s, kind)) - len(known)
        cols[i, 5] = max(known, default=base)
        cols[i, 6] = min(known, default=base)
    return np.hstack([np.asarray(X, dtype=np.float64).reshape(len(spans), -1), cols])


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
    priors: dict[str, list[int]] = field(default_factory=dict)
    base_rate: float = 0.5
    type_thresholds: dict[str, float] = field(default_factory=dict)
    #: the masked rate of each document kind's candidates ("": any other kind)
    base_rates: dict[str, float] = field(default_factory=dict)
    #: a threshold per document kind (``{"court": 0.5}``), over :attr:`threshold`
    kind_thresholds: dict[str, float] = field(default_factory=dict)

    @classmethod
    def train(cls, docs: Sequence[tuple[list[DetectedSpan], np.ndarray, Sequence[IdentifierType]]], *, seed: int = 13,
              rounds: int = ROUNDS, threshold: float = DEFAULT_THRESHOLD, info: dict[str, Any] | None = None) -> "Decider":
        """Train on ``(spans, features, labels)`` per document."""
        import lightgbm as lgb

        per_doc = [count_priors(spans, y, document_kind(x)) for spans, x, y in docs]
        priors: dict[str, list[int]] = {}
        doc_freq: dict[str, int] = {}
        for counts in per_doc:
            for k, (m, n) in counts.items():
                c = priors.setdefault(k, [0, 0])
                c[0] += m
                c[1] += n
                doc_freq[k] = doc_freq.get(k, 0) + 1
        # only texts and words seen in two documents or more: no one document's names are kept
        priors = {k: v for k, v in priors.items() if doc_freq[k] >= 2}
        ys = [v for _, _, y in docs for v in y]
        base = sum(v is not IdentifierType.NO_MASK for v in ys) / max(1, len(ys))
        by_kind: dict[str, list[int]] = {}
        for spans, x, y in docs:
            c = by_kind.setdefault(document_kind(x), [0, 0])
            c[0] += sum(v is not IdentifierType.NO_MASK for v in y)
            c[1] += len(y)
        rates = {k: m / n for k, (m, n) in sorted(by_kind.items()) if n}
        X = np.vstack([add_priors(spans, x, priors, rates, exclude=counts)
                       for (spans, x, _), counts in zip(docs, per_doc) if len(spans)])
        labels = np.array([CLASSES.index(v) for v in ys], dtype=np.int32)
        params = dict(PARAMS, seed=seed, bagging_seed=seed, feature_fraction_seed=seed, data_random_seed=seed)
        data = lgb.Dataset(X, labels, feature_name=list(ALL_FEATURES), categorical_feature=list(CATEGORICAL), free_raw_data=False)
        booster = lgb.train(params, data, num_boost_round=rounds)
        return cls(booster, threshold, dict(info or {}, rows=int(len(labels)), seed=seed, rounds=rounds), priors, base,
                   base_rates=rates)

    def probabilities(self, spans: list[DetectedSpan], X: np.ndarray) -> np.ndarray:
        """Rows of P(NO_MASK), P(DIRECT), P(QUASI)."""
        if len(spans) == 0:
            return np.zeros((0, 3))
        rates = self.base_rates or {"": self.base_rate}
        return np.asarray(self.booster.predict(add_priors(spans, X, self.priors, rates)))

    def decide(self, spans: list[DetectedSpan], X: np.ndarray, threshold: float | None = None,
               type_thresholds: dict[str, float] | None = None) -> list[DetectedSpan]:
        """``spans`` with ``identifier_type`` and ``score`` (P(mask)) set (``threshold``: over the
        decider's, its document kind's included; ``type_thresholds``: per entity type, over the
        decider's own)."""
        t = self.kind_thresholds.get(document_kind(X), self.threshold) if threshold is None else threshold
        per_type = dict(self.type_thresholds, **(type_thresholds or {}))
        P = self.probabilities(spans, X)
        out = []
        for s, p in zip(spans, P):
            mask = float(p[1] + p[2])
            ident = IdentifierType.NO_MASK if mask < per_type.get(s.entity_type.value, t) else (IdentifierType.DIRECT if p[1] >= p[2] else IdentifierType.QUASI)
            out.append(s.with_(identifier_type=ident, score=mask))
        return out

    def save(self, directory: str | Path) -> None:
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        self.booster.save_model(str(d / MODEL_FILE))
        meta = {"features": list(ALL_FEATURES), "classes": [c.value for c in CLASSES], "threshold": self.threshold,
                "type_thresholds": dict(sorted(self.type_thresholds.items())),
                "kind_thresholds": dict(sorted(self.kind_thresholds.items())),
                "params": PARAMS, "info": self.info, "base_rate": self.base_rate,
                "base_rates": dict(sorted(self.base_rates.items())),
                "priors": dict(sorted(self.priors.items()))}
        (d / META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, directory: str | Path | None = None) -> "Decider":
        from engine.select.booster import load_booster  # predicts without importing lightgbm

        d = Path(directory) if directory is not None else shipped_decider_dir()
        try:
            meta = json.loads((d / META_FILE).read_text(encoding="utf-8"))
            booster = load_booster(d / MODEL_FILE)
        except (OSError, ValueError) as exc:
            raise RankerError(f"cannot load the detection decider from {d}: {exc}", path=str(d)) from None
        if meta.get("features") != list(ALL_FEATURES):
            raise RankerError(f"the decider in {d} was trained with another feature schema; retrain it "
                              "(taxogen train-detect)", path=str(d))
        return cls(booster, float(meta.get("threshold", DEFAULT_THRESHOLD)), meta.get("info", {}),
                   {k: list(v) for k, v in meta.get("priors", {}).items()}, float(meta.get("base_rate", 0.5)),
                   {k: float(v) for k, v in meta.get("type_thresholds", {}).items()},
                   {k: float(v) for k, v in meta.get("base_rates", {}).items()},
                   {k: float(v) for k, v in meta.get("kind_thresholds", {}).items()})
