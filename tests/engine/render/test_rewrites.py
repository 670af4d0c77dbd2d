"""The English rewrites are named, documented rules applied in one order."""

from engine.render.rewrites import RULES, phrase_written


def test_given_the_rules_then_each_is_named_once_and_documented():
    names = [r.__name__ for r in RULES]
    assert len(set(names)) == len(names)
    assert all(r.__doc__ and r.__doc__.strip() for r in RULES), [r.__name__ for r in RULES if not r.__doc__]


def test_given_the_rules_then_the_last_one_writes_the_span():
    assert RULES[-1] is phrase_written
