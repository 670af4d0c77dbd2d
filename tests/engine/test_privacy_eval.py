"""``evaluate privacy`` on real WikiReplace documents and the seed store (slow: builds the seed, loads the model)."""

import json

import pytest

from engine.config import EngineConfig
from engine.engine import Engine
from taxogen_tools.evaluation.privacy_eval import evaluate_privacy, format_table

pytestmark = pytest.mark.slow


def test_given_seed_and_ten_documents_then_guarded_release_reaches_k_on_every_document(seed_store, wikireplace_path, tmp_path):
    subset = tmp_path / "ten.json"
    subset.write_text(json.dumps(json.loads(wikireplace_path.read_text(encoding="utf-8"))[:10]), encoding="utf-8")
    engine = Engine.from_config(EngineConfig(store=seed_store))
    report = evaluate_privacy(engine, subset, k=10)
    rows = {r["release"]: r for r in report["rows"]}
    assert set(rows) == {"original", "annotators", "taxogen, no guard", "taxogen --k 10", "full masking"}
    assert rows["taxogen --k 10"]["k"]["min"] >= 10 and rows["taxogen --k 10"]["k"]["k_ge_threshold"] == 1.0
    assert rows["original"]["k"]["max"] <= rows["taxogen, no guard"]["k"]["max"]
    assert rows["annotators"]["agreement"] == 1.0 and rows["full masking"]["kept_above_mask"] == 0.0
    assert report["background"]["coverage"]["P569"] == 0  # the seed has no birth dates
    assert any("taxogen --k 10" in line for line in format_table(report))
