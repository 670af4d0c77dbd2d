"""kg build keeps birth and death dates (P569/P570) as xsd:dateTime literals, and P21/P39/P166."""

import json

from kg import DumpReport, read_dump

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
XSD = "http://www.w3.org/2001/XMLSchema#"


def test_given_ntriples_dates_then_datetime_literals_kept_and_other_literals_dropped(tmp_path):
    nt = tmp_path / "d.nt"
    nt.write_text("\n".join([
        f'<{WD}Q1> <{WDT}P569> "1980-07-18T00:00:00Z"^^<{XSD}dateTime> .',
        f'<{WD}Q1> <{WDT}P570> "2010"^^<{XSD}gYear> .',          # not a dateTime: dropped
        f'<{WD}Q1> <{WDT}P569> "1980" .',                         # plain literal: dropped
        f"<{WD}Q1> <{WDT}P21> <{WD}Q6581072> .",
        f"<{WD}Q1> <{WDT}P166> <{WD}Q7191> .",
        f"<{WD}Q1> <{WDT}P39> <{WD}Q30185> .",
    ]) + "\n")
    report = DumpReport(str(nt))
    text = "".join(read_dump(nt, report))
    assert report.kept == 4 and report.malformed == 0
    assert '"1980-07-18T00:00:00Z"^^' in text and "gYear" not in text and '"1980" ' not in text


def test_given_json_dump_dates_then_year_precision_written_as_first_day(tmp_path):
    def time_claim(prop, value):
        return {prop: [{"rank": "normal", "mainsnak": {"snaktype": "value", "datavalue": {"value": {
            "time": value, "precision": 9, "calendarmodel": f"{WD}Q1985727"}, "type": "time"}}}]}

    entity = {"id": "Q1", "claims": {**time_claim("P569", "+1980-00-00T00:00:00Z"), **time_claim("P570", "+2010-05-17T00:00:00Z")}}
    path = tmp_path / "d.json"
    path.write_text("[\n" + json.dumps(entity) + "\n]\n")
    text = "".join(read_dump(path, DumpReport(str(path))))
    assert f'<{WD}Q1> <{WDT}P569> "1980-01-01T00:00:00Z"^^<{XSD}dateTime> .' in text
    assert '"2010-05-17T00:00:00Z"' in text
