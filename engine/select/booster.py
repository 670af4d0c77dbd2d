"""LightGBM models opened for prediction without importing the ``lightgbm`` package.

``import lightgbm`` imports scikit-learn and, through it, SciPy whenever they are installed
(0.6 s of a first raw document's start-up), though the shipped ranker and the detection
decider only predict. :func:`load_booster` opens a model file with LightGBM's own library
(``lib_lightgbm`` of the installed package) through its C API — the calls that
``lightgbm.Booster(model_file=…).predict(X, **params)`` makes for a NumPy matrix: the same
input layout, iteration and parameters, so the same scores bit for bit. Anything else asked
of a :class:`NativeBooster` (saving, feature importance, …) is answered by a
``lightgbm.Booster`` of the same file, loaded on first use. Where the library cannot be
found, :func:`load_booster` returns a ``lightgbm.Booster``.
"""

from __future__ import annotations

import ctypes
import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

#: C API constants (LightGBM's c_api.h)
_FLOAT32, _FLOAT64 = 0, 1
_ROW_MAJOR, _COL_MAJOR = 1, 0
_PREDICT_NORMAL = 0


class BoosterError(ValueError):
    """LightGBM refused a model file or a prediction (its own message)."""


def package_dir() -> Path | None:
    """The installed ``lightgbm`` package's directory, found without importing it."""
    spec = importlib.util.find_spec("lightgbm")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def library_path() -> Path | None:
    """``lib_lightgbm`` where the ``lightgbm`` package itself looks for it (``None``: not found)."""
    pkg = package_dir()
    if pkg is None:
        return None
    name = {"win32": "lib_lightgbm.dll", "darwin": "lib_lightgbm.dylib"}.get(sys.platform, "lib_lightgbm.so")
    for folder in (pkg.parent, pkg / "bin", pkg / "lib"):
        if (folder / name).is_file():
            return folder / name
    return None


def lightgbm_version() -> str:
    """``lightgbm.__version__`` (its ``VERSION.txt``), read without importing the package."""
    pkg = package_dir()
    if pkg is not None and (pkg / "VERSION.txt").is_file():
        return (pkg / "VERSION.txt").read_text(encoding="utf-8").strip()
    from importlib.metadata import version

    return version("lightgbm")


@lru_cache(maxsize=1)
def _library() -> ctypes.CDLL | None:
    path = library_path()
    if path is None:
        return None
    lib = ctypes.cdll.LoadLibrary(str(path))
    lib.LGBM_GetLastError.restype = ctypes.c_char_p
    return lib


def _call(lib: ctypes.CDLL, code: int) -> None:
    if code != 0:
        raise BoosterError(lib.LGBM_GetLastError().decode("utf-8"))


def _param_str(params: dict[str, Any]) -> str:
    """Prediction parameters as LightGBM's C API reads them (``key=value``, space-separated)."""
    return " ".join(f"{k}={','.join(map(str, v)) if isinstance(v, (list, tuple)) else v}" for k, v in params.items() if v is not None)


