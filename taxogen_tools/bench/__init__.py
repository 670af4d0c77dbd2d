"""Benchmarks: sanitize throughput, the HTTP endpoint and the whole-Wikidata scale bench."""

import os


def one_thread_env(**extra: str) -> dict[str, str]:
    """The environment of a benchmark's child process: numeric libraries on one thread, nothing
    fetched from a model hub, and ``extra`` on top."""
    threads = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")}
    return dict(os.environ, **threads, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false", **extra)
