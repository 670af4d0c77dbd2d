"""What the reader keeps of a masked mention: class sizes in the store, information kept,
true classes and unjudged rungs (taxogen_tools.evaluation.utility, taxogen_tools.evaluation.class_sizes)."""

from __future__ import annotations

import json
import math

import pytest

from engine.config import EngineConfig
from engine.engine import Engine
from taxogen_tools.evaluation.class_sizes import ClassSizes
from taxogen_tools.evaluation.truth import Judgment
from taxogen_tools.evaluation.utility import (
    GRAPH_GROUP,
    REFERENCE_DAYS,
    MentionUtility,
    UtilityScorer,
    date_information,
    shown_of,
    summarize,
)
from engine.types import MASK, Candidate, EntityType, Mention, Replacement, ScoredCandidate
from tests.conftest import tiny_store

# settlement ⊃ city ⊃ big city; Europe ⊃ Northern Europe ⊃ Norway (part of)
EDGES = [
    ("Q1", "P279", "Q3"), ("Q2", "P279", "Q1"),
    ("Q10", "P31", "Q1"), ("Q11", "P31", "Q1"), ("Q12", "P31", "Q2"), ("Q13", "P31", "Q2"),
    ("Q14", "P31", "Q3"), ("Q15", "P31", "Q3"), ("Q16", "P31", "Q3"), ("Q17", "P31", "Q99"),
    ("Q30", "P361", "Q31"), ("Q31", "P361", "Q32"), ("Q33", "P361", "Q31"),
    ("Q10", "P17", "Q30"), ("Q12", "P17", "Q30"), ("Q11", "P17", "Q40"),
]
LABELS = {"Q1": "city", "Q2": "big city", "Q3": "settlement", "Q99": "mountain", "Q10": "Oslo", "Q12": "Bergen",
          "Q11": "Lyon", "Q30": "Norway", "Q31": "Northern Europe", "Q32": "Europe", "Q33": "Sweden", "Q40": "France"}
# nodes: Q1 Q2 Q3 Q99 (classes, P31 objects) and Q30 Q31 Q32 Q33 (P361) = 8; typed items Q10–Q17 = 8
N = 16


@pytest.fixture(scope="module")
def kg():
    return tiny_store(EDGES, LABELS)


@pytest.fixture(scope="module")
def sizes(kg):
    return ClassSizes.for_store(kg)


@pytest.fixture(scope="module")
def scorer(kg, sizes):
    judgments = [Judgment("d", "Oslo", "LOC", "", "big city", False, "Oslo is a city, not a big one"),
                 Judgment("d", "Oslo", "LOC", "", "city", True)]
    return UtilityScorer(Engine.from_store(kg, EngineConfig(model="none")), judgments, sizes)


def info(n: int) -> float:
    return math.log(N / n) / math.log(N)


def test_given_a_class_graph_then_items_below_each_class_are_counted_transitively(sizes):
    assert sizes.typed == N
    assert sizes.size("Q2") == 2            # Bergen's and Q13
    assert sizes.size("Q1") == 2 + 2 + 1    # its instances, big city's, and big city itself
    assert sizes.size("Q3") == 3 + 5 + 1    # its instances, city's (with big city), and city
    assert sizes.size("Q99") == 1 and sizes.size("Q404") == 0
    assert sizes.size("Q32", "P361") == 3   # Northern Europe, Norway, Sweden
    assert sizes.size_with_value("Q1", ["P17"], "Q30") == 2          # cities in Norway: Oslo, Bergen
    assert sizes.size_with_value("Q1", ["P17"], "Q31") == 2          # in Northern Europe: through Norway, part of it
    assert sizes.size_with_value("Q2", ["P17"], "Q30") == 1


