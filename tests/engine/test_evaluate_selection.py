"""``taxogen_tools.evaluation.selection.evaluate_selection``: the library behind ``taxogen evaluate selection``."""

import json

from engine.config import EngineConfig
from engine.engine import Engine
from taxogen_tools.evaluation.selection import evaluate_selection


def test_given_cv_then_report_has_folds_pooled_metrics_and_agreement(tmp_path, wikireplace_path, sample_kg):
    small = tmp_path / "twelve.json"
    small.write_text(json.dumps(json.loads(wikireplace_path.read_text())[:12]))
    engine = Engine.from_store(sample_kg, EngineConfig(model="none"))
    heard: list[str] = []
    report = evaluate_selection(engine, small, folds=3, groups=("structure",), seed=13, progress=heard.append)
    assert report["mode"] == "3-fold grouped CV" and report["data"] == str(small)
    assert report["metrics"] is report["cv"]["pooled"] and report["metrics"]["mentions"] > 0
    assert len(report["cv"]["per_fold"]) == 3 and sum(f["mentions"] for f in report["cv"]["per_fold"]) == report["metrics"]["mentions"]
    assert 0 <= report["metrics"]["majority"] <= 1 and "agreement" in report
    assert report["graph_store"]["store"] == "embedded"
    assert sum(line.startswith("fold ") for line in heard) == 3
    assert "repeated" not in report and "ablation" not in report
