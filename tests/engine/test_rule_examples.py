"""Every registered rule's example table (``packs/*/examples/<stage>.yaml``) runs here.

An example is a small case and what the rule makes of it. Its fields, by the rule's stage:

- ``detect``: ``text``, ``span``; ``expect`` the entity type of the detected span with that
  text (``PERSON``, ``LOC`` …) or ``no span``; optional ``masked`` (true/false); or, with
  ``person_of`` (the text of an earlier span), ``expect`` ``same person`` or ``another person``:
  whether the last span with the text ``span`` holds the id of the first with ``person_of``;
- ``link``: ``text``, ``span``, ``type``, ``item`` (a Q-id); ``expect`` ``linked`` or ``not linked``
  (the span's ladder comes from that item);
- ``ladder``, ``verify``: ``text``, ``span``, ``type``, ``rung``; ``expect`` ``kept`` or ``dropped``
  (the span's ladder offers the rung); an optional ``places`` (a list of other place spans of
  the text) joins the span in the document state, whose countries they give;
- ``select``: ``text``, ``span``, ``type``, ``rung``; ``expect`` ``allowed`` or ``refused``
  (the selection policy may show the rung there); an optional ``others`` (the other rungs
  that may be shown for the span, from the same source);
- ``guard``: ``text``, ``span``, ``type``; ``expect`` the list of properties the span speaks
  about (``[P19]``, ``[]``);
- ``render``: ``text`` and either ``span``, ``type``, ``rung`` or ``mentions`` (a list of
  ``[span, type, rung]``, or ``[span, type, rung, entity]``: mentions with one entity name
  one referent); ``expect`` the sanitized text; ``parsed: true`` renders it with the text's
  spaCy parse, as a detected raw text is rendered.

``fires: true`` says the outcome differs with the rule switched off (default: true for
``dropped``, ``not linked`` and ``refused``). Every rule needs one example where it fires.
``others_off`` (a list of rule names) switches those rules off for both runs of the example:
where a later rule reaches the same outcome, the example still shows what this rule decides.

A rule the verifier reads (:mod:`engine.generate.verifier`: switched off while ladders are
built, its verdict a feature) is run as the verifier runs it: ``dropped`` (``not linked``)
means its predicate, on, would drop the rung (the rungs of the link to ``item``) of the ladder
built without it.

Fast: every shipped rule has examples of its stage's shape, one of them firing. Slow: on the
store built from the shared seed every example holds, and every firing one changes with the
rule off — the example shows what the rule does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import pytest

from engine.knowledge import Knowledge, registered_rules

#: stage → (fields an example needs, outcomes it may expect or None for any, outcomes that fire by default)
SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None, tuple[str, ...]]] = {
    "detect": (("text", "span", "expect"), None, ()),
    "link": (("text", "span", "type", "item", "expect"), ("linked", "not linked"), ("not linked",)),
    "ladder": (("text", "span", "type", "rung", "expect"), ("kept", "dropped"), ("dropped",)),
    "verify": (("text", "span", "type", "rung", "expect"), ("kept", "dropped"), ("dropped",)),
    "select": (("text", "span", "type", "rung", "expect"), ("allowed", "refused"), ("refused",)),
    "guard": (("text", "span", "type", "expect"), None, ()),
    "render": (("text", "expect"), None, ()),
}

RULES = registered_rules()
EXAMPLES = Knowledge(("core", "biography", "sport", "legal", "clinical")).examples()


def fires(stage: str, ex: Mapping[str, Any]) -> bool:
    return bool(ex.get("fires", ex["expect"] in SHAPES[stage][2]))


def _cases() -> list[tuple[str, Mapping[str, Any]]]:
    return [(name, ex) for name in RULES for ex in EXAMPLES.get(name, ())]


def test_given_the_shipped_rules_then_each_has_examples_of_its_stage_and_one_where_it_fires() -> None:
    assert RULES, "no rule is registered"
    for name, info in RULES.items():
        rows = EXAMPLES.get(name, [])
        assert rows, f"rule {name!r} has no example table in its pack"
        shape = SHAPES.get(info.stage)
        assert shape is not None, f"rule {name!r}: no example runner for stage {info.stage!r}"
        fields, outcomes, _ = shape
        for ex in rows:
            assert ex["stage"] == info.stage, f"rule {name!r}: an example sits in examples/{ex['stage']}.yaml, not {info.stage}.yaml"
            missing = [f for f in fields if f not in ex]
            assert not missing, f"rule {name!r}: example {ex} lacks {missing}"
            if info.stage == "render":
                assert "mentions" in ex or all(f in ex for f in ("span", "type", "rung")), f"rule {name!r}: {ex} names no mention"
            assert outcomes is None or ex["expect"] in outcomes, f"rule {name!r}: expect must be one of {outcomes}, not {ex['expect']!r}"
        assert any(fires(info.stage, ex) for ex in rows), f"rule {name!r}: no example where it fires"
    orphans = sorted(set(EXAMPLES) - set(RULES))
    assert not orphans, f"examples of rules that are not registered: {orphans}"


# --- runners: what the engine makes of an example ------------------------------------------------
def _span(ex: Mapping[str, Any]):
    from engine.types import EntityType, Span

    text = ex["text"]
    assert ex["span"] in text, f"span {ex['span']!r} not in {text!r}"
    start = text.index(ex["span"])
    return Span(ex["span"], EntityType.parse(ex["type"]), context=text, start=start, end=start + len(ex["span"]))


def _ladder(engine, ex: Mapping[str, Any]):
    from engine.generate.context import document_state

    from engine.types import EntityType, Span

    span = _span(ex)
    places = [Span(p, EntityType.LOC, context=ex["text"]) for p in ex.get("places", ())]
    with engine.knowledge.active():
        state = document_state(engine.linker, [span, *places], ex["text"])
    return engine.candidates(span, state=state)


def _mention(text: str, span: str, etype: str, entity: str | None = None):
    from engine.types import EntityType, Mention

    assert span in text, f"span {span!r} not in {text!r}"
    start = text.index(span)
    return Mention(start, start + len(span), EntityType.parse(etype), entity_id=entity)


def _detect(engine, ex: Mapping[str, Any]) -> Any:
    spans = engine.detect(ex["text"])
    found = [s for s in spans if s.text == ex["span"]]
    if not found:
        return "no span"
    if "person_of" in ex:
        other = [s for s in spans if s.text == ex["person_of"]]
        same = bool(other) and found[-1].entity_type is other[0].entity_type and found[-1].entity_id == other[0].entity_id
        return "same person" if same else "another person"
    if "masked" in ex:
        return (found[0].entity_type.value, found[0].masked)
    return found[0].entity_type.value


def _source(entity_type) -> str:
    """The source of a rung of ``entity_type`` as the engine's ladders give it."""
    from engine.types import EntityType

    return "P31" if entity_type.is_graph else "datetime" if entity_type is EntityType.DATETIME else "rule"


