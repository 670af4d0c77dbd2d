"""``--help`` reads like click's: flags without a type, arguments as ``NAME``; a usage error
(a missing or unknown option, an unknown command) is one ``error:`` line and exit 1."""

import re

import pytest
from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def plain(text: str) -> str:
    """Help text without ANSI colours and box borders."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_given_root_help_then_flags_have_no_type():
    res = runner.invoke(app, ["--help"])
    assert res.exit_code == 0
    out = plain(res.output)
    assert "--install-completion" in out and "--help" in out
    assert "<bool>" not in out


@pytest.mark.parametrize("args", [["detect", "--help"], ["sanitize", "--help"], ["kg", "build", "--help"],
                                  ["kg", "chains", "--help"], ["evaluate", "selection", "--help"], ["spark", "sanitize", "--help"]])
def test_given_command_help_then_no_bool_type_and_arguments_upper_case(args):
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    out = plain(res.output)
    assert "<bool>" not in out
    assert not re.search(r"\{[a-z_]+\}", out), out  # no {source} on the usage line
    assert "<path>" in out or "<text>" in out or "<int>" in out  # options with a value keep their type


def test_given_detect_help_then_usage_names_the_source_argument():
    out = plain(runner.invoke(app, ["detect", "--help"]).output)
    usage = next(line for line in out.splitlines() if "Usage:" in line)
    assert usage.rstrip().endswith("detect [OPTIONS] SOURCE")
    assert re.search(r"\*\s+SOURCE\s+<path>", out)
    assert re.search(r"--all\s+Also list", out)  # a flag: its help right after the name


def test_given_spark_sanitize_help_then_two_upper_case_arguments():
    out = plain(runner.invoke(app, ["spark", "sanitize", "--help"]).output)
    assert "[OPTIONS] SOURCE OUT" in out


def test_given_generalize_without_type_then_one_line_and_exit_1():
    res = runner.invoke(app, ["generalize", "geologist"])
    assert res.exit_code == 1
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: Missing option '--type'."), res.output


@pytest.mark.parametrize("args,message", [
    (["generalize", "x", "--type", "LOC", "--bogus"], "error: No such option: --bogus"),
    (["no-such-command"], "error: No such command 'no-such-command'."),
    (["kg", "no-such-command"], "error: No such command 'no-such-command'."),
    (["sanitize", "in.jsonl", "--out", "o.jsonl", "--k", "-1"], "error: Invalid value for '--k'"),
    (["detect"], "error: Missing argument 'SOURCE'."),
])
def test_given_a_usage_error_then_one_line_and_exit_1(args, message):
    res = runner.invoke(app, args)
    assert res.exit_code == 1, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), res.output


def test_given_a_group_without_command_then_its_help():
    res = runner.invoke(app, ["kg"])
    assert "build" in plain(res.output) and "Usage:" in plain(res.output)


def test_given_the_real_command_without_type_then_stderr_one_line_exit_1(tmp_path):
    from tests.engine.live import taxogen

    res = taxogen(tmp_path, "generalize", "geologist")
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr == "error: Missing option '--type'. (see 'python -m engine.cli generalize --help')\n"
