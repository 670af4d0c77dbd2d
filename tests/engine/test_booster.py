"""LightGBM models opened with the C API (engine.select.booster): lightgbm's own predictions,
bit for bit, without importing the lightgbm package (nor scikit-learn and SciPy through it)."""

import pickle
import subprocess
import sys

import numpy as np
import pytest

from engine.detect.decide import Decider, shipped_decider_dir
from engine.errors import RankerError
from engine.select.booster import BoosterError, NativeBooster, lightgbm_version, load_booster
from engine.select.ranker import Ranker, shipped_model_dir
from tests.conftest import ROOT


def _matrices(n_features: int, seed: int = 0):
    """Rows with zeros, NaN, small integers and large values, as float64, float32, Fortran
    order and integers (which LightGBM's wrapper turns into float32)."""
    rng = np.random.default_rng(seed)
    for scale in (0.01, 1.0, 100.0):
        X = rng.normal(size=(int(rng.integers(1, 120)), n_features)) * scale
        X[rng.random(X.shape) < 0.2] = 0
        X[rng.random(X.shape) < 0.05] = np.nan
        small = rng.random(X.shape) < 0.1
        X[small] = rng.integers(0, 5, size=int(small.sum()))
        yield from (X, X.astype(np.float32), np.asfortranarray(X), np.nan_to_num(X).astype(np.int64))


@pytest.mark.parametrize("model_dir, params", [(shipped_model_dir(), {"num_threads": 1}), (shipped_decider_dir(), {})])
def test_given_a_shipped_model_then_predictions_are_lightgbms_bit_for_bit(model_dir, params):
    import lightgbm as lgb

    mine, theirs = load_booster(model_dir / "model.txt"), lgb.Booster(model_file=str(model_dir / "model.txt"))
    assert isinstance(mine, NativeBooster)
    assert mine.num_feature() == theirs.num_feature() and mine.num_class() == theirs.num_model_per_iteration()
    for X in _matrices(theirs.num_feature()):
        expected = theirs.predict(X, **params)
        got = mine.predict(X, **params)
        assert got.shape == expected.shape and np.array_equal(got, expected, equal_nan=True)
    assert mine.num_trees() == theirs.num_trees()  # anything else: lightgbm's Booster of the same file
    assert lightgbm_version() == lgb.__version__
    again = pickle.loads(pickle.dumps(mine))
    assert np.array_equal(again.predict(X, **params), got, equal_nan=True)


def test_given_a_file_that_is_no_model_then_loading_fails_with_lightgbms_reason(tmp_path):
    bad = tmp_path / "model.txt"
    bad.write_text("not a model\n")
    with pytest.raises(BoosterError):
        load_booster(bad)
    with pytest.raises(OSError):
        load_booster(tmp_path / "missing.txt")
    (tmp_path / "ranker.json").write_text("{}")
    with pytest.raises(RankerError):
        Ranker.load(tmp_path)
    with pytest.raises(RankerError):
        Decider.load(tmp_path)


def test_given_the_shipped_models_load_and_predict_then_lightgbm_is_not_imported():
    code = ("import sys\nimport numpy as np\n"
            "from engine.detect.decide import Decider\n"
            "from engine.select.ranker import Ranker, shipped_model_dir\n"
            "r, d = Ranker.load(shipped_model_dir()), Decider.load()\n"
            "print(r.score(np.zeros((2, len(r.features)))).shape, d.booster.predict(np.zeros((1, d.booster.num_feature()))).shape)\n"
            "print(sorted(m for m in ('lightgbm', 'sklearn', 'scipy') if m in sys.modules))\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["(2,) (1, 3)", "[]"]
