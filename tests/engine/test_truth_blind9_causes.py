"""Truth rules for causes of false class replacements blind readers found in truth-set batch
received-blind-9: an article read as a word of a title's head phrase, a role word clipped from
a longer role, a voice type read as a voice, neighbouring professions, a field named "theory".
Pinned on a tiny graph of the seed store's real Wikidata facts."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.truth import TruthRules
from engine.generate.truth_text import clipped
from engine.types import EntityType
from tests.conftest import candidate_labels as labels, tiny_store

EDGES = [
    ("Q11461", "P279", "Q1996635"),                                     # sound → auditory perception (no kind)
    ("Q1056391", "P279", "Q37226"), ("Q37226", "P31", "Q28640"),       # head teacher → teacher, a profession
    ("Q186506", "P279", "Q17172850"), ("Q17172850", "P279", "Q7390"),  # mezzo-soprano → voice → human voice
    ("Q2732142", "P279", "Q170790"), ("Q170790", "P279", "Q901"), ("Q2732142", "P31", "Q28640"),
    ("Q1607826", "P279", "Q2500638"), ("Q1607826", "P31", "Q28640"),  # editor → creator
    ("Q17737", "P279", "Q24034552"),                                   # theory → mathematical concept
]
LABELS = {
    "Q11461": "sound", "Q1996635": "auditory perception", "Q1056391": "head teacher", "Q37226": "teacher",
    "Q28640": "profession", "Q186506": "mezzo-soprano", "Q7390": "human voice", "Q2732142": "statistician",
    "Q170790": "mathematician", "Q901": "scientist", "Q1607826": "editor", "Q2500638": "creator",
    "Q17737": "theory", "Q24034552": "mathematical concept",
}
ALIASES = [("Q1056391", "head")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, ALIASES, shipped_overlay=True))


def test_given_a_title_with_an_article_then_its_head_word_names_no_class(engine: Engine) -> None:
    assert "sound" not in labels(engine, "The Sound of the Loom", EntityType.MISC, "Her memoir The Sound of the Loom appeared in 1970.")


def test_given_a_role_headed_by_a_clipped_word_then_not_the_longer_role(engine: Engine) -> None:
    assert clipped("head", "head teacher") and not clipped("head teacher", "head teacher") and not clipped("heads", "head teacher")
    assert "head teacher" not in labels(engine, "head of news", EntityType.DEM, "He was head of news at the broadcaster.")
    assert "head teacher" in labels(engine, "village school head teacher", EntityType.DEM, "She became a village school head teacher.")


def test_given_a_voice_type_then_no_human_voice(engine: Engine) -> None:
    assert "human voice" not in labels(engine, "mezzo-soprano", EntityType.DEM, "She married the mezzo-soprano Elena Rossi.")


def test_given_neighbouring_professions_then_not_one_another(engine: Engine) -> None:
    assert "mathematician" not in labels(engine, "statistician", EntityType.DEM, "She worked as a statistician.")
    assert "creator" not in labels(engine, "literary editor", EntityType.DEM, "She was literary editor of the paper.")
    assert "theory" not in labels(engine, "analytic number theory", EntityType.MISC, "He worked on analytic number theory.")


def test_shipped_reader_rules_carry_the_batch_9_and_10_rules() -> None:
    rules = TruthRules.load()
    assert {("Q2732142", "Q170790"), ("Q1607826", "Q2500638"), ("Q806349", "Q158852"), ("Q41425", "Q349")} <= rules.not_is_a
    assert "Q17737" in rules.homonym_heads
