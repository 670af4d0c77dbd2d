"""Training the masking decider on annotated documents (``taxogen train-detect``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from engine.detect import Detector
from engine.detect.decide import DEFAULT_THRESHOLD, Decider
from taxogen_tools.evaluation.detection import GoldDoc, prepare


def train_decider(detector: Detector, docs: list[GoldDoc], out: str | Path, *, seed: int = 13,
                  threshold: float = DEFAULT_THRESHOLD, type_thresholds: dict[str, float] | None = None,
                  kind_thresholds: dict[str, float] | None = None, data_name: str = "", store: str = "",
                  progress: Callable[[str], None] | None = None) -> Decider:
    """Train on every document of ``docs`` and save the decider to ``out``."""
    t0 = time.perf_counter()
    prep = prepare(docs, detector, progress)
    decider = Decider.train(
        [(c.spans, x, y) for c, x, y in zip(prep.cands, prep.X, prep.y)], seed=seed, threshold=threshold,
        info={"data": data_name, "documents": len(docs), "doc_ids": [d.doc_id for d in docs], "gazetteer_store": store,
              "gold": "first annotator of each document"},
    )
    decider.type_thresholds = dict(type_thresholds or {})
    decider.kind_thresholds = dict(kind_thresholds or {})
    decider.save(out)
    if progress:
        progress(f"decider trained on {len(docs)} documents ({decider.info['rows']} spans) in {time.perf_counter() - t0:.1f} s → {out}")
    return decider
