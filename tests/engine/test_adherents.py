"""A person word linked to a religion names a follower of it (engine/generate/adherents.py)."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from tests.conftest import tiny_store

EDGES = [
    ("Q1841", "P31", "Q9174"), ("Q1841", "P361", "Q5043"), ("Q5043", "P31", "Q47280"), ("Q47280", "P279", "Q9174"),
    ("Q9174", "P279", "Q7257"),
]
LABELS = {"Q1841": "Catholicism", "Q5043": "Christianity", "Q47280": "Abrahamic religion", "Q9174": "religion",
          "Q7257": "ideology"}
ALIASES = [("Q1841", "Catholic")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, ALIASES, shipped_overlay=True))


def test_given_a_person_word_linked_to_a_religion_then_its_rungs_name_a_follower(engine):
    labels = engine.candidates("Catholic", "DEM", context="She is a devout Catholic.").labels
    assert labels and all(l.startswith("follower of ") for l in labels[:-1])
    assert "follower of a religion" in labels


def test_given_the_religion_itself_then_its_rungs_stay(engine):
    assert "follower of a religion" not in engine.candidates("Catholicism", "MISC", context="She studied Catholicism.").labels
