"""Start and stop real servers on 127.0.0.1 for tests (never any other address)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server at {url} did not come up in {timeout} s")


@contextmanager
def oxigraph_server(data: list[Path], workdir: Path) -> Iterator[str]:
    """An Oxigraph SPARQL server loaded with ``data``; yields its query URL."""
    exe = shutil.which("oxigraph")
    if exe is None:
        raise RuntimeError("the 'oxigraph' command (PyPI package oxigraph) is not installed")
    location = workdir / "oxigraph-db"
    for f in data:
        subprocess.run([exe, "load", "--location", str(location), "--file", str(f)], check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen(
        [exe, "serve-read-only", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/query"
        wait_http(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
