"""taxogen sanitize with plain text: formats in and out, standard output, files that are not
regular files, one size limit for every input, encodings, and the privacy line."""

import json
import os
import stat
import threading

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.io.contract import LIMITS
from engine.io.docio import BadRecord, DocRecord, detect_format, read_documents

DOC = {"id": "d0", "text": "Ada Lovelace was born in London in 1815.", "mentions": [
    {"start": 0, "end": 12, "entity_type": "PERSON", "identifier_type": "DIRECT"},
    {"start": 25, "end": 31, "entity_type": "LOC"}, {"start": 35, "end": 39, "entity_type": "DATETIME"}]}
SANITIZED = "PERSON 1 was born in a city in the United Kingdom in the mid-1810s."  # the first rung, on the sample graph


@pytest.fixture(autouse=True)
def _first_rung(monkeypatch):
    monkeypatch.setenv("TAXOGEN_MODEL", "none")  # the ranker is not what these tests are about


def run(*args):
    return CliRunner().invoke(app, ["sanitize", *map(str, args), "--no-progress"])


def docs_file(tmp_path, name="in.jsonl", n=1):
    path = tmp_path / name
    path.write_text("".join(json.dumps({**DOC, "id": f"d{i}"}) + "\n" for i in range(n)), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["my.txt", "notes.md", "README", "letter.TXT", "draft.text"])
def test_given_txt_md_or_extensionless_file_then_it_is_one_text_document(tmp_path, name):
    path = tmp_path / name
    path.write_text("# Notes\n\nAda Lovelace was born in London.\n", encoding="utf-8")
    assert detect_format(path) == "text"
    (rec,) = read_documents(path)
    assert isinstance(rec, DocRecord) and rec.mentions is None and rec.text.startswith("# Notes")


def test_given_json_file_then_document_or_wikireplace_list_by_its_first_character(tmp_path):
    one, many = tmp_path / "a.json", tmp_path / "b.json"
    one.write_text(json.dumps(DOC), encoding="utf-8")
    many.write_text("[]", encoding="utf-8")
    assert (detect_format(one), detect_format(many), detect_format(tmp_path / "c.jsonl")) == ("json", "wikireplace", "jsonl")


def test_given_latin1_file_then_encoding_option_reads_it_and_utf8_refuses_it_in_one_line(tmp_path):
    path = tmp_path / "brev.txt"
    path.write_bytes("Ærlig talt, Zürich.\n".encode("latin-1"))
    (ok,) = read_documents(path, encoding="latin-1")
    assert ok.text == "Ærlig talt, Zürich.\n"
    (bad,) = read_documents(path)
    assert isinstance(bad, BadRecord) and bad.reason.startswith("not utf-8 text: invalid") and "\n" not in bad.reason


