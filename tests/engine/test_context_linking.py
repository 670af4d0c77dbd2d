"""Document context for homonyms ("Georgia": the U.S. state in a document about the United
States) and named things that are not classes ("Federal Treaty" for Switzerland)."""

from __future__ import annotations

import pytest

from engine.engine import Engine
from engine.generate.context import document_countries
from engine.types import MASK, EntityType, IdentifierType, Mention, Span
from tests.conftest import place_ladder, tiny_store

EDGES = [
    ("Q230", "P31", "Q6256"), ("Q230", "P31", "Q7270"),       # Georgia (country): country, republic
    ("Q1428", "P31", "Q35657"), ("Q1428", "P17", "Q30"),      # Georgia (U.S. state): state of the United States
    ("Q30", "P31", "Q6256"),                                  # United States: country
    ("Q43788", "P31", "Q515"), ("Q43788", "P17", "Q30"),      # Madison: city, in the United States
    ("Q994", "P31", "Q515"), ("Q994", "P17", "Q230"),         # Tbilisi: city, in Georgia
    ("Q35657", "P279", "Q107390"), ("Q7270", "P279", "Q7275"), ("Q6256", "P279", "Q7275"), ("Q515", "P279", "Q486972"),
    ("Q39", "P31", "Q6256"), ("Q39", "P31", "Q687554"),       # Switzerland: country, "Federal Treaty"
]
LABELS = {
    "Q230": "Georgia", "Q1428": "Georgia", "Q30": "United States", "Q43788": "Madison", "Q994": "Tbilisi",
    "Q6256": "country", "Q7270": "republic", "Q35657": "state of the United States", "Q515": "city",
    "Q107390": "federated state", "Q7275": "state", "Q486972": "human settlement",
    "Q39": "Switzerland", "Q687554": "Federal Treaty",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.from_store(tiny_store(EDGES, LABELS, shipped_overlay=True))


ladder = place_ladder


def test_given_an_american_document_then_georgia_is_the_us_state(engine):
    countries = document_countries(engine.linker, [Span("Madison", EntityType.LOC), Span("Georgia", EntityType.LOC)])
    assert countries == {"Q30"}  # Georgia is a homonym: it does not vote
    assert ladder(engine, "Georgia", countries)[0] == "state of the United States"
    assert "republic" not in ladder(engine, "Georgia", countries)


def test_given_a_georgian_document_then_georgia_is_the_country(engine):
    countries = document_countries(engine.linker, [Span("Tbilisi", EntityType.LOC)])
    assert "country" in ladder(engine, "Georgia", countries)
    assert "state of the United States" not in ladder(engine, "Georgia", countries)


def test_given_no_context_then_georgia_gets_only_what_both_senses_are(engine):
    # the country and the US state, equally prominent in a store without sitelinks: nothing
    # says which, and this store files them under no common class
    assert ladder(engine, "Georgia") == [MASK]


@pytest.mark.slow
def test_given_sanitize_then_the_document_places_decide_the_homonym(engine):
    text = "He lived in Madison. He was Governor of Georgia."
    ms = [Mention(text.index("Madison"), text.index("Madison") + 7, EntityType.LOC, IdentifierType.NO_MASK),
          Mention(text.index("Georgia"), text.index("Georgia") + 7, EntityType.LOC, IdentifierType.QUASI)]
    result = engine.sanitize(text, ms)
    georgia = result.replacements[1]
    assert {a.candidate.label for a in georgia.alternatives} - {"***"} <= {"state of the United States", "federated state", "state"}


def test_given_a_named_p31_value_then_it_is_not_offered(engine):
    labels = ladder(engine, "Switzerland")
    assert "country" in labels and "Federal Treaty" not in labels


class _Facts:
    """A taxonomy stub: P31 parents and P17 values per item."""

    def __init__(self, p31: dict[str, list[str]], p17: dict[str, list[str]]) -> None:
        self.p31, self.p17 = p31, p17

    def parents(self, qid: str, prop: str) -> list[str]:
        return self.p31.get(qid, []) if prop == "P31" else []

    def values(self, qid: str, prop: str) -> list[str]:
        return self.p17.get(qid, []) if prop == "P17" else []


def test_given_a_first_link_without_a_known_country_then_it_is_kept():
    from engine.generate.context import prefer_in_document
    from engine.types import Link, LinkMethod

    city = Link("Q3037", "Kathmandu", LinkMethod.EXACT, "Kathmandu", 1.0)        # the city: no P17 in the seed
    district = Link("Q797472", "Kathmandu", LinkMethod.EXACT, "Kathmandu", 1.0)  # the district: in Nepal
    facts = _Facts({}, {"Q797472": ["Q837"]})
    assert prefer_in_document([city, district], frozenset({"Q837"}), facts)[0] is city
    state = Link("Q1428", "Georgia", LinkMethod.EXACT, "Georgia", 1.0)
    country = Link("Q230", "Georgia", LinkMethod.EXACT, "Georgia", 1.0)
    facts = _Facts({"Q230": ["Q6256"]}, {"Q1428": ["Q30"]})
    assert prefer_in_document([country, state], frozenset({"Q30"}), facts)[0] is state
    assert prefer_in_document([country, state], frozenset({"Q230"}), facts)[0] is country


def test_given_an_organisation_span_naming_a_country_then_the_document_lies_in_it(engine):
    # a court judgment names the respondent state as a party: "an application against the United States"
    assert document_countries(engine.linker, [Span("United States", EntityType.ORG)]) == {"Q30"}
    # "Georgia" names a country and a U.S. state: only the country is a state a party may be
    assert document_countries(engine.linker, [Span("Georgia", EntityType.ORG)]) == {"Q230"}
    assert document_countries(engine.linker, [Span("Madison", EntityType.ORG)]) == frozenset()
