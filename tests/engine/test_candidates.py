import pytest

from engine.engine import Engine
from engine.errors import InputError, UnknownComponentError
from engine.generate.sources.base import DocumentState
from engine.generate.sources.registry import SourceRegistry, rule_sources
from engine.types import MASK, EntityType


@pytest.fixture(scope="module")
def engine(sample_kg):
    return Engine.from_store(sample_kg)


def test_given_graph_span_then_ladder_is_general_ordered_and_ends_with_mask(engine):
    ladder = engine.candidates("geologist", "DEM")
    labels = ladder.labels
    assert labels[-1] == MASK and labels.count(MASK) == 1
    assert labels.index("earth scientist") < labels.index("scientist") < labels.index("person")
    assert [c.level for c in ladder.candidates] == list(range(1, len(labels) + 1))
    rung = ladder.candidates[labels.index("scientist")]
    assert rung.qid == "Q901" and rung.path == "P279/P279" and rung.source == "P279" and rung.link_qid == "Q520549"
    assert ladder.links[0].qid == "Q520549" and "exact" in ladder.reason


def test_given_city_then_composed_rule_rung_with_provenance_before_its_class(engine):
    ladder = engine.candidates("Oslo", "LOC")
    labels = ladder.labels
    assert labels[0] == "city in Norway"  # specific before general
    assert labels.index("big city") < labels.index("city") < labels.index(MASK)
    assert ladder.candidates[0].rule == "cityInCountry" and ladder.candidates[0].qid is None


def test_given_no_link_then_only_mask_with_reason(engine):
    ladder = engine.candidates("Zorblax Quux", "MISC")
    assert ladder.labels == [MASK]
    assert "no item" in ladder.reason and ladder.candidates[0].rule


def test_given_no_candidate_is_more_specific_than_its_span(engine):
    for text, t in [("scientist", "DEM"), ("city", "LOC"), ("university", "ORG"), ("Norway", "LOC")]:
        ladder = engine.candidates(text, t)
        assert all(text.lower() not in c.label.lower() for c in ladder.candidates), ladder.labels


def test_given_rules_then_person_numbers_follow_the_document_state(engine):
    state = DocumentState()
    assert engine.candidates("Ada Lovelace", "PERSON", state=state).labels == ["PERSON 1", MASK]
    assert engine.candidates("Charles Babbage", "PERSON", state=state).labels == ["PERSON 2", MASK]
    assert engine.candidates("Lovelace", "PERSON", state=state).labels == ["PERSON 1", MASK]
    assert engine.candidates("AB-1234", "CODE").labels == [MASK]


def test_given_bad_type_then_input_error(engine):
    with pytest.raises(InputError):
        engine.candidates("x", "PLANET")


def test_given_registry_then_unknown_names_raise_and_routes_are_listed():
    reg = rule_sources()
    assert reg.routes()["DATETIME"] == "datetime"
    with pytest.raises(UnknownComponentError):
        reg.get("nope")
    with pytest.raises(UnknownComponentError):
        SourceRegistry().for_type(EntityType.LOC)