def _render(engine, ex: Mapping[str, Any]) -> str:
    from engine.render.document import Decision, render_document
    from engine.types import MASK, Candidate

    text = ex["text"]
    rows = ex.get("mentions") or [[ex["span"], ex["type"], ex["rung"]]]
    decisions = []
    for span, etype, rung, *entity in rows:
        m = _mention(text, span, etype, *entity)
        cand = None if rung == MASK else Candidate(rung, source=_source(m.entity_type), level=1)
        decisions.append(Decision(m, span, rung, cand))
    decisions.sort(key=lambda d: d.mention.start)
    parse = engine.detector.finder.nlp(text) if ex.get("parsed") else None
    with engine.knowledge.active():
        return render_document(text, decisions, parse=parse).text


def _select(engine, ex: Mapping[str, Any]) -> str:
    from engine.select.policy import SelectionPolicy
    from engine.select.stated import repeats_stated, stated_noun
    from engine.types import Candidate

    m = _mention(ex["text"], ex["span"], ex["type"])
    cand = Candidate(ex["rung"], source=_source(m.entity_type), level=1)
    others = [Candidate(label, source=_source(m.entity_type), level=2) for label in ex.get("others", ())]
    with engine.knowledge.active():
        refused = SelectionPolicy().refusal(cand, ex["span"], m, ex["text"], others)
        # a class the sentence states beside the name: the policy shows *** (SelectionPolicy.choose)
        stated = repeats_stated([cand.label], stated_noun(ex["text"], m.start, m.end, m.entity_type))
    return "allowed" if refused is None and not stated else "refused"


