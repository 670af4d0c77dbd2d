"""The kind of a rung's class narrows the facts its disclosure can be about.

A film, an event, a field or a language is the value of no person property the background
holds (an award only of P166), so a stray Wikidata edge (an occupation filed under
"film") does not make the mention of a film a rare fact of the person.
"""

from __future__ import annotations

from tests.factories import discloser_of

import pyoxigraph as ox
import pytest

from kg.store import KGStore
from engine.config import EngineConfig
from engine.engine import Engine
from engine.privacy.anonymity import anonymity_set
from engine.privacy.background import ITEM_PROPS, Background
from engine.privacy.disclosure import Discloser, SpanView
from engine.types import Candidate, EntityType

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"

LABELS = {"Q17537576": "creative work", "Q11424": "film", "Q618779": "award", "Q900201": "film critic award",
          "Q900202": "stuntperson", "Q515": "city", "Q900203": "Lund", "Q900204": "Ann Holm", "Q900205": "Bea Lind",
          "Q1656682": "event", "Q900206": "war"}
EDGES = [("Q11424", "P279", "Q17537576"), ("Q900201", "P279", "Q618779"),
         ("Q900202", "P279", "Q11424"),  # a stray edge: an occupation filed under "film"
         ("Q900203", "P31", "Q515"), ("Q900206", "P279", "Q1656682"),
         ("Q900204", "P31", "Q5"), ("Q900204", "P106", "Q900202"), ("Q900204", "P19", "Q900203"),
         ("Q900205", "P31", "Q5"), ("Q900205", "P19", "Q900203")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    kg = KGStore.in_memory()
    nt = [f'<{WD}{q}> <{LABEL}> "{label}"@en .' for q, label in LABELS.items()]
    nt += [f"<{WD}{s}> <{WDT}{p}> <{WD}{o}> ." for s, p, o in EDGES]
    kg.raw.load(("\n".join(nt) + "\n").encode("utf-8"), format=ox.RdfFormat.N_TRIPLES)
    kg.load_overlay()
    return Engine.from_store(kg, EngineConfig(model="none"))


def _constraint(engine: Engine, qid: str, label: str):
    view = SpanView(0, 5, EntityType.MISC, "Blade", ITEM_PROPS)
    (c,) = discloser_of(engine).constraints(view, label, Candidate(label, "P31", qid=qid))
    return c


def test_given_a_film_rung_then_it_constrains_only_awards_received(engine: Engine) -> None:
    c = _constraint(engine, "Q11424", "film")
    assert c.props == ("P166",)  # awards are works too; the store holds none here
    everyone = anonymity_set(Background.build(engine.kg), [c])
    assert c in everyone.uncounted and len(everyone.members) == 2  # the stuntperson's P106 does not single her out


def test_given_an_award_rung_then_only_awards_received_are_constrained(engine: Engine) -> None:
    assert _constraint(engine, "Q900201", "film critic award").props == ("P166",)


def test_given_an_event_rung_then_nothing_the_store_models_is_constrained(engine: Engine) -> None:
    c = _constraint(engine, "Q900206", "war")
    assert c.props == () and "nothing the store models" in c.describe()
    assert c in anonymity_set(Background.build(engine.kg), [c]).uncounted
    assert discloser_of(engine).class_props(ITEM_PROPS, "Q900203") == ITEM_PROPS  # an item of no kind keeps every property


def test_given_a_place_rung_then_every_property_stays(engine: Engine) -> None:
    assert _constraint(engine, "Q515", "city").props == ITEM_PROPS


def test_given_an_evaluation_engine_with_another_ranker_then_it_keeps_the_truth_filter(engine: Engine) -> None:
    from taxogen_tools.evaluation.sanitize_eval import with_ranker

    assert with_ranker(engine, None).truth is engine.truth is not None
