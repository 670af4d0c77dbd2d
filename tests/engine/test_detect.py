"""Detection layers, merging, person linking, the decider and the detection metrics (fast: no spaCy model)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.detect.coref.persons import link_persons
from engine.detect.decide import Decider, gold_label
from taxogen_tools.evaluation.detection import GoldDoc, fold_ids, score
from engine.detect.gazetteer import Gazetteer, GazetteerEntry, store_entries
from engine.detect.merge import merge_spans
from engine.detect.rules import rule_spans
from engine.detect.spans import DetectedSpan
from engine.io.docio import read_documents
from engine.types import EntityType, IdentifierType
from engine.io.wikireplace import WRMention


def _span(text: str, part: str, etype: EntityType, source: str = "ner", **kw) -> DetectedSpan:
    start = text.index(part)
    return DetectedSpan(start, start + len(part), part, etype, frozenset({source}), **kw)


# --- rules ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("He was born on 15 November 2013 in Oslo.", "15 November 2013"),
    ("In November 2013 he left.", "November 2013"),
    ("On April 6, 1958, she won.", "April 6, 1958"),
    ("He played in the 1990/91 season.", "1990/91 season"),
    ("A band of the 1970s.", "1970s"),
])
def test_given_date_when_rules_then_whole_date_is_one_span(text, expected):
    spans = [s for s in rule_spans(text) if s.entity_type is EntityType.DATETIME]
    assert [s.text for s in spans] == [expected]


def test_given_quantities_and_codes_when_rules_then_typed():
    text = "He is 5 ft 11 in tall, weighs 155 lb, won 3–0 twice. Mail a.b@example.org or call +47 22 123 4567."
    got = {(s.text, s.entity_type) for s in rule_spans(text)}
    assert ("5 ft 11 in", EntityType.QUANTITY) in got
    assert ("155 lb", EntityType.QUANTITY) in got
    assert ("3–0", EntityType.QUANTITY) in got
    assert ("a.b@example.org", EntityType.CODE) in got
    assert ("+47 22 123 4567", EntityType.CODE) in got


# --- gazetteer ------------------------------------------------------------------------------
def _gaz() -> Gazetteer:
    return Gazetteer(iter([
        GazetteerEntry("geologist", "Q520549", EntityType.DEM, "occupation"),
        GazetteerEntry("Minister of Education", "Q1", EntityType.DEM, "position"),
        GazetteerEntry("Minister", "Q2", EntityType.DEM, "position"),
        GazetteerEntry("Norwegian", "Q20", EntityType.DEM, "nationality"),
        GazetteerEntry("Γεωλόγος", "Q520549", EntityType.DEM, "occupation"),
        GazetteerEntry("地质学家", "Q520549", EntityType.DEM, "occupation"),
        GazetteerEntry("DR", "Q786", EntityType.LOC, "place"),
        GazetteerEntry("the", "Q3", EntityType.MISC, "other"),
    ]))


def test_given_entries_iterator_when_matching_then_whole_words_longest_first_any_script():
    g = _gaz()
    text = "Dr Kari is a Norwegian geologist (Γεωλόγος, 地质学家) and Minister of Education; geologists differ."
    found = {(s.text, s.gaz_kind) for s in g.spans(text)}
    assert ("Minister of Education", "position") in found and ("Minister", "position") not in found
    assert ("Norwegian", "nationality") in found and ("geologist", "occupation") in found
    assert ("Γεωλόγος", "occupation") in found and ("地质学家", "occupation") in found
    assert not any(t.startswith("geologists") for t, _ in found)  # whole words only
    assert ("Dr", "place") not in found  # an acronym matches in its own case only
    assert not any(t.lower() == "the" for t, _ in found)  # stop words never match


def test_given_sample_store_when_entries_then_occupations_and_nationalities_typed(sample_kg):
    entries = list(store_entries(sample_kg))
    kinds = {(e.label, e.kind) for e in entries}
    assert ("geologist", "occupation") in kinds
    assert any(k == "nationality" for _, k in kinds)
    g = Gazetteer(entries)
    spans = g.spans("She is a Norwegian geologist.")
    assert {s.text: s.entity_type for s in spans}.get("geologist") is EntityType.DEM


# --- merge and persons --------------------------------------------------------------------
def test_given_overlapping_layers_when_merged_then_union_and_longest_type():
    text = "He left the Nigerian government on 15 November 2013."
    merged = merge_spans(
        text,
        [_span(text, "Nigerian government", EntityType.ORG), _span(text, "November 2013", EntityType.DATETIME)],
        [_span(text, "15 November 2013", EntityType.DATETIME, "rule")],
        [_span(text, "Nigerian", EntityType.DEM, "gazetteer", gaz_kind="nationality")],
    )
    assert [(s.text, s.entity_type) for s in merged] == [
        ("Nigerian government", EntityType.ORG), ("15 November 2013", EntityType.DATETIME)]
    assert merged[0].gaz_kind == "nationality" and merged[0].sources == {"ner", "gazetteer"}


def test_given_position_when_followed_by_of_name_then_extended():
    text = "She was President of Cyprus until 2003."
    merged = merge_spans(text, [_span(text, "President", EntityType.DEM, "gazetteer", gaz_kind="position"),
                                _span(text, "Cyprus", EntityType.LOC)])
    assert [s.text for s in merged][0] == "President of Cyprus"


def test_given_proper_noun_run_when_merged_then_glues_names_but_not_two_persons_or_a_date():
    text = "He acted in Tales from the Crypt with John Smith and Mary Jones in May 1990."
    run = _span(text, "Tales from the Crypt", EntityType.MISC, "syntax", ner_label="propn")
    persons = _span(text, "John Smith and Mary Jones", EntityType.MISC, "syntax", ner_label="propn")
    merged = merge_spans(text, [_span(text, "Tales", EntityType.MISC), _span(text, "Crypt", EntityType.PERSON),
                                _span(text, "John Smith", EntityType.PERSON), _span(text, "Mary Jones", EntityType.PERSON)],
                         [run, persons])
    assert [s.text for s in merged] == ["Tales from the Crypt", "John Smith", "Mary Jones"]


def test_given_sentence_end_without_space_when_merged_then_span_stops_at_the_period():
    text = "She appeared in films between 1919 and 1958.Forbes was born in Hornsey."
    merged = merge_spans(text, [_span(text, "1958.Forbes", EntityType.DATETIME), _span(text, "Hornsey", EntityType.LOC)])
    assert [s.text for s in merged] == ["1958", "Hornsey"]


def test_given_role_compound_when_merged_then_one_span_typed_by_the_role():
    text = "She is a British tennis coach."
    compound = _span(text, "tennis coach", EntityType.DEM, "syntax", ner_label="compound")
    merged = merge_spans(text, [_span(text, "British", EntityType.DEM, "gazetteer", gaz_kind="nationality"),
                                _span(text, "tennis", EntityType.MISC, "gazetteer", gaz_kind="work"),
                                _span(text, "coach", EntityType.DEM, "gazetteer", gaz_kind="occupation")], [compound])
    assert [(s.text, s.entity_type, s.gaz_kind) for s in merged][-1] == ("tennis coach", EntityType.DEM, "occupation")
    assert merged[0].text == "British"


def test_given_indexed_store_when_gazetteer_fed_from_label_index_then_same_names_and_kinds_as_sparql(tmp_path, sample_kg):
    from engine.detect.index_feed import IndexDegree, index_entries
    from kg import build_from_dump
    from kg.chains import open_taxonomy
    from kg.index import index_path
    from kg.store import KGStore, sample_graph_path

    target = tmp_path / "store"
    build_from_dump(sample_graph_path(), target, progress=False)
    kg = KGStore.open(target)
    view = open_taxonomy(kg)
    indexed = {(e.label.casefold(), e.item, e.kind) for e in index_entries(index_path(target), view)}
    queried = {(" ".join(e.label.casefold().split()), e.item, e.kind) for e in store_entries(kg)}
    assert indexed and indexed == queried
    assert IndexDegree(view).get("Q5", 0) >= 0
    # kg build keeps the items' P31 in the index: the kinds above came from it, and it says what the store says
    assert view._item_p31 is not None and view._item_p31[0].size
    items = {e.item for e in index_entries(index_path(target), view) if view.node(e.item) < 0}
    assert items and all(list(view.parents(q, "P31")) == view._item_values(q, "P31") for q in items)


def test_given_surname_and_initials_when_linking_then_one_person_id():
    text = "Dr. Donald Blake met Mary Kay. Blake left; Kay stayed. D. Blake returned. Donald came back."
    spans = [_span(text, "Donald Blake", EntityType.PERSON), _span(text, "Mary Kay", EntityType.PERSON),
             _span(text, "D. Blake", EntityType.PERSON)]
    linked = link_persons(text, spans)
    by_text = {s.text: s.entity_id for s in linked}
    assert "Dr. Donald Blake" in by_text  # title taken into the name
    assert by_text["Dr. Donald Blake"] == by_text["Blake"] == by_text["D. Blake"] == by_text["Donald"]
    assert by_text["Mary Kay"] == by_text["Kay"] != by_text["Blake"]
    assert all(s.entity_type is EntityType.PERSON for s in linked)


def test_given_relatives_introduced_by_kinship_words_then_not_joined_to_subject_or_each_other():
    text = ("Ponnambala Thyaga Rajan Palanivel Rajan (1932–2006) was an Indian politician. Rajan was Speaker. "
            "His father P. T. Rajan was Chief Minister. His son, Palanivel Thiaga Rajan is an MLA. Rajan died in 2006.")
    spans = [_span(text, "Ponnambala Thyaga Rajan Palanivel Rajan", EntityType.PERSON),
             _span(text, "P. T. Rajan", EntityType.PERSON), _span(text, "Palanivel Thiaga Rajan", EntityType.PERSON)]
    spans.append(DetectedSpan(text.index("Rajan was"), text.index("Rajan was") + 5, "Rajan", EntityType.PERSON, frozenset({"ner"})))
    ids = {(s.start, s.text): s.entity_id for s in link_persons(text, spans)}
    by_text = {t: i for (_, t), i in ids.items()}
    assert by_text["Ponnambala Thyaga Rajan Palanivel Rajan"] == "person-1"
    assert by_text["P. T. Rajan"] not in ("person-1", by_text["Palanivel Thiaga Rajan"])
    assert by_text["Palanivel Thiaga Rajan"] != "person-1"
    assert all(i == "person-1" for (_, t), i in ids.items() if t == "Rajan")  # the surname alone stays the subject's


def test_given_spelling_variant_and_post_nominal_then_one_subject_and_no_nested_span():
    text = ("Lieutenant General Faridoon Noshir Billimoria, PVSM (1933–2005) was an officer. Lt Gen Bilimoria served "
            "with Dr Rajendra Prasad. The Lt Gen F N Billimoria trophy is named after him. Rajendra Prasad left.")
    spans = [_span(text, "Faridoon Noshir Billimoria", EntityType.PERSON), _span(text, "PVSM", EntityType.ORG, "syntax"),
             _span(text, "Bilimoria", EntityType.PERSON), _span(text, "Rajendra Prasad", EntityType.PERSON)]
    linked = link_persons(text, spans)
    by_text = {s.text: s.entity_id for s in linked}
    assert by_text["Lieutenant General Faridoon Noshir Billimoria, PVSM"] == "person-1"
    assert by_text["Lt Gen Bilimoria"] == "person-1"  # one edit away from the subject's surname
    assert by_text["Lt Gen F N Billimoria"] == "person-1"  # the surname, not the post-nominal, is searched for later
    assert "PVSM" not in by_text  # covered by the subject's post-nominal
    assert by_text["Dr Rajendra Prasad"] == "person-2"
    # one edit from someone else's name is another person: only the subject's spelling varies
    other = "Anna Berg met Karl Johnson. Later Karl Johnsen spoke."
    linked = link_persons(other, [_span(other, "Anna Berg", EntityType.PERSON), _span(other, "Karl Johnson", EntityType.PERSON),
                                  _span(other, "Karl Johnsen", EntityType.PERSON)])
    ids = {s.text: s.entity_id for s in linked}
    assert ids["Karl Johnsen"] not in (ids["Karl Johnson"], ids["Anna Berg"])


def test_given_a_surname_two_persons_share_then_the_subject_else_the_most_recent_full_name():
    text = "Maria Costa is a chemist. Her mother Ana Silva was a nurse; her father João Silva taught. Silva died in 1990."
    spans = [_span(text, "Maria Costa", EntityType.PERSON), _span(text, "Ana Silva", EntityType.PERSON),
             _span(text, "João Silva", EntityType.PERSON)]
    spans.append(DetectedSpan(text.index("Silva died"), text.index("Silva died") + 5, "Silva", EntityType.PERSON, frozenset({"ner"})))
    by_text = {s.text: s.entity_id for s in link_persons(text, spans)}
    assert len({by_text["Maria Costa"], by_text["Ana Silva"], by_text["João Silva"]}) == 3
    assert by_text["Silva"] == by_text["João Silva"]  # the most recent full name, never a merger of the two
    subject = "Ana Silva is a chemist. Her brother João Silva taught. Silva won a prize."
    spans = [_span(subject, "Ana Silva", EntityType.PERSON), _span(subject, "João Silva", EntityType.PERSON),
             _span(subject, "Silva won", EntityType.PERSON).with_(end=subject.index("Silva won") + 5, text="Silva")]
    by_text = {s.text: s.entity_id for s in link_persons(subject, spans)}
    assert by_text["Silva"] == by_text["Ana Silva"] == "person-1"  # a biography calls its subject by the surname


def test_given_a_parent_named_after_children_of_then_the_surname_alone_stays_who_it_was():
    text = "With Otto Lund she found a comet. Brenner was the second of five children of Jakob Brenner. Brenner died in 1968."
    spans = [_span(text, "Otto Lund", EntityType.PERSON), _span(text, "Brenner", EntityType.PERSON),
             _span(text, "Jakob Brenner", EntityType.PERSON)]
    last = text.rindex("Brenner died")
    spans.append(DetectedSpan(last, last + 7, "Brenner", EntityType.PERSON, frozenset({"ner"})))
    ids = [(s.text, s.entity_id) for s in link_persons(text, spans)]
    bare = [i for t, i in ids if t == "Brenner"]
    assert bare[0] == bare[1] != dict(ids)["Jakob Brenner"]  # the parent is another person, and takes no mention of her


def test_given_spans_made_persons_after_linking_then_they_join_the_person_their_name_fits():
    from engine.detect.coref.numbering import persons_renumbered

    text = "Tomas Reyes met Karl Storm. Later Governor Reyes thanked Storm and Túpac Amaru II. Túpac Amaru II left."
    spans = link_persons(text, [_span(text, "Tomas Reyes", EntityType.PERSON), _span(text, "Karl Storm", EntityType.PERSON)])
    later = [_span(text, "Governor Reyes", EntityType.PERSON, entity_id="dem-4"),
             _span(text, "Túpac Amaru II", EntityType.PERSON, entity_id="misc-5")]
    second = text.rindex("Túpac Amaru II")
    later.append(DetectedSpan(second, second + 14, "Túpac Amaru II", EntityType.PERSON, frozenset({"ner"}), entity_id="org-6"))
    renumbered = persons_renumbered(text, sorted(spans + later, key=lambda s: s.start))
    ids = [(s.text, s.entity_id) for s in renumbered if s.entity_type is EntityType.PERSON]
    by_text = dict(ids)
    assert by_text["Governor Reyes"] == by_text["Tomas Reyes"] == "person-1"
    assert by_text["Storm"] == by_text["Karl Storm"] == "person-2"
    assert [i for t, i in ids if t == "Túpac Amaru II"] == ["person-3", "person-3"]  # a new person, once


def test_given_subject_tagged_org_and_name_in_other_script_then_person_of_subject():
    text = "Glafcos Clerides (Greek: Γλαύκος Κληρίδης; born 1919) was a Cypriot lawyer."
    spans = [_span(text, "Glafcos Clerides", EntityType.ORG), _span(text, "1919", EntityType.DATETIME, "rule")]
    linked = link_persons(text, spans)
    persons = {s.text: s.entity_id for s in linked if s.entity_type is EntityType.PERSON}
    assert persons == {"Glafcos Clerides": "person-1", "Γλαύκος Κληρίδης": "person-1"}


# --- decider --------------------------------------------------------------------------------
def test_given_overlaps_when_gold_label_then_direct_before_quasi_before_no_mask():
    s = DetectedSpan(0, 10, "x" * 10, EntityType.PERSON)
    assert gold_label(s, [(0, 4, IdentifierType.QUASI), (5, 10, IdentifierType.DIRECT)]) is IdentifierType.DIRECT
    assert gold_label(s, [(0, 4, IdentifierType.NO_MASK)]) is IdentifierType.NO_MASK
    assert gold_label(s, [(20, 30, IdentifierType.DIRECT)]) is IdentifierType.NO_MASK


def test_given_separable_data_when_decider_trained_then_learns_and_round_trips(tmp_path):
    from engine.detect.features import FEATURES

    rng = np.random.default_rng(0)
    docs = []
    for d in range(12):
        spans, rows, ys = [], [], []
        for i in range(20):
            etype = EntityType.PERSON if i % 2 else EntityType.MISC
            x = rng.normal(size=len(FEATURES))
            x[0] = list(EntityType).index(etype)
            spans.append(DetectedSpan(i, i + 1, f"w{i % 5}" if i else f"only in document {d}", etype))
            rows.append(x)
            ys.append(IdentifierType.DIRECT if etype is EntityType.PERSON else IdentifierType.NO_MASK)
        docs.append((spans, np.array(rows), ys))
    dec = Decider.train(docs, rounds=30, threshold=0.5)
    spans, X, ys = docs[0]
    decided = dec.decide(spans, X)
    assert [s.identifier_type for s in decided] == ys
    dec.save(tmp_path)
    again = Decider.load(tmp_path)
    assert [s.identifier_type for s in again.decide(spans, X)] == ys
    meta = json.loads((tmp_path / "decider.json").read_text())
    assert meta["threshold"] == 0.5
    assert not any("only in document" in k for k in meta["priors"])  # one document's texts are not kept
    # a threshold per type: MISC spans masked from P ≥ 0, PERSON never (P < 1.01 is impossible to reach)
    policy = dec.decide(spans, X, type_thresholds={"MISC": 0.0, "PERSON": 1.01})
    assert all(s.masked == (s.entity_type is EntityType.MISC) for s in policy)
    dec.type_thresholds = {"MISC": 0.0}
    dec.save(tmp_path)
    assert all(s.masked for s in Decider.load(tmp_path).decide(spans, X))


def test_given_shipped_decider_then_loads_with_current_schema():
    dec = Decider.load()
    # trained on the 75 biographies and TAB's 94 court judgments, with a threshold for judgments
    assert 0 < dec.threshold < 1 and dec.info["documents"] == 75 + 94
    assert set(dec.base_rates) == {"", "court"} and 0 < dec.kind_thresholds["court"] < 1


# --- metrics --------------------------------------------------------------------------------
def _m(text: str, part: str, ident: str, etype: str, eid: str, nth: int = 0) -> WRMention:
    start = -1
    for _ in range(nth + 1):
        start = text.index(part, start + 1)
    return WRMention("d", "a1", f"{eid}-{start}", part, start, start + len(part), EntityType(etype), IdentifierType(ident),
                     eid, (), {}, {}, True)


def test_given_masks_when_scored_then_strict_loose_entity_and_precision():
    text = "Ada Lovelace met Babbage in London. Lovelace wrote notes."
    gold = [_m(text, "Ada Lovelace", "DIRECT", "PERSON", "e1"), _m(text, "Lovelace", "DIRECT", "PERSON", "e1", nth=1),
            _m(text, "London", "QUASI", "LOC", "e2"), _m(text, "Babbage", "NO_MASK", "PERSON", "e3")]
    doc = GoldDoc("d", text, "a1", gold)
    i = text.index
    predicted = [[(0, 12, "PERSON"), (i("London"), i("London") + 3, "LOC"), (i("notes"), i("notes") + 5, "MISC")]]
    r = score([doc], predicted)
    assert r["recall"]["DIRECT"] == {"mentions": 2, "strict": 0.5, "loose": 0.5}
    assert r["recall"]["QUASI"] == {"mentions": 1, "strict": 0.0, "loose": 1.0}
    assert r["entity_direct"] == 0.0  # the second "Lovelace" is not masked
    # masked non-space characters: 11 (Ada Lovelace) + 3 (Lon) + 5 (notes); inside gold: 14
    assert r["precision"] == round(14 / 19, 4)
    assert r["precision_by_type"]["MISC"]["precision"] == 0.0


def test_given_documents_when_folds_then_every_document_in_exactly_one_fold():
    ids = fold_ids(75, 5, seed=13)
    assert sorted(set(ids)) == [0, 1, 2, 3, 4] and all(ids.count(f) == 15 for f in range(5))


# --- input contract -------------------------------------------------------------------------
def test_given_documents_without_mentions_or_txt_then_marked_for_detection(tmp_path):
    jl = tmp_path / "docs.jsonl"
    jl.write_text('{"id": "a", "text": "Ada was here."}\n{"id": "b", "text": "Bob.", "mentions": []}\n{"id": "c", "text": "x", "mentions": 3}\n')
    recs = list(read_documents(jl))
    assert recs[0].mentions is None and recs[1].mentions == ()
    assert "must be a list" in recs[2].reason
    txt = tmp_path / "bio.txt"
    txt.write_text("Ingrid Solberg is a geologist.\n", encoding="utf-8")
    (rec,) = list(read_documents(txt))
    assert rec.doc_id == "bio" and rec.mentions is None and rec.text.startswith("Ingrid")


def test_given_place_tagged_person_and_script_label_then_not_persons():
    text = "Karna Shakya (Nepali: कर्ण शाक्य) was born in Genoa. He played for Genoa."
    spans = [_span(text, "Karna Shakya", EntityType.PERSON), _span(text, "Nepali", EntityType.PERSON),
             DetectedSpan(text.index("Genoa"), text.index("Genoa") + 5, "Genoa", EntityType.LOC, frozenset({"ner"})),
             DetectedSpan(text.rindex("Genoa"), text.rindex("Genoa") + 5, "Genoa", EntityType.PERSON, frozenset({"ner"}))]
    linked = link_persons(text, spans)
    types = [(s.text, s.entity_type) for s in linked]
    assert ("Nepali", EntityType.DEM) in types and ("कर्ण शाक्य", EntityType.PERSON) in types
    assert [t for x, t in types if x == "Genoa"] == [EntityType.LOC, EntityType.LOC]
    assert len({s.entity_id for s in linked if s.text == "Genoa"}) == 1


def test_given_generation_suffixes_then_father_and_son_stay_apart():
    text = "Helen Johnson is a businesswoman, the daughter of Samuel Curtis Johnson Jr. and granddaughter of Samuel Curtis Johnson Sr.."
    spans = [_span(text, "Helen Johnson", EntityType.PERSON), _span(text, "Samuel Curtis Johnson Jr.", EntityType.PERSON),
             _span(text, "Samuel Curtis Johnson Sr", EntityType.PERSON)]
    ids = {s.text: s.entity_id for s in link_persons(text, spans)}
    assert len({ids["Helen Johnson"], ids["Samuel Curtis Johnson Jr."], ids["Samuel Curtis Johnson Sr"]}) == 3


@pytest.mark.slow  # trains LightGBM six times (about 4 s)
def test_given_training_documents_when_thresholds_tuned_then_test_documents_never_looked_at():
    from taxogen_tools.evaluation.detection import TUNE_GRID, Prepared, tune_type_thresholds
    from engine.detect.features import FEATURES

    rng = np.random.default_rng(1)  # re-seeded before each tuning below

    def document(d: int, flip: bool) -> tuple[GoldDoc, list[DetectedSpan], np.ndarray, list[IdentifierType]]:
        words = [f"w{d}x{i}" for i in range(16)]
        text = " ".join(words)
        spans, rows, gold, ys = [], [], [], []
        for i, w in enumerate(words):
            etype = EntityType.PERSON if i % 2 else EntityType.MISC
            x = rng.normal(size=len(FEATURES))
            x[0] = list(EntityType).index(etype)
            quasi = etype is EntityType.MISC and x[1] > 0
            ident = "DIRECT" if etype is EntityType.PERSON else ("QUASI" if quasi != flip else "NO_MASK")
            s = text.index(w)
            spans.append(DetectedSpan(s, s + len(w), w, etype))
            rows.append(x)
            gold.append(_m(text, w, ident, etype.value, f"e{i}"))
            ys.append(IdentifierType(ident))
        return GoldDoc(f"d{d}", text, "a", gold), spans, np.array(rows), ys

    def prepared(flip_last: bool) -> Prepared:
        parts = [document(d, flip_last and d == 9) for d in range(10)]
        return Prepared([p[0] for p in parts], [type("C", (), {"spans": p[1]})() for p in parts],
                        [p[2] for p in parts], [p[3] for p in parts])

    rng = np.random.default_rng(1)
    a = tune_type_thresholds(prepared(False), list(range(9)), target_precision=0.9, folds=3)
    rng = np.random.default_rng(1)
    b = tune_type_thresholds(prepared(True), list(range(9)), target_precision=0.9, folds=3)
    assert a == b  # document 9 (the test fold) had its gold flipped: nothing changed
    default, per_type = a
    assert default in TUNE_GRID and set(per_type.values()) <= set(TUNE_GRID)


def test_given_surname_found_later_then_initials_and_titles_before_it_join_the_name():
    text = ("Lieutenant General Faridoon Noshir Billimoria, PVSM (1933–2005) was an officer. "
            "The Lt Gen F N Billimoria trophy is named after him. He met A Billimoria.")
    gen = text.index("Gen F")
    spans = [_span(text, "Faridoon Noshir Billimoria", EntityType.PERSON),
             DetectedSpan(gen, gen + 3, "Gen", EntityType.MISC, frozenset({"gazetteer"}))]
    linked = [(s.text, s.entity_type, s.entity_id) for s in link_persons(text, spans)]
    assert ("Lt Gen F N Billimoria", EntityType.PERSON, "person-1") in linked
    assert ("Gen", EntityType.MISC, None) not in [(t, e, None) for t, e, _ in linked]  # taken into the name
    assert ("Billimoria", EntityType.PERSON, "person-1") in linked  # "A" is no initial of the subject's


def test_given_acronym_glued_to_next_sentence_or_closing_bracket_then_cut():
    text = "ending the war with the LTTE.He attended the Academy (NDA).The trophy"
    spans = [DetectedSpan(text.index("LTTE"), text.index("LTTE") + 7, "LTTE.He", EntityType.ORG, frozenset({"syntax"})),
             DetectedSpan(text.index("NDA"), text.index("NDA") + 4, "NDA)", EntityType.ORG, frozenset({"syntax"}))]
    assert [s.text for s in merge_spans(text, spans)] == ["LTTE", "NDA"]
