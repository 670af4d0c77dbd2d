"""tools/: selection_oracles builds its oracle columns from the right mentions; seed_regression names missing data."""

import importlib.util

from engine.types import EntityType
from tests.conftest import ROOT
from tests.factories import labelled_item


def _oracles():
    spec = importlib.util.spec_from_file_location("selection_oracles", ROOT / "tools" / "selection_oracles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _item(doc: str, annotator: str, kind: EntityType, gold: int, n: int = 3):
    """A mention with candidates "0" … "n-1" whose one vote is on ``gold``."""
    return labelled_item(doc, {str(gold): [annotator]}, tuple(str(i) for i in range(n)), kind=kind, annotator=annotator)


def test_given_documents_then_style_columns_use_only_the_other_mentions_of_the_same_document_and_kind():
    tool = _oracles()
    items = [
        _item("d1", "annotator1", EntityType.DATETIME, 2),  # masked
        _item("d1", "annotator1", EntityType.DATETIME, 0),  # first rung
        _item("d1", "annotator1", EntityType.ORG, 2),
        _item("d2", "annotator2", EntityType.DATETIME, 2),
    ]
    cols = tool.document_style_columns(items)
    assert cols[0] == [0.0, 1.0]  # the other date of d1 took the first rung
    assert cols[1] == [1.0, 0.0]  # the other date of d1 was masked
    assert cols[2] == [-1.0, -1.0] and cols[3] == [-1.0, -1.0]  # nothing else of its kind in its document
    assert tool.annotator_columns(items)[3] == [0.0, 1.0, 0.0]
    assert tool.per_candidate(items, cols).shape == (12, 2)


def test_given_no_shared_documents_then_seed_regression_exits_1_naming_the_path(tmp_path, capsys):
    import pytest

    spec = importlib.util.spec_from_file_location("seed_regression", ROOT / "tools" / "seed_regression.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    missing = tmp_path / "shared" / "wikireplace_dev.json"
    with pytest.raises(SystemExit) as exc:
        tool.main(["check", "--store", str(tmp_path), "--docs", str(missing)])
    assert exc.value.code == 1 and f"no WikiReplace documents at {missing}" in capsys.readouterr().err


def test_given_rule_switched_off_then_ablation_lists_the_rungs_it_removed():
    import importlib.util

    from engine.engine import Engine
    from taxogen_tools.evaluation.truth import Judgment
    from tests.conftest import tiny_store

    spec = importlib.util.spec_from_file_location("truth_rule_ablation", ROOT / "tools" / "truth_rule_ablation.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    # a university whose longest walk passes "research institute" (an ORG span: not offered)
    edges = [("Q200", "P31", "Q3918"), ("Q3918", "P279", "Q2385804"), ("Q3918", "P279", "Q9000001"), ("Q9000001", "P279", "Q43229")]
    labels = {"Q200": "Testville University", "Q3918": "university", "Q2385804": "educational institution",
              "Q9000001": "research institute", "Q43229": "organization"}
    store = tiny_store(edges, labels, shipped_overlay=True)
    judged = [Judgment("d", "Testville University", "ORG", "", "research institute", False)]
    spans = tool.spans_of(judged, None)
    found = tool.removals(lambda: Engine.from_store(store), spans, {j.key: j for j in judged}, ["first-walk-only", "ordinal-names-edition"])
    assert ("ORG", "Testville University", "research institute", False) in found["first-walk-only"]
    assert found["ordinal-names-edition"] == []