class NativeBooster:
    """A LightGBM model file opened with the C API, for :meth:`predict` on NumPy matrices."""

    def __init__(self, model_file: str | Path) -> None:
        lib = _library()
        if lib is None:
            raise OSError("LightGBM's library (lib_lightgbm) is not where the lightgbm package keeps it")
        self.model_file = str(model_file)
        self._lib = lib
        self._handle = ctypes.c_void_p()
        iterations = ctypes.c_int(0)
        _call(lib, lib.LGBM_BoosterCreateFromModelfile(self.model_file.encode("utf-8"), ctypes.byref(iterations),
                                                       ctypes.byref(self._handle)))
        self._full: Any = None

    def __reduce__(self) -> tuple:
        return NativeBooster, (self.model_file,)

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None and handle.value:
            self._lib.LGBM_BoosterFree(handle)

    def num_feature(self) -> int:
        out = ctypes.c_int(0)
        _call(self._lib, self._lib.LGBM_BoosterGetNumFeature(self._handle, ctypes.byref(out)))
        return out.value

    def num_class(self) -> int:
        out = ctypes.c_int(0)
        _call(self._lib, self._lib.LGBM_BoosterGetNumClasses(self._handle, ctypes.byref(out)))
        return out.value

    def predict(self, X: Any, **params: Any) -> np.ndarray:
        """``lightgbm.Booster.predict(X, **params)`` for a 2-D matrix: every iteration (a model
        file keeps no best iteration), transformed output; one row per sample, one column per
        class for a multiclass model."""
        mat = np.asarray(X)
        if mat.ndim != 2:
            raise ValueError("Input numpy.ndarray or list must be 2 dimensional")
        dtype = mat.dtype if mat.dtype in (np.float32, np.float64) else np.float32
        order, layout = ("F", _COL_MAJOR) if mat.flags["F_CONTIGUOUS"] else ("C", _ROW_MAJOR)
        data = np.asarray(mat, dtype=dtype, order=order).ravel(order=order)
        nrow, ncol = mat.shape
        start, iterations = 0, -1
        count = ctypes.c_int64(0)
        _call(self._lib, self._lib.LGBM_BoosterCalcNumPredict(self._handle, ctypes.c_int(nrow), ctypes.c_int(_PREDICT_NORMAL),
                                                              ctypes.c_int(start), ctypes.c_int(iterations), ctypes.byref(count)))
        preds = np.empty(count.value, dtype=np.float64)
        written = ctypes.c_int64(0)
        pointer = data.ctypes.data_as(ctypes.POINTER(ctypes.c_float if dtype == np.float32 else ctypes.c_double))
        _call(self._lib, self._lib.LGBM_BoosterPredictForMat(
            self._handle, pointer, ctypes.c_int(_FLOAT32 if dtype == np.float32 else _FLOAT64),
            ctypes.c_int32(nrow), ctypes.c_int32(ncol), ctypes.c_int(layout), ctypes.c_int(_PREDICT_NORMAL),
            ctypes.c_int(start), ctypes.c_int(iterations), _param_str(params).encode("utf-8"),
            ctypes.byref(written), preds.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))
        if written.value != count.value:
            raise ValueError("Wrong length for predict results")
        if preds.size != nrow:
            if preds.size % nrow:
                raise ValueError(f"Length of predict result ({preds.size}) cannot be divide nrow ({nrow})")
            preds = preds.reshape(nrow, -1)
        return preds

    @property
    def full(self) -> Any:
        """A ``lightgbm.Booster`` of the same file (imported and loaded on first use)."""
        if self._full is None:
            import lightgbm as lgb

            self._full = lgb.Booster(model_file=self.model_file)
        return self._full

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_full", "_handle", "_lib", "model_file"):
            raise AttributeError(name)
        return getattr(self.full, name)


def save_model(directory: str | Path, booster: Any, model_file: str, meta_file: str, meta: dict[str, Any]) -> Path:
    """Write a trained ``booster`` as ``model_file`` and its ``meta`` as the JSON ``meta_file``
    into ``directory`` (created if needed), each file replaced atomically; the directory."""
    import json

    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / (model_file + ".tmp")
    booster.save_model(str(tmp))
    tmp.replace(d / model_file)
    tmp = d / (meta_file + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(d / meta_file)
    return d


def load_booster(model_file: str | Path) -> Any:
    """A booster of ``model_file`` for prediction: a :class:`NativeBooster`, or a
    ``lightgbm.Booster`` where LightGBM's library is not where the package keeps it.
    Raises :class:`BoosterError` (or ``OSError``) when the file cannot be read as a model."""
    if not Path(model_file).is_file():
        raise OSError(f"no such model file: {model_file}")
    if _library() is None:
        import lightgbm as lgb

        try:
            return lgb.Booster(model_file=str(model_file))
        except lgb.basic.LightGBMError as exc:
            raise BoosterError(str(exc)) from None
    return NativeBooster(model_file)