def test_given_a_store_on_disk_then_its_index_gives_the_same_sizes(tmp_path, sizes):
    from kg import build_from_dump
    from kg.store import KGStore

    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    lines = [f"<{wd}{s}> <{wdt}{p}> <{wd}{o}> ." for s, p, o in EDGES]
    lines += [f'<{wd}{q}> <http://www.w3.org/2000/01/rdf-schema#label> "{l}"@en .' for q, l in LABELS.items()]
    (tmp_path / "tiny.nt").write_text("\n".join(lines) + "\n")
    build_from_dump(tmp_path / "tiny.nt", tmp_path / "store", progress=False)
    on_disk = ClassSizes.for_store(KGStore.read_only(tmp_path / "store"))
    assert on_disk.typed == sizes.typed
    for q, via in (("Q1", "P31"), ("Q2", "P31"), ("Q3", "P31"), ("Q99", "P31"), ("Q32", "P361")):
        assert on_disk.size(q, via) == sizes.size(q, via), q
    assert on_disk.size_with_value("Q1", ["P17"], "Q31") == 2


def test_given_a_narrow_and_a_broad_class_then_the_narrow_one_keeps_more(scorer):
    big = scorer.score("LOC", "Bergen", "big city")
    city = scorer.score("LOC", "Bergen", "city")
    settlement = scorer.score("LOC", "Bergen", "settlement")
    assert (big.kind, big.qid, big.size) == ("class", "Q2", 2)
    assert big.information == pytest.approx(info(2)) and city.information == pytest.approx(info(5))
    assert settlement.information == pytest.approx(info(9))
    assert big.information > city.information > settlement.information > 0


def test_given_mask_original_and_placeholders_then_zero_or_one(scorer):
    assert scorer.score("LOC", "Bergen", MASK) == MentionUtility("LOC", "Bergen", MASK, "mask", 0.0)
    assert scorer.score("LOC", "Bergen", "Bergen").information == 1.0
    for etype, span, label in (("PERSON", "Anna Berg", "PERSON 3"), ("QUANTITY", "five", "X"), ("DATETIME", "spring", "DATE")):
        u = scorer.score(etype, span, label)
        assert (u.kind, u.information, u.true_class) == ("placeholder", 0.0, False)


def test_given_date_labels_then_a_day_keeps_more_than_a_year_a_decade_a_century_and_mask():
    day, month, year = date_information("24 April 1919"), date_information("April 1919"), date_information("1919")
    decade, century = date_information("date in the 1910s"), date_information("date in the 20th century")
    millennium = date_information("date in the 2nd millennium")
    assert day == 1.0 > month > year > decade > century > millennium > 0
    assert year == pytest.approx(1 - math.log(365.25) / math.log(REFERENCE_DAYS))
    assert decade == pytest.approx(1 - math.log(3652.5) / math.log(REFERENCE_DAYS))
    assert date_information("the 1910s") == decade and date_information("between the 1980s and the 1990s") < decade
    assert date_information("DATE") is None and date_information("city") is None


def test_given_date_and_unit_rungs_then_they_are_classes(scorer):
    u = scorer.score("DATETIME", "24 April 1919", "date in the 1910s")
    assert (u.kind, u.judged, u.true_class) == ("date", "unjudged", True)
    assert scorer.score("DATETIME", "24 April 1919", "DATE").information == 0.0
    q = scorer.score("QUANTITY", "5 km", "X km")
    assert (q.kind, q.information, q.true_class) == ("unit", 0.0, True)


def test_given_truth_judgments_then_false_is_not_a_true_class_and_unjudged_is_counted_apart(scorer):
    false = scorer.score("LOC", "Oslo", "big city")
    true = scorer.score("LOC", "Oslo", "a City")          # equivalent label of the judged rung
    unjudged = scorer.score("LOC", "Oslo", "settlement")
    assert (false.judged, false.true_class) == ("false", False)
    assert (true.judged, true.true_class) == ("true", True)
    assert (unjudged.judged, unjudged.true_class) == ("unjudged", True)
    s = summarize([false, true, unjudged, scorer.score("LOC", "Oslo", MASK)])[GRAPH_GROUP]
    assert (s.masked, s.kept_class, s.unjudged, s.judged_false) == (4, 2, 1, 1)
    assert s.kept_share == 0.5


def test_given_a_label_the_store_cannot_place_then_it_is_unknown_not_zero(scorer):
    u = scorer.score("MISC", "Kon-Tiki", "raft expedition")
    assert (u.kind, u.information, u.true_class) == ("unknown", None, True)
    s = summarize([u, scorer.score("MISC", "Bergen", "city")])["MISC"]
    assert s.unknown == 1 and s.mean_information == pytest.approx(info(5) / 2)
    assert s.mean_information_scored == pytest.approx(info(5))


