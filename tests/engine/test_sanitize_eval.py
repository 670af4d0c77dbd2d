"""``evaluate sanitize``: the label mapping, agreement, leaks and readability flags on
hand-made documents."""

import pytest

from engine.config import EngineConfig
from engine.engine import Engine
from taxogen_tools.evaluation.flags import FLAG_NAMES, Region, count_sentences, flag_text
from taxogen_tools.evaluation.labels import canonical, equivalent, map_selection, rung_index
from taxogen_tools.evaluation.sanitize_eval import LeakChecker, MentionScore, SanitizeEvaluation, score_document
from engine.doc import SanitizeResult
from engine.types import EntityType as T, IdentifierType as I, Mention, Replacement
from engine.io.wikireplace import WRDocument, WRMention


# --- label mapping -----------------------------------------------------------------------
@pytest.mark.parametrize("a,b", [
    ("date in the 1980s", "the 1980s"), ("date in the 1980s", "1980s"), ("Date in the 20th century", "the 20th century"),
    ("a city", "city"), ("An earth scientist", "earth scientist"), ("City in Norway.", "city in Norway"),
    ("PERSON 3", "PERSON 1"), ("PERSON 2", "PERSON X"), ("***", "***"),
    ("U.S. state", "state of the United States"), ("city in the United States", "city of the United States"),
    ("province of the People's Republic of China", "province of China"), ("theater", "theatre"),
    ("university in the United States of America", "university in the United States"), ("US", "United States"),
])
def test_given_equivalent_labels_then_same_canonical_form(a, b):
    assert equivalent(a, b)


@pytest.mark.parametrize("a,b", [
    ("***", "DATE"), ("person", "PERSON 1"), ("date in the 1980s", "date in the 1990s"), ("city", "city in Norway"),
    ("1980", "date in the 1980s"), ("city", "city of the United States"), ("country in Western Europe", "country"),
    ("American football team", "football team"), ("state", "U.S. state"),
])
def test_given_different_labels_then_not_equivalent(a, b):
    assert canonical(a) != canonical(b)


def test_given_selection_then_votes_and_majority_land_on_our_rungs():
    ladder = ["April 1955", "1955", "date in the 1950s", "date in the 20th century", "DATE", "***"]
    gold, votes = map_selection({"the 1950s": ["a1", "a2"], "1955": ["a3"], "***": ["a4"]}, ladder)
    assert gold == 2 and votes == (0, 1, 2, 0, 0, 1)
    # a majority choice we do not offer maps to nothing; *** always maps to the last rung
    assert map_selection({"country in West Africa": ["a1"]}, ["organization", "***"])[0] is None
    assert map_selection({"***": ["a1"], "nation": []}, ["country", "***"])[0] == 1
    assert rung_index("PERSON 4", ["PERSON 1", "***"]) == 0


# --- agreement -----------------------------------------------------------------------------
def test_given_person_numbers_differ_then_agreement_ignores_them():
    m = MentionScore("d", "PERSON", "Saddam Hussein", "PERSON 1", ("PERSON 1",), "PERSON 4", ("PERSON 4", "***"))
    assert m.agrees and m.agrees_any and m.in_ladder
    m = MentionScore("d", "DATETIME", "2015", "***", ("***", "date in the 2010s"), "date in the 2010s", ("date in the 2010s", "***"))
    assert not m.agrees and m.agrees_any and m.in_ladder
    m = MentionScore("d", "LOC", "Oslo", "capital of Norway", ("capital of Norway",), "***", ("city", "***"))
    assert not m.agrees and not m.in_ladder


# --- hand-made sanitized documents ---------------------------------------------------------
def wr(doc_id, text, spans):
    """A WikiReplace document with one annotator; spans: (text, type, majority or None, entity_id)."""
    ms, pos = [], 0
    for i, (s, t, choice, eid) in enumerate(spans):
        start = text.index(s, pos)
        pos = start + len(s)
        sel = {choice: ["a1"]} if choice else {}
        ms.append(WRMention(doc_id, "a1", f"m{i}", s, start, pos, T(t), I.QUASI if choice else I.NO_MASK, eid, (),
                            {"heuristics": [choice, "***"]} if choice else {}, sel, bool(choice)))
    return WRDocument(doc_id, text, {"a1": ms})


