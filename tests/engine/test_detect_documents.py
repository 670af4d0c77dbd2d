"""Raw documents that are no biographies — a chat, an e-mail, a clinical note, a news item, a
court paragraph — through the whole pipeline on the sample graph (slow: spaCy), and the
detection rules they need, without the model (fast)."""

from __future__ import annotations

import pytest

from engine.config import EngineConfig
from engine.detect.dialogue import dialogue_retype, role_labels, speaker_names
from engine.detect.rules import code_matches
from engine.detect.spans import DetectedSpan
from engine.detect.terms import drop_term_spans, numbered_terms
from engine.engine import Engine
from engine.types import EntityType

CHAT = ("Agent: Good afternoon, you are through to Nordlys Broadband. My name is Eskil.\n"
        "Customer: Hi Eskil, the modem stopped working after the Windows 10 update.\n"
        "Agent: Sorry to hear that. Can you restart it for me?\n"
        "Customer: Done. Thanks!\n"
        "Agent: Great. Anything else I can do?\n")
NOTE = ("Patient: Maren Ulvik, 61 years old.\n"
        "History: type 2 diabetes since 2011, COVID-19 in 2022, stage 3 kidney disease.\n"
        "Plan: check HbA1c again; call her son on 0171 8823419.\n")


@pytest.fixture(scope="module")
def engine(sample_kg):
    return Engine.from_store(sample_kg, EngineConfig(model="none"))


def _spans(engine, text: str) -> dict[str, DetectedSpan]:
    return {s.text: s for s in engine.detect(text)}


def _span(text: str, part: str, etype: EntityType, *sources: str) -> DetectedSpan:
    start = text.index(part)
    return DetectedSpan(start, start + len(part), part, etype, frozenset(sources or {"ner"}))


# --- without the model -------------------------------------------------------------------------------
@pytest.mark.parametrize("number", ["0171 8823419", "+47 22 12 34 56", "070-481 22 93", "5521-8830-44"])
def test_given_telephone_or_grouped_number_when_rules_then_one_code_over_it(number):
    text = f"Her reference is {number}, she said."
    start = text.index(number)
    assert (start, start + len(number)) in {(a, b) for a, b, _ in code_matches(text)}


def test_given_iso_date_when_rules_then_no_code():
    assert not [m for m in code_matches("The harbour opened on 2019-04-12 after the storm.") if m[1] - m[0] == 10]


def test_given_numbered_terms_then_found_and_the_spans_inside_dropped():
    text = "She has type 1 diabetes and runs iOS 17 on a phone she bought for 300 euros."
    assert [text[a:b] for a, b in numbered_terms(text)] == ["iOS 17", "type 1 diabetes"]
    spans = [_span(text, "1", EntityType.QUANTITY), _span(text, "17", EntityType.QUANTITY), _span(text, "300 euros", EntityType.QUANTITY)]
    assert [s.text for s in drop_term_spans(text, spans)] == ["300 euros"]


def test_given_line_labels_then_roles_are_labels_and_a_repeated_other_label_is_a_speaker():
    text = "Agent: Hello.\nTorvik: Hi.\nMaja Lund: One moment.\nMaja Lund: Done.\nCustomer service: Thanks.\n"
    assert {text[a:b] for a, b in role_labels(text)} == {"Agent", "Customer service"}
    assert {text[a:b] for a, b in speaker_names(text, [])} == {"Maja Lund"}


def test_given_greeted_name_and_courtesy_words_then_name_is_a_person_and_the_words_no_spans():
    text = "Hi Tomas, sorry for the wait.\nThanks, Mrs Lindbeck."
    spans = [_span(text, "Hi Tomas", EntityType.MISC, "syntax"), _span(text, "Thanks", EntityType.MISC, "syntax"),
             _span(text, "Mrs Lindbeck", EntityType.PERSON)]
    out = dialogue_retype(text, spans)
    assert [(s.text, s.entity_type) for s in out] == [("Tomas", EntityType.PERSON), ("Mrs Lindbeck", EntityType.PERSON)]


