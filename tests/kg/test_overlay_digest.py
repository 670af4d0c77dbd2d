"""A store notes which overlay it holds; an engine opening it warns when the shipped one changed."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from kg import KGStore, build_from_dump
from kg.store import META_FILE, overlay_digest, sample_graph_path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("digest") / "store"
    build_from_dump(sample_graph_path(), target, progress=False)
    return target


def _open_warnings(store: Path) -> list[str]:
    from engine import Engine

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        Engine.from_config(None, store=str(store), model="none")
    return [str(w.message) for w in seen if w.category.__name__ == "StaleOverlayWarning"]


def test_given_a_fresh_build_then_its_overlay_is_the_shipped_one_and_no_warning(built: Path) -> None:
    meta = json.loads((built / META_FILE).read_text(encoding="utf-8"))
    assert meta["overlay_digest"] == overlay_digest() and meta["overlay_files"] == "shipped"
    assert KGStore.read_only(built).stale_overlay() is None
    assert _open_warnings(built) == []


def test_given_an_older_overlay_then_opening_warns_and_kg_overlay_reloads_it(built: Path) -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    meta_path = built / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["overlay_digest"] = "0" * 16  # as if the ontology changed since the build
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    (message,) = _open_warnings(built)
    assert "kg overlay --store" in message and "changed since it was loaded" in message
    result = CliRunner().invoke(app, ["kg", "overlay", "--store", str(built)])
    assert result.exit_code == 0, result.output
    assert _open_warnings(built) == []
