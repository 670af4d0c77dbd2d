"""The dump filter's prefilter is exact: ripgrep, GNU grep and the Python-only filter agree.

On crafted dumps (hypothesis: kept and dropped statements, sitelink lines as the dump
writes them and otherwise, comments, blanks, CRLF, NUL bytes, invalid UTF-8, plainly and
subtly malformed lines, with or without a final newline), uncompressed and compressed:

- the kept lines, the sitelinks and the line count are those of ``TAXOGEN_NO_PREFILTER``;
- the malformed-line report holds exactly the no-prefilter report's lines that the
  prefilter's patterns pass (the documented contract: a malformed line that names no kept
  property and looks like a statement is not seen), with their dump line numbers;
- ripgrep and GNU grep give the same result, and GNU grep serves when ripgrep is absent.
"""

from __future__ import annotations

import bz2
import gzip
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg import DumpError, DumpReport
from kg.dump_reader import (
    END_MARK,
    _prefilter_python,
    prefilter_available,
    prefilter_command,
)
from kg.parallel import parallel_filter

WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
LABEL, DESC = "http://www.w3.org/2000/01/rdf-schema#label", "http://schema.org/description"
ABOUT = "http://schema.org/about"
TOOLS = [t for t in ("rg", "grep") if shutil.which(t)]
needs_prefilter = pytest.mark.skipif(not prefilter_available(), reason="GNU grep not installed")

SUBJECTS = [f"<{WD}Q1>", f"<{WD}Q42>", "_:b1", "<https://en.wikipedia.org/wiki/Oslo_(by)>", "<http://x/é>", "<a b>", "<x\x00y>", "Q7"]
PREDICATES = [f"<{WDT}P31>", f"<{WDT}P279>", f"<{WDT}P1549>", f"<{LABEL}>", f"<{DESC}>", f"<{ABOUT}>", f"<{WDT}P18>", "<p q>"]
OBJECTS = [f"<{WD}Q5>", f"<{WD}Q0012>", "<http://other/x>", "_:o", '"x"@en', '"x"@EN', '"x"@en-gb', '"y"@de', '"a\\"b"@en', '"z"',
           '"1"^^<http://www.w3.org/2001/XMLSchema#integer>', f'"<{ABOUT}> <{WD}Q9> ."@de', '"open@en .', '"n\x00l"@en', f"<{WD}Q99999999999>"]
SEPS, ENDS, LEADS = [" ", "\t", "  "], [" .", ".", " . # c", "", " .\r", " . ", " ,"], ["", "", " ", "\t"]
WHOLE = [b"# comment", b"", b"   ", b"garbage", b"\xff\xfe bad utf-8 .", f"<{WD}Q1> <{LABEL}> \"\xe9\"@en .".encode("latin-1"),
         f"<{WD}Q3> <{WDT}P31> <{WD}Q5> .\r".encode(), b"\x00", b"<a> <b> <c> .", b"<a> <b> \"unterminated .", b"~taxogen:end-of-dump"]


@st.composite
def statements(draw) -> bytes:
    if draw(st.integers(0, 5)) == 0:
        return draw(st.one_of(st.sampled_from(WHOLE), st.binary(max_size=12).filter(lambda b: b"\n" not in b)))
    s, p, o = draw(st.sampled_from(SUBJECTS)), draw(st.sampled_from(PREDICATES)), draw(st.sampled_from(OBJECTS))
    if draw(st.booleans()):  # a sitelink line as the dump writes it
        s, p, o = draw(st.sampled_from(SUBJECTS[:5])), f"<{ABOUT}>", draw(st.sampled_from([f"<{WD}Q5>", f"<{WD}Q17>", f"<{WD}Q0012>"]))
        return f"{s} {p} {o} .".encode()
    sep = draw(st.sampled_from(SEPS))
    return f"{draw(st.sampled_from(LEADS))}{s}{sep}{p}{sep}{o}{draw(st.sampled_from(ENDS))}".encode()


dumps = st.tuples(st.lists(statements(), max_size=40), st.booleans()).map(lambda t: b"\n".join(t[0]) + (b"\n" if t[1] and t[0] else b""))


def run(path: Path, out_dir: Path, monkeypatch, tool: str | None) -> tuple:
    """(kept bytes, sitelink bytes, (lines, kept, malformed), malformed examples) of one filter run."""
    if tool is None:
        monkeypatch.setenv("TAXOGEN_NO_PREFILTER", "1")
    else:
        monkeypatch.delenv("TAXOGEN_NO_PREFILTER", raising=False)
        monkeypatch.setenv("TAXOGEN_PREFILTER", tool)
    monkeypatch.setenv("TAXOGEN_BUILD_WORKERS", "1")  # in process: many examples in seconds
    monkeypatch.setattr("kg.dump_reader.BLOCK", 256)  # several blocks, some with malformed lines
    report = DumpReport(str(path), max_examples=10**6)
    out, sl = out_dir / f"kept-{tool}.nt", out_dir / f"sl-{tool}.i32"
    parallel_filter(path, out, report, sitelinks=sl)
    return out.read_bytes(), sl.read_bytes(), (report.lines, report.kept, report.malformed), report.examples


