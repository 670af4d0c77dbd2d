"""The retyping rules of engine.detect.retype and the type accuracy of evaluate detection (fast: no model)."""

from __future__ import annotations

from types import SimpleNamespace

from taxogen_tools.evaluation.detection import type_accuracy
from engine.detect.retype import retype
from engine.detect.spans import DetectedSpan
from engine.types import EntityType as E


def span(text: str, sub: str, etype: E, nth: int = 0, **kw) -> DetectedSpan:
    start = -1
    for _ in range(nth + 1):
        start = text.index(sub, start + 1)
    return DetectedSpan(start, start + len(sub), sub, etype, frozenset(kw.pop("sources", {"ner"})), **kw)


def types_of(text: str, spans: list[DetectedSpan]) -> dict[str, str]:
    return {s.text: s.entity_type.value for s in retype(text, spans)}


def test_state_of_makes_a_place_and_every_mention_follows():
    text = "Zhuge Dan served the state of Wei. He later rebelled, but Wei crushed him."
    spans = [span(text, "Zhuge Dan", E.PERSON), span(text, "Wei", E.PERSON), span(text, "Wei", E.PERSON, nth=1)]
    out = retype(text, spans)
    assert [s.entity_type for s in out] == [E.PERSON, E.LOC, E.LOC]


def test_a_person_name_without_cue_stays_a_person():
    text = "She met Nancy Drew in Boston. Drew was a lawyer."
    assert types_of(text, [span(text, "Nancy Drew", E.PERSON), span(text, "Drew", E.PERSON, nth=1)]) == {
        "Nancy Drew": "PERSON", "Drew": "PERSON"}


def test_work_cues_years_quotes_and_lists_make_works():
    text = ('He sang on the soundtrack to the film Mortal Kombat. His song "Jerk" was a hit. '
            'He starred in Blade (1998). She wrote the films Bad Dreams, Threesome, Dick and Nancy Drew.')
    spans = [span(text, "Mortal Kombat", E.PERSON), span(text, "Jerk", E.PERSON), span(text, "Blade", E.PERSON),
             span(text, "Bad Dreams", E.ORG), span(text, "Threesome", E.MISC), span(text, "Dick", E.PERSON),
             span(text, "Nancy Drew", E.PERSON)]
    assert set(types_of(text, spans).values()) == {"MISC"}


def test_a_list_of_persons_is_left_alone():
    text = "He played with John Smith, Mary Jones and Ann Lee."
    spans = [span(text, n, E.PERSON) for n in ("John Smith", "Mary Jones", "Ann Lee")]
    assert set(types_of(text, spans).values()) == {"PERSON"}


def test_study_field_position_of_place_and_org_heads():
    text = "He studied Law. His father was Chief Minister of Tamil Nadu. He joined Neath RFC and Madras Law College."
    spans = [span(text, "Law", E.PERSON), span(text, "Chief Minister of Tamil Nadu", E.PERSON, inner=("DEM:position",)),
             span(text, "Neath RFC", E.PERSON), span(text, "Madras Law College", E.LOC)]
    assert types_of(text, spans) == {"Law": "DEM", "Chief Minister of Tamil Nadu": "DEM", "Neath RFC": "ORG",
                                     "Madras Law College": "ORG"}


def test_years_typed_quantity_become_dates_but_counts_do_not():
    text = ("He rebelled between 251 and 258, was Minister (1992–93), joined in 2011 and died in April 258. "
            "He scored 1500 points and 251 goals.")
    spans = [span(text, "between 251", E.QUANTITY), span(text, "258", E.QUANTITY), span(text, "1992–93", E.QUANTITY),
             span(text, "2011", E.QUANTITY), span(text, "April 258", E.QUANTITY), span(text, "1500", E.QUANTITY),
             span(text, "251", E.QUANTITY, nth=1)]
    out = [s.entity_type for s in retype(text, spans)]
    assert out == [E.DATETIME] * 5 + [E.QUANTITY, E.QUANTITY]


