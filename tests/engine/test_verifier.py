"""The verifier (engine.generate.verifier): its model saved and loaded, the verify stage dropping
the rungs below the operating point (never ``***``), and the operating point set from the
config, the command line and HTTP reaching the stage."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from engine.doc import Doc, DocMention, SanitizeOptions
from engine.errors import ConfigError, InputError, VerifierError
from engine.generate.stages import VerifyStage
from engine.generate.verifier import META_FILE, Calibration, Verifier, check_min_truth, keep, shipped_verifier_dir
from engine.generate.verify_features import FEATURE_GROUPS, RULE_VERDICTS
from engine.types import MASK, Candidate, EntityType, Ladder, Span


def _ladder(labels: list[str], etype: EntityType = EntityType.LOC) -> Ladder:
    cands = [Candidate(label, source="P31", level=i, qid=f"Q{i}") for i, label in enumerate(labels, start=1)]
    cands.append(Candidate(MASK, source="mask", level=len(labels) + 1))
    return Ladder(Span("Oslo", etype, context="She moved to Oslo."), tuple(cands))


@pytest.fixture(scope="module")
def small_model() -> Verifier:
    import lightgbm as lgb

    rng = np.random.default_rng(3)
    X = rng.random((300, 2))
    y = (X[:, 0] + 0.2 * rng.random(300) > 0.5).astype(int)
    booster = lgb.train({"objective": "binary", "verbosity": -1, "num_threads": 1, "min_data_in_leaf": 5}, lgb.Dataset(X, y), 20)
    return Verifier(booster, ["depth", "level"], ("provenance",), ("former-class",), Calibration((0.0, 0.5, 1.0), (0.0, 0.4, 1.0)),
                    0.55, {"objective": "binary"}, {"operating_point": {"target_false_shown": 0.05}})


def test_given_a_trained_verifier_then_save_load_round_trip_gives_the_same_probabilities(small_model, tmp_path) -> None:
    small_model.save(tmp_path)
    loaded = Verifier.load(tmp_path)
    rows = [{"depth": 0.1, "level": 0.9}, {"depth": 0.8, "level": 0.2}, {"level": 0.5}]
    assert np.allclose(loaded.probabilities(rows), small_model.probabilities(rows))
    assert (loaded.features, loaded.groups, loaded.rules, loaded.min_truth) == (["depth", "level"], ("provenance",), ("former-class",), 0.55)
    assert loaded.calibration == small_model.calibration
    meta = json.loads((tmp_path / META_FILE).read_text())
    assert meta["operating_point"] == {"target_false_shown": 0.05, "min_truth": 0.55}


def test_given_a_model_of_other_versions_then_load_warns(small_model, tmp_path) -> None:
    small_model.save(tmp_path)
    meta = json.loads((tmp_path / META_FILE).read_text())
    meta["versions"]["taxogen"] = "0.0.1"
    (tmp_path / META_FILE).write_text(json.dumps(meta))
    with pytest.warns(UserWarning, match="other versions"):
        Verifier.load(tmp_path)


@pytest.mark.parametrize("change", ["missing model", "unknown rule", "unknown group", "bad calibration", "other schema"])
def test_given_a_broken_model_then_verifier_error(small_model, tmp_path, change: str) -> None:
    small_model.save(tmp_path)
    meta = json.loads((tmp_path / META_FILE).read_text())
    if change == "missing model":
        (tmp_path / "model.txt").unlink()
    elif change == "unknown rule":
        meta["rules"] = ["no-such-rule"]
    elif change == "unknown group":
        meta["groups"] = ["tea-leaves"]
    elif change == "bad calibration":
        meta["calibration"] = {"x": [0.1], "y": []}
    else:
        meta["schema_version"] = 99
    (tmp_path / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(VerifierError), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Verifier.load(tmp_path)


def test_given_the_shipped_verifier_then_it_loads_and_reads_only_features_this_code_computes() -> None:
    model = Verifier.load(shipped_verifier_dir())
    assert set(model.groups) <= set(FEATURE_GROUPS) and set(model.rules) <= set(RULE_VERDICTS)
    assert 0.0 < model.min_truth < 1.0
    assert model.info["operating_point"]["target_false_shown"] == 0.05


def test_given_probabilities_then_keep_drops_the_rungs_below_and_never_the_mask() -> None:
    ladder = _ladder(["city in Norway", "city", "big city"])
    kept, verdicts = keep(ladder, [0.9, 0.2, 0.7, 0.0], 0.5)
    assert kept.labels == ["city in Norway", "big city", MASK]
    assert [c.level for c in kept.candidates] == [1, 2, 3]
    assert verdicts == (0.9, 0.7, 0.0)
    assert keep(ladder, [0.1, 0.1, 0.1, 0.1], 1.0)[0].labels == [MASK]
    assert keep(ladder, None, 0.5) == (ladder, None)


class _FixedVerifier:
    """A verifier that gives every rung of a ladder the probabilities it was told."""

    min_truth = 0.6

    def min_truth_for(self, kind: str) -> float:
        return 0.3 if kind == "court" else self.min_truth

    def __init__(self, probs: dict[str, float]) -> None:
        self.probs = probs

    def probabilities(self, ladders):
        return [None if not ladder.span.entity_type.is_graph else [1.0 if c.label == MASK else self.probs[c.label] for c in ladder.candidates]
                for ladder, _ in ladders]


def _doc_with(ladder: Ladder) -> Doc:
    doc = Doc("She moved to Oslo.")
    m = DocMention(13, 17, ladder.span.entity_type, entity=0, sentence=(0, 18))
    m.ladder = ladder
    doc.mentions = [m]
    doc.first = {0: 0}
    return doc


@pytest.mark.parametrize(("min_truth", "left"), [(None, ["city in Norway", MASK]), (0.3, ["city in Norway", "big city", MASK]),
                                                 (1.0, [MASK]), (0.0, ["city in Norway", "city", "big city", MASK])])
def test_given_the_verify_stage_then_it_drops_the_rungs_below_the_operating_point_and_never_the_mask(min_truth, left) -> None:
    doc = _doc_with(_ladder(["city in Norway", "city", "big city"]))
    VerifyStage(_FixedVerifier({"city in Norway": 0.95, "city": 0.2, "big city": 0.4}))([doc], SanitizeOptions(min_truth=min_truth))
    m = doc.mentions[0]
    assert m.ladder.labels == left
    assert len(m.verdicts) == len(left) and m.verdicts[-1] == 1.0


JUDGMENT = ("PROCEDURE\n\nThe case originated in an application lodged by the applicant. The applicant was represented by "
            "a lawyer. The applicant alleged a breach of Article 6. She moved to Oslo.")


@pytest.mark.shipped_operating_point
def test_given_a_court_judgment_then_the_verify_stage_keeps_rungs_from_its_kind_s_point() -> None:
    ladder = _ladder(["city in Norway", "city", "big city"])
    doc = Doc(JUDGMENT)
    at = JUDGMENT.index("Oslo")
    m = DocMention(at, at + 4, EntityType.LOC, entity=0, sentence=(at - 13, at + 5))
    m.ladder = ladder
    doc.mentions, doc.first = [m], {0: 0}
    VerifyStage(_FixedVerifier({"city in Norway": 0.95, "city": 0.2, "big city": 0.4}))([doc], SanitizeOptions())
    assert doc.mentions[0].ladder.labels == ["city in Norway", "big city", MASK]  # the court point, 0.3
    doc = _doc_with(_ladder(["city in Norway", "city", "big city"]))  # no judgment: the default point, 0.6
    VerifyStage(_FixedVerifier({"city in Norway": 0.95, "city": 0.2, "big city": 0.4}))([doc], SanitizeOptions())
    assert doc.mentions[0].ladder.labels == ["city in Norway", MASK]


@pytest.mark.shipped_operating_point
def test_given_the_shipped_verifier_then_court_judgments_have_their_own_operating_point() -> None:
    from engine.generate.verifier import LadderVerifier

    model = Verifier.load(shipped_verifier_dir())
    by_kind = model.info["operating_point"]["by_kind"]
    point = LadderVerifier.min_truth_for(type("V", (), {"model": model})(), "court")
    assert point == by_kind["court"]["min_truth"] and by_kind["court"]["measured"]
    assert LadderVerifier.min_truth_for(type("V", (), {"model": model})(), "") == model.min_truth


def test_given_no_verifier_or_a_rule_type_then_the_ladder_stands() -> None:
    ladder = _ladder(["city"])
    doc = _doc_with(ladder)
    VerifyStage(None)([doc], SanitizeOptions(min_truth=0.99))
    assert doc.mentions[0].ladder is ladder and doc.mentions[0].verdicts is None
    dated = _ladder(["the 1980s"], EntityType.DATETIME)
    doc = _doc_with(dated)
    doc.mentions[0].entity_type = EntityType.DATETIME
    VerifyStage(_FixedVerifier({}))([doc], SanitizeOptions(min_truth=0.99))
    assert doc.mentions[0].ladder is dated and doc.mentions[0].verdicts is None


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), True, "0.5"])
def test_given_a_min_truth_that_is_no_probability_then_input_error(bad) -> None:
    with pytest.raises(InputError):
        check_min_truth(bad)


def test_given_min_truth_in_the_config_then_it_is_read_checked_and_in_force(tmp_path) -> None:
    from engine.config import EngineConfig

    cfg = tmp_path / "c.toml"
    cfg.write_text("[taxogen]\nmin_truth = 0.8\n")
    assert EngineConfig.load(cfg, env={}).min_truth == 0.8
    assert EngineConfig.load(None, env={"TAXOGEN_MIN_TRUTH": "0.3"}).min_truth == 0.3
    assert EngineConfig.load(None, env={}).min_truth is None
    cfg.write_text("[taxogen]\nmin_truth = 2\n")
    with pytest.raises(ConfigError):
        EngineConfig.load(cfg, env={})


class _Recorder:
    """Stands in for the verify stage's call: records the operating point each run receives."""

    seen: list = []

    def __call__(self, docs, options) -> None:
        _Recorder.seen.append(options.min_truth)


