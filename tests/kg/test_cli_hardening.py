"""`taxogen kg build` and `kg query` through the real CLI: killed builds leave nothing, errors on their
own line, empty dumps, binary junk, unbound query inputs, syntax error positions."""

import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from engine.cli import app
from tests.conftest import FIXTURES, ROOT

runner = CliRunner()


def kg_cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "engine.cli", "kg", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, **kw)


def big_dump(path, lines=400_000):
    """A dump that takes a few seconds to read (most lines are filtered out)."""
    row = "<http://www.wikidata.org/entity/Q{}> <http://www.wikidata.org/prop/direct/P999> <http://www.wikidata.org/entity/Q1> .\n"
    with open(path, "w") as fh:
        for i in range(lines):
            fh.write(row.format(i + 1))
    return path


@pytest.mark.slow
def test_given_build_killed_by_sigterm_then_no_building_directory_is_left(tmp_path):
    dump = big_dump(tmp_path / "big.nt")
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "kg", "build", "--source", str(dump), "--store", str(tmp_path / "s")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".s.building-*")) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert list(tmp_path.glob(".s.building-*")), "the build never started"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM
    assert not list(tmp_path.glob(".s*")), "the temporary build directory survived"


def test_given_stale_building_dirs_then_build_removes_dead_ones_and_keeps_running_ones(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout.strip()
    (tmp_path / f".s.building-{dead}").mkdir()
    (tmp_path / f".s.building-{os.getppid()}").mkdir()  # a live process: maybe another build
    res = kg_cli("build", "--source", str(FIXTURES / "dump_sample.nt"), "--store", str(tmp_path / "s"), "--no-progress")
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in tmp_path.glob(".s.*")) == [f".s.building-{os.getppid()}"]


def test_given_strict_build_with_progress_then_error_starts_its_own_line(tmp_path):
    res = kg_cli("build", "--source", str(FIXTURES / "dump_sample.nt"), "--store", str(tmp_path / "s"), "--strict")
    assert res.returncode == 1
    err = [line for line in res.stderr.replace("\r", "\n").split("\n") if "error:" in line]
    assert len(err) == 1 and err[0].startswith("error: ") and "\nerror: " in res.stderr


def test_given_empty_dump_then_warning_and_strict_fails(tmp_path):
    (tmp_path / "empty.nt").write_text("")
    res = kg_cli("build", "--source", str(tmp_path / "empty.nt"), "--store", str(tmp_path / "s"), "--no-progress")
    assert res.returncode == 0 and "warning: no triple taxogen keeps in 0 lines" in res.stderr
    res = kg_cli("build", "--source", str(tmp_path / "empty.nt"), "--store", str(tmp_path / "t"), "--no-progress", "--strict")
    assert res.returncode == 1 and "no triple taxogen keeps" in res.stderr and not (tmp_path / "t").exists()


def test_given_binary_malformed_line_then_printed_escaped(tmp_path):
    dump = tmp_path / "bin.nt"
    dump.write_bytes(b"junk \x01\x02\x1b[31m line\n")
    res = kg_cli("build", "--source", str(dump), "--store", str(tmp_path / "s"), "--no-progress")
    assert res.returncode == 0
    assert "line 1: not an N-Triples statement: 'junk \\x01\\x02\\x1b[31m line'" in res.stderr
    assert "\x1b" not in res.stderr and "\x01" not in res.stderr


def test_given_declared_input_left_unbound_then_query_fails_naming_it():
    res = runner.invoke(app, ["kg", "query", str(ROOT / "queries" / "ancestors.rq")])
    assert res.exit_code == 1 and res.output == "error: ancestors.rq declares input ?item (iri): give it with --bind item=…\n"


@pytest.mark.parametrize("text,where", [
    ("SELECT ?x WHERE { ?x ?y }\n", "at the end of the query (line 1)"),
    ("# my comment\nSELECT ?x WHERE { ?x <a> \"é\" . ?x ?y ?z bad }\n", "at line 2, column 27"),  # pyoxigraph's column
])
def test_given_syntax_error_then_position_is_the_files_own(tmp_path, text, where):
    rq = tmp_path / "mine.rq"
    rq.write_text(text)
    res = runner.invoke(app, ["kg", "query", str(rq)])
    assert res.exit_code == 1 and res.output.startswith(f"error: syntax error in mine.rq {where}: "), res.output
