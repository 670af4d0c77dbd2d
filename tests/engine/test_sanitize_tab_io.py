"""taxogen sanitize with TAB's JSON: the annotator's mentions in, the masked ranges out in the
form TAB's evaluation reads (``{doc_id: [[start, end], …]}``), and ``--detect``."""

import json

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.io.docio import DocRecord, read_documents

TEXT = "The applicant, Ada Lovelace, was born in London in 1815. The Court noted it."
TAB_DOC = {"doc_id": "001-1", "text": TEXT, "annotations": {
    "annotator1": {"entity_mentions": [
        {"entity_type": "PERSON", "entity_mention_id": "m1", "start_offset": 15, "end_offset": 27,
         "span_text": "Ada Lovelace", "edit_type": "check", "identifier_type": "DIRECT", "entity_id": "e1"},
        {"entity_type": "LOC", "entity_mention_id": "m2", "start_offset": 41, "end_offset": 47,
         "span_text": "London", "edit_type": "check", "identifier_type": "QUASI", "entity_id": "e2"},
        {"entity_type": "ORG", "entity_mention_id": "m3", "start_offset": 61, "end_offset": 66,
         "span_text": "Court", "edit_type": "check", "identifier_type": "NO_MASK", "entity_id": "e3"}]},
    "annotator2": {"entity_mentions": [
        {"entity_type": "DATETIME", "entity_mention_id": "m4", "start_offset": 51, "end_offset": 55,
         "span_text": "1815", "edit_type": "check", "identifier_type": "QUASI", "entity_id": "e4"}]}}}


@pytest.fixture(autouse=True)
def _first_rung(monkeypatch):
    monkeypatch.setenv("TAXOGEN_MODEL", "none")  # the ranker is not what these tests are about


@pytest.fixture
def tab_file(tmp_path):
    path = tmp_path / "judgments.json"
    path.write_text(json.dumps([TAB_DOC]), encoding="utf-8")
    return path


def run(*args):
    return CliRunner().invoke(app, ["sanitize", *map(str, args), "--no-progress"])


def test_given_tab_input_then_the_chosen_annotators_mentions_are_read(tab_file):
    (first,) = read_documents(tab_file, "tab")
    (second,) = read_documents(tab_file, "tab", annotator="annotator2")
    assert isinstance(first, DocRecord) and first.doc_id == "001-1"
    assert [(m.start, m.end) for m in first.mentions] == [(15, 27), (41, 47), (61, 66)]
    assert [(m.start, m.end) for m in second.mentions] == [(51, 55)]


def test_given_detect_then_the_files_mentions_are_dropped(tab_file):
    (rec,) = read_documents(tab_file, "tab", detect=True)
    assert rec.text == TEXT and rec.mentions is None


def test_given_tab_output_then_masked_ranges_of_the_original_text_by_document(tab_file, tmp_path):
    out = tmp_path / "masks.json"
    result = run(tab_file, "--input-format", "tab", "--format", "tab", "--out", out)
    assert result.exit_code == 0, result.output
    masks = json.loads(out.read_text(encoding="utf-8"))
    assert masks == {"001-1": [[15, 27], [41, 47]]}  # the NO_MASK mention stays as written: not masked


def test_given_tab_output_of_two_annotators_then_each_run_scores_its_own(tab_file, tmp_path):
    out = tmp_path / "masks.json"
    assert run(tab_file, "--input-format", "tab", "--annotator", "annotator2", "--format", "tab", "--out", out).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8")) == {"001-1": [[51, 55]]}


def test_given_unknown_output_format_then_one_line_lists_tab(tab_file):
    result = run(tab_file, "--format", "tabular")
    assert result.exit_code == 1 and "tab" in result.output and len(result.output.strip().splitlines()) == 1


def test_given_masks_of_a_tab_run_then_evaluate_masks_prints_tabs_measures(tab_file, tmp_path):
    out = tmp_path / "masks.json"
    assert run(tab_file, "--input-format", "tab", "--format", "tab", "--out", out).exit_code == 0
    result = CliRunner().invoke(app, ["evaluate", "masks", str(out), "--data", str(tab_file), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    # the annotator's DIRECT and QUASI mentions are all masked, and nothing else is
    assert report["entity_recall"] == 1.0 and report["token_precision"] == 1.0 and report["documents_masked"] == 1


def test_given_masks_naming_an_unknown_document_then_one_line_error(tab_file, tmp_path):
    out = tmp_path / "masks.json"
    out.write_text(json.dumps({"no-such-judgment": [[0, 3]]}), encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", "masks", str(out), "--data", str(tab_file)])
    assert result.exit_code == 1 and "no-such-judgment" in result.output and len(result.output.strip().splitlines()) == 1
