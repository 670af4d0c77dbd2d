"""Entity types from a name's own words and the phrase it sits in (engine.detect.name_types)."""

from __future__ import annotations

from engine.detect.name_types import name_retype, role_headed
from engine.detect.spans import DetectedSpan
from engine.types import EntityType as E


def span(text: str, sub: str, etype: E, *, sources=("ner",), nth: int = 0, **kw) -> DetectedSpan:
    start = -1
    for _ in range(nth + 1):
        start = text.index(sub, start + 1)
    return DetectedSpan(start, start + len(sub), sub, etype, frozenset(sources), **kw)


def types(text: str, spans: list[DetectedSpan]) -> list[E]:
    return [s.entity_type for s in name_retype(text, spans)]


def test_a_title_headed_by_a_role_is_a_position_not_a_body_or_a_work():
    assert role_headed("Speaker of the Parliament of Ghana") and role_headed("Central Army Commander")
    assert role_headed("Deputy Head of Mission")
    assert not role_headed("The Last Emperor") and not role_headed("Kansas City Chiefs") and not role_headed("Speaker")
    assert not role_headed("Bank of Ghana")
    text = "He is Speaker of the Parliament of Ghana and saw The Last Emperor with the Central Army Commander."
    spans = [span(text, "Speaker of the Parliament of Ghana", E.ORG), span(text, "The Last Emperor", E.MISC),
             span(text, "Central Army Commander", E.ORG)]
    assert types(text, spans) == [E.DEM, E.MISC, E.DEM]


def test_a_role_written_with_its_article_is_a_body():
    text = "“Quoted” – The Economist, 1996. The economist spoke."
    assert types(text, [span(text, "The Economist", E.DEM, sources=("gazetteer",)),
                        span(text, "The economist", E.DEM, sources=("gazetteer",))]) == [E.ORG, E.DEM]


def test_an_unknown_name_after_worked_for_or_employed_by_is_an_organisation():
    text = "She worked for Equinor in Stavanger, was employed by Kelbrook and worked for John Smith. She praised Ibsen."
    spans = [span(text, "Equinor", E.MISC, sources=("syntax",)), span(text, "Kelbrook", E.PERSON, entity_id="person-1"),
             span(text, "John Smith", E.PERSON, entity_id="person-2"), span(text, "Ibsen", E.MISC, sources=("syntax",))]
    assert types(text, spans) == [E.ORG, E.ORG, E.PERSON, E.MISC]
    text = "After one more season with the Riders he left."
    assert types(text, [span(text, "Riders", E.MISC)]) == [E.ORG]


def test_a_place_named_with_an_organisation_is_its_branch():
    text = "He released albums with Sony Taiwan in the United States."
    spans = [span(text, "Sony Taiwan", E.LOC, gaz_kind="organisation", items=("Q865", "Q57251")),
             span(text, "United States", E.LOC, gaz_kind="organisation", items=("Q30",))]
    assert types(text, spans) == [E.ORG, E.LOC]


def test_a_place_by_its_apposition_its_election_or_a_birth():
    text = "It covers Hermosillo, the state capital. He was elected to the Assembly from Theni. Smith (born 1946, Vichy, Allier)."
    spans = [span(text, "Hermosillo", E.ORG), span(text, "Theni", E.ORG), span(text, "Vichy", E.MISC, sources=("syntax",))]
    assert types(text, spans) == [E.LOC, E.LOC, E.LOC]
    text = "He joined Acme, the company. He was elected from the union."
    assert types(text, [span(text, "Acme", E.ORG)]) == [E.ORG]


def test_a_bracketed_surname_after_a_person_is_the_persons():
    text = "Johanna Hageman [Hargraves] (1918) played in the National Football League (NFL)."
    spans = [span(text, "Johanna Hageman", E.PERSON), span(text, "Hargraves", E.MISC, sources=("syntax",)),
             span(text, "National Football League", E.ORG), span(text, "NFL", E.MISC, sources=("syntax",))]
    assert types(text, spans) == [E.PERSON, E.PERSON, E.ORG, E.MISC]


def test_a_title_and_a_linked_surname_is_the_person():
    text = "President Richard Nixon resigned. After the resignation of President Nixon, Ford served. President Lincoln."
    spans = [span(text, "President Richard Nixon", E.PERSON, entity_id="person-1"),
             span(text, "President Nixon", E.DEM), span(text, "President Lincoln", E.DEM)]
    assert types(text, spans) == [E.PERSON, E.PERSON, E.DEM]


def test_a_word_of_a_name_no_longer_a_person_takes_its_ner_type_back():
    text = "He was a Berlin Sturmführer. His funeral in Berlin was large. In the Republican presidential primary, Rajan was elected."
    spans = [span(text, "Berlin Sturmführer", E.DEM, entity_id="person-2"),
             span(text, "Berlin", E.PERSON, sources=("ner", "coref"), ner_label="GPE", entity_id="person-2", nth=1),
             span(text, "Republican", E.PERSON, sources=("ner", "coref"), ner_label="NORP", entity_id="person-3"),
             span(text, "Rajan", E.PERSON, sources=("ner", "coref"), ner_label="NORP", entity_id="person-4")]
    assert types(text, spans) == [E.DEM, E.LOC, E.DEM, E.PERSON]


def test_a_numbered_legislature_is_a_period_and_a_party_in_power_a_body():
    text = "He sat in the LXI Legislature of the Mexican Congress until the Nazis came to power. The Germans were there."
    spans = [span(text, "LXI Legislature of the Mexican Congress", E.ORG), span(text, "Nazis", E.DEM),
             span(text, "Germans", E.DEM)]
    assert types(text, spans) == [E.MISC, E.ORG, E.DEM]


def test_a_person_typed_name_after_in_named_nowhere_else_is_a_place():
    text = "The squares in Donji Grad were renovated. It appeared in Smith's book. Smith wrote."
    spans = [span(text, "Donji Grad", E.PERSON, entity_id="person-2"), span(text, "Smith", E.PERSON, entity_id="person-3")]
    assert types(text, spans) == [E.LOC, E.PERSON]


def test_a_persons_name_in_another_case_is_the_persons():
    text = 'Yida Huang sang. The "YiDA" name form and the "Huang" brand ended; NASA agreed.'
    spans = [span(text, "Yida Huang", E.PERSON, entity_id="person-1"), span(text, "YiDA", E.MISC),
             span(text, "Huang", E.MISC, nth=1), span(text, "NASA", E.ORG)]
    assert types(text, spans) == [E.PERSON, E.PERSON, E.MISC, E.ORG]
