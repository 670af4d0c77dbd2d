"""k-anonymity against a hand-made graph whose anonymity sets are known exactly.

Five persons (Q900100–Q900104):

=========  ===============  ===========  ==========
person     occupation       birthplace   born
=========  ===============  ===========  ==========
Ada Berg   geologist        Oslo         1980
Bo Dahl    geologist        Oslo         1985
Cy Ek      chemist          Stockholm    1982
Di Fors    geologist        Stockholm    1950
Ed Gran    chemist          Oslo         1981
=========  ===============  ===========  ==========

geologist ⊂ earth scientist ⊂ scientist ⊃ chemist; Oslo in Norway, Stockholm in Sweden,
both cities (city ⊂ human settlement).
"""

from __future__ import annotations

from tests.factories import discloser_of

import pyoxigraph as ox
import pytest

from kg.store import KGStore
from engine.config import EngineConfig, PrivacySettings
from engine.engine import Engine
from engine.privacy.anonymity import anonymity_set
from engine.privacy.background import Background
from engine.privacy.disclosure import Constraint, SpanView, cue_props
from engine.types import EntityType, IdentifierType, Mention

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
DATE = "http://www.w3.org/2001/XMLSchema#dateTime"

CLASSES = {"Q900001": "scientist", "Q900002": "earth scientist", "Q900003": "geologist", "Q900004": "chemist",
           "Q900010": "Norway", "Q900011": "Oslo", "Q900012": "city", "Q900013": "Sweden", "Q900014": "Stockholm",
           "Q900015": "human settlement"}
EDGES = [("Q900002", "P279", "Q900001"), ("Q900003", "P279", "Q900002"), ("Q900004", "P279", "Q900001"),
         ("Q900011", "P31", "Q900012"), ("Q900014", "P31", "Q900012"), ("Q900012", "P279", "Q900015"),
         ("Q900011", "P17", "Q900010"), ("Q900014", "P17", "Q900013"),
         ("Q900015", "P279", "Q486972")]  # … ⊂ human settlement, a place
PERSONS = [("Q900100", "Ada Berg", "Q900003", "Q900011", 1980), ("Q900101", "Bo Dahl", "Q900003", "Q900011", 1985),
           ("Q900102", "Cy Ek", "Q900004", "Q900014", 1982), ("Q900103", "Di Fors", "Q900003", "Q900014", 1950),
           ("Q900104", "Ed Gran", "Q900004", "Q900011", 1981)]


def _nt() -> str:
    lines = [f'<{WD}{q}> <{LABEL}> "{label}"@en .' for q, label in CLASSES.items()]
    lines += [f"<{WD}{s}> <{WDT}{p}> <{WD}{o}> ." for s, p, o in EDGES]
    for q, name, occupation, place, year in PERSONS:
        lines += [f"<{WD}{q}> <{WDT}P31> <{WD}Q5> .", f'<{WD}{q}> <{LABEL}> "{name}"@en .',
                  f"<{WD}{q}> <{WDT}P106> <{WD}{occupation}> .", f"<{WD}{q}> <{WDT}P19> <{WD}{place}> .",
                  f'<{WD}{q}> <{WDT}P569> "{year}-07-18T00:00:00Z"^^<{DATE}> .']
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def tiny_kg() -> KGStore:
    kg = KGStore.in_memory()
    kg.raw.load(_nt().encode("utf-8"), format=ox.RdfFormat.N_TRIPLES)
    kg.load_overlay()
    return kg


@pytest.fixture(scope="module")
def background(tiny_kg: KGStore) -> Background:
    return Background.build(tiny_kg)


@pytest.fixture(scope="module")
def engine(tiny_kg: KGStore) -> Engine:
    return Engine.from_store(tiny_kg, EngineConfig(model="none"))


def _members(bg: Background, props: tuple[str, ...], anchor: str) -> set[str]:
    return {bg.persons[i] for i in bg.matching(props, (anchor,))}