def test_numbers_inside_names_are_not_quantities():
    text = "He lived in the Three Kingdoms period and played in the Five Nations. He had three sons."
    spans = [span(text, "Three Kingdoms", E.QUANTITY), span(text, "Five Nations", E.QUANTITY), span(text, "three", E.QUANTITY)]
    assert types_of(text, spans) == {"Three Kingdoms": "MISC", "Five Nations": "MISC", "three": "QUANTITY"}


def test_type_accuracy_counts_strictly_matched_mentions():
    text = "Wei ruled Wei in 251."
    m = lambda s, e, t: SimpleNamespace(start=s, end=e, entity_type=t)  # noqa: E731
    doc = SimpleNamespace(text=text, mentions=[m(0, 3, E.PERSON), m(10, 13, E.LOC), m(17, 20, E.DATETIME)])
    # the second Wei is typed PERSON, the year QUANTITY, the first Wei is right; "ruled" is not a mention
    r = type_accuracy([doc], [[(0, 3, "PERSON"), (10, 13, "PERSON"), (17, 20, "QUANTITY"), (4, 9, "MISC")]])
    assert r["matched"] == 3 and r["accuracy"] == round(1 / 3, 4)
    assert r["by_type"]["LOC"] == {"matched": 1, "accuracy": 0.0}
    assert {(c["annotated"], c["detected"]) for c in r["confusions"]} == {("LOC", "PERSON"), ("DATETIME", "QUANTITY")}
    # a span that covers only part of a mention does not match it
    assert type_accuracy([doc], [[(0, 2, "PERSON")]])["matched"] == 0


def test_range_word_is_trimmed_and_document_years_date_bare_numbers():
    text = "He died in April 258. The revolts broke out between 251 and 258. Sima Zhao was regent in 255; he had 255 men."
    spans = [span(text, "April 258", E.QUANTITY), span(text, "between 251", E.QUANTITY), span(text, "258", E.QUANTITY, nth=1),
             span(text, "255", E.QUANTITY), span(text, "255", E.QUANTITY, nth=1)]
    out = retype(text, spans)
    assert [(s.text, s.entity_type) for s in out] == [("April 258", E.DATETIME), ("251", E.DATETIME), ("258", E.DATETIME),
                                                      ("255", E.DATETIME), ("255", E.QUANTITY)]
    assert out[1].retyped_from is E.QUANTITY and text[out[1].start:out[1].end] == "251"


def test_translation_in_brackets_after_a_work_and_school_of():
    text = 'His song "Chou Nan Ren" (Jerk) was a hit. He graduated from the Lee Wei Song School of Music.'
    spans = [span(text, "Chou Nan Ren", E.PERSON), span(text, "Jerk", E.PERSON), span(text, "Lee Wei Song School of Music", E.PERSON)]
    assert types_of(text, spans) == {"Chou Nan Ren": "MISC", "Jerk": "MISC", "Lee Wei Song School of Music": "ORG"}


def test_a_list_after_albums_including_is_a_list_of_works():
    text = "She has released 11 albums, including Sans plus attendre, À Tâtons, Toujours Moi and Jardin Secret."
    spans = [span(text, "Sans", E.DEM), span(text, "attendre", E.MISC), span(text, "À Tâtons", E.MISC),
             span(text, "Toujours Moi", E.PERSON), span(text, "Jardin Secret", E.PERSON)]
    out = types_of(text, spans)
    assert out.pop("Sans") == "DEM" and set(out.values()) == {"MISC"}


def test_a_force_is_an_organisation_and_a_club_prefix_after_a_numeral_is_one_too():
    from engine.detect.graph_types import graph_retype

    text = "He played for 1. FC Magdeburg and served in the Indian Peace Keeping Force."
    spans = [span(text, "Indian Peace Keeping Force", E.LOC)]
    assert types_of(text, spans) == {"Indian Peace Keeping Force": "ORG"}
    club = span(text, "1. FC Magdeburg", E.MISC)
    assert [s.entity_type for s in graph_retype(text, [club], [], None)] == [E.ORG]
