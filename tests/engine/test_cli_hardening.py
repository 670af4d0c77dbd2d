"""The real `taxogen` command in a subprocess: one-line errors before anything loads, no leftovers
after SIGTERM/SIGINT/SIGKILL, output file modes, `taxogen serve` stopping cleanly."""

import json
import os
import signal
import socket
import stat
import time
from pathlib import Path

import httpx
import pytest

from tests.engine.live import taxogen, taxogen_popen
from tests.servers import free_port

DOC = {"text": "Ada Lovelace was born in London in 1815.", "mentions": [
    {"start": 0, "end": 12, "entity_type": "PERSON", "identifier_type": "DIRECT"},
    {"start": 25, "end": 31, "entity_type": "LOC"}, {"start": 35, "end": 39, "entity_type": "DATETIME"}]}


def write_docs(path, n):
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({"id": f"d{i}", **DOC}) + "\n")
    return path


@pytest.mark.parametrize("args,message", [
    (["--overlap", "bogus"], "error: unknown --overlap 'bogus'; expected one of merge, reject"),
    (["--format", "xml"], "error: unknown --format 'xml'; expected one of auto, jsonl, json, text, tab"),
    (["--input-format", "xml"], "error: unknown --input-format 'xml'; expected one of auto, jsonl, wikireplace, tab, json, text, txt"),
])
def test_given_bad_option_then_one_line_exit_1_before_the_store_loads(tmp_path, args, message):
    src = write_docs(tmp_path / "in.jsonl", 1)
    # --store points nowhere: had the store been opened first, its error would show instead
    res = taxogen(tmp_path, "sanitize", str(src), "--out", str(tmp_path / "o.jsonl"), "--store", str(tmp_path / "no-store"), *args)
    assert res.returncode == 1 and res.stderr == message + "\n" and res.stdout == ""


def cli(*args):
    """The CLI in process (typer's CliRunner; stderr and stdout together)."""
    from typer.testing import CliRunner

    from engine.cli import app

    return CliRunner().invoke(app, list(args))


def test_given_unwritable_out_then_one_line_exit_1(tmp_path):
    src = write_docs(tmp_path / "in.jsonl", 1)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    outs = [src / "deeper" / "x.jsonl", tmp_path]  # under a file; a directory
    if os.geteuid() != 0:  # root writes anywhere…
        outs.append(locked / "o.jsonl")
    if os.path.isdir("/proc/self"):  # …but not into /proc
        outs.append(Path("/proc/o.jsonl"))
    try:
        for out in outs:
            res = cli("sanitize", str(src), "--out", str(out), "--store", str(tmp_path / "no-store"))
            assert res.exit_code == 1 and res.output.count("\n") == 1 and res.output.startswith("error: --out: "), res.output
    finally:
        locked.chmod(0o700)


def test_given_out_equal_to_input_then_refused_and_input_intact(tmp_path):
    src = write_docs(tmp_path / "in.jsonl", 2)
    before = src.read_bytes()
    res = cli("sanitize", str(src), "--out", str(src))
    assert res.exit_code == 1 and "would overwrite the input" in res.output and src.read_bytes() == before
    d = tmp_path / "dir"
    d.mkdir()
    write_docs(d / "a.jsonl", 1)
    res = cli("sanitize", str(d), "--out", str(d))
    assert res.exit_code == 1 and "would overwrite the input" in res.output


def test_given_bad_record_then_its_position_prints_once(tmp_path):
    src = tmp_path / "X"
    src.write_text(json.dumps({"id": "a", **DOC}) + "\n" + json.dumps({"text": "abc", "mentions": [{"start": 0}]}) + "\n")
    res = taxogen(tmp_path, "sanitize", str(src), "--input-format", "jsonl", "--out", str(tmp_path / "o.jsonl"), "--no-progress")
    assert res.returncode == 0
    assert "bad record X:2: mention #0: mention lacks 'end'" in res.stderr.splitlines()
    assert res.stderr.count("X:2") == 1


