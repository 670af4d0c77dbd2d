"""Every registered rule's example table (packs/*/examples/<stage>.yaml) runs here.

Fast: every shipped rule has examples, well formed, and at least one where the rule fires.
Slow: on the store built from the shared seed, every example holds — and where the rule
fires, switching the rule off changes the outcome (the example shows what the rule does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import pytest

from engine.knowledge import Knowledge, registered_rules

#: stage → (the fields an example needs, the outcomes it may expect, the outcomes that mean the rule fired)
SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "ladder": (("text", "span", "type", "rung", "expect"), ("kept", "dropped"), ("dropped",)),
    "verify": (("text", "span", "type", "rung", "expect"), ("kept", "dropped"), ("dropped",)),
    "link": (("text", "span", "type", "item", "expect"), ("linked", "not linked"), ("not linked",)),
}

RULES = registered_rules()
EXAMPLES = Knowledge().examples()


def _cases() -> list[tuple[str, Mapping[str, Any]]]:
    return [(name, ex) for name in RULES for ex in EXAMPLES.get(name, ())]


def test_given_the_shipped_rules_then_each_has_examples_of_its_stage_and_one_where_it_fires() -> None:
    assert RULES, "no rule is registered"
    for name, info in RULES.items():
        rows = EXAMPLES.get(name, [])
        assert rows, f"rule {name!r} has no example table in its pack"
        shape = SHAPES.get(info.stage)
        assert shape is not None, f"rule {name!r}: no example runner for stage {info.stage!r}"
        fields, outcomes, fired = shape
        for ex in rows:
            assert ex["stage"] == info.stage, f"rule {name!r}: an example sits in examples/{ex['stage']}.yaml, not {info.stage}.yaml"
            missing = [f for f in fields if f not in ex]
            assert not missing, f"rule {name!r}: example {ex} lacks {missing}"
            assert ex["expect"] in outcomes, f"rule {name!r}: expect must be one of {outcomes}, not {ex['expect']!r}"
        assert any(ex["expect"] in fired for ex in rows), f"rule {name!r}: no example where it fires"
    orphans = sorted(set(EXAMPLES) - set(RULES))
    assert not orphans, f"examples of rules that are not registered: {orphans}"


@pytest.fixture(scope="module")
def seed_engine(seed_store: Path):
    from engine import Engine

    return Engine.from_config(store=str(seed_store))


def _ladder(engine, ex: Mapping[str, Any]) -> list[str]:
    from engine.generate.context import document_state
    from engine.types import EntityType, Span

    text = ex["text"]
    assert ex["span"] in text, f"span {ex['span']!r} not in {text!r}"
    span = Span(ex["span"], EntityType.parse(ex["type"]), context=text, start=text.index(ex["span"]))
    with engine.knowledge.active():
        state = document_state(engine.linker, [span], text)
    return engine.candidates(span, state=state).labels


def _linked(engine, ex: Mapping[str, Any]) -> bool:
    from engine.generate.context import document_state
    from engine.types import EntityType, Span

    text = ex["text"]
    span = Span(ex["span"], EntityType.parse(ex["type"]), context=text, start=text.index(ex["span"]))
    with engine.knowledge.active():
        state = document_state(engine.linker, [span], text)
    ladder = engine.candidates(span, state=state)
    return bool(ladder.links) and ladder.links[0].qid == ex["item"] and len(ladder.candidates) > 1


def _outcome(engine, stage: str, ex: Mapping[str, Any]) -> str:
    if stage in ("ladder", "verify"):
        return "kept" if ex["rung"] in _ladder(engine, ex) else "dropped"
    if stage == "link":
        return "linked" if _linked(engine, ex) else "not linked"
    raise AssertionError(f"no runner for stage {stage!r}")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "example"), _cases(), ids=lambda v: v if isinstance(v, str) else v.get("span", ""))
def test_given_a_rule_example_then_it_holds_on_the_seed_and_the_rule_is_what_decides(seed_engine, name: str, example) -> None:
    stage = RULES[name].stage
    base = seed_engine.knowledge
    try:
        seed_engine.knowledge = Knowledge(tuple(dict.fromkeys(base.packs + (RULES[name].pack,))), base.disabled)
        got = _outcome(seed_engine, stage, example)
        assert got == example["expect"], f"{name}: {example}: got {got}"
        if example["expect"] in SHAPES[stage][2]:
            seed_engine.knowledge = seed_engine.knowledge.with_rules_off([name])
            assert _outcome(seed_engine, stage, example) != got, f"{name}: {example}: the same with the rule off"
    finally:
        seed_engine.knowledge = base
