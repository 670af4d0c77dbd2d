import pytest

from engine.generate.sources.quantity import quantity_label


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
