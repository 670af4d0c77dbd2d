"""The product's documents, code and tests speak of the product, not of how it was developed:
no development sessions, issue numbers or branch names (a Spark or HTTP session is fine)."""

import re
from pathlib import Path

from tests.conftest import ROOT

HISTORY = re.compile(r"session [0-9]|this session|issue [0-9]+|\bi1[0-9][a-h]?\b", re.IGNORECASE)
SEARCHED = ("README.md", "docs", "engine", "kg", "tests", "tools")
TEXT_SUFFIXES = {".py", ".md", ".rq", ".ttl", ".toml", ".txt", ".json", ".jsonl", ".cfg", ".ini", ".sh"}
#: generated model files and graph data are not prose
SKIPPED = (ROOT / "engine" / "models", ROOT / "kg" / "data")
THIS_FILE = Path(__file__).resolve()


def searched_files(root: Path = ROOT) -> list[Path]:
    """Every text file of the searched places, this test left out."""
    files = []
    for name in SEARCHED:
        top = root / name
        candidates = [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []
        for path in candidates:
            if (not path.is_file() or path.suffix not in TEXT_SUFFIXES or path.resolve() == THIS_FILE
                    or any(part.startswith(".") or part == "__pycache__" for part in path.relative_to(root).parts)
                    or any(path.is_relative_to(skipped) for skipped in SKIPPED)):
                continue
            files.append(path)
    return files


def history_hits(files: list[Path], root: Path = ROOT) -> list[str]:
    """``path:line: text`` of every line that speaks of the project's history."""
    hits = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if HISTORY.search(line):
                hits.append(f"{path.relative_to(root)}:{number}: {line.strip()[:160]}")
    return hits


def test_given_readme_docs_code_and_tests_then_no_line_speaks_of_development_history():
    files = searched_files()
    assert any(f.name == "README.md" for f in files) and any(f.suffix == ".py" for f in files)
    hits = history_hits(files)
    assert not hits, "lines speaking of sessions or issues instead of the behaviour:\n" + "\n".join(hits)


def test_given_history_words_then_the_pattern_finds_them_and_spares_spark_and_http_sessions(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "a.py").write_text(
        "# since session 6 the pieces are shorter\n# a Spark session is started once\n"
        "# fixed in issue 13\n# the HTTP session is reused\n# merged from i15b\n")
    hits = history_hits(searched_files(tmp_path), tmp_path)
    assert [h.split(":")[1] for h in hits] == ["1", "3", "5"]