def sanitized(doc, outputs):
    """A result replacing each masked mention of ``doc`` by ``outputs[span]``, offsets computed."""
    text, built, pos, reps = doc.text, "", 0, []
    for m in doc.mentions["a1"]:
        mention = Mention(m.start, m.end, m.entity_type, m.identifier_type, m.entity_id)
        built += text[pos:m.start]
        if m.identifier_type is I.NO_MASK:
            reps.append(Replacement(mention, m.text, m.text, (), len(built), len(built) + len(m.text), kept=True))
            built += m.text
        else:
            out = outputs[m.text]
            reps.append(Replacement(mention, m.text, out, (), len(built), len(built) + len(out)))
            built += out
        pos = m.end
    return SanitizeResult(built + text[pos:], text, tuple(reps))


@pytest.fixture(scope="module")
def checker(sample_kg):
    return LeakChecker(Engine.from_store(sample_kg, EngineConfig(model="none")))


def test_given_replacement_naming_another_masked_country_then_leaks_are_found(checker):
    doc = wr("d", "She was born in Paris to a French family and moved to Zürich, Switzerland, in 2015.",
             [("Paris", "LOC", "city", "e1"), ("French", "DEM", "***", "e2"), ("Zürich", "LOC", "city", "e3"),
              ("Switzerland", "LOC", "***", "e4"), ("2015", "DATETIME", "date in the 2010s", "e5")])
    report = SanitizeEvaluation("test", 1)
    score_document(report, doc, sanitized(doc, {"Paris": "city in France", "French": "***", "Zürich": "city of Switzerland",
                                                "Switzerland": "***", "2015": "date in the 2010s"}), checker)
    leaks = {(l.span, l.kind, l.other) for l in report.leaks}
    assert ("Paris", "linked item", "French") in leaks  # "French" is masked; its country is France
    assert ("Zürich", "text", "Switzerland") in leaks
    assert len(report.leaks) == 2
    # agreement: "date in the 2010s" and Switzerland's *** match; "city in France" is not "city"
    figures = report.per_type()
    assert figures["DATETIME"]["majority"] == 1.0 and figures["LOC"]["majority"] == round(1 / 3, 4)
    assert figures["ALL"]["mask_ours"] == figures["ALL"]["mask_annotators"] == 0.4


def test_given_safe_replacements_then_no_leak(checker):
    doc = wr("d", "She was born in Paris to a French family.", [("Paris", "LOC", "city", "e1"), ("French", "DEM", "***", "e2")])
    report = SanitizeEvaluation("test", 1)
    score_document(report, doc, sanitized(doc, {"Paris": "city", "French": "***"}), checker)
    assert report.leaks == [] and report.per_type()["ALL"]["majority"] == 1.0


def test_given_partial_name_numbered_apart_then_flagged():
    doc = wr("d", "Saddam Hussein spoke. Later Hussein left.",
             [("Saddam Hussein", "PERSON", "PERSON 1", "p1"), ("Hussein", "PERSON", "PERSON 1", "p1")])
    report = SanitizeEvaluation("test", 1)
    score_document(report, doc, sanitized(doc, {"Saddam Hussein": "PERSON 4", "Hussein": "PERSON 5"}), None)
    assert report.flags["partial-name numbering"] == 2 and report.flagged_sentences == 2
    assert report.per_type()["PERSON"]["majority"] == 1.0  # numbering ignored in agreement


# --- readability flags on exact sentences ----------------------------------------------------
def regions_of(text, *labels):
    out, pos = [], 0
    for label in labels:
        start = text.index(label, pos)
        pos = start + len(label)
        out.append(Region(start, pos))
    return out