def _c(props: tuple[str, ...], anchor: str) -> Constraint:
    return Constraint(props, (anchor,), 0, 1, "DEM", "rung", "test")


def test_given_tiny_graph_then_background_resolves_classes_containers_and_dates(background: Background) -> None:
    assert background.stats.persons == 5
    assert _members(background, ("P106",), "Q900003") == {"Q900100", "Q900101", "Q900103"}
    assert _members(background, ("P106",), "Q900002") == {"Q900100", "Q900101", "Q900103"}  # at or below earth scientist
    assert len(_members(background, ("P106",), "Q900001")) == 5
    assert _members(background, ("P19",), "Q900010") == {"Q900100", "Q900101", "Q900104"}  # born in Norway
    assert len(_members(background, ("P19",), "Q900012")) == 5  # born in a city
    assert _members(background, ("P569",), "decade:1980") == {"Q900100", "Q900101", "Q900102", "Q900104"}
    assert _members(background, ("P569",), "century:20") == {"Q900100", "Q900101", "Q900102", "Q900103", "Q900104"}
    assert background.named("ada berg") == ("Q900100",)
    assert not background.covered("P166") and background.covered("P569")


def test_given_saved_index_then_load_gives_the_same_sets(background: Background, tmp_path) -> None:
    path = tmp_path / "privacy-index.bin"
    background.save(path, "stamp")
    again = Background.load(path, "stamp")
    assert again.persons == background.persons
    assert set(again.bitmaps) == set(background.bitmaps)
    assert all(again.bitmaps[k] == background.bitmaps[k] for k in background.bitmaps)
    with pytest.raises(ValueError):
        Background.load(path, "another build")


def test_given_constraints_then_anonymity_set_is_their_intersection(background: Background) -> None:
    result = anonymity_set(background, [_c(("P106",), "Q900002"), _c(("P19",), "Q900010")])
    assert result.k == 2  # Ada Berg and Bo Dahl
    assert anonymity_set(background, [_c(("P106",), "Q900002"), _c(("P19",), "Q900010"), _c(("P569",), "decade:1980")]).k == 2
    assert anonymity_set(background, [_c(("P106",), "Q900003"), _c(("P569",), "century:20"), _c(("P19",), "Q900013")]).k == 1
    assert anonymity_set(background, []).k == 5
    uncounted = anonymity_set(background, [_c(("P166",), "Q900001")])  # no award in the store: listed, not applied
    assert uncounted.k == 5 and len(uncounted.uncounted) == 1


def test_given_no_mask_constraint_matching_nobody_then_it_is_not_counted(background: Background) -> None:
    nobody = Constraint(("P106",), ("Q900010",), 0, 1, "DEM", "(kept)", "test")  # nobody's occupation is Norway
    assert anonymity_set(background, [nobody]).k == 0  # a masked span: k = 0
    soft = anonymity_set(background, [Constraint(("P106",), ("Q900010",), 0, 1, "DEM", "(kept)", "test", soft=True)])
    assert soft.k == 5 and len(soft.uncounted) == 1  # a NO_MASK span: listed, not applied
    geologist = Constraint(("P106",), ("Q900003",), 0, 1, "DEM", "(kept)", "test", soft=True)
    assert anonymity_set(background, [geologist]).k == 3  # soft constraints that match someone still count


@pytest.mark.parametrize("text,span,kind,expected", [
    ("She was born in Oslo.", "Oslo", EntityType.LOC, ("P19",)),
    ("She was born in Oslo in 1980.", "1980", EntityType.DATETIME, ("P569",)),
    ("Ada Berg (1885–1962) was a geologist.", "1885", EntityType.DATETIME, ("P569",)),
    ("Ada Berg (1885–1962) was a geologist.", "1962", EntityType.DATETIME, ("P570",)),
    ("She was born in Bergen and died in Oslo.", "Oslo", EntityType.LOC, ("P20",)),
    ("She studied at the University of Oslo.", "University of Oslo", EntityType.ORG, ("P69",)),
    ("In 1995 she moved.", "1995", EntityType.DATETIME, ()),
    ("She died in Oslo and was buried in Bergen.", "Bergen", EntityType.LOC, ("P119",)),
    ("He is interred at Laurel Hill Cemetery.", "Laurel Hill Cemetery", EntityType.LOC, ("P119",)),
])
def test_given_cue_then_span_speaks_about_that_property(text: str, span: str, kind: EntityType, expected: tuple[str, ...]) -> None:
    start = text.index(span)
    assert cue_props(text, start, start + len(span), kind) == expected


