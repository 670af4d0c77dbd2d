"""Figures pages (docs/figures/<name>.md): title, command, date, commit and the figures."""

import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

from taxogen_tools.evaluation.figures_page import (
    FiguresPage, PrintedLines, command_line, git_revision, write_figures_page,
)

WHEN = datetime(2026, 3, 1, 12, 30, tzinfo=timezone.utc)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.txt").write_text("one\n")
    git(root, "add", "a.txt")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "first")
    return root


def test_given_printed_output_then_the_page_has_title_command_date_commit_and_the_block(tmp_path):
    path = write_figures_page(tmp_path / "docs", "evaluate-truth", "Truth of the offered rungs",
                              "  type  false\n  LOC   1.85%\n", command="taxogen evaluate truth --store s",
                              when=WHEN, revision="abc1234")
    assert path == tmp_path / "docs" / "figures" / "evaluate-truth.md"
    text = path.read_text()
    assert text.splitlines()[0] == "# Truth of the offered rungs"
    assert "```bash\ntaxogen evaluate truth --store s\n```" in text
    assert "- date: 2026-03-01 12:30 UTC" in text and "- commit: `abc1234`" in text
    assert "```text\n  type  false\n  LOC   1.85%\n```" in text


def test_given_rows_then_the_figures_are_a_markdown_table_and_pipes_are_escaped(tmp_path):
    path = write_figures_page(tmp_path, "bench-kg", "Chains", [["p50", "0.15 ms"], ["a|b", 3]],
                              headers=["figure", "value"], command="taxogen bench kg", when=WHEN, revision="x")
    lines = path.read_text().splitlines()
    i = lines.index("| figure | value |")
    assert lines[i + 1] == "|---|---|" and lines[i + 2] == "| p50 | 0.15 ms |" and lines[i + 3] == "| a\\|b | 3 |"


def test_given_a_second_run_then_the_page_is_replaced_and_the_index_lists_every_page(tmp_path):
    write_figures_page(tmp_path, "bench-kg", "Chains", "old", command="c", when=WHEN, revision="r1")
    write_figures_page(tmp_path, "bench-kg", "Chains", "new", command="c", when=WHEN, revision="r2")
    write_figures_page(tmp_path, "evaluate-truth", "Truth", "t", command="c", when=WHEN, revision="r2")
    page = (tmp_path / "figures" / "bench-kg.md").read_text()
    assert "new" in page and "old" not in page and "`r2`" in page
    index = (tmp_path / "figures" / "index.md").read_text()
    assert "- [bench-kg](bench-kg.md): Chains" in index and "- [evaluate-truth](evaluate-truth.md): Truth" in index
    assert not list((tmp_path / "figures").glob("*.part"))


def test_given_a_clean_then_a_modified_git_tree_then_the_commit_is_the_short_hash_then_dirty(repo):
    head = git(repo, "rev-parse", "--short", "HEAD").strip()
    assert git_revision(repo) == head
    (repo / "untracked.txt").write_text("not part of the code\n")
    assert git_revision(repo) == head  # untracked files do not make the tree dirty
    (repo / "a.txt").write_text("two\n")
    assert git_revision(repo) == head + "+dirty"


def test_given_a_directory_outside_git_then_the_commit_is_unknown(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert git_revision(tmp_path) == "unknown"


def test_given_no_git_installed_then_the_commit_is_unknown_and_the_page_is_written(tmp_path, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert git_revision(tmp_path) == "unknown"
    path = write_figures_page(tmp_path / "docs", "bench-rank", "Ranking", "1,715 mentions/s", command="c", when=WHEN)
    assert "- commit: `unknown`" in path.read_text()


def test_given_bad_names_or_tables_then_value_error(tmp_path):
    with pytest.raises(ValueError, match="lower-case"):
        write_figures_page(tmp_path, "../escape", "t", "x", command="c", revision="r")
    with pytest.raises(ValueError, match="headers"):
        FiguresPage("a", "t", "c", [[1]])
    with pytest.raises(ValueError, match="cells"):
        write_figures_page(tmp_path, "a", "t", [[1, 2]], headers=["one"], command="c", revision="r")


def test_given_printed_lines_then_they_pass_through_and_are_kept():
    shown: list[str] = []
    lines = PrintedLines(shown.append)
    lines("a\nb")
    lines()
    assert shown == ["a\nb", ""] and lines.text == "a\nb\n"


def test_given_arguments_then_the_command_line_is_shell_quoted():
    assert command_line(["evaluate", "truth", "--store", "my store"]) == "taxogen evaluate truth --store 'my store'"


def test_given_machine_paths_then_the_page_names_none(tmp_path: Path) -> None:
    from taxogen_tools.evaluation.figures_page import portable_paths

    root = tmp_path / "repo"
    line = f"taxogen bench kg --store /srv/stores/fresh --data {tmp_path}/shared/data/x.json --docs {root}/docs ratio 1/30"
    assert portable_paths(line, root) == "taxogen bench kg --store <fresh> --data ../shared/data/x.json --docs docs ratio 1/30"
    page = write_figures_page(tmp_path / "out", "bench-kg", "Graph", "store: /srv/stores/fresh", command="taxogen bench kg --store /srv/x")
    text = page.read_text(encoding="utf-8")
    assert "/srv" not in text and "<fresh>" in text and "<x>" in text
