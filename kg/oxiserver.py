"""Run an Oxigraph SPARQL server (PyPI package ``oxigraph``) on 127.0.0.1 for tests and benchmarks."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from kg.errors import EndpointError


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 20.0) -> None:
    """Wait until ``url`` answers; raises :class:`EndpointError` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise EndpointError(f"server at {url} did not come up in {timeout} s", endpoint=url)


@contextmanager
def oxigraph_server(data: list[Path], workdir: Path) -> Iterator[str]:
    """An Oxigraph server on 127.0.0.1 loaded with ``data`` (N-Triples, .gz ok); yields its query URL."""
    exe = shutil.which("oxigraph")
    if exe is None:
        raise EndpointError("the 'oxigraph' command is not installed: pip install 'taxogen[server]'")
    location = workdir / "oxigraph-db"
    for f in data:
        subprocess.run([exe, "load", "--location", str(location), "--file", str(f)], check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen(
        [exe, "serve-read-only", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D")
        yield f"http://127.0.0.1:{port}/query"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