def test_given_utf16_with_bom_or_utf8_with_bom_then_the_bom_is_not_text(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes("Oslo\n".encode("utf-16"))
    b.write_bytes("\ufeffOslo\n".encode("utf-8"))
    assert next(read_documents(a, encoding="utf-16")).text == "Oslo\n"
    assert next(read_documents(b)).text == "Oslo\n"


def test_given_jsonl_in_another_encoding_then_encoding_option_decodes_it(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(json.dumps({**DOC, "text": "Zoë " + DOC["text"][4:]}, ensure_ascii=False).encode("cp1252") + b"\n")
    (rec,) = read_documents(path, encoding="cp1252")
    assert rec.text.startswith("Zoë ")


def test_given_unknown_encoding_then_one_line_error_before_the_store_loads(tmp_path):
    res = run(docs_file(tmp_path), "--encoding", "klingon", "--store", tmp_path / "no-store")
    assert res.exit_code == 1
    assert res.stderr == "error: --encoding: unknown encoding 'klingon' (e.g. utf-8, latin-1, cp1252, utf-16)\n"


@pytest.mark.parametrize("make", ["text", "large text", "json", "jsonl"])
def test_given_input_over_the_one_size_limit_then_one_line_error_and_nothing_written(tmp_path, make):
    limit = LIMITS["text_chars"]
    long = "a" * (limit + 1)
    if make == "text":
        src = tmp_path / "big.txt"
        src.write_text(long, encoding="utf-8")
        expected = f"error: big.txt: text has {limit + 1:,} characters; the limit is {limit:,}; split the file; nothing written\n"
    elif make == "large text":  # refused by its size, before it is read
        src = tmp_path / "big.txt"
        src.write_text("a" * (4 * limit + 5), encoding="utf-8")
        expected = f"error: big.txt: {4 * limit + 5:,} bytes: more than the limit of {limit:,} characters of text; split the file; nothing written\n"
    elif make == "json":
        src = tmp_path / "big.json"
        src.write_text(json.dumps({"text": long, "mentions": []}), encoding="utf-8")
        expected = f"error: big.json: text has {limit + 1:,} characters; the limit is {limit:,}; nothing written\n"
    else:
        src = tmp_path / "big.jsonl"
        src.write_text(json.dumps({"text": long, "mentions": []}) + "\n", encoding="utf-8")
        expected = (f"bad record big.jsonl:1: text has {limit + 1:,} characters; the limit is {limit:,}\n"
                    "error: no document of big.jsonl was sanitized (every record was bad or left out); no output written for it\n")
    out = tmp_path / "out.jsonl"
    res = run(src, "--out", out)
    assert res.exit_code == 1 and res.stderr == expected and "Traceback" not in res.stdout + res.stderr
    assert not out.exists()


def test_given_no_out_then_results_go_to_stdout_and_the_summary_to_stderr(tmp_path):
    res = run(docs_file(tmp_path))
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["text"] == SANITIZED
    assert "→ stdout: 1 document" in res.stderr


def test_given_out_dash_then_stdout_and_no_file_named_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(docs_file(tmp_path), "--out", "-", "--format", "text")
    assert res.exit_code == 0, res.stderr
    assert res.stdout == SANITIZED + "\n" and not (tmp_path / "-").exists()


def test_given_format_json_then_one_json_array_of_results(tmp_path):
    out = tmp_path / "out.json"
    res = run(docs_file(tmp_path, n=2), "--out", out, "--format", "json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [d["id"] for d in data] == ["d0", "d1"] and data[0]["text"] == SANITIZED
    assert "privacy: 0 of 2 documents reached k ≥ 10; 2 not established: the store holds no persons" in res.stdout


def test_given_directory_with_text_format_then_one_text_file_per_input(tmp_path):
    src = tmp_path / "docs"
    src.mkdir()
    docs_file(src, "a.jsonl")
    out = tmp_path / "out"
    res = run(src, "--out", out, "--format", "text")
    assert res.exit_code == 0, res.stderr
    assert (out / "a.txt").read_text(encoding="utf-8") == SANITIZED + "\n"


def test_given_fifo_as_out_then_it_is_written_to_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(open(fifo, encoding="utf-8").read()), daemon=True)
    reader.start()
    res = run(docs_file(tmp_path), "--out", fifo, "--format", "text")
    reader.join(timeout=30)
    assert res.exit_code == 0, res.stderr
    assert received == [SANITIZED + "\n"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no part file left beside it


def test_given_character_device_as_out_then_it_is_written_to_and_stays_a_device(tmp_path):
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own
    except (PermissionError, OSError):
        pytest.skip("cannot create a device node here (needs root)")
    res = run(docs_file(tmp_path), "--out", device)
    assert res.exit_code == 0, res.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_given_dev_stdout_as_out_then_the_results_reach_the_pipe_and_dev_stdout_stays_a_link(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    before = os.readlink("/dev/stdout")
    res = subprocess.run([sys.executable, "-m", "engine.cli", "sanitize", str(docs_file(tmp_path)), "--out", "/dev/stdout",
                          "--format", "text"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "TAXOGEN_MODEL": "none", "TAXOGEN_CACHE_DIR": str(tmp_path / "cache")})
    assert res.returncode == 0, res.stderr
    assert res.stdout == SANITIZED + "\n" and "→ /dev/stdout: 1 document" in res.stderr
    assert os.path.islink("/dev/stdout") and os.readlink("/dev/stdout") == before


def test_given_symlink_as_out_then_the_link_stays_and_its_file_gets_the_results(tmp_path):
    target, link, devlink = tmp_path / "real.jsonl", tmp_path / "link.jsonl", tmp_path / "to-null"
    target.write_text("old\n", encoding="utf-8")
    link.symlink_to(target)
    devlink.symlink_to(os.devnull)
    assert run(docs_file(tmp_path), "--out", link).exit_code == 0
    assert run(docs_file(tmp_path), "--out", devlink).exit_code == 0
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["text"] == SANITIZED
    assert devlink.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_given_store_without_persons_then_json_report_and_summary_say_k_is_not_established(tmp_path):
    out = tmp_path / "out.jsonl"
    res = run(docs_file(tmp_path), "--out", out)
    privacy = json.loads(out.read_text(encoding="utf-8"))["privacy"]
    assert privacy["reached"] is False and privacy["established"] is False
    assert privacy["summary"].startswith("k not established: the store holds no persons to count; ")
    assert res.stdout.splitlines()[-1] == f"privacy: {privacy['summary']}"


def test_given_version_option_then_it_prints_the_version():
    from engine.version import __version__

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout == f"taxogen {__version__}\n"
