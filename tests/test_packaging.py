"""A non-editable install (as in the Docker image) ships the data the package reads."""

import subprocess
import sys
import zipfile

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow


def test_given_wheel_then_queries_ontology_graphs_demo_and_model_are_inside(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path)],
                   check=True, capture_output=True)
    wheel = next(tmp_path.glob("taxogen-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    queries = {p.name for p in (ROOT / "queries").glob("*.rq")}
    assert {f"queries/{q}" for q in queries} <= names
    for required in ("ontology/overlay.ttl", "ontology/taxogen.ttl", "kg/data/sample.nt", "kg/data/starter/starter.nt.gz", "kg/data/starter/PROVENANCE.md", "engine/data/demo_biography.json",
                     "engine/models/default/model.txt", "engine/models/default/ranker.json", "kg/py.typed", "engine/py.typed", "kg/sparql/endpoint.py", "kg/sparql/wdqs.py"):
        assert required in names, required