@pytest.mark.parametrize("sentence,labels,name", [
    ("He was born date in the 20th century in Oslo.", ["date in the 20th century"], "born date in …"),
    ("In date in the 2010s she moved to Paris.", ["date in the 2010s"], "In date in …"),
    ("They met following the date in the 1970s election.", ["date in the 1970s"], "born date in …"),
    ("He was sentenced to DATE *** in prison.", ["DATE", "***"], "DATE ***"),
    ("She is a *** earth scientist.", ["***"], "a *** noun"),
    ("He is an ethnic group politician.", ["ethnic group"], "class label modifier"),
    ("Born in city of the United States, she studied law.", ["city of the United States"], "missing article"),
    ("He was born in city with millions of inhabitants.", ["city with millions of inhabitants"], "missing article"),
    ("He played college basketball for *** and university.", ["***", "university"], "missing article"),
    ("The case was heard by the state of India.", ["state of India"], "the class label"),
    ("He taught at the university.", ["university"], "the class label"),
    ("They met in *** *** last year.", ["***", "***"], "*** ***"),
    ("Riots broke out in date in the 2000s state of India.", ["date in the 2000s", "state of India"], "adjacent replacements"),
    ("He was also a profession of a position PERSON 2.", ["profession", "position", "PERSON 2"], "class of class"),
    ("He was also a profession of a position PERSON 2.", ["profession", "position", "PERSON 2"], "class before PERSON"),
    ("He lost his seat at the 2010s general election.", ["2010s"], "decade modifier"),
    ("They met following the 1970s election.", ["1970s"], "decade modifier"),
    ("She played from the 1940s through the 1940s.", ["the 1940s", "the 1940s"], "repeated period"),
    ("He lived from the 1940s – the 1940s.", ["the 1940s", "the 1940s"], "repeated period"),
    ("He is one of the first graduates of the *** (***) in the 1950s.", ["***", "***", "the 1950s"], "*** (***)"),
])
def test_given_awkward_sentence_then_its_pattern_is_flagged(sentence, labels, name):
    flags = flag_text(sentence, regions_of(sentence, *labels))
    assert name in {f.name for f in flags}
    assert name in FLAG_NAMES


@pytest.mark.parametrize("sentence,labels", [
    ("PERSON 1 was born in a city in Norway in the 1980s.", ["PERSON 1", "city in Norway", "the 1980s"]),
    ("She played from the 1940s through the 1950s.", ["the 1940s", "the 1950s"]),
    ("He was born in ***, ***, ***.", ["***", "***", "***"]),
    ("In the 2010s she moved to a big city.", ["the 2010s", "big city"]),
    ("It happened on a date in the 1980s.", ["date in the 1980s"]),
    ("She is an earth scientist and works for ***.", ["earth scientist", "***"]),
    ("He played for *** and *** between 1988 and 1990.", ["***", "***"]),
    ("After the rebellion, the *** put him in charge of ***.", ["***", "***"]),
    ("She has a university degree from a university in Norway.", ["university in Norway"]),
    ("He made his debut in *** with *** against ***.", ["***", "***", "***"]),
    ("He lost his seat at the general election in the 2010s.", ["in the 2010s"]),
    ("He made his debut during a tour of *** in the 1980s.", ["***", "the 1980s"]),
    ("He lived there in the 1980s and the 1990s.", ["1980s", "1990s"]),
    ("He played college basketball for *** and a university.", ["***", "university"]),
    ("She studied law and politics at *** or a university.", ["***", "university"]),
    ("She made her screen debut at age X in a leading role.", ["age X"]),
])
def test_given_readable_sentence_then_nothing_is_flagged(sentence, labels):
    assert flag_text(sentence, regions_of(sentence, *labels)) == []


def test_given_an_empty_region_then_it_is_not_adjacent_to_anything():
    text = "He was an English World War I *** credited with five victories."
    mask = text.index("***")
    dropped = Region(mask - 1, mask - 1)  # a modifier dropped just before, rendered as nothing
    assert flag_text(text, [dropped, Region(mask, mask + 3)]) == []
    both = flag_text("They met in city town.", [Region(12, 16), Region(17, 21)])  # both shown: flagged
    assert "adjacent replacements" in {f.name for f in both}


def test_given_flags_then_sentences_counted_once_each():
    text = "In date in the 2010s she moved to *** ***. She works there. PERSON 1 is an ethnic group politician."
    regions = regions_of(text, "date in the 2010s", "***", "***", "PERSON 1", "ethnic group")
    flags = flag_text(text, regions)
    counts = count_sentences(text, regions, flags)
    assert (counts.sentences, counts.with_replacement, counts.flagged, counts.flagged_with_replacement) == (3, 2, 2, 2)


def test_given_bad_input_when_evaluate_sanitize_then_one_line_error(tmp_path, wikireplace_path):
    from typer.testing import CliRunner

    from engine.cli import app

    res = CliRunner().invoke(app, ["evaluate", "sanitize", "--data", str(tmp_path / "missing.json")])
    assert res.exit_code == 1 and "Traceback" not in res.output
    res = CliRunner().invoke(app, ["evaluate", "sanitize", "--data", str(wikireplace_path), "--train-on", "bogus"])
    assert res.exit_code == 1 and "bogus" in res.output
