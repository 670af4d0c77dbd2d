"""``--docs DIR``: a command's printed figures written to DIR/figures/<page>.md, with the
command line, the date and the commit; nothing written when the command fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from typer.testing import CliRunner

from engine.cli import app
from engine.cli.common import App, DocsOpt, fail, figures_page

runner = CliRunner()

toy = App()


@toy.command("figures")
def _figures(
    n: int = typer.Option(2, "--n"),
    k: Optional[List[int]] = typer.Option(None, "--k"),
    endpoint: bool = typer.Option(True, "--endpoint/--no-endpoint"),
    broken: bool = typer.Option(False, "--broken"),
    docs: Optional[Path] = DocsOpt,
) -> None:
    with figures_page(docs, "bench-toy", "Toy figures (bench toy)"):
        typer.echo("progress on stderr", err=True)
        typer.echo(f"n = {n}, k = {k}")
        print("printed | by print")
        if broken:
            fail(ValueError("broken input"))


@toy.command("other")
def _other() -> None:
    """A second command, so that ``figures`` is a subcommand."""


def test_given_docs_when_command_succeeds_then_page_holds_stdout_command_date_commit(tmp_path):
    docs = tmp_path / "docs"
    res = runner.invoke(toy, ["figures", "--n", "3", "--k", "10", "--k", "100", "--no-endpoint", "--docs", str(docs)])
    assert res.exit_code == 0, res.output
    assert "n = 3, k = [10, 100]" in res.stdout and "printed | by print" in res.stdout  # output unchanged
    page = (docs / "figures" / "bench-toy.md").read_text()
    assert page.startswith("# Toy figures (bench toy)\n")
    assert "taxogen figures --n 3 --k 10 --k 100 --no-endpoint --docs <docs>\n" in page  # no machine path
    assert "- date: " in page and "- commit: `" in page
    block = page.split("```text\n", 1)[1]
    assert block == "n = 3, k = [10, 100]\nprinted | by print\n```\n"
    assert "progress on stderr" not in page
    assert "[bench-toy](bench-toy.md): Toy figures (bench toy)" in (docs / "figures" / "index.md").read_text()


def test_given_docs_when_command_fails_then_no_page_and_exit_1(tmp_path):
    docs = tmp_path / "docs"
    res = runner.invoke(toy, ["figures", "--broken", "--docs", str(docs)])
    assert res.exit_code == 1
    assert "error: broken input" in res.output
    assert not (docs / "figures" / "bench-toy.md").exists()


def test_given_failure_when_page_exists_then_it_is_kept(tmp_path):
    docs = tmp_path / "docs"
    assert runner.invoke(toy, ["figures", "--n", "5", "--docs", str(docs)]).exit_code == 0
    before = (docs / "figures" / "bench-toy.md").read_text()
    assert runner.invoke(toy, ["figures", "--n", "6", "--broken", "--docs", str(docs)]).exit_code == 1
    assert (docs / "figures" / "bench-toy.md").read_text() == before


def test_given_no_docs_then_nothing_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(toy, ["figures"])
    assert res.exit_code == 0 and "n = 2, k = None" in res.stdout
    assert list(tmp_path.iterdir()) == []


def test_given_docs_is_a_file_then_one_line_error_exit_1(tmp_path):
    not_dir = tmp_path / "docs"
    not_dir.write_text("x")
    res = runner.invoke(toy, ["figures", "--docs", str(not_dir)])
    assert res.exit_code == 1 and "error:" in res.output
    assert "Traceback" not in res.output


def _tiny_wikireplace(path: Path) -> Path:
    """One annotated document in WikiReplace's format (a person's name and two years)."""
    def mention(i, etype, start, end, text, ident, heuristics=None, choice=None):
        m = {"entity_type": etype, "entity_mention_id": f"d_a1_em{i}", "start_offset": start, "end_offset": end,
             "span_text": text, "edit_type": "check", "identifier_type": ident, "entity_id": f"d_a1_e{i}"}
        if heuristics:
            m["replacement"] = {"generalizations": {"heuristics": heuristics},
                                "generalization_selection": {choice: ["generalization_annotator1", "generalization_annotator2"]}}
        return m

    text = "Percy Parke Lewis (1885–1962) was an American architect."
    doc = {"doc_id": "d", "dataset_type": "test", "text": text, "task": "conceal: percy parke lewis",
           "annotations": {"annotator1": {"entity_mentions": [
               mention(1, "PERSON", 0, 17, "Percy Parke Lewis", "DIRECT", ["PERSON 1", "***"], "PERSON 1"),
               mention(2, "DATETIME", 19, 23, "1885", "QUASI", ["date in the 1880s", "***"], "date in the 1880s"),
               mention(3, "DATETIME", 24, 28, "1962", "QUASI", ["date in the 1960s", "***"], "date in the 1960s"),
               mention(4, "DEM", 37, 45, "American", "NO_MASK")]}}}
    path.write_text(json.dumps([doc]), encoding="utf-8")
    return path


def test_given_docs_when_evaluate_generation_then_page_has_its_printed_figures(tmp_path):
    data = _tiny_wikireplace(tmp_path / "tiny.json")
    docs = tmp_path / "docs"
    res = runner.invoke(app, ["evaluate", "generation", "--data", str(data), "--docs", str(docs)])
    assert res.exit_code == 0, res.output
    page = (docs / "figures" / "evaluate-generation.md").read_text()
    assert page.startswith("# Our ladders against WikiReplace's options (evaluate generation)\n")
    assert "taxogen evaluate generation --data <tiny.json> --docs <docs>\n" in page
    figures = page.split("```text\n", 1)[1]
    assert "rules: heuristic options of WikiReplace found in our ladder, in order (tiny.json, store: sample)" in figures
    assert ["DATETIME", "2", "2", "100.00%", "0", "100.00%"] in [line.split() for line in figures.splitlines()]
    assert "documents:" not in figures  # the progress bar is on stderr
    for line in res.stdout.splitlines():
        assert line in figures


def test_given_bad_data_when_evaluate_generation_with_docs_then_exit_1_and_no_page(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = runner.invoke(app, ["evaluate", "generation", "--data", str(bad), "--docs", str(tmp_path / "docs")])
    assert res.exit_code == 1
    assert not (tmp_path / "docs" / "figures").exists()
