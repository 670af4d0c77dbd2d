"""The rendering rules are registered, and switching any one off still writes every mention."""

import pytest

from engine.knowledge import Knowledge, registered_rules
from engine.render.document import Decision, render_document
from engine.render.rewrites import RULES, phrase_written
from engine.types import MASK, Candidate, EntityType, Mention

RENDER_RULES = sorted(n for n, r in registered_rules().items() if r.stage == "render")

#: An invented paragraph whose mentions reach most of the rendering rules.
TEXT = (
    "In 2015 Maren Holt moved from Tromsdal to northern Norland. She was a Latvian and later Canadian "
    "painter of Sami descent, lived there from 1991 to 1995 and won the regional cup twice. She ran in "
    "the 2007 local election and starred in the Lena Voss comedy. It was the 1987 album of the Nordic "
    "Institute of Art (NIA). She played in Vikstad, Holmby, Lundvik and Mossa."
)
MENTIONS = [
    ("2015", "DATETIME", "date in the 2010s"), ("Maren Holt", "PERSON", "PERSON 1"), ("Tromsdal", "LOC", "city"),
    ("Norland", "LOC", "country"), ("Latvian", "DEM", MASK), ("Sami", "DEM", MASK),
    ("1991", "DATETIME", "date in the 1990s"), ("1995", "DATETIME", "date in the 1990s"), ("twice", "QUANTITY", "X"),
    ("2007", "DATETIME", "date in the 2000s"), ("Lena Voss", "PERSON", "PERSON 2"),
    ("1987", "DATETIME", "date in the 1980s"), ("Nordic Institute of Art", "ORG", MASK), ("NIA", "ORG", MASK),
    ("Vikstad", "LOC", "city"), ("Holmby", "LOC", MASK), ("Lundvik", "LOC", MASK), ("Mossa", "LOC", MASK),
]


def _decisions() -> list[Decision]:
    out, pos = [], 0
    for span, etype, rung in MENTIONS:
        start = TEXT.index(span, pos)
        pos = start + len(span)
        et = EntityType.parse(etype)
        source = "P31" if et.is_graph else "datetime" if et is EntityType.DATETIME else "rule"
        cand = None if rung == MASK else Candidate(rung, source, level=1)
        out.append(Decision(Mention(start, pos, et), span, rung, cand))
    return out


def test_given_the_rewrite_rules_then_all_but_the_writer_are_registered_render_rules():
    assert all(getattr(r, "rule", None) is not None and r.rule.stage == "render" for r in RULES[:-1])
    assert RULES[-1] is phrase_written and not hasattr(phrase_written, "rule")


def test_given_every_rule_on_then_the_paragraph_reads_as_the_rules_say():
    got = render_document(TEXT, _decisions()).text
    assert got.startswith("In the 2010s, PERSON 1 moved from a city to the north of a country.")
    assert "She was a Canadian painter of *** descent, lived there in the 1990s and won the regional cup more than once." in got
    assert "ran in a local election in the 2000s and starred in the comedy by PERSON 2." in got
    assert got.endswith("She played in ***, ***, *** and ***.")


@pytest.mark.parametrize("name", RENDER_RULES)
def test_given_a_render_rule_off_then_every_mention_is_written_and_no_original_shows(name):
    decisions = _decisions()
    with Knowledge(disabled=[name]).active():
        result = render_document(TEXT, decisions)
    assert len(result.replacements) == len(decisions)
    for r in result.replacements:
        assert result.text[r.new_start:r.new_end] == r.replacement
    for span, _, _ in MENTIONS:
        assert span not in result.text, f"{name} off: {span!r} shows in {result.text!r}"