def test_given_a_burial_cue_then_the_span_is_listed_not_counted(background) -> None:
    """The background holds no burial places: a cemetery a rung names narrows nothing."""
    text = "He is interred at Laurel Hill Cemetery."
    start = text.index("Laurel")
    props = cue_props(text, start, len(text) - 1, EntityType.LOC)
    burial = Constraint(props, ("Q900001",), start, len(text) - 1, "LOC", "cemetery", "test", of_class=True)
    result = anonymity_set(background, [burial])
    assert result.uncounted == (burial,) and result.k == len(background.everyone)
    assert burial.describe().startswith("burial place at or below")


def test_given_no_cue_then_graph_span_constrains_any_fact() -> None:
    text = "She is a geologist."
    props = cue_props(text, 9, 18, EntityType.DEM)
    assert "P106" in props and "P27" in props and "P569" not in props


def test_given_rungs_then_disclosure_carries_anchor_and_provenance(engine: Engine) -> None:
    discloser = discloser_of(engine)
    view = SpanView(21, 25, EntityType.DATETIME, "1980", ("P569",))
    (c,) = discloser.constraints(view, "date in the 1980s")
    assert c.anchors == ("decade:1980",) and c.props == ("P569",) and (c.start, c.end, c.rung) == (21, 25, "date in the 1980s")
    assert discloser.constraints(view, "***") == ()
    assert discloser.constraints(view, "DATE") == ()
    ladder = engine.candidates("geologist", "DEM")
    earth = ladder.candidates[0]
    assert earth.label == "earth scientist"
    dem = SpanView(0, 9, EntityType.DEM, "geologist", ("P106",), "Q900003")
    assert discloser.constraints(dem, earth.label, earth)[0].anchors == ("Q900002",)
    assert discloser.constraints(dem, "geologist", kept=True)[0].anchors == ("Q900003",)


TEXT = "Ada Berg was born in Oslo in 1980. She is a geologist."
MENTIONS = [Mention(0, 8, EntityType.PERSON, IdentifierType.DIRECT), Mention(21, 25, EntityType.LOC),
            Mention(29, 33, EntityType.DATETIME), Mention(44, 53, EntityType.DEM)]


def test_given_k_0_then_k_is_measured_without_climbing(engine: Engine) -> None:
    result = engine.sanitize(TEXT, MENTIONS, k=0)
    # born in a city ∧ born in the early 1980s (1980–1983) ∧ at or below earth scientist: Ada Berg
    # (Bo Dahl, born 1985, is of the 1980s but not of their early part)
    assert result.privacy.k_before == result.privacy.k_after == 1
    assert result.privacy.climbs == ()
    assert result.text == "PERSON 1 was born in a city in the early 1980s. She is an earth scientist."


def test_given_default_config_then_guard_runs_for_k_10_and_privacy_k_0_turns_it_off(engine: Engine, tiny_kg: KGStore) -> None:
    assert engine.config.privacy.k == 10
    assert engine.sanitize(TEXT, MENTIONS).privacy.target_k == 10
    off = Engine.from_store(tiny_kg, EngineConfig(model="none", privacy=PrivacySettings(k=0)))
    assert off.sanitize(TEXT, MENTIONS).privacy is None


