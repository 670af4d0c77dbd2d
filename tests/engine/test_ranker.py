import json

import numpy as np
import pytest

from engine.errors import RankerError
from engine.select.features import FeatureBuilder
from engine.select.ranker import Ranker, shipped_model_dir, split_scores
from taxogen_tools.evaluation.selection import agreement_ceiling, evaluate, grouped_folds, repeated_cv
from taxogen_tools.training.ranker import FeatureTable, relevance, train_ranker
from taxogen_tools.training.selection_data import labelled_items
from engine.io.wikireplace import load_wikireplace
from tests.factories import labelled_item

GROUPS = ("structure", "document")


@pytest.fixture(scope="module")
def prepared(wikireplace_path):
    items = labelled_items(load_wikireplace(wikireplace_path))
    table = FeatureTable.build(FeatureBuilder(None, groups=GROUPS), items)
    return items, table


def test_given_protocol_then_1220_units_and_first_rung_baseline_matches_evaluation_md(prepared):
    items, table = prepared
    assert len(items) == 1220
    first = [np.array([len(i.item.candidates) - k for k in range(len(i.item.candidates))], float) for i in items]
    m = evaluate(items, first)
    assert m.majority == m.baseline_majority == 0.5221
    assert m.all_selections == pytest.approx(0.5566, abs=1e-4)


def test_given_folds_then_no_document_is_in_two(prepared):
    items, _ = prepared
    folds = grouped_folds(items, 5)
    docs = [{items[i].item.group for i in f} for f in folds]
    assert sum(len(d) for d in docs) == len({i.item.group for i in items}) == 75
    assert sorted(i for f in folds for i in f) == list(range(len(items)))


def test_given_relevance_modes_then_gold_is_top(prepared):
    items, _ = prepared
    maj = relevance(items[:50])
    votes = relevance(items[:50], "votes")
    assert maj.sum() == 50 and votes.max() == 3
    with pytest.raises(ValueError):
        relevance(items, "loudness")


def test_given_trained_ranker_then_save_load_round_trip_gives_same_scores(prepared, tmp_path):
    items, table = prepared
    r = train_ranker(items, table, list(range(600)), groups=GROUPS, rounds=20)
    X, _ = table.rows(range(600, 700))
    r.save(tmp_path / "m")
    again = Ranker.load(tmp_path / "m")
    assert np.allclose(r.score(X), again.score(X))
    meta = json.loads((tmp_path / "m" / "ranker.json").read_text())
    assert meta["groups"] == list(GROUPS) and meta["versions"]["lightgbm"]


def test_given_structure_model_then_held_out_documents_beat_first_rung(prepared):
    items, table = prepared
    folds = grouped_folds(items, 3)
    train = folds[0] + folds[1]
    r = train_ranker(items, table, train, groups=GROUPS, rounds=60)
    X, sizes = table.rows(folds[2])
    m = evaluate([items[i] for i in folds[2]], split_scores(r.score(X), sizes))
    assert m.majority > m.baseline_majority + 0.1


def test_given_broken_model_dirs_then_ranker_error(prepared, tmp_path):
    items, table = prepared
    with pytest.raises(RankerError, match="no model.txt"):
        Ranker.load(tmp_path)
    r = train_ranker(items, table, list(range(200)), groups=GROUPS, rounds=5)
    r.save(tmp_path / "m")
    meta_path = tmp_path / "m" / "ranker.json"
    meta = json.loads(meta_path.read_text())
    meta["features"] = meta["features"][:-1] + ["something_new"]
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(RankerError, match="another feature schema"):
        Ranker.load(tmp_path / "m")
    meta["schema_version"] = 999
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(RankerError, match="schema version"):
        Ranker.load(tmp_path / "m")
    (tmp_path / "m" / "model.txt").write_text("garbage")
    meta["schema_version"] = 1
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(RankerError):
        Ranker.load(tmp_path / "m")


def test_given_version_skew_then_warning(prepared, tmp_path):
    items, table = prepared
    r = train_ranker(items, table, list(range(200)), groups=GROUPS, rounds=5)
    r.save(tmp_path / "m")
    meta_path = tmp_path / "m" / "ranker.json"
    meta = json.loads(meta_path.read_text())
    meta["versions"]["lightgbm"] = "0.0.1"
    meta_path.write_text(json.dumps(meta))
    with pytest.warns(UserWarning, match="other versions"):
        Ranker.load(tmp_path / "m")


def test_given_shipped_model_then_it_loads_with_the_current_schema():
    r = Ranker.load(shipped_model_dir())
    # trained on our own (served) ladders: the annotated mentions (of 1,220) whose choice our ladder offers
    assert r.info["ladders"] == "served" and 0 < r.info["mentions"] <= 1220 and r.info["documents"] == 75


def test_given_votes_then_agreement_is_leave_one_annotator_out_and_ceiling_weights_lone_annotators():
    multi = labelled_item("d1", {"1980": ["a1", "a2", "a3"], "***": ["a4"]})
    lone = labelled_item("d2", {"***": ["a1"]})
    c = agreement_ceiling([multi, lone])
    # a1..a3 each agree with the others' majority ("1980"); a4 does not: 3 of 4
    assert c.multi_mentions == 1 and c.annotators == 4 and c.agreement == 0.75
    assert c.per_type == {"DATETIME": {"pairs": 4, "agreement": 0.75}}
    # the multi-annotated mention counts fully, the lone annotator's as often as annotators agree
    assert c.expected_ceiling == round((1 + 0.75) / 2, 4)
    assert agreement_ceiling([lone]) is None


def test_given_shared_data_then_nine_annotators_agree_with_the_others_about_four_times_in_five(prepared):
    items, _ = prepared
    c = agreement_ceiling(items)
    assert c.multi_mentions == 231 and c.annotators == 9
    assert 0.75 < c.agreement < 0.9  # EVALUATION.md: "the majority label holds about 83% of the nine votes"
    assert c.per_type["PERSON"]["agreement"] > c.per_type["DATETIME"]["agreement"]
    assert 0.8 < c.expected_ceiling < 0.9


def test_given_repeats_then_each_fold_assignment_is_run_and_summarised(prepared):
    items, table = prepared
    r = repeated_cv(items, table, repeats=2, folds=3, groups=GROUPS, seed=5, rounds=10)
    assert [run["seed"] for run in r["runs"]] == [5, 6]
    for key in ("majority", "all_selections", "mrr"):
        s = r["mean"][key]
        assert s["min"] <= s["mean"] <= s["max"]
    assert r["runs"][0]["majority"] != r["runs"][1]["majority"] or r["runs"][0]["mrr"] != r["runs"][1]["mrr"]
