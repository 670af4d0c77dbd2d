"""What detection leaves alone in a court judgment, and amounts of money as one span (fast: no spaCy model)."""

from __future__ import annotations

from engine.detect.amounts import join_amounts
from engine.detect.legal import is_court_judgment, judgment_spans
from engine.detect.spans import DetectedSpan
from engine.knowledge import Knowledge
from engine.types import EntityType

JUDGMENT = (
    "PROCEDURE\n"
    "The case originated in an application against the Republic of Veldoria lodged with the Court by a Veldorian "
    "national, Ms Ilse Marrow (the applicant).\n"
    "THE CIRCUMSTANCES OF THE CASE\n"
    "The applicant was born in 1961 and lives in Osterbrook. The applicant complained under Article 6 § 1 of the "
    "Convention that the proceedings had been too long. The Court notes that the applicant was represented by "
    "Mr P. Lunde of the Ministry of Justice.\n"
)
BIOGRAPHY = "Ilse Marrow (born 1961) is a Veldorian painter. She lives in Osterbrook, where she teaches drawing."
LEGAL = Knowledge(("core", "biography", "sport", "legal"))


def _span(text: str, part: str, etype: EntityType, nth: int = 0) -> DetectedSpan:
    start = -1
    for _ in range(nth + 1):
        start = text.index(part, start + 1)
    return DetectedSpan(start, start + len(part), part, etype, frozenset({"ner"}))


def _candidates() -> list[DetectedSpan]:
    return [
        _span(JUDGMENT, "PROCEDURE", EntityType.MISC),
        _span(JUDGMENT, "Ilse Marrow", EntityType.PERSON),
        _span(JUDGMENT, "applicant", EntityType.DEM),
        _span(JUDGMENT, "CIRCUMSTANCES", EntityType.MISC),
        _span(JUDGMENT, "1961", EntityType.DATETIME),
        _span(JUDGMENT, "Osterbrook", EntityType.LOC),
        _span(JUDGMENT, "Court", EntityType.ORG, nth=1),
        _span(JUDGMENT, "Convention", EntityType.MISC),
        _span(JUDGMENT, "Mr P. Lunde of the Ministry of Justice", EntityType.PERSON),
    ]


def test_given_a_judgment_and_a_biography_then_only_the_judgment_reads_as_one():
    with LEGAL.active():
        assert is_court_judgment(JUDGMENT)
        assert not is_court_judgment(BIOGRAPHY)


def test_given_a_judgment_then_the_applicant_the_court_headings_and_provisions_stay_and_names_remain_candidates():
    with LEGAL.active():
        kept = [(s.text, s.entity_type) for s in judgment_spans(JUDGMENT, _candidates())]
    texts = [t for t, _ in kept]
    assert "applicant" not in texts and "Court" not in texts
    assert "PROCEDURE" not in texts and "CIRCUMSTANCES" not in texts
    assert "Convention" not in texts  # inside "Article 6 § 1 of the Convention"
    assert ("Ilse Marrow", EntityType.PERSON) in kept
    assert "Osterbrook" in texts and "1961" in texts
    # the titled person and the body they work for, apart
    assert ("Mr P. Lunde", EntityType.PERSON) in kept and ("Ministry of Justice", EntityType.ORG) in kept


def test_given_the_legal_pack_not_chosen_then_a_judgment_keeps_every_candidate():
    with Knowledge(("core", "biography", "sport")).active():
        assert not is_court_judgment(JUDGMENT)
        assert len(judgment_spans(JUDGMENT, _candidates())) == len(_candidates())


def test_given_a_biography_then_its_candidates_are_unchanged():
    spans = [_span(BIOGRAPHY, "Ilse Marrow", EntityType.PERSON), _span(BIOGRAPHY, "painter", EntityType.DEM)]
    with LEGAL.active():
        assert judgment_spans(BIOGRAPHY, spans) == spans


def test_given_an_amount_with_its_currency_code_and_conversion_then_one_quantity_span():
    text = "The court awarded her 1,200 Swiss francs (CHF) and PLN 450.50 [approx. EUR 110] for costs."
    parts = [_span(text, "1,200", EntityType.QUANTITY), _span(text, "CHF", EntityType.ORG),
             _span(text, "PLN", EntityType.ORG), _span(text, "EUR 110", EntityType.ORG)]
    with LEGAL.active():
        spans = [(s.text, s.entity_type) for s in join_amounts(text, parts)]
    assert spans == [("1,200 Swiss francs (CHF)", EntityType.QUANTITY), ("PLN 450.50 [approx. EUR 110]", EntityType.QUANTITY)]