def expected_with_prefilter(data: bytes, reference: tuple) -> tuple:
    """The no-prefilter result with the malformed lines the prefilter's patterns do not pass left out."""
    passes = _prefilter_python()
    lines = data.split(b"\n")
    seen = [ex for ex in reference[3] if passes.search(lines[ex[0] - 1])]
    lines_, kept, malformed = reference[2]
    return reference[0], reference[1], (lines_, kept, malformed - len(reference[3]) + len(seen)), seen


def check(path: Path, data: bytes, tmp: Path, monkeypatch, tools: list[str]) -> None:
    plain = tmp / "plain.nt"
    plain.write_bytes(data)
    reference = run(plain, tmp, monkeypatch, None)
    expected = expected_with_prefilter(data, reference)
    results = {tool: run(path, tmp, monkeypatch, tool) for tool in tools}
    for tool, got in results.items():
        assert got == expected, tool


@needs_prefilter
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=dumps)
def test_given_crafted_dump_then_prefilter_matches_the_python_filter(tmp_path: Path, monkeypatch, data: bytes) -> None:
    path = tmp_path / "d.nt"
    path.write_bytes(data)
    check(path, data, tmp_path, monkeypatch, TOOLS)


@needs_prefilter
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=dumps, suffix=st.sampled_from([".gz", ".bz2"]), external=st.booleans())
def test_given_crafted_compressed_dump_then_prefilter_matches_the_python_filter(tmp_path: Path, monkeypatch, data: bytes, suffix: str, external: bool) -> None:
    path = tmp_path / f"d.nt{suffix}"
    path.write_bytes((gzip.compress if suffix == ".gz" else bz2.compress)(data))
    if external:
        monkeypatch.delenv("TAXOGEN_NO_EXTERNAL_DECOMPRESS", raising=False)
    else:
        monkeypatch.setenv("TAXOGEN_NO_EXTERNAL_DECOMPRESS", "1")
    check(path, data, tmp_path, monkeypatch, TOOLS)


@needs_prefilter
@pytest.mark.parametrize(
    "data",
    [
        b"",  # empty
        b"\n\n",  # blank lines only
        f"<{WD}Q1> <{WDT}P31> <{WD}Q5> .".encode(),  # a kept last line without newline
        f"<{WD}Q1> <{WDT}P18> <{WD}Q5> .\n<{WD}Q1> <{WDT}P18> <{WD}Q5> .".encode(),  # a dropped one
        f"<{WD}Q1> <{WDT}P18> <{WD}Q5> .\ngarbage".encode(),  # a malformed one
        f"<{WD}Q1> <{WDT}P31> <{WD}Q5> .\n".encode() + END_MARK,  # the end mark itself in the dump
        f"<https://de.wikipedia.org/wiki/X> <{ABOUT}> <{WD}Q5> .".encode(),  # a sitelink last line
    ],
)
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_given_dump_edges_then_line_count_and_last_line_are_exact(tmp_path: Path, monkeypatch, data: bytes, suffix: str) -> None:
    path = tmp_path / f"d.nt{suffix}"
    path.write_bytes(gzip.compress(data) if suffix else data)
    check(path, data, tmp_path, monkeypatch, TOOLS)


@needs_prefilter
def test_given_no_ripgrep_then_gnu_grep_prefilters(monkeypatch) -> None:
    real = shutil.which
    monkeypatch.setattr("kg.dump_reader.shutil.which", lambda name: None if name == "rg" else real(name))
    monkeypatch.delenv("TAXOGEN_PREFILTER", raising=False)
    cmd = prefilter_command()
    assert cmd is not None and cmd[0] == "grep" and "-a" in cmd


@pytest.mark.skipif(not shutil.which("rg"), reason="ripgrep not installed")
def test_given_ripgrep_then_it_prefilters_unless_grep_is_asked_for(monkeypatch) -> None:
    monkeypatch.delenv("TAXOGEN_PREFILTER", raising=False)
    assert prefilter_command()[0] == "rg"
    monkeypatch.setenv("TAXOGEN_PREFILTER", "grep")
    assert prefilter_command()[0] == "grep"


@needs_prefilter
@pytest.mark.parametrize("tool", TOOLS)
def test_given_a_failing_decompressor_then_the_filter_fails_with_a_message(tmp_path: Path, monkeypatch, tool: str) -> None:
    bad = tmp_path / "notgzip.nt.gz"
    bad.write_bytes(b"this is not gzip data\n" * 100)
    with pytest.raises(DumpError, match="truncated or corrupt"):
        run(bad, tmp_path, monkeypatch, tool)


@needs_prefilter
@pytest.mark.parametrize("external", [True, False])
def test_given_the_filter_stops_early_then_its_processes_are_gone(tmp_path: Path, monkeypatch, external: bool) -> None:
    from kg.dump_reader import PrefilterReader

    line = f"<{WD}Q1> <{WDT}P31> <{WD}Q5> .\n".encode()
    path = tmp_path / "d.nt.gz"
    path.write_bytes(gzip.compress(line * 200_000, compresslevel=1))
    if not external:
        monkeypatch.setenv("TAXOGEN_NO_EXTERNAL_DECOMPRESS", "1")
    reader = PrefilterReader(path, block=4096)
    blocks = iter(reader)
    assert next(blocks).startswith(b"1:<")
    blocks.close()
    assert reader.procs and all(p.returncode is not None for p in reader.procs)
    assert reader._feeder is not None and not reader._feeder.thread.is_alive()