def test_given_k_above_the_set_then_guard_climbs_the_span_that_grows_it_most(engine: Engine) -> None:
    result = engine.sanitize(TEXT, MENTIONS, k=3)
    report = result.privacy
    # climbing "earth scientist" → "scientist" gives 3; the date → the 1980s 2; the city → *** 1
    assert report.k_before == 1 and report.k_after == 3 and report.reached
    (climb,) = report.climbs
    assert (climb.from_rung, climb.to_rung, climb.k_before, climb.k_after) == ("earth scientist", "scientist", 1, 3)
    assert "a scientist" in result.text
    assert report.subject_in_store and report.subject_in_set
    assert result.replacements[3].note.startswith("privacy guard")


def test_given_unreachable_k_then_climbs_until_nothing_is_disclosed_and_reports_it(engine: Engine) -> None:
    result = engine.sanitize(TEXT, MENTIONS, k=6)
    assert result.privacy.k_after == 5 and not result.privacy.reached  # only five persons in the store
    assert result.privacy.constraints == ()
    assert [r.rung for r in result.replacements][1:] == ["***", "DATE", "***"]  # "DATE" discloses nothing


def test_given_config_privacy_k_then_it_is_read_and_checked(tmp_path) -> None:
    from engine.errors import ConfigError

    cfg = tmp_path / "t.toml"
    cfg.write_text("[taxogen.privacy]\nk = 7\n")
    assert EngineConfig.load(cfg, env={}).privacy.k == 7
    assert EngineConfig.load(None, env={"TAXOGEN_PRIVACY_K": "4"}).privacy.k == 4
    cfg.write_text("[taxogen.privacy]\nk = -1\n")
    with pytest.raises(ConfigError):
        EngineConfig.load(cfg, env={})
    cfg.write_text("[taxogen.privacy]\nkk = 1\n")
    with pytest.raises(ConfigError):
        EngineConfig.load(cfg, env={})


def test_given_http_field_k_then_result_carries_the_privacy_report(engine: Engine) -> None:
    pytest.importorskip("fastapi", reason="needs the [server] extra")
    from fastapi.testclient import TestClient

    from engine.api import create_app

    client = TestClient(create_app(engine))
    body = {"text": TEXT, "mentions": [
        {"start": m.start, "end": m.end, "entity_type": m.entity_type.value, "identifier_type": m.identifier_type.value}
        for m in MENTIONS]}
    out = client.post("/sanitize", json={**body, "k": 3}).json()
    assert out["privacy"]["k_before"] == 1 and out["privacy"]["k_after"] == 3
    assert out["privacy"]["climbs"][0]["to_rung"] == "scientist"
    assert client.post("/sanitize", json=body).json()["privacy"]["target_k"] == 10  # the default, privacy.k
    assert client.post("/sanitize", json={**body, "k": -1}).status_code == 422
    assert client.post("/sanitize", json={**body, "selection": "annotators"}).status_code == 200
    bad = client.post("/sanitize", json={**body, "selection": "mask"})
    assert bad.status_code == 422 and "selection must be" in bad.text


