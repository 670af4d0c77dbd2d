"""The README's first lines, its examples and its Python example stay true (the examples on the
starter graph, the default a newcomer gets)."""

import contextlib
import io
import re

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture
def starter(monkeypatch):
    """What a newcomer runs on: the starter graph (the tests' session default is the sample),
    built beforehand so that its first-use lines are not part of what a command prints."""
    from kg.starter import starter_store

    monkeypatch.setenv("TAXOGEN_DEFAULT_GRAPH", "starter")
    starter_store(progress=False).close()


def test_given_readme_then_the_first_commands_are_setup_demo_and_tests():
    block = re.search(r"```bash\n(.*?)```", README, re.S).group(1).splitlines()
    assert block[0].startswith("pip install torch==2.13.0 && pip install -e '.[test]' && taxogen demo")
    assert block[1].startswith("python -m pytest -q")
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.strip().splitlines()[-1] == "python -m pytest -q"


def test_given_readme_then_it_is_short_and_keeps_a_section_for_examples():
    assert len(README.splitlines()) <= 250
    assert "\n## Examples\n" in README


@pytest.mark.slow
@pytest.mark.shipped_operating_point  # the README shows what a user gets
def test_given_python_example_then_it_prints_the_block_below_it(starter):
    code, printed = re.search(r"## Python API\n\n```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", README, re.S).groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == printed


@pytest.mark.slow
@pytest.mark.shipped_operating_point  # the README shows what a user gets
def test_given_readme_demo_block_then_it_is_what_taxogen_demo_prints(starter):
    from typer.testing import CliRunner

    from engine.cli import app

    block = re.search(r"`taxogen demo` detects and sanitizes.*?```text\n(.*?)```", README, re.S).group(1)
    result = CliRunner().invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == block.strip()


@pytest.mark.slow
@pytest.mark.shipped_operating_point  # the README shows what a user gets
def test_given_sanitize_your_file_block_then_it_is_what_the_commands_print(starter, tmp_path, monkeypatch):
    _check_printf_then_sanitize(r"## Sanitize your file\n\n```text\n(.*?)```", "my.txt", tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.shipped_operating_point  # the README shows what a user gets
def test_given_generalize_block_then_it_is_what_taxogen_generalize_prints(starter):
    from typer.testing import CliRunner

    from engine.cli import app

    block = re.search(r"```text\n\$ taxogen generalize Oslo --type LOC --context \"She was born in Oslo.\"\n(.*?)```", README, re.S).group(1)
    result = CliRunner().invoke(app, ["generalize", "Oslo", "--type", "LOC", "--context", "She was born in Oslo."])
    assert result.exit_code == 0, result.output
    assert result.stdout == block


@pytest.mark.slow
@pytest.mark.shipped_operating_point  # the README shows what a user gets
def test_given_court_judgment_block_then_it_is_what_the_commands_print(starter, tmp_path, monkeypatch):
    _check_printf_then_sanitize(r"A court judgment .*?```text\n(.*?)```", "judgment.txt", tmp_path, monkeypatch)


def _check_printf_then_sanitize(block_pattern: str, name: str, tmp_path, monkeypatch) -> None:
    """A README block that writes a file with printf and sanitizes it prints what the command prints."""
    from typer.testing import CliRunner

    from engine.cli import app

    block = re.search(block_pattern, README, re.S).group(1).splitlines()
    text = re.fullmatch(rf"\$ printf '(.*)\\n' > {re.escape(name)}", block[0]).group(1)
    assert block[1] == f"$ taxogen sanitize {name}"
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["sanitize", name])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() + result.stderr.splitlines() == block[2:]
