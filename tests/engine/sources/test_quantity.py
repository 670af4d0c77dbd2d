import pytest

from engine.generate.sources.base import DocumentState
from engine.generate.sources.quantity import QuantitySource, quantity_label, quantity_rungs
from engine.types import EntityType, Span


@pytest.mark.parametrize(
    "span,expected",
    [
        ("5", "X"), ("four", "X"), ("Nine", "X"), ("fourth", "X"), ("12th", "X"), ("twice", "X"),
        (".983", "X"), ("1,178", "X"), ("67.1", "X"), ("(10)", "X"), ("#182", "X"),
        ("3–0", "X"), ("289–296", "X"), ("Lot 63-64", "X"),
        ("80 kg", "X kg"), ("1.80 m", "X m"), ("155 lb", "X lb"), ("100-acre", "X-acre"),
        ("5 ft 11", "X ft X"), ("$5 million", "$X million"), ("£200", "£X"), ("40%", "X%"),
        ("two million", "X million"), ("12 km", "X km"), ("3,000 metres", "X metres"), ("four times", "X times"),
    ],
)
def test_given_quantity_then_numbers_become_x_and_units_stay(span, expected):
    assert quantity_label(span)[0] == expected


def test_given_no_unit_then_plain_x_rule():
    assert quantity_label("Lot 63-64")[1] == "number"
    assert quantity_label("80 kg")[1] == "unit"


@pytest.mark.parametrize(
    "span,expected",
    [
        ("GBP 57.81", ["under GBP 100", "dozens of pounds"]),
        ("EUR 1,300", ["under EUR 2,000", "over a thousand euros"]),
        ("EUR 10,000", ["under EUR 20,000"]),
        ("54,525,000 Turkish Liras (TRL)", ["under 100 million Liras", "tens of millions of Liras"]),
        ("TRL 2,847.312.000", ["under TRL 5 billion", "billions of Lira"]),
        ("PLN 11,305.5 [approx. EUR 2,826]", ["under PLN 20,000", "over ten thousand zlotys"]),
        ("$5 million", ["under $10 million", "millions of dollars"]),
        ("58 occasions", ["fewer than 100 occasions", "dozens of occasions"]),
        ("623", ["fewer than 1,000", "hundreds"]),
        ("seven other persons", ["several other persons"]),
        ("three", ["a few"]),
        ("twice", ["a few times"]),
        ("18.5%", ["under 20%", "less than a quarter"]),
        ("40%", ["under 50%"]),
        ("60%", ["more than half"]),
        ("5/48", ["less than a quarter"]),
        ("1.80 m", ["under 2 m"]),
        ("9 June 1989", ["June 1989", "date in mid-1989", "1989", "date in the late 1980s", "date in the 1980s", "date in the 20th century", "DATE"]),
        ("one", ["X"]), ("fourth", ["X"]), ("12th", ["X"]), ("5 ft 11", ["X ft X"]), ("3–0", ["X"]),
        ("8 square metres", ["under 10 square metres"]), ("3 cubic metres", ["under 5 cubic metres"]),
        # a length of time the amount rules cannot bound reads as a duration
        ("one year and three months", ["less than two years"]), ("one hour", ["about an hour", "less than a day"]),
        ("twenty-four hours", ["more than twenty hours", "many hours"]),
        ("two years, six months and thirteen days", ["a few years"]),
        ("forty per cent", ["under 50%"]),  # a percentage in words, no sum of cents
        ("over two and a half years", ["X"]),  # the duration's only rung holds a placeholder: none
    ],
)
def test_given_an_amount_then_its_rungs_are_bounds_and_orders_true_of_it(span, expected):
    assert [label for label, _ in quantity_rungs(span)[0]] == expected


def test_given_a_hedge_then_the_rungs_hold_of_what_it_allows():
    assert [l for l, _ in quantity_rungs("22,000 ecstasy tablets", "over")[0]] == ["over 20,000 ecstasy tablets"]
    assert [l for l, _ in quantity_rungs("about 95 euros")[0]] == ["dozens of euros"]  # "under 100" may be false of "about 95"


def test_given_a_hedge_before_the_span_then_the_source_reads_it():
    text = "The police seized over 22,000 pills."
    start = text.index("22,000")
    span = Span("22,000 pills", EntityType.QUANTITY, context=text, start=start, end=start + len("22,000 pills"))
    labels = [c.label for c in QuantitySource().generate(span, DocumentState(text=text)).candidates]
    assert labels == ["over 20,000 pills"]


def test_given_the_legal_pack_then_votes_read_by_a_majority():
    from engine.knowledge import Knowledge

    with Knowledge(("core",)).active():
        assert quantity_rungs("10 to 2")[0] == [("X", "number")]
    with Knowledge(("core", "legal")).active():
        assert [l for l, _ in quantity_rungs("10 to 2")[0]] == ["by a majority"]
        assert [l for l, _ in quantity_rungs("by six votes to one")[0]] == ["by a majority"]


def test_given_a_number_that_opens_a_compound_then_only_its_placeholder():
    text = "Two of his 12-part series were broadcast."
    start = text.index("12")
    span = Span("12", EntityType.QUANTITY, context=text, start=start, end=start + 2)
    assert [c.label for c in QuantitySource().generate(span, DocumentState(text=text)).candidates] == ["X"]
