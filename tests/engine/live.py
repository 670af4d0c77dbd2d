"""Helpers for hardening tests: a real uvicorn server in a thread, the real CLI in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator

from tests.conftest import ROOT
from tests.servers import free_port


@contextmanager
def uvicorn_server(app) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 (a free port); yields the base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def cli_env(tmp_path) -> dict[str, str]:
    """Environment for the CLI in a subprocess: first-rung ranker, private cache, offline."""
    return {**os.environ, "TAXOGEN_MODEL": "none", "TAXOGEN_CACHE_DIR": str(tmp_path / "cache"), "TAXOGEN_OFFLINE": "1",
            "PYTHONUNBUFFERED": "1"}


def taxogen(tmp_path, *args: str, **kw) -> subprocess.CompletedProcess:
    """Run ``taxogen ARGS`` (the real entry point) and wait."""
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          env=cli_env(tmp_path), timeout=120, **kw)


def taxogen_popen(tmp_path, *args: str) -> subprocess.Popen:
    """Start ``taxogen ARGS`` in the background (stdout/stderr piped)."""
    return subprocess.Popen([sys.executable, "-m", "engine.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=cli_env(tmp_path))
