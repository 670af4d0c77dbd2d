"""What the Docker image runs: `taxogen serve` on the default graph, answering /health."""

import subprocess
import sys

import httpx
import pytest

from tests.conftest import ROOT
from tests.servers import free_port, wait_http

pytestmark = pytest.mark.server


def test_given_no_store_when_serve_then_the_default_graph_answers():
    pytest.importorskip("fastapi", reason="needs the [server] extra")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/health", timeout=60)
        health = httpx.get(f"http://127.0.0.1:{port}/health").json()
        assert health["store"] == "sample" and health["model"] == "shipped"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_given_dockerfile_then_it_installs_the_server_extra_and_runs_serve():
    text = (ROOT / "Dockerfile").read_text()
    assert "pip install '.[server]'" in text and 'CMD ["taxogen", "serve"' in text
    assert "torch==2.13.0" in text.split("pip install '.[server]'")[0]  # torch pinned before the package
    for path in ("kg", "engine", "queries", "ontology", "packs"):
        assert f"COPY {path} ./{path}" in text
