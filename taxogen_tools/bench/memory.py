"""``taxogen bench memory``: the peak resident memory of one ``taxogen sanitize`` run over many
raw documents, and whether it stays flat as the run goes on.

The documents are the texts of the given corpora (the shared biographies and court
judgments), repeated until there are ``n`` of them, each with its own id and a counter
appended to its text (so that no document's embeddings or ladders come from a cache filled
by an earlier copy of it), written as one JSON-lines file without mentions: every
document's spans are detected. ``taxogen sanitize FILE --format jsonl --out /dev/null`` runs
in a child process on one core with one thread; its resident memory is read from
``/proc/PID/status`` (``VmRSS``) every half second, and its peak from ``getrusage`` of the
finished child. Printed: the documents, the seconds, the peak, and the resident memory at
each tenth of the run, so a growth shows as a rising row.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from taxogen_tools.bench import one_thread_env
from taxogen_tools.bench.raw import corpus_texts


def write_documents(corpora: list[str | Path], n: int, target: Path) -> int:
    """``n`` raw documents cycled from the texts of ``corpora`` into the JSON-lines file ``target``."""
    texts = [t for path in corpora for t in corpus_texts(path)]
    if not texts:
        raise ValueError("the corpora hold no text")
    with open(target, "w", encoding="utf-8") as fh:
        for i in range(n):
            text = texts[i % len(texts)]
            fh.write(json.dumps({"id": f"doc-{i}", "text": f"{text}\n\n(copy {i})"}, ensure_ascii=False) + "\n")
    return n


def _rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def bench_memory(corpora: list[str | Path], n: int, *, store: str | None = None, one_core: bool = True,
                 progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run ``taxogen sanitize`` over ``n`` raw documents (see the module docstring)."""
    say = progress or (lambda _: None)
    with tempfile.TemporaryDirectory(prefix="taxogen-bench-memory-") as tmp:
        docs = Path(tmp) / "documents.jsonl"
        write_documents(corpora, n, docs)
        cmd = [sys.executable, "-m", "engine.cli", "sanitize", str(docs), "--format", "jsonl", "--out", os.devnull, "--no-progress"]
        if store:
            cmd += ["--store", store]
        env = one_thread_env()
        core = min(os.sched_getaffinity(0)) if one_core and hasattr(os, "sched_getaffinity") else None
        say(f"bench memory: taxogen sanitize over {n:,} raw documents …")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.time()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=(lambda: os.sched_setaffinity(0, {core})) if core is not None else None)
        samples: list[tuple[float, float]] = []
        while proc.poll() is None:
            rss = _rss_mb(proc.pid)
            if rss is not None:
                samples.append((time.time() - started, rss))
            time.sleep(0.5)
        seconds = time.time() - started
        err = proc.stderr.read() if proc.stderr else ""
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        tail = err.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"taxogen sanitize exited {proc.returncode}: {tail[0]}")
    tenths = []
    for k in range(1, 11):
        upto = [rss for t, rss in samples if t <= seconds * k / 10]
        tenths.append(round(upto[-1], 1) if upto else None)
    return {"documents": n, "seconds": round(seconds, 1), "documents_per_second": round(n / seconds, 2),
            "cpu_seconds": round((after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), 1),
            "peak_rss_mb": round(after.ru_maxrss / 1024, 1), "rss_mb_at_each_tenth": tenths, "store": store, "core": core}


def format_memory(report: dict[str, Any]) -> str:
    tenths = " ".join("-" if v is None else f"{v:.0f}" for v in report["rss_mb_at_each_tenth"])
    return "\n".join([
        f"taxogen sanitize, {report['documents']:,} raw documents (spans detected), one core: "
        f"{report['seconds']} s, {report['documents_per_second']} documents/s, {report['cpu_seconds']} CPU s",
        f"peak resident memory: {report['peak_rss_mb']} MB",
        f"resident memory at each tenth of the run (MB): {tenths}",
    ])
