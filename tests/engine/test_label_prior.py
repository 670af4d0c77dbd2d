"""The label prior of served training (engine.select.label_prior)."""

import numpy as np
import pytest

from engine.select.features import FEATURE_GROUPS, FeatureBuilder, feature_names
from engine.select.label_prior import BASE_RATE, NEUTRAL, SMOOTHING, LabelPrior
from engine.select.ranker import Ranker
from taxogen_tools.training.ranker import FeatureTable, scoring_rows, train_ranker
from engine.types import EntityType
from tests.factories import labelled_item

LOC = EntityType.LOC


def _loc(doc, chosen, labels=("country", "sovereign state", "***")):
    return labelled_item(doc, {chosen: ["a1"]}, labels, kind=LOC, span="Italy")


def _rate(c, o):
    return (c + SMOOTHING * BASE_RATE) / (o + SMOOTHING)


def test_counts_offered_and_chosen_per_label_and_leaves_a_document_out():
    items = [_loc("d1", "country"), _loc("d2", "country"), _loc("d3", "***")]
    prior = LabelPrior.from_items(items)
    assert prior.fields(LOC, "country") == pytest.approx((_rate(2, 3), np.log1p(3)))
    assert prior.fields(LOC, "Country") == prior.fields(LOC, "country")  # case does not matter
    assert prior.fields(LOC, "sovereign state")[0] == pytest.approx(_rate(0, 3))
    # a training row does not see its own document's choice
    assert prior.fields(LOC, "country", exclude_doc="d1") == pytest.approx((_rate(1, 2), np.log1p(2)))
    # *** and the types the prior does not cover are neutral; an unseen label gets the base rate
    assert prior.fields(LOC, "***") == NEUTRAL
    assert prior.fields(EntityType.DATETIME, "date in the 1980s") == NEUTRAL
    assert prior.fields(EntityType.DEM, "profession") == NEUTRAL
    assert prior.fields(LOC, "island nation") == pytest.approx((BASE_RATE, 0.0))


def test_round_trip_keeps_the_totals_not_the_documents():
    prior = LabelPrior.from_items([_loc("d1", "country"), _loc("d2", "***")])
    back = LabelPrior.from_dict(prior.to_dict())
    assert back.fields(LOC, "country") == prior.fields(LOC, "country")
    assert back.by_doc == {}


def test_training_fills_the_prior_columns_per_fold_and_the_model_keeps_them(tmp_path):
    groups = ("structure", "prior")
    items = [_loc(f"d{i}", "country" if i % 3 else "***") for i in range(30)]
    table = FeatureTable.build(FeatureBuilder(None, groups=groups), items)
    j = feature_names(groups).index(FEATURE_GROUPS["prior"][0])
    assert set(table.X[:, j]) == {NEUTRAL[0]}  # a training table holds no prior
    train = list(range(20))
    ranker = train_ranker(items, table, train, groups=groups, rounds=5)
    # counted on the 20 training items only, without the test documents
    assert ranker.prior.offered["LOC\tcountry"] == 20
    X, _ = scoring_rows(ranker, items, table, [25])
    assert X[0, j] == pytest.approx(ranker.prior.fields(LOC, "country")[0])
    # serving builds the same row from the model's prior
    served, _ = FeatureBuilder(None, groups=groups, prior=ranker.prior).build([items[25].item])
    assert np.allclose(served, X)
    ranker.save(tmp_path)
    again = Ranker.load(tmp_path)
    assert again.prior.fields(LOC, "country") == ranker.prior.fields(LOC, "country")
    assert np.allclose(again.score(X), ranker.score(X))
