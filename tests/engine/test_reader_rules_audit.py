"""Reader rules written after judging spans out of sample: minister → organ,
official → professional / civil servant, coach → coaching are not "is a"; a definite
common noun ("the song") names an instance, so its class's own P31 ("genre") is not offered."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.types import EntityType
from tests.conftest import candidate_labels as labels, tiny_store

EDGES = [
    ("Q83307", "P279", "Q895526"), ("Q83307", "P279", "Q599151"),    # minister ⊂ organ, official
    ("Q599151", "P279", "Q212238"), ("Q212238", "P279", "Q599151"),  # official ⊂ civil servant ⊂ official
    ("Q599151", "P279", "Q702269"), ("Q212238", "P279", "Q702269"),  # … ⊂ professional
    ("Q41583", "P279", "Q1104185"), ("Q41583", "P279", "Q50995749"), ("Q1104185", "P279", "Q159810"),  # coach
    ("Q41583", "P31", "Q28640"),                                       # coach: a profession
    ("Q7366", "P31", "Q483394"), ("Q7366", "P279", "Q2188189"),        # song: a genre; ⊂ musical work
]
LABELS = {
    "Q83307": "minister", "Q895526": "organ", "Q599151": "official", "Q212238": "civil servant", "Q702269": "professional",
    "Q41583": "coach", "Q1104185": "coaching", "Q50995749": "sports figure", "Q159810": "economy", "Q28640": "profession",
    "Q7366": "song", "Q483394": "genre", "Q2188189": "musical work",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


def test_given_minister_then_no_organ_and_no_civil_servant(engine):
    got = labels(engine, "minister", EntityType.DEM)
    assert "official" in got
    assert not {"organ", "civil servant", "professional"} & set(got)


def test_given_coach_then_no_activity_and_no_economy(engine):
    got = labels(engine, "coach", EntityType.DEM)
    assert {"profession", "sports figure"} <= set(got)
    assert not {"coaching", "economy"} & set(got)


def test_given_the_song_then_no_genre_but_a_bare_kind_keeps_it(engine):
    the_song = labels(engine, "song", EntityType.MISC, "In 1933 the song became the co-national anthem.")
    assert "musical work" in the_song and "genre" not in the_song
    assert "genre" in labels(engine, "song", EntityType.MISC, "She wrote song after song.")
