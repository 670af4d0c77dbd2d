"""``taxogen bench serve``: the first request after ``taxogen serve`` reports ready, against a repeat.

Starts ``taxogen serve`` in a fresh process (pinned to one core, one thread), waits until
``/health`` answers — what a client sees as ready — then times, on raw text (detected):
the first ``POST /sanitize`` of a document, the same request repeated, and a second,
unseen document. The ratio first / repeat is the cost a first user pays for what the
server had not loaded yet.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from taxogen_tools.bench import one_thread_env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_serve(data: str | Path, *, store: str | None = None, warm: bool = True, one_core: bool = True,
                timeout: float = 600.0) -> dict[str, Any]:
    """Time from start to ready, the first request, a repeat and an unseen document (module docstring)."""
    import httpx

    from engine.io.wikireplace import load_wikireplace

    texts = [d.text for d in load_wikireplace(data)][:2]
    port = _free_port()
    cmd = [sys.executable, "-m", "engine.cli", "serve", "--port", str(port), *(["--store", store] if store else []),
           *([] if warm else ["--no-warm-up"])]
    env = one_thread_env()
    core = min(os.sched_getaffinity(0)) if one_core and hasattr(os, "sched_getaffinity") else None
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=(lambda: os.sched_setaffinity(0, {core})) if core is not None else None)
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"taxogen serve exited with code {proc.returncode}")
            if time.perf_counter() - t0 > timeout:
                raise TimeoutError("taxogen serve did not report ready")
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        ready = time.perf_counter() - t0

        def post(text: str) -> float:
            t = time.perf_counter()
            r = httpx.post(f"{url}/sanitize", json={"text": text}, timeout=timeout)
            r.raise_for_status()
            return time.perf_counter() - t

        first = post(texts[0])
        repeat = post(texts[0])
        unseen = post(texts[1]) if len(texts) > 1 else None
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return {"store": store, "warm_up": warm, "core": core, "ready_seconds": round(ready, 2),
            "first_request_seconds": round(first, 3), "repeat_seconds": round(repeat, 3),
            "unseen_document_seconds": round(unseen, 3) if unseen is not None else None,
            "first_over_repeat": round(first / repeat, 2) if repeat > 0 else None}
