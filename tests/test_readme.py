"""The README's first lines and its Python example stay true."""

import re

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_given_readme_then_the_first_commands_are_setup_demo_and_tests():
    block = re.search(r"```bash\n(.*?)```", README, re.S).group(1).splitlines()
    assert block[0].startswith("pip install torch==2.13.0 && pip install -e '.[all]' && taxogen demo")
    assert block[1].startswith("python -m pytest -q")
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.strip().splitlines()[-1] == "python -m pytest -q"


@pytest.mark.slow
def test_given_python_example_then_it_runs():
    code = re.search(r"## Python API\n\n```python\n(.*?)```", README, re.S).group(1)
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert scope["ladder"].labels[-1] == "***"
    assert "Ada Lovelace" not in scope["result"].text and "London" not in scope["result"].text
    assert scope["result"].text.startswith("PERSON 1 was born in")


@pytest.mark.slow
def test_given_readme_demo_block_then_it_is_what_taxogen_demo_prints():
    from typer.testing import CliRunner

    from engine.cli import app

    block = re.search(r"`taxogen demo` detects and sanitizes.*?```text\n(.*?)```", README, re.S).group(1)
    result = CliRunner().invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == block.strip()