def test_given_cli_k_then_sanitized_lines_carry_k_and_bad_data_exits_1(tmp_path, monkeypatch) -> None:
    import json

    from typer.testing import CliRunner

    from engine.cli import app
    from kg.build import build_from_triples

    store = tmp_path / "store"
    build_from_triples(_nt().splitlines(keepends=True), store, source="test", progress=False)
    cfg = tmp_path / "t.toml"
    cfg.write_text('[taxogen]\nmodel = "none"\n')
    doc = tmp_path / "doc.jsonl"
    doc.write_text(json.dumps({"id": "d", "text": TEXT, "mentions": [
        {"start": m.start, "end": m.end, "entity_type": m.entity_type.value, "identifier_type": m.identifier_type.value}
        for m in MENTIONS]}) + "\n")
    out = tmp_path / "out.jsonl"
    monkeypatch.setenv("TAXOGEN_CACHE_DIR", str(tmp_path / "cache"))
    runner = CliRunner()
    res = runner.invoke(app, ["sanitize", str(doc), "--out", str(out), "--store", str(store), "--config", str(cfg), "--k", "3", "--no-progress"])
    assert res.exit_code == 0, res.output
    privacy = json.loads(out.read_text())["privacy"]
    assert (privacy["k_before"], privacy["k_after"], len(privacy["climbs"])) == (1, 3, 1)
    assert (store / "index" / "derived" / "privacy").is_file()  # built with the store, only read by the run
    assert not (tmp_path / "cache" / "privacy").exists()  # nothing built into the cache
    res = runner.invoke(app, ["evaluate", "privacy", "--data", str(tmp_path / "missing.json"), "--store", str(store)])
    assert res.exit_code == 1 and "no such file" in res.output
    res = runner.invoke(app, ["sanitize", str(doc), "--out", str(out), "--store", str(store), "--config", str(cfg), "--k", "0",
                              "--selection", "annotators", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "privacy" not in json.loads(out.read_text())  # --k 0: no guard
    res = runner.invoke(app, ["sanitize", str(doc), "--out", str(out), "--store", str(store), "--config", str(cfg), "--selection", "mask"])
    assert res.exit_code == 1 and "privacy.selection must be 'meaning' or 'annotators'" in res.output


def test_given_a_climb_later_climbs_made_unnecessary_then_the_guard_comes_back_down() -> None:
    from types import SimpleNamespace

    from pyroaring import FrozenBitMap

    from engine.privacy.guard import PrivacyGuard, _Option, _Slot

    guard = PrivacyGuard.__new__(PrivacyGuard)
    guard.background = SimpleNamespace(everyone=FrozenBitMap(range(10)))
    sets = {(0, 0): range(5), (0, 1): range(8), (1, 0): range(3), (1, 1): range(10)}
    guard._members = lambda p, views, slot, pos=None: FrozenBitMap(sets[(slot.key, pos)])
    options = [_Option("city in Norway", None), _Option("city", None), _Option("***", None)]
    slots = [_Slot(k, [k], IdentifierType.QUASI, list(options), pos=1) for k in (0, 1)]
    members = [FrozenBitMap(sets[(0, 1)]), FrozenBitMap(sets[(1, 1)])]
    doc = SimpleNamespace(mentions=[Mention(0, 4, EntityType.LOC), Mention(10, 14, EntityType.LOC)])
    descents = guard._descend(doc, [], slots, members, target=4)
    # slot 0 back to its first rung keeps 5 ≥ 4 persons; slot 1 back too would leave 3
    assert [(d.start, d.from_rung, d.to_rung, d.k_before, d.k_after) for d in descents] == [(0, "city", "city in Norway", 8, 5)]
    assert (slots[0].pos, slots[1].pos) == (0, 1)


def test_given_a_class_no_fact_of_the_store_reaches_then_it_is_uncounted_but_an_item_empties_the_set(background: Background) -> None:
    from engine.privacy.anonymity import constraint_members

    # nobody's occupation is at or below "human settlement": the store says nothing about such relations
    as_class = Constraint(("P106",), ("Q900015",), 0, 1, "DEM", "human settlement", "class via P31", of_class=True)
    as_item = Constraint(("P106",), ("Q900015",), 0, 1, "DEM", "(kept)", "kept span, linked item")
    assert constraint_members(background, as_class) is None
    assert len(constraint_members(background, as_item)) == 0
    result = anonymity_set(background, [as_class, _c(("P106",), "Q900003")])
    assert result.k == 3 and result.uncounted == (as_class,)


def test_given_a_demonym_shown_as_nationality_then_it_discloses_nothing(engine: Engine) -> None:
    from engine.types import Candidate

    discloser = discloser_of(engine)
    dem = SpanView(0, 9, EntityType.DEM, "Norwegian", ("P27", "P172"), "Q900010")
    nationality = Candidate("nationality", "P31", qid="Q231002", path="demonym", rule="nationality", link_qid="Q900010")
    assert discloser.constraints(dem, "nationality", nationality) == ()  # that the person has one, not which
    assert discloser.constraints(dem, "Norwegian", kept=True)[0].anchors == ("Q900010",)
