"""Packs of words and patterns, and registered rules (engine.knowledge)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import EngineConfig
from engine.errors import UnknownComponentError
from engine.knowledge import Knowledge, KnowledgeError, current, pattern, rule, table, words


def _pack(root: Path, name: str, files: dict[str, str], requires: str = "[]") -> None:
    d = root / name
    (d / "examples").mkdir(parents=True)
    (d / "pack.yaml").write_text(f"purpose: the {name} pack\nrequires: {requires}\n", encoding="utf-8")
    for fname, text in files.items():
        (d / fname).write_text(text, encoding="utf-8")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    _pack(tmp_path, "core", {"grammar.yaml": "preps:\n  words: [of, on, no, yes, off]\n"
                             "year:\n  pattern: '\\b(?:{=grammar.preps}) (\\d{4})\\b'\n  flags: [IGNORECASE]\n"
                             "stops:\n  include: [grammar.preps]\n  words: [by]\n"
                             "numbers:\n  table: {one: 1, two: 2}\n"})
    _pack(tmp_path, "sport", {"grammar.yaml": "preps:\n  words: [against]\n", "teams.yaml": "verbs:\n  words: [played for]\n"
                              "cue:\n  pattern: '{=teams.verbs} (\\w+)'\n"}, requires="[core]")
    return tmp_path


def test_given_yaml_words_like_on_and_no_then_they_stay_words(root: Path) -> None:
    k = Knowledge(["core"], root=root)
    assert k.word_list("grammar.preps") == ("of", "on", "no", "yes", "off")


def test_given_two_packs_then_words_unite_in_pack_order_and_includes_follow(root: Path) -> None:
    k = Knowledge(["sport"], root=root)  # requires core: core comes first
    assert k.packs == ("core", "sport")
    assert k.word_list("grammar.preps") == ("of", "on", "no", "yes", "off", "against")
    assert k.words("grammar.stops") == {"of", "on", "no", "yes", "off", "against", "by"}


def test_given_a_reference_then_the_pattern_inserts_the_words_escaped_in_order(root: Path) -> None:
    k = Knowledge(["core"], root=root)
    assert k.pattern("grammar.year").search("Born ON 1932").group(1) == "1932"
    assert k.pattern_text("grammar.year") == r"\b(?:(?:of|on|no|yes|off)) (\d{4})\b"
    assert k.table("grammar.numbers") == {"one": 1, "two": 2}


def test_given_a_pack_switched_off_then_its_entries_read_empty(root: Path) -> None:
    k = Knowledge(["core"], root=root)
    assert k.words("teams.verbs") == frozenset()
    assert k.pattern("teams.cue").search("played for Ajax") is None
    on = Knowledge(["core", "sport"], root=root)
    assert on.pattern("teams.cue").search("he played for Ajax").group(1) == "Ajax"


def test_given_unknown_names_then_one_line_errors(root: Path) -> None:
    with pytest.raises(KnowledgeError, match="unknown pack 'legal'"):
        Knowledge(["legal"], root=root)
    with pytest.raises(KnowledgeError, match="no pack defines 'grammar.nope'"):
        Knowledge(["core"], root=root).words("grammar.nope")
    with pytest.raises(KnowledgeError, match="is a words entry"):
        Knowledge(["core"], root=root).table("grammar.preps")


def test_given_a_malformed_entry_then_the_file_and_entry_are_named(tmp_path: Path) -> None:
    _pack(tmp_path, "core", {"bad.yaml": "thing:\n  words: [a, b]\n  pattern: x\n"})
    with pytest.raises(KnowledgeError, match=r"bad.yaml: entry 'bad.thing' needs exactly one of"):
        Knowledge(["core"], root=tmp_path)


def test_given_views_then_they_follow_the_active_knowledge(root: Path) -> None:
    preps, year, numbers = words("grammar.preps"), pattern("grammar.year"), table("grammar.numbers")
    with Knowledge(["core"], root=root).active():
        assert "against" not in preps and "of" in preps and len(numbers) == 2
        assert year.search("of 1999") is not None
        with Knowledge(["sport"], root=root).active():
            assert "against" in preps and (preps | {"x"}) >= {"against", "x"}
        assert "against" not in preps
    assert current() is Knowledge.default()


_calls: list[str] = []


@rule("test-knowledge-demo-rule", stage="verify", purpose="a rule for this test only", off="off value")
def _demo(x: str) -> str:
    _calls.append(x)
    return "fired"


def test_given_a_rule_switched_off_then_it_returns_its_off_value_without_running() -> None:
    assert _demo("a") == "fired"
    with Knowledge().with_rules_off(["test-knowledge-demo-rule"]).active():
        assert _demo("b") == "off value"
    assert _calls == ["a"]
    assert _demo.rule.stage == "verify"


def test_given_a_config_then_packs_and_disabled_rules_are_checked(tmp_path: Path) -> None:
    cfg = tmp_path / "taxogen.toml"
    cfg.write_text('[taxogen]\npacks = ["core"]\n[taxogen.rules]\ndisable = ["non-subsective-modifier"]\n', encoding="utf-8")
    k = EngineConfig.load(cfg, env={}).knowledge()
    assert k.packs == ("core",) and not k.enabled("non-subsective-modifier")
    with pytest.raises(UnknownComponentError, match="unknown rule 'no-such-rule'"):
        EngineConfig.load(None, env={"TAXOGEN_DISABLE_RULES": "no-such-rule"}).knowledge()


def test_given_the_shipped_packs_then_every_entry_loads_and_every_pattern_compiles() -> None:
    k = Knowledge(["core", "biography", "sport", "legal"])
    for e in k.entries():
        assert e.purpose, f"{e.pack}/{e.name} says not what it is for"
        if e.kind == "pattern":
            k.pattern(e.name)
        elif e.kind == "words":
            assert k.word_list(e.name), e.name


def test_given_a_pattern_of_alternatives_referred_to_then_it_stays_one_group(tmp_path: Path) -> None:
    _pack(tmp_path, "core", {"p.yaml": "alt:\n  pattern: '(?:a)|b'\nuse:\n  pattern: 'x{=p.alt}y'\n"})
    k = Knowledge(["core"], root=tmp_path)
    assert k.pattern_text("p.use") == "x(?:(?:a)|b)y"
    assert k.pattern("p.use").fullmatch("xby") and not k.pattern("p.use").search("b")