def test_given_candidates_then_part_of_and_composed_rungs_are_sized(scorer):
    part = scorer.score("LOC", "Norway", "Europe", Candidate("Europe", "P361", qid="Q32"))
    assert (part.kind, part.size) == ("part", 3)
    composed = scorer.score("LOC", "Bergen", "city in Norway")
    assert (composed.kind, composed.qid, composed.size) == ("composed", "Q1", 2)
    ladder = [Candidate("city", "P31", qid="Q1"), Candidate(MASK, "mask")]
    assert scorer.score("LOC", "Bergen", "the city", None, ladder).qid == "Q1"


def test_given_a_rung_rendered_as_mask_then_the_reader_sees_mask():
    cand = Candidate("city", "P31", qid="Q1")
    m = Mention(0, 6, EntityType.LOC)
    r = Replacement(m, "Bergen", MASK, (ScoredCandidate(cand, 1.0),), rung="city")
    assert shown_of(r) == (MASK, None)
    assert shown_of(Replacement(m, "Bergen", "a city", (ScoredCandidate(cand, 1.0),), rung="city")) == ("city", cand)


def test_given_mentions_of_several_types_then_groups_are_per_type_graph_and_all(scorer):
    us = [scorer.score("LOC", "Bergen", "city"), scorer.score("ORG", "Acme", MASK), scorer.score("PERSON", "Anna", "PERSON 1")]
    groups = summarize(us)
    assert list(groups) == ["LOC", "ORG", "PERSON", GRAPH_GROUP, "ALL"]
    assert groups[GRAPH_GROUP].masked == 2 and groups["ALL"].masked == 3
    assert json.dumps({g: s.to_dict() for g, s in groups.items()})


@pytest.mark.slow
def test_given_documents_when_evaluate_sanitize_then_utility_rows_are_consistent(sample_kg, tmp_path):
    from taxogen_tools.evaluation.sanitize_eval import evaluate_sanitize

    text = "Anna Berg was born in Oslo in 1985 and studied at the University of Oslo."
    spans = [("PERSON", "Anna Berg", "DIRECT", {"PERSON 1": ["a1", "a2"]}), ("LOC", "Oslo", "QUASI", {"city": ["a1", "a2"]}),
             ("DATETIME", "1985", "QUASI", {"date in the 1980s": ["a1", "a2"]}),
             ("ORG", "University of Oslo", "QUASI", {"***": ["a1"], "university": ["a2", "a3"]})]
    mentions, at = [], 0
    for i, (etype, span, ident, selection) in enumerate(spans):
        start = text.index(span, at)
        at = start + len(span)
        mentions.append({"entity_type": etype, "entity_mention_id": f"m{i}", "start_offset": start, "end_offset": at,
                         "span_text": span, "identifier_type": ident, "entity_id": f"e{i}",
                         "replacement": {"generalizations": {"heuristics": list(selection) + [MASK]}, "generalization_selection": selection}})
    data = tmp_path / "wr.json"
    data.write_text(json.dumps([{"doc_id": "anna", "text": text, "annotations": {"annotator1": {"entity_mentions": mentions}}}]))
    engine = Engine.from_store(sample_kg, EngineConfig(model="none"))
    report = evaluate_sanitize(engine, data, model="shipped", ks=(10,), leaks=False)
    table = report.to_dict()["utility"]
    assert set(table) == {"original", "annotators", "full masking", "taxogen", "taxogen --k 10"}
    for rows in table.values():
        assert rows["ALL"]["masked"] == 4
    assert table["original"]["ALL"]["mean_information"] == 1.0 and table["full masking"]["ALL"]["mean_information"] == 0.0
    kept = report.to_dict()["utility_kept"]
    assert len(kept["taxogen"]) == table["taxogen"].get(GRAPH_GROUP, {}).get("kept_class", 0)
    assert table["annotators"]["DATETIME"]["kept_class"] == 1