def test_given_binary_junk_line_then_reported_not_crashed(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(json.dumps({"id": "a", **DOC}).encode() + b"\n\xff\xfe\x00junk\n")
    res = taxogen(tmp_path, "sanitize", str(src), "--out", str(tmp_path / "o.jsonl"), "--no-progress")
    assert res.returncode == 0 and "bad record in.jsonl:2: not valid UTF-8 (byte 0)" in res.stderr
    assert "\x00" not in res.stderr and "Traceback" not in res.stderr


def _wait_for(pred, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_given_sanitize_killed_by_signal_then_no_part_file_is_left(tmp_path, sig):
    src = write_docs(tmp_path / "in.jsonl", 3000)
    out = tmp_path / "out" / "o.jsonl"
    proc = taxogen_popen(tmp_path, "sanitize", str(src), "--out", str(out), "--no-progress", "--batch", "4")
    try:
        assert _wait_for(lambda: list(out.parent.glob(".o.jsonl.*.part"))), "the run never started writing"
        time.sleep(0.3)
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0 and "Traceback" not in proc.stderr.read()
    assert list(out.parent.iterdir()) == [], "a part file or a half output survived"


@pytest.mark.slow
def test_given_sanitize_killed_hard_then_the_next_run_removes_its_part(tmp_path):
    src = write_docs(tmp_path / "in.jsonl", 3000)
    out = tmp_path / "o.jsonl"
    proc = taxogen_popen(tmp_path, "sanitize", str(src), "--out", str(out), "--no-progress")
    assert _wait_for(lambda: list(tmp_path.glob(".o.jsonl.*.part")))
    proc.kill()  # SIGKILL: nothing can clean up
    proc.wait(timeout=10)
    stale = list(tmp_path.glob(".o.jsonl.*.part"))
    assert [p.name.split(".")[3] for p in stale] == [str(proc.pid)]
    write_docs(src, 2)
    res = taxogen(tmp_path, "sanitize", str(src), "--out", str(out), "--no-progress")
    assert res.returncode == 0 and not list(tmp_path.glob(".o.jsonl.*.part"))
    assert len(out.read_text().splitlines()) == 2


def test_given_umask_then_output_follows_it_and_with_originals_is_private(tmp_path):
    src = write_docs(tmp_path / "in.jsonl", 1)
    res = taxogen(tmp_path, "sanitize", str(src), "--out", str(tmp_path / "a.jsonl"), "--no-progress", preexec_fn=lambda: os.umask(0o027))
    assert res.returncode == 0 and stat.S_IMODE((tmp_path / "a.jsonl").stat().st_mode) == 0o640
    res = taxogen(tmp_path, "sanitize", str(src), "--out", str(tmp_path / "b.jsonl"), "--no-progress", "--with-originals",
                  preexec_fn=lambda: os.umask(0o022))
    assert res.returncode == 0 and stat.S_IMODE((tmp_path / "b.jsonl").stat().st_mode) == 0o600


def test_given_wikireplace_annotator_then_other_documents_are_left_out_not_bad(tmp_path, wikireplace_path):
    data = json.loads(wikireplace_path.read_text())
    picked = [d for d in data if "annotator2" in d["annotations"]][:2] + [d for d in data if "annotator2" not in d["annotations"]][:3]
    src = tmp_path / "wr.json"
    src.write_text(json.dumps(picked))
    res = taxogen(tmp_path, "sanitize", str(src), "--out", str(tmp_path / "o.jsonl"), "--input-format", "wikireplace",
                  "--annotator", "annotator2", "--no-progress")
    assert res.returncode == 0, res.stderr
    assert "bad record" not in res.stderr
    assert "2 documents" in res.stdout and "0 bad records skipped, 3 documents not annotated by annotator2 left out" in res.stdout


def _children(pid: int) -> set[int]:
    kids: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            kids |= {int(x) for x in fh.read().split()}
    return kids


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


@pytest.mark.slow
def test_given_taxogen_serve_when_sigterm_then_it_exits_and_leaves_no_process_or_port(tmp_path):
    pytest.importorskip("uvicorn", reason="taxogen serve needs the [server] extra")
    port = free_port()
    proc = taxogen_popen(tmp_path, "serve", "--port", str(port))
    try:
        def up():
            try:
                return httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        assert _wait_for(up, 60), "server did not come up"
        assert httpx.post(f"http://127.0.0.1:{port}/sanitize", json=DOC).status_code == 200
        kids = _children(proc.pid)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert all(not os.path.exists(f"/proc/{k}") for k in kids)
    assert _wait_for(lambda: _port_free(port), 5), "the port is still taken"
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("span,etype,count", [("Ada Lovelace", "PERSON", "1 candidate"), ("1980", "DATETIME", "4 candidates")])
def test_given_generalize_then_the_count_matches_the_listed_lines(span, etype, count):
    from typer.testing import CliRunner

    from engine.cli import app

    res = CliRunner().invoke(app, ["generalize", span, "--type", etype])
    assert res.exit_code == 0
    head, *rows = res.output.splitlines()
    assert head.endswith(f"— {count} from {etype.lower()}, then ***")
    assert len(rows) == int(count.split()[0]) + 1 and rows[-1].split()[1] == "***"


def test_given_a_missing_data_file_then_one_error_line_not_a_traceback(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "from engine.cli import main; main()", "bench", "candidates",
                           "--data", str(tmp_path / "missing.json")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().startswith("error: cannot read WikiReplace file") and "Traceback" not in done.stderr
