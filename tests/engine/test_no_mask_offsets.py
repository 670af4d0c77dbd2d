"""NO_MASK entries of a result carry their real offsets in the sanitized text."""

import pytest

from engine.config import EngineConfig
from engine.engine import Engine
from engine.types import EntityType as T, IdentifierType as I, Mention


@pytest.fixture(scope="module")
def first_rung(sample_kg):
    return Engine.from_store(sample_kg, EngineConfig(model="none"))


def at(text, s, t, ident="QUASI"):
    i = text.index(s)
    return Mention(i, i + len(s), T(t), I(ident))


def test_given_no_mask_between_replacements_then_offsets_point_at_its_text(first_rung):
    text = "Ada Lovelace was a mathematician born in London in 1815 and a writer."
    ms = [at(text, "Ada Lovelace", "PERSON", "DIRECT"), at(text, "mathematician", "DEM", "NO_MASK"),
          at(text, "London", "LOC"), at(text, "1815", "DATETIME"), at(text, "writer", "DEM", "NO_MASK")]
    r = first_rung.sanitize(text, ms)
    kept = [rep for rep in r.replacements if rep.kept]
    assert [rep.original for rep in kept] == ["mathematician", "writer"]
    for rep in kept:
        assert rep.new_end - rep.new_start == len(rep.original)
        assert r.text[rep.new_start:rep.new_end] == rep.original
        assert r.original_offset(rep.new_start) == rep.mention.start
    # the person placeholder is shorter than the name, so the first kept span moved left
    assert kept[0].new_start < kept[0].mention.start


def test_given_no_mask_first_then_offsets_are_its_own(first_rung):
    text = "Norwegian geologists met in Oslo."
    r = first_rung.sanitize(text, [at(text, "Norwegian", "DEM", "NO_MASK"), at(text, "Oslo", "LOC")])
    kept = r.replacements[0]
    assert kept.kept and (kept.new_start, kept.new_end) == (0, len("Norwegian"))
