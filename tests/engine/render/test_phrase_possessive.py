"""A class after a possessive takes no article: the possessive is its determiner."""

from engine.render.phrase import RungKind, render_phrase


def test_given_a_possessive_then_no_article_is_inserted():
    got = render_phrase("director", RungKind.CLASS, "she was the ***'s ", " in Kenya")
    assert got.new_prev is None and got.phrase == "director"
    assert render_phrase("capital", RungKind.CLASS, "Norway’s ", " is").new_prev is None


def test_given_a_verb_then_the_article_is_still_inserted():
    got = render_phrase("geologist", RungKind.CLASS, "she is ", " in Kenya")
    assert got.new_prev == "a "
