import bz2
import gzip
import shutil
from pathlib import Path

import pytest

from kg import DumpError, DumpReport, read_dump
from kg.dumps import dump_format
from tests.conftest import FIXTURES

NT = FIXTURES / "dump_sample.nt"
JS = FIXTURES / "dump_sample.json"


def _read(path: Path, **kw) -> tuple[list[str], DumpReport]:
    report = DumpReport(str(path))
    return list(read_dump(path, report, **kw)), report


def test_given_ntriples_dump_then_keeps_taxonomy_english_text_and_counts_malformed_lines():
    lines, report = _read(NT)
    text = "".join(lines)
    assert report.lines == 28
    assert report.malformed == 3
    assert [no for no, _, _ in report.examples] == [11, 15, 28]
    assert '"geologist"@en' in text and "Geologe" not in text and "personne" not in text
    assert "P373" not in text and "P2347" not in text and "P1082" not in text  # not kept properties
    assert "example.org" not in text  # objects outside Wikidata are dropped
    assert '"Norwegian"@en' in text and "norsk" not in text
    assert report.kept == len(lines) == 17


def test_given_json_dump_then_maps_truthy_statements_to_the_same_triples():
    lines, report = _read(JS)
    text = "".join(lines)
    assert report.malformed == 2
    assert [no for no, _, _ in report.examples] == [5, 10]
    # preferred rank wins over normal; deprecated is dropped; novalue is skipped
    assert "entity/Q20> <http://www.wikidata.org/prop/direct/P31> <http://www.wikidata.org/entity/Q6256>" in text
    assert "Q3624078" not in text
    assert "entity/Q901> <http://www.wikidata.org/prop/direct/P279> <http://www.wikidata.org/entity/Q5>" not in text
    assert "P36" not in text and "P17" not in text
    assert '"Kingdom of Norway"@en' in text and '"Norwegian"@en' in text
    assert r'"country \"sovereign\" état"@en' in text


def test_given_both_formats_then_taxonomy_edges_agree():
    nt, _ = _read(NT)
    js, _ = _read(JS)
    edges = lambda ls: {l for l in ls if "prop/direct/P279" in l or "prop/direct/P31" in l}
    assert edges(nt) == edges(js)


@pytest.mark.parametrize("opener,suffix", [(gzip.open, ".gz"), (bz2.open, ".bz2")])
def test_given_compressed_dump_then_reads_like_plain(tmp_path, opener, suffix):
    for src in (NT, JS):
        target = tmp_path / (src.name + suffix)
        with open(src, "rb") as fi, opener(target, "wb") as fo:
            shutil.copyfileobj(fi, fo)
        assert _read(target)[0] == _read(src)[0]


def test_given_strict_then_first_malformed_line_is_fatal_with_its_number():
    with pytest.raises(DumpError) as err:
        _read(NT, strict=True)
    assert err.value.line == 11


def test_given_truncated_gzip_then_error_not_silent(tmp_path):
    data = gzip.compress(NT.read_bytes())
    bad = tmp_path / "cut.nt.gz"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(DumpError, match="truncated or corrupt"):
        _read(bad)


def test_given_unknown_extension_then_dump_error():
    with pytest.raises(DumpError):
        dump_format("wikidata.xml")
    assert dump_format("latest-truthy.nt.bz2") == "nt"
    assert dump_format("latest-all.json.gz") == "json"
