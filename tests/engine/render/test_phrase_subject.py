"""A class that becomes the subject after a sentence's opening phrase takes an article."""

from engine.render.phrase import RungKind, render_phrase


def test_given_an_opening_phrase_then_the_subject_takes_an_article():
    got = render_phrase("sports team", RungKind.CLASS, "He played once. At the end of the season ", " was relegated.")
    assert got.new_prev == "a "


def test_given_a_verb_or_a_comma_before_then_no_article_is_inserted():
    assert render_phrase("sports team", RungKind.CLASS, "In 1990 the newly founded ", " was").new_prev is None
    assert render_phrase("sports team", RungKind.CLASS, "At the end of the season, the ", " was").new_prev == "a "  # 'the' → 'a' as before
    assert render_phrase("city", RungKind.CLASS, "In 1990 ", " grew").new_prev is None
