import pytest

from engine.generate.sources.base import DocumentState
from engine.generate.sources.datetime import DatetimeSource, century, datetime_ladder, datetime_rungs, ordinal, read_date, Day
from engine.types import EntityType, Span

D = "DATE"


@pytest.mark.parametrize(
    "span,expected",
    [
        ("1885", ["date in the mid-1880s", "date in the 1880s", "date in the 19th century", D]),
        ("1900", ["date in the early 1900s", "date in the 1900s", "date in the 20th century", D]),
        ("2003", ["date in the early 2000s", "date in the 2000s", "date in the 21st century", D]),
        ("24 April 1919", ["April 1919", "date in early 1919", "1919", "date in the late 1910s", "date in the 1910s", "date in the 20th century", D]),
        ("August 11, 1979", ["August 1979", "date in mid-1979", "1979", "date in the late 1970s", "date in the 1970s", "date in the 20th century", D]),
        ("1st of May 1990", ["May 1990", "date in mid-1990", "1990", "date in the early 1990s", "date in the 1990s", "date in the 20th century", D]),
        ("Sept. 3, 1955", ["September 1955", "date in late 1955", "1955", "date in the mid-1950s", "date in the 1950s", "date in the 20th century", D]),
        ("2013-09-25", ["September 2013", "date in late 2013", "2013", "date in the early 2010s", "date in the 2010s", "date in the 21st century", D]),
        ("1987-02-11", ["February 1987", "date in early 1987", "1987", "date in the late 1980s", "date in the 1980s", "date in the 20th century", D]),
        ("May 2009", ["date in mid-2009", "2009", "date in the late 2000s", "date in the 2000s", "date in the 21st century", D]),
        ("21 May", ["May"]),
        ("March", [D]),
        ("1990s", ["date in the 1990s", "date in the 20th century", D]),
        ("early 2000s", ["date in the 2000s", "date in the 21st century", D]),
        ("between 1988 and 1990", ["between the 1980s and the 1990s", "date in the 20th century", D]),
        ("1990/91 season", ["date in the early 1990s", "date in the 1990s", "date in the 20th century", D]),
        ("1899–1901", ["between the 1890s and the 1900s", "between the 19th century and the 20th century", D]),
        ("1919–20 season", ["between the 1910s and the 1920s", "date in the 20th century", D]),
        ("between 1 January 1993 and 9 December 1994", ["between January 1993 and December 1994", "between 1993 and 1994",
                                                       "date in the 1990s", "date in the 20th century", D]),
        ("Between December 1994 and June 1995", ["between 1994 and 1995", "date in the mid-1990s", "date in the 1990s", "date in the 20th century", D]),
        ("14 and 27 July 1999", ["July 1999", "date in mid-1999", "1999", "date in the late 1990s", "date in the 1990s", "date in the 20th century", D]),
        ("1 March and 31 December 1998", ["1998", "date in the late 1990s", "date in the 1990s", "date in the 20th century", D]),
        ("summer of 1988", ["1988", "date in the late 1980s", "date in the 1980s", "date in the 20th century", D]),
        ("beginning of August 1995", ["August 1995", "date in mid-1995", "1995", "date in the mid-1990s", "date in the 1990s", "date in the 20th century", D]),
        ("first quarter of 1904", ["1904", "date in the 1900s", "date in the 20th century", D]),
        ("April 258", ["date in early 258", "258", "date in the late 250s", "date in the 250s", "date in the 3rd century", D]),
        ("7.30 p.m.", ["date in the evening"]),
        ("14:45", ["date in the afternoon"]),
        ("7.30", [D]),
        ("seven years", ["several years"]),
        ("thirty-five years", ["more than twenty years", "many years"]),
        ("almost two years", ["about two years", "a few years"]),
        ("ten years", ["about ten years", "many years"]),
        ("more than ten years", ["many years"]),
        ("thirty minutes", ["more than twenty minutes", "less than an hour"]),
        ("four years and six months", ["a few years"]),
        ("one year and eight months’", ["less than two years’"]),
        ("two months'", ["a few months'", "less than a year's"]),
        ("32-week", ["multi-week"]),
        ("895-day-long", ["multi-day"]),
        ("seven years later", ["several years later"]),
        ("several years", ["X years"]),
        ("age 19", ["age 15–19"]),
        ("aged 42", ["aged 40–49", "aged 18 or over"]),  # the second: the legal pack's age of majority
        ("18 year‑old", ["15- to 19-year-old", "teenager"]),
        ("at the age of 9", ["at the age of 5–9", "as a child"]),
        ("16", []),
        ("yesterday", [D]),
        ("5 December 20040", [D]),
    ],
)
def test_given_datetime_span_then_each_rung_is_less_specific_and_true(span, expected):
    assert datetime_ladder(span)[0] == expected


def test_given_numbers_then_ordinals_and_centuries_are_english():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    assert century(1999) == "20th century" and century(2000) == "21st century"


def test_given_a_date_then_dateutil_reads_which_parts_it_gives():
    assert read_date("Sept. 3, 1955") == Day(1955, 9, 3)
    assert read_date("May 2009") == Day(2009, 5, None)
    assert read_date("21 May") == Day(None, 5, 21)
    assert read_date("10 to 2") is None


def test_given_a_rung_then_it_names_the_rule_that_made_it():
    rungs = dict(datetime_rungs("22 June 2005")[0])
    assert rungs["date in mid-2005"] == "part-of-a-year" and rungs["date in the mid-2000s"] == "part-of-a-decade"
    assert dict(datetime_rungs("between 1 January 1993 and 9 December 1994")[0])["between 1993 and 1994"] == "date-range-kept-as-range"


def test_given_shapes_then_they_are_the_rankers():
    from engine.select.features import DT_SHAPES

    for span in ("1885", "22 June 2005", "May 2009", "21 May", "1990s", "between 1988 and 1990", "14 and 27 July 1999",
                 "7.30 p.m.", "ten years", "aged 42", "summer of 1988", "yesterday"):
        assert datetime_rungs(span)[1] in DT_SHAPES


def test_given_a_bare_number_after_aged_then_its_ladder_is_an_age():
    text = "She made her debut in 2014 aged 17."
    start = text.index("17")
    span = Span("17", EntityType.DATETIME, context=text, start=start, end=start + 2)
    labels = [c.label for c in DatetimeSource().generate(span, DocumentState(text=text)).candidates]
    assert labels == ["15–19"]