# --- the whole pipeline -------------------------------------------------------------------------------
@pytest.mark.slow
def test_given_chat_when_sanitized_then_speaker_labels_greetings_and_courtesy_words_stay(engine):
    out = engine.sanitize(CHAT).text
    lines = out.splitlines()
    assert [line.split(":", 1)[0] for line in lines] == ["Agent", "Customer", "Agent", "Customer", "Agent"]
    assert "Eskil" not in out and lines[1].startswith("Customer: Hi PERSON 1, ")  # the greeting kept, the name masked
    assert "PERSON 2" not in out  # one person: no label taken for another
    assert "Sorry to hear that" in out and "Thanks!" in out and "Great." in out
    assert "Good afternoon" in out


@pytest.mark.slow
def test_given_chat_between_two_named_speakers_when_sanitized_then_each_label_is_the_person(engine):
    text = ("Maja: are you still at the lab?\nRune: yes, until six.\nMaja: ok, sorry, I forgot the keys.\n"
            "Rune: no problem.\nMaja: Thanks Rune!\n")
    out = engine.sanitize(text).text
    assert "Maja" not in out and "Rune" not in out
    assert [line.split(":", 1)[0] for line in out.splitlines()] == ["PERSON 1", "PERSON 2", "PERSON 1", "PERSON 2", "PERSON 1"]
    assert out.endswith("Thanks PERSON 2!\n") or out.endswith("Thanks PERSON 2!")


@pytest.mark.slow
def test_given_first_name_beside_a_surname_when_sanitized_then_no_fragment_left(engine):
    text = "The union leader spoke first. Her colleague Per Hansen called the plan a shock."
    out = engine.sanitize(text).text
    assert "Per " not in out and "PERSON 1 called" in out


@pytest.mark.slow
def test_given_chat_when_detected_then_no_span_in_a_role_label(engine):
    masked = [s for s in engine.detect(CHAT) if s.masked]
    assert not any(s.text in ("Agent", "Customer") for s in masked)
    assert [s.entity_type for s in masked if s.text == "Eskil"] == [EntityType.PERSON, EntityType.PERSON]


@pytest.mark.slow
def test_given_clinical_note_when_sanitized_then_numbers_inside_terms_stay_and_the_phone_is_a_code(engine):
    out = engine.sanitize(NOTE).text
    for term in ("type 2 diabetes", "COVID-19", "stage 3 kidney disease", "HbA1c"):
        assert term in out, out
    assert "0171 8823419" not in out and "DATE" not in out.split("call her son on", 1)[1]
    assert out.startswith("Patient: ") and "\nHistory: " in out and "\nPlan: " in out
    assert _spans(engine, NOTE)["0171 8823419"].entity_type is EntityType.CODE


@pytest.mark.slow
def test_given_newspaper_and_bank_named_like_persons_when_detected_then_organisations(engine):
    text = ("The chief executive of Nordre Sparebanken, Sofie Lindqvist, told Kaupmanna Tidende on Tuesday "
            "that the bank would close branches.")
    spans = _spans(engine, text)
    assert spans["Nordre Sparebanken"].entity_type is EntityType.ORG
    assert spans["Kaupmanna Tidende"].entity_type is EntityType.ORG
    out = engine.sanitize(text).text
    assert "PERSON 1" in out and "PERSON 2" not in out


@pytest.mark.slow
def test_given_name_with_lower_case_joiners_when_sanitized_then_masked_whole_not_in_fragments(engine):
    text = "After the fall she was treated at Klinikum links der Weser for a month."
    spans = _spans(engine, text)
    assert spans["Klinikum links der Weser"].entity_type is EntityType.ORG
    out = engine.sanitize(text).text
    assert "links der" not in out and "PERSON" not in out


@pytest.mark.slow
def test_given_lawyer_after_form_of_address_when_sanitized_then_a_person(engine):
    text = "He was represented by Ms Jadwiga Brzeska, a lawyer practising in Lublin."
    assert _spans(engine, text)["Ms Jadwiga Brzeska"].entity_type is EntityType.PERSON
    assert "PERSON 1" in engine.sanitize(text).text


@pytest.mark.slow
def test_given_e_mail_signature_when_detected_then_the_name_stops_at_its_line(engine):
    text = "Hello Priyanka,\n\nThe contract is attached.\n\nBest regards,\nHelga Marsh\nPeople Services\n"
    spans = _spans(engine, text)
    assert spans["Helga Marsh"].entity_type is EntityType.PERSON and not any("\n" in s for s in spans)
    out = engine.sanitize(text).text
    assert out.startswith("Hello PERSON 1,") and "Best regards," in out
