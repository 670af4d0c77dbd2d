"""Loading the detector's spaCy pipeline without other packages' components, and with them where needed."""

import pytest

spacy = pytest.importorskip("spacy")

from engine.detect import ner  # noqa: E402


def _plugins():
    return spacy.util.registry._entry_point_factories


def test_given_spacys_own_components_then_loaded_without_plugins_and_the_registry_restored(monkeypatch):
    seen = []
    monkeypatch.setattr(spacy, "load", lambda model, **kw: seen.append((model, _plugins().entry_points, kw)) or "pipeline")
    assert ner.load_pipeline.__wrapped__("some_model") == "pipeline"
    assert seen == [("some_model", False, {"exclude": ["lemmatizer"]})]
    assert _plugins().entry_points is True


def test_given_a_component_of_another_package_then_loaded_again_with_plugins(monkeypatch):
    def load(model, **kw):
        if not _plugins().entry_points:
            raise ValueError("[E002] Can't find factory for 'plugin_pipe'")
        return "with plugins"

    monkeypatch.setattr(spacy, "load", load)
    assert ner.load_pipeline.__wrapped__("plugin_model") == "with plugins"
    assert _plugins().entry_points is True