@pytest.fixture
def recorded(monkeypatch):
    _Recorder.seen = []
    monkeypatch.setattr(VerifyStage, "__call__", _Recorder.__call__)
    return _Recorder.seen


def test_given_min_truth_on_the_command_line_then_it_reaches_the_verify_stage(recorded, tmp_path) -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "text": "She moved to Oslo.", "mentions": [{"start": 13, "end": 17, "entity_type": "LOC"}]}) + "\n")
    res = CliRunner().invoke(app, ["sanitize", str(src), "--out", str(tmp_path / "out.jsonl"), "--min-truth", "0.83", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert recorded == [0.83]
    res = CliRunner().invoke(app, ["sanitize", str(src), "--out", str(tmp_path / "out.jsonl"), "--min-truth", "1.3"])
    assert res.exit_code == 1
    assert len(res.output.strip().splitlines()) == 1 and "--min-truth" in res.output


@pytest.mark.shipped_operating_point
def test_given_min_truth_over_http_then_it_reaches_the_verify_stage(recorded) -> None:
    from fastapi.testclient import TestClient

    from engine.api import create_app
    from engine.engine import Engine

    engine = Engine.from_config(None)
    client = TestClient(create_app(engine))
    body = {"text": "She moved to Oslo.", "mentions": [{"start": 13, "end": 17, "entity_type": "LOC"}]}
    assert client.post("/sanitize", json=body | {"min_truth": 0.4}).status_code == 200
    assert client.post("/sanitize", json=body).status_code == 200
    assert recorded == [0.4, None]  # none chosen: the stage takes the point of the document's kind
    assert client.post("/sanitize", json=body | {"min_truth": 7}).status_code == 422
    assert client.get("/health").json()["min_truth"] == engine.verifier.min_truth
    assert client.get("/health").json()["min_truth_court"] == engine.verifier.min_truth_for("court")


def test_given_out_of_fold_probabilities_then_the_offered_curve_is_monotone() -> None:
    from taxogen_tools.evaluation.verifier_curve import THRESHOLDS, offered

    rng = np.random.default_rng(5)
    y = (rng.random(400) > 0.1).astype(int)
    probs = np.clip(0.5 * y + 0.6 * rng.random(400), 0, 1)
    points = offered(THRESHOLDS, probs, y)
    judged = [p.offered_judged for p in points]
    false = [p.offered_false for p in points]
    kept = [p.offered_true_kept for p in points]
    assert judged == sorted(judged, reverse=True) and false == sorted(false, reverse=True) and kept == sorted(kept, reverse=True)
    assert points[0].offered_judged == 400 and points[0].offered_false == int((y == 0).sum())
    assert points[-1].offered_false_rate < points[0].offered_false_rate


def test_given_a_curve_then_the_default_is_the_largest_class_share_within_the_target_and_is_marked() -> None:
    from taxogen_tools.evaluation.verifier_curve import CurvePoint, format_curve, operating_point

    points = [CurvePoint(0.0, shown_judged=100, shown_false=9, shared_masked=50, shared_true_class=30),
              CurvePoint(0.5, shown_judged=90, shown_false=4, shared_masked=50, shared_true_class=25),
              CurvePoint(0.8, shown_judged=80, shown_false=2, shared_masked=50, shared_true_class=20)]
    assert operating_point(points, 0.05).min_truth == 0.5
    assert operating_point(points, 0.01) is None
    lines = format_curve(points, 0.5)
    assert len(lines) == 4 and lines[2].endswith("← default") and "← default" not in lines[1] + lines[3]
    assert "4.4%" in lines[2] and "50.0%" in lines[2]


def test_given_a_judged_batch_directory_then_its_class_rows_are_judgments_of_that_batch(tmp_path) -> None:
    from taxogen_tools.training.verifier_data import judged_batch

    d = tmp_path / "batch-x"
    d.mkdir()
    rows = [{"id": "r1", "doc_id": "d1", "entity_type": "LOC", "sentence": "She moved to Oslo.", "span": "Oslo", "replacement": "city", "rung": "city"},
            {"id": "r2", "doc_id": "d1", "entity_type": "ORG", "sentence": "He left the school.", "span": "school", "replacement": "PERSON 2",
             "rung": "educational institution"},
            {"id": "r3", "doc_id": "d2", "entity_type": "DEM", "sentence": "the peoples", "span": "peoples", "replacement": "ethnic groups",
             "rung": "ethnic group"}]
    (d / "classes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (d / "classes.judged.jsonl").write_text("".join(json.dumps({"id": i, "true": t, "reason": ""}) + "\n"
                                                    for i, t in (("r1", False), ("r2", False), ("r3", True))))
    got = judged_batch(d)
    assert [(j.doc_id, j.span, j.replacement, j.true, j.batch) for j in got] == [
        ("d1", "Oslo", "city", False, "batch-x"), ("d2", "peoples", "ethnic group", True, "batch-x")]
    assert got[0].context == "She moved to Oslo."


def test_given_a_span_in_a_long_sentence_then_the_embedding_window_cuts_at_spaces_around_it() -> None:
    from engine.generate.verify_features import WINDOW, _window

    context = "word " * 100 + "She moved to Oslo in May. " + "more " * 100
    text, start, end = _window(Span("Oslo", EntityType.LOC, context=context))
    assert text[start:end] == "Oslo" and len(text) <= 2 * WINDOW + 4
    assert not text.startswith(" ") and not text.endswith(" ")
    assert _window(Span("Oslo", EntityType.LOC, context="Nothing here.")) is None


@pytest.mark.slow
@pytest.mark.shipped_operating_point
def test_given_the_shipped_verifier_on_the_seed_then_a_rung_below_the_operating_point_is_dropped_and_min_truth_0_keeps_it(seed_store) -> None:
    from typer.testing import CliRunner

    from engine.cli import app
    from engine.generate.verifier import Verifier, shipped_verifier_dir

    args = ["generalize", "classical ballet", "--type", "MISC", "--context",
            "At the age of ten she began lessons in classical ballet at a school in the capital.", "--store", str(seed_store), "--json"]
    everything = json.loads(CliRunner().invoke(app, [*args, "--min-truth", "0"]).stdout)
    weighed = {c["label"]: c["truth"] for c in everything["candidates"] if "truth" in c and c["label"] != MASK}
    assert len(weighed) >= 2
    lowest = min(weighed, key=weighed.get)
    point = round(weighed[lowest] + 0.001, 4)
    above = json.loads(CliRunner().invoke(app, [*args, "--min-truth", str(point)]).stdout)
    labels = [c["label"] for c in above["candidates"]]
    assert lowest not in labels and labels[-1] == MASK
    assert labels[:-1] == [label for label in weighed if weighed[label] >= point]
    default = json.loads(CliRunner().invoke(app, args).stdout)
    floor = Verifier.load(shipped_verifier_dir()).min_truth
    assert [c["label"] for c in default["candidates"] if c["label"] != MASK] == [label for label in weighed if weighed[label] >= floor]


@pytest.mark.parametrize("text, context, expected", [
    ("AD", "He died in 93 AD in Rome.", {"span_initials": 1.0, "span_letters": 2, "prev_lower": 0.0, "next_lower": 1.0, "span_at_start": 0.0}),
    ("India", "India beat Australia in the final.", {"span_initials": 0.0, "span_tokens": 1, "span_at_start": 1.0, "next_lower": 1.0}),
    ("India", "He won the toss.India beat Australia.", {"span_at_start": 1.0, "span_chars": 5}),
    ("New South Wales", "She moved to New South Wales.", {"span_tokens": 3, "span_chars": 15, "prev_lower": 1.0, "next_lower": 0.0}),
])
def test_given_a_span_in_its_sentence_then_the_shape_group_reads_its_shape_and_place(text, context, expected) -> None:
    from engine.generate.verify_features import _shape

    got = _shape(Span(text, EntityType.LOC, context=context))
    assert {k: got[k] for k in expected} == expected


@pytest.fixture(scope="module")
def planet_or_element():
    """The verifier's features over a store where "Mercury" names a planet and a chemical element."""
    from engine.config import EngineConfig
    from engine.engine import Engine
    from engine.generate.verify_features import RungFeatures
    from tests.conftest import tiny_store

    kg = tiny_store(edges=[("Q1", "P31", "Q10"), ("Q2", "P31", "Q20"), ("Q10", "P279", "Q30"), ("Q20", "P279", "Q40")],
                    labels={"Q1": "Mercury", "Q2": "Mercury", "Q10": "planet", "Q20": "chemical element", "Q30": "astronomical body",
                            "Q40": "chemical substance"})
    engine = Engine.from_store(kg, EngineConfig(model="none"))
    return RungFeatures(engine.truth, engine.chains, embedder=lambda: engine.embedder)


@pytest.mark.parametrize("sentence, fitting", [
    ("Mercury is the planet closest to the Sun, orbiting it every 88 days.", "Q1"),
    ("Mercury is a heavy metal, a chemical element liquid at room temperature.", "Q2"),
])
def test_given_a_name_of_two_items_then_the_namesakes_and_context_groups_say_which_the_sentence_reads(planet_or_element, sentence, fitting) -> None:
    from engine.types import Link, LinkMethod

    span = Span("Mercury", EntityType.MISC, context=sentence)
    links = tuple(Link(q, "Mercury", LinkMethod.EXACT, "Mercury", 1.0) for q in ("Q1", "Q2"))
    margins = {}
    for item, label in (("Q1", "planet"), ("Q2", "chemical element")):
        ladder = Ladder(span, (Candidate(label, "P31", 1, "Q10" if item == "Q1" else "Q20", "P31", link_qid=item), Candidate(MASK, "mask", 2)),
                        links)
        (row,) = planet_or_element.rows(ladder, None, ["namesakes", "context"])
        assert row["namesakes"] == pytest.approx(np.log1p(1)) and row["namesake_kinds"] == 1
        margins[item] = row["fit_margin"]
    assert margins[fitting] > 0 > margins["Q1" if fitting == "Q2" else "Q2"]


def test_given_judged_documents_then_their_rows_get_the_documents_state_and_a_raw_text_has_its_mentions_detected(tmp_path) -> None:
    from engine.config import EngineConfig
    from engine.engine import Engine
    from engine.errors import InputError
    from engine.types import Mention
    from taxogen_tools.training.verifier_data import document_states
    from tests.conftest import tiny_store

    engine = Engine.from_store(tiny_store(edges=[("Q20", "P31", "Q6256")], labels={"Q20": "Norway", "Q6256": "country"}), EngineConfig(model="none"))
    text = "She was born in Norway and studied law."
    detected: list[str] = []

    def detect_mentions(t: str) -> list[Mention]:
        detected.append(t)
        return [Mention(t.index("Norway"), t.index("Norway") + len("Norway"), EntityType.LOC)]

    engine.detect_mentions = detect_mentions
    docs = tmp_path / "bios.jsonl"
    docs.write_text(json.dumps({"id": "d1", "text": text}) + "\n" + json.dumps({"id": "d2", "text": "Not judged."}) + "\n")
    states = document_states(engine, {"d1"}, [tmp_path / "absent.json"], [docs])
    assert list(states) == ["d1"] and detected == [text]
    assert states["d1"].text == text and states["d1"].countries == frozenset({"Q20"})
    assert document_states(engine, {"d1"}, [docs]) == {}  # a source without mentions is not detected
    with pytest.raises(InputError, match="no judged documents file"):
        document_states(engine, {"d1"}, [], [tmp_path / "absent.jsonl"])
