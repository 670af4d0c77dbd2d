import pytest

from engine.generate.sources.datetime import century, datetime_ladder, ordinal

D = "DATE"


@pytest.mark.parametrize(
    "span,expected",
    [
        ("1885", ["date in the 1880s", "date in the 19th century", D]),
        ("1900", ["date in the 1900s", "date in the 20th century", D]),
        ("2003", ["date in the 2000s", "date in the 21st century", D]),
        ("24 April 1919", ["April 1919", "1919", "date in the 1910s", "date in the 20th century", D]),
        ("August 11, 1979", ["August 1979", "1979", "date in the 1970s", "date in the 20th century", D]),
        ("1st of May 1990", ["May 1990", "1990", "date in the 1990s", "date in the 20th century", D]),
        ("Sept. 3, 1955", ["September 1955", "1955", "date in the 1950s", "date in the 20th century", D]),
        ("2013-09-25", ["September 2013", "2013", "date in the 2010s", "date in the 21st century", D]),
        ("May 2009", ["2009", "date in the 2000s", "date in the 21st century", D]),
        ("21 May", ["May", D]),
        ("1990s", ["date in the 1990s", "date in the 20th century", D]),
        ("early 2000s", ["date in the 2000s", "date in the 21st century", D]),
        ("between 1988 and 1990", ["between the 1980s and the 1990s", "date in the 20th century", D]),
        ("1990/91 season", ["date in the 1990s", "date in the 20th century", D]),
        ("1899–1901", ["between the 1890s and the 1900s", "between the 19th century and the 20th century", D]),
        ("1919–20 season", ["between the 1910s and the 1920s", "date in the 20th century", D]),
        ("seven years", ["X years"]),
        ("thirty-five years", ["X years"]),
        ("32-week", ["X-week"]),
        ("895-day-long", ["X-day-long"]),
        ("seven years later", ["X years later"]),
        ("age 19", ["age X"]),
        ("first quarter of 1904", ["1904", "date in the 1900s", "date in the 20th century", D]),
        ("April 258", ["258", "date in the 250s", "date in the 3rd century", D]),
        ("16", []),
        ("yesterday", [D]),
    ],
)
def test_given_datetime_span_then_ladder_in_dataset_style(span, expected):
    assert datetime_ladder(span)[0] == expected


def test_given_numbers_then_ordinals_and_centuries_are_english():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    assert century(1999) == "20th century" and century(2000) == "21st century"
