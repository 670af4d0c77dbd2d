"""WordNet's nouns (engine/generate/noun_hierarchy.py): the shipped table and the rungs it gives."""

from engine.generate.noun_hierarchy import NounHierarchy, noun_hierarchy, wordnet_hypernyms
from engine.types import EntityType, Span


def _rungs(text: str, etype: str) -> list[str]:
    return [c.label for c in wordnet_hypernyms(Span(text, EntityType.parse(etype)))]


def test_given_the_shipped_table_then_it_holds_wordnets_nouns_and_their_hypernyms():
    h = noun_hierarchy()
    assert len(h.lemmas) > 100_000 and len(h.synsets) > 70_000
    assert h.lemma_of("Gendarmes") == "gendarme"  # a plural, read in the singular
    assert h.lemma_of("xqzt") is None
    assert "dubrovnik" not in h.lemmas  # an instance (a named thing) is no common noun


def test_given_a_noun_of_one_sense_then_its_hypernym_is_the_rung_with_its_provenance():
    cands = wordnet_hypernyms(Span("pharmacist", EntityType.DEM))
    assert [c.label for c in cands] == ["health professional"]
    assert cands[0].source == "wordnet" and "synset" in (cands[0].path or "")
    assert _rungs("reindeer", "MISC") == ["deer"]
    assert _rungs("paranoid schizophrenia", "DEM") == ["schizophrenia"]


def test_given_senses_that_compete_then_only_a_hypernym_they_share_is_offered():
    # "nurse": the health professional or the nanny; "knife": the tool or the weapon — nothing both are but too general
    assert _rungs("nurse", "DEM") == []
    assert _rungs("knife", "MISC") == []
    # "officer": the military officer or the office holder: what both are ("skilled worker") says nothing
    assert _rungs("officer", "DEM") == []


def test_given_a_type_then_only_senses_of_its_kinds_count():
    # a DEM span names a person, a group, a state or an attribute: "cancer", the disease, is a state
    assert _rungs("tuberculosis", "DEM") == ["infectious disease"]
    assert _rungs("reindeer", "DEM") == []  # an animal is no DEM


def test_given_a_capitalised_or_unknown_word_then_no_rung():
    assert _rungs("Pharmacist", "DEM") == []
    assert _rungs("muhtar", "DEM") == []


def test_given_a_table_then_common_hypernyms_are_read_nearest_first():
    h = NounHierarchy({"a": "1,5;2,4"},
                      {"1": "a1\tnoun.person\t3", "2": "a2\tnoun.person\t4",
                       "3": "shared\tnoun.person\t5", "4": "shared\tnoun.person\t5", "5": "top\tnoun.Tops\t"})
    senses = h.senses("a", None, 5)
    assert [s.synset for s in senses] == ["1", "2"]
    assert [s.synset for s in h.common_hypernyms(senses)] == ["5"]  # "3" and "4" differ; "5" is above both
