"""Without the shared data (no ../shared beside the repository) the tests that need it are
skipped with a message naming the missing file, never failed."""

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

PROBE = '''
def test_seed(seed_path):
    pass

def test_wikireplace(wikireplace_path):
    pass

def test_seed_store(seed_store):
    pass
'''


def test_given_no_shared_directory_then_the_shared_data_fixtures_skip_naming_the_path(tmp_path: Path):
    absent = tmp_path / "shared"
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE)
    env = {**os.environ, "TAXOGEN_SHARED_DIR": str(absent), "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("CI", None)
    env["COLUMNS"] = "1000"  # the skip reasons in full
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "--rootdir", str(tmp_path), str(probe)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "3 skipped" in out and "failed" not in out and "error" not in out.lower(), out
    assert f"shared Wikidata seed not found at {absent / 'data' / 'wikidata-seed' / 'wikidata-seed.nt.gz'}" in out, out
    assert f"shared WikiReplace data not found at {absent / 'data' / 'wikireplace' / 'wikireplace_dev.json'}" in out, out
