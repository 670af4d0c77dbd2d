import pytest

from kg import ChainIndex, OverlayRules
from tests.conftest import tiny_store

PRUNED = {"Q35120", "Q488383", "Q103940464", "Q58415929", "Q16889133", "Q19478619", "Q24017414"}


def labels(rungs):
    return [r.label for r in rungs]


def test_given_geologist_then_p279_ladders_rise_to_person_and_stop(sample_index):
    ch = sample_index.chains("Q520549")
    first = ch.ladders["P279"].first
    assert labels(first)[:2] == ["earth scientist", "scientist"]
    assert labels(first)[-1] == "person"
    longest = ch.ladders["P279"].longest
    assert labels(longest)[0] == "earth scientist" and labels(longest)[-1] == "person"
    assert len(longest) >= len(first)
    assert [r.depth for r in first] == sorted(r.depth for r in first)
    assert first[0].path == "P279" and first[1].path == "P279/P279"


def test_given_any_sample_item_then_no_pruned_class_is_offered(sample_kg, sample_index):
    items = [r["item"].rsplit("/", 1)[1] for r in sample_kg.select("labels_only")]
    for q in items:
        for lad in sample_index.chains(q).ladders.values():
            for r in lad.first + lad.longest:
                assert r.qid not in PRUNED, (q, r)


def test_given_country_then_part_of_ladder_stops_below_earth(sample_index):
    # Earth is never offered (ontology/overlay.ttl: a place is no planet), nor anything above it
    p361 = sample_index.chains("Q20").ladders["P361"]
    assert labels(p361.first)[0] == "Europe" and "Earth" not in labels(p361.first)
    assert "Earth" not in labels(p361.longest)


def test_given_city_then_composed_rung_precedes_city(sample_index):
    first = labels(sample_index.chains("Q585").ladders["P31"].first)
    assert first[:2] == ["city in Norway", "city"]
    rung = sample_index.chains("Q585").ladders["P31"].first[0]
    assert rung.qid is None and rung.rule == "cityInCountry"


def test_given_country_then_composed_rung_uses_continent_target(sample_index):
    first = labels(sample_index.chains("Q20").ladders["P31"].first)
    assert "country in Europe" in first


@pytest.mark.parametrize("qid", ["Q520549", "Q585", "Q20", "Q486156", "Q9043", "Q84", "Q593644"])
def test_given_sparql_mode_then_ladders_equal_preloaded(sample_kg, sample_index, qid):
    sparql = ChainIndex(sample_kg, mode="sparql")
    assert sparql.chains(qid) == sample_index.chains(qid)


def _tiny_store(edges, labels, overlay=""):
    return tiny_store(edges, labels, overlay=overlay)


def test_given_equal_length_branches_then_ties_break_by_lowest_qid_and_unlabelled_are_skipped():
    kg = _tiny_store(
        [("Q1", "P279", "Q30"), ("Q1", "P279", "Q20"), ("Q20", "P279", "Q21"), ("Q30", "P279", "Q31"),
         ("Q21", "P279", "Q99"), ("Q31", "P279", "Q99")],
        {"Q1": "item", "Q20": "b", "Q21": "b2", "Q30": "a", "Q31": "a2", "Q99": "top"},
    )
    ch = ChainIndex(kg).chains("Q1").ladders["P279"]
    assert labels(ch.first) == ["b", "b2", "top"]
    assert labels(ch.longest) == ["b", "b2", "top"]
    kg2 = _tiny_store(
        [("Q1", "P279", "Q20"), ("Q20", "P279", "Q21"), ("Q21", "P279", "Q22"), ("Q1", "P279", "Q30")],
        {"Q1": "item", "Q20": "x", "Q22": "z", "Q30": "short"},
    )
    ch2 = ChainIndex(kg2).chains("Q1").ladders["P279"]
    assert labels(ch2.longest) == ["x", "z"]  # Q21 has no label: walked through, not offered
    assert [r.depth for r in ch2.longest] == [1, 3]


def test_given_cycle_then_walks_end_and_offer_each_class_once():
    kg = _tiny_store([("Q1", "P279", "Q2"), ("Q2", "P279", "Q3"), ("Q3", "P279", "Q2")], {"Q2": "two", "Q3": "three"})
    ch = ChainIndex(kg).chains("Q1").ladders["P279"]
    assert labels(ch.first) == ["two", "three"] and labels(ch.longest) == ["two", "three"]


def test_given_overlay_max_depth_and_label_override_then_both_apply():
    edges = [("Q1", "P279", "Q2"), ("Q2", "P279", "Q3"), ("Q3", "P279", "Q4"), ("Q4", "P279", "Q5")]
    labs = {"Q2": "two", "Q3": "three", "Q4": "four", "Q5": "five"}
    overlay = 'tg:settings a tg:Settings ; tg:maxDepth 2 . wd:Q3 tg:labelOverride "THREE"@en .'
    kg = _tiny_store(edges, labs, overlay)
    assert OverlayRules.from_store(kg).max_depth == 2
    ch = ChainIndex(kg).chains("Q1").ladders["P279"]
    assert labels(ch.first) == ["two", "THREE"] and labels(ch.longest) == ["two", "THREE"]


def test_given_never_offer_then_nothing_above_it_is_offered():
    edges = [("Q1", "P279", "Q2"), ("Q2", "P279", "Q3"), ("Q3", "P279", "Q4")]
    kg = _tiny_store(edges, {"Q2": "two", "Q3": "pruned", "Q4": "above"}, "wd:Q3 tg:neverOffer true .")
    ch = ChainIndex(kg).chains("Q1").ladders["P279"]
    assert labels(ch.first) == ["two"] and labels(ch.longest) == ["two"]


def test_given_bad_id_then_value_error(sample_index):
    with pytest.raises(ValueError):
        sample_index.chains("Oslo")


def test_given_item_without_edges_then_no_ladders(sample_index):
    assert sample_index.chains("Q999999999").ladders == {}


def test_given_composed_rule_with_target_class_then_only_typed_values_are_used():
    edges = [("Q1", "P31", "Q10"), ("Q1", "P361", "Q20"), ("Q1", "P361", "Q30"), ("Q30", "P31", "Q5107")]
    labs = {"Q10": "country", "Q20": "Scandinavia", "Q30": "Europe"}
    overlay = (
        "wd:rule a tg:ComposedGeneralization ; tg:appliesToClass wd:Q10 ; "
        "tg:via <http://www.wikidata.org/prop/direct/P361> ; tg:targetClass wd:Q5107 ; tg:template \"country in {label}\" ."
    )
    kg = _tiny_store(edges, labs, overlay)
    assert labels(ChainIndex(kg).chains("Q1").ladders["P31"].first) == ["country in Europe", "country"]