def _guard(engine, ex: Mapping[str, Any]) -> list[str]:
    from engine.privacy.disclosure import cue_props
    from engine.text.sentences import SentenceIndex

    m = _mention(ex["text"], ex["span"], ex["type"])
    left, _ = SentenceIndex(ex["text"]).bounds(m.start, m.end)
    with engine.knowledge.active():
        return sorted(cue_props(ex["text"], m.start, m.end, m.entity_type, left))


def _verdict(engine, name: str, stage: str, ex: Mapping[str, Any], on: bool = True) -> str:
    """What the predicate of ``name``, a rule the verifier reads, says of the example's rung
    (of the rungs of the link to its item) in the ladder built without it, under the
    engine's knowledge with the verifier's rules on."""
    from engine.generate.verify_features import RULE_VERDICTS, RungCase

    span = _span(ex)
    with engine.knowledge.active():
        from engine.generate.context import document_state

        state = document_state(engine.linker, [span], ex["text"])
        ladder = engine.generator.ladder(span, state)
    truth = engine.truth
    if stage == "link":
        if not ladder.links or ladder.links[0].qid != ex["item"] or len(ladder.candidates) < 2:
            return "not linked"
        rungs = [c for c in ladder.candidates if c.label != "***"]
    else:
        rungs = [c for c in ladder.candidates if c.label == ex["rung"]]
        if not rungs:
            return "dropped"
    read = set(engine.verifier.model.rules) - ({name} if not on else set())
    with engine.knowledge.with_rules_on(read).active():
        fired = any(RULE_VERDICTS[name](RungCase(span, ladder, c, next((l for l in ladder.links if l.qid == c.link_qid), None),
                                                  truth.candidate_class(c), truth, state)) for c in rungs)
    if stage == "link":
        return "not linked" if fired else "linked"
    return "dropped" if fired else "kept"


def outcome(engine, stage: str, ex: Mapping[str, Any], name: str | None = None, on: bool = True) -> Any:
    """What the engine makes of example ``ex`` of a rule of ``stage`` (``name``: the rule; ``on``:
    whether a rule the verifier reads is on)."""
    if name is not None and engine.verifier is not None and name in engine.verifier.model.rules and stage in ("link", "ladder", "verify"):
        return _verdict(engine, name, stage, ex, on)
    if stage in ("ladder", "verify"):
        return "kept" if ex["rung"] in _ladder(engine, ex).labels else "dropped"
    if stage == "link":
        ladder = _ladder(engine, ex)
        linked = bool(ladder.links) and ladder.links[0].qid == ex["item"] and len(ladder.candidates) > 1
        return "linked" if linked else "not linked"
    if stage == "detect":
        return _detect(engine, ex)
    if stage == "render":
        return _render(engine, ex)
    if stage == "select":
        return _select(engine, ex)
    if stage == "guard":
        return _guard(engine, ex)
    raise AssertionError(f"no runner for stage {stage!r}")


def expected(ex: Mapping[str, Any]) -> Any:
    if ex["stage"] == "detect" and "masked" in ex:
        return (ex["expect"], ex["masked"])
    if ex["stage"] == "guard":
        return sorted(ex["expect"])
    return ex["expect"]


@pytest.fixture(scope="module")
def seed_engine(seed_store: Path):
    from engine import Engine

    return Engine.from_config(store=str(seed_store))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "example"), _cases(), ids=lambda v: v if isinstance(v, str) else str(v.get("span", "")))
def test_given_a_rule_example_then_it_holds_on_the_seed_and_the_rule_is_what_decides(seed_engine, name: str, example) -> None:
    stage = RULES[name].stage
    base = seed_engine.knowledge
    try:
        seed_engine.knowledge = Knowledge(tuple(dict.fromkeys(base.packs + (RULES[name].pack,))), base.disabled)
        if example.get("others_off"):
            seed_engine.knowledge = seed_engine.knowledge.with_rules_off(list(example["others_off"]))
        got = outcome(seed_engine, stage, example, name)
        assert got == expected(example), f"{name}: {example}: got {got!r}"
        if fires(stage, example):
            seed_engine.knowledge = seed_engine.knowledge.with_rules_off([name])
            assert outcome(seed_engine, stage, example, name, on=False) != got, f"{name}: {example}: the same with the rule off"
    finally:
        seed_engine.knowledge = base
