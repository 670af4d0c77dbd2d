"""The public API is what ``__all__`` says, and every name in it exists."""

import importlib

import pytest


@pytest.mark.parametrize("module", ["kg", "engine", "kg.sparql"])
def test_given_package_then_all_names_exist_once(module):
    mod = importlib.import_module(module)
    for name in mod.__all__:
        assert hasattr(mod, name), f"{module}.{name} missing"
    assert len(set(mod.__all__)) == len(mod.__all__)
